// Resource milestone events (GitLab's ResourceMilestoneEvent): a milestone set on or taken off an
// issue or a merge request, recorded by the write that changed it, and listed for whoever may read
// the issuable.
import type { ResourceMilestoneEvent } from "../../generated/prisma/client.js";
import { recordNotFound } from "../../errors.js";
import type { DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { fitsIdColumn } from "../shared/record-ids.js";
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

/** An issue or a merge request the caller was found allowed to read, as its notes are (notes' findNoteable). */
export type ReadableIssuable = { type: "Issue" | "MergeRequest"; id: number };

// GitLab deletes a milestone's events with it (resource_milestone_events.milestone_id is ON DELETE
// CASCADE) and lists only events of a milestone (ResourceMilestoneEventFinder's where(milestone_id:)):
// the rows a deleted milestone left here (milestoneId set to null) are not shown
const targetWhere = (issuable: ReadableIssuable) => ({
  ...(issuable.type === "Issue" ? { issueId: issuable.id } : { mergeRequestId: issuable.id }),
  milestoneId: { not: null },
});

/** GET .../resource_milestone_events: the issuable's events, oldest first. */
export async function listMilestoneEvents(ctx: DomainContext, issuable: ReadableIssuable, page: PageArgs): Promise<Page<ResourceMilestoneEvent>> {
  const where = targetWhere(issuable);
  return paginate(
    page,
    (cap) => ctx.db.resourceMilestoneEvent.count({ where, take: cap }),
    (skip, take) => ctx.db.resourceMilestoneEvent.findMany({ where, orderBy: { id: "asc" }, skip, take }),
  );
}

/** GET .../resource_milestone_events/:resource_milestone_event_id: one of the issuable's, else 404 Not found. */
export async function findMilestoneEvent(ctx: DomainContext, issuable: ReadableIssuable, id: number): Promise<ResourceMilestoneEvent> {
  const event = fitsIdColumn(id) ? await ctx.db.resourceMilestoneEvent.findFirst({ where: { id, ...targetWhere(issuable) } }) : null;
  if (!event) throw recordNotFound();
  return event;
}
