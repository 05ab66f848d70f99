// DELETE /projects/:id/issues/:issue_iid (GitLab's Issuable::DestroyService through the issues API).
// GitLab fires no webhook for a deleted issue: it publishes WorkItems::WorkItemDeletedEvent to its
// internal event store and queues the removal of to-dos and label links; Forgeline has neither
// to-dos nor an event store, so nothing is published. What hangs from the issue goes with it in
// one transaction.
import { forbidden, notFound } from "../../errors.js";
import { AccessLevel } from "../shared/access-levels.js";
import { findProject, type ProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import type { Tx } from "../shared/events.js";
import { assertUnmodifiedSince } from "../shared/preconditions.js";
import { deleteNoteablesChildren } from "../shared/dependent-rows.js";
import { featureAvailable } from "../shared/project-features.js";
import { lockForDeletion } from "../shared/row-locks.js";
import { canReadIssue, type IssueWithAssignees } from "./queries.js";

/**
 * Order as GitLab's route: the issue by iid (404 "Issue Not Found", confidential or not), then
 * `destroy_issue` (403), then `destroy_conditionally!` (412 on a stale If-Unmodified-Since).
 */
export async function deleteIssue(ctx: DomainContext, projectRef: string, iid: number, unmodifiedSince?: string | null): Promise<boolean> {
  requireAuthenticated(ctx);
  const access = await findProject(ctx, projectRef);
  const issue = await ctx.db.issue.findUnique({ where: { projectId_iid: { projectId: access.project.id, iid } }, include: { assignees: true } });
  if (!issue) throw notFound("Issue");
  if (!canDestroyIssue(ctx, access, issue)) throw forbidden();
  assertUnmodifiedSince(issue.updatedAt, unmodifiedSince);
  await ctx.db.$transaction((tx) => destroyIssues(tx, ctx, [issue.id]));
  return true;
}

/**
 * `destroy_issue`: the project's Owners (ProjectPolicy's owner_access, administrators included)
 * and Planners (the planner_access rule, GitLab 17.7); Reporters, Developers and Maintainers may
 * not. IssuePolicy takes it away from whoever may not read a confidential issue, and from
 * everyone when the issues feature is off for them.
 */
export function canDestroyIssue(ctx: DomainContext, access: ProjectAccess, issue: IssueWithAssignees): boolean {
  if (!featureAvailable(ctx, access, "issues") || !canReadIssue(ctx, access, issue)) return false;
  return isAdmin(ctx.actor) || access.level === AccessLevel.planner || access.level >= AccessLevel.owner;
}

/**
 * Deletes issues with what hangs from them: their notes and the notes' emoji reactions, their
 * own reactions, then the rows (assignees and label names follow by foreign key). Call it in the
 * transaction of the deletion; whoever deletes a project's issues can reuse it.
 */
export async function destroyIssues(tx: Tx, ctx: DomainContext, issueIds: number[]): Promise<void> {
  if (!issueIds.length) return;
  await lockForDeletion(tx, ctx, "Issue", issueIds);
  await deleteNoteablesChildren(tx, "Issue", issueIds);
  await tx.issue.deleteMany({ where: { id: { in: issueIds } } });
}
