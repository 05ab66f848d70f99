// Resource milestone events (GitLab's ResourceMilestoneEvent): a milestone set on or taken off an
// issue or a merge request, recorded by the write that changed it.
import type { DomainContext } from "../shared/context.js";
import type { Tx } from "../shared/events.js";
import type { ProjectAccess } from "../shared/parents.js";
import { usableMilestone } from "./queries.js";

/** The issuable an event is about. */
export type MilestoneEventTarget = { issueId: number } | { mergeRequestId: number };

/**
 * The milestone `milestone_id` sets on an issuable of the project (IssuableBaseService's
 * filter_milestone): the project's or one of its groups'; 0, or any other id, sets none.
 * Undefined when the param is not given.
 */
export async function milestoneIdToSet(ctx: DomainContext, access: ProjectAccess, milestoneId: number | null | undefined): Promise<number | null | undefined> {
  if (milestoneId == null) return undefined;
  return milestoneId === 0 ? null : ((await usableMilestone(ctx, access, milestoneId))?.id ?? null);
}

/**
 * ResourceEvents::ChangeMilestoneService: "add" with the new milestone, or "remove" with the one
 * taken off; the issuable's state at the time.
 */
export async function recordMilestoneChange(
  tx: Tx, ctx: DomainContext, target: MilestoneEventTarget, change: { before: number | null; after: number | null; state: string },
): Promise<void> {
  if (change.before === change.after) return;
  await tx.resourceMilestoneEvent.create({
    data: {
      ...target,
      userId: ctx.actor!.user.id,
      milestoneId: change.after ?? change.before,
      action: change.after === null ? "remove" : "add",
      state: change.state,
      createdAt: ctx.now(),
    },
  });
}
