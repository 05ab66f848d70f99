// Creating, editing, closing, reopening and deleting milestones (GitLab's Milestones::CreateService,
// UpdateService, CloseService, ReopenService and DestroyService), each in one transaction with the
// "milestone" domain event of what happened.
import type { Milestone } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { publish } from "../shared/events.js";
import { requireAuthenticated } from "../shared/guards.js";
import { withNextInternalId } from "../shared/internal-ids.js";
import { requireAtLeastOne } from "../shared/param-rules.js";
import type { GroupOrProjectAccess } from "../shared/parents.js";
import { ownerOf, titleTaken, type FoundMilestone } from "./queries.js";
import { cleanTitle, milestoneDate, milestoneInvalid, requireAdminMilestones, TITLE_TAKEN, valueErrors } from "./rules.js";

export interface MilestoneInput {
  title?: string | null;
  description?: string | null;
  due_date?: string | null;
  start_date?: string | null;
}

export interface UpdateMilestoneInput extends MilestoneInput {
  state_event?: "close" | "activate" | null;
}

/** PUT's `at_least_one_of`, checked before the parent is looked up. */
export function checkMilestoneChanges(input: UpdateMilestoneInput): void {
  requireAtLeastOne(input, ["title", "description", "start_date", "due_date", "state_event"]);
}

/** POST .../milestones: admin_milestone on the parent. */
export async function createMilestone(ctx: DomainContext, parent: GroupOrProjectAccess, input: MilestoneInput & { title: string }): Promise<Milestone> {
  const actor = requireAuthenticated(ctx);
  requireAdminMilestones(ctx, parent);
  const values = {
    title: cleanTitle(input.title),
    description: input.description ?? null,
    startDate: milestoneDate(input.start_date),
    dueDate: milestoneDate(input.due_date),
  };
  const errors = valueErrors(values);
  if (values.title && (await titleTaken(ctx.db, parent, values.title))) (errors.title ??= []).push(TITLE_TAKEN);
  if (Object.keys(errors).length) throw milestoneInvalid("create", errors);
  const owner = ownerOf(parent);
  const [scope, usage] = "group" in parent ? [parent.group.id, "group_milestones" as const] : [parent.project.id, "milestones" as const];
  const now = ctx.now();
  return withNextInternalId(ctx, scope, usage, async (tx, iid) => {
    const milestone = await tx.milestone.create({ data: { ...owner, ...values, title: values.title!, iid, createdAt: now, updatedAt: now } });
    await publish(tx, ctx, "milestone", { action: "create", milestone, actorId: actor.user.id });
    return milestone;
  });
}

/**
 * PUT .../milestones/:milestone_id on a milestone found by findMilestone: the state event first
 * (close or activate; nothing when already so), then the values given (a blank title is kept).
 */
export async function updateMilestone(ctx: DomainContext, { parent, milestone }: FoundMilestone, input: UpdateMilestoneInput): Promise<Milestone> {
  const actor = requireAuthenticated(ctx);
  requireAdminMilestones(ctx, parent);
  const next = {
    title: cleanTitle(input.title) ?? milestone.title,
    description: input.description !== undefined ? input.description : milestone.description,
    startDate: input.start_date !== undefined ? milestoneDate(input.start_date) : milestone.startDate,
    dueDate: input.due_date !== undefined ? milestoneDate(input.due_date) : milestone.dueDate,
  };
  const errors = valueErrors(next);
  if (next.title !== milestone.title && (await titleTaken(ctx.db, parent, next.title))) (errors.title ??= []).push(TITLE_TAKEN);
  if (Object.keys(errors).length) throw milestoneInvalid("update", errors);
  const state = input.state_event === "close" ? "closed" : input.state_event === "activate" ? "active" : milestone.state;
  const changed = state !== milestone.state || (Object.keys(next) as (keyof typeof next)[]).some((key) => next[key] !== milestone[key]);
  if (!changed) return milestone;
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.milestone.update({ where: { id: milestone.id }, data: { ...next, state, updatedAt: ctx.now() } });
    if (state !== milestone.state) {
      await publish(tx, ctx, "milestone", { action: state === "closed" ? "close" : "reopen", milestone: updated, actorId: actor.user.id });
    }
    return updated;
  });
}

/**
 * DELETE .../milestones/:milestone_id: its issues and merge requests lose it (each with a "remove"
 * milestone event, as the update GitLab runs on each records), then it goes.
 */
export async function deleteMilestone(ctx: DomainContext, { parent, milestone }: FoundMilestone): Promise<void> {
  const actor = requireAuthenticated(ctx);
  requireAdminMilestones(ctx, parent);
  const now = ctx.now();
  await ctx.db.$transaction(async (tx) => {
    const [issues, mergeRequests] = await Promise.all([
      tx.issue.findMany({ where: { milestoneId: milestone.id }, select: { id: true, state: true } }),
      tx.mergeRequest.findMany({ where: { milestoneId: milestone.id }, select: { id: true, state: true } }),
    ]);
    const removal = { userId: actor.user.id, milestoneId: milestone.id, action: "remove", createdAt: now };
    const events = [
      ...issues.map((issue) => ({ ...removal, issueId: issue.id, state: issue.state })),
      ...mergeRequests.map((mr) => ({ ...removal, mergeRequestId: mr.id, state: mr.state })),
    ];
    if (events.length) await tx.resourceMilestoneEvent.createMany({ data: events });
    if (issues.length) await tx.issue.updateMany({ where: { milestoneId: milestone.id }, data: { milestoneId: null, updatedAt: now } });
    if (mergeRequests.length) await tx.mergeRequest.updateMany({ where: { milestoneId: milestone.id }, data: { milestoneId: null, updatedAt: now } });
    await publish(tx, ctx, "milestone", { action: "delete", milestone, actorId: actor.user.id });
    await tx.milestone.delete({ where: { id: milestone.id } });
  });
}
