// DELETE /projects/:id/issues/:issue_iid (GitLab's Issuable::DestroyService through the issues API).
// GitLab fires no webhook for a deleted issue: it publishes WorkItems::WorkItemDeletedEvent to its
// internal event store and queues the removal of to-dos and label links; Forgeline has neither
// to-dos nor an event store, so nothing is published. What hangs from the issue goes with it in
// one transaction.
import type { DomainContext } from "../shared/context.js";
import type { Tx } from "../shared/events.js";
import { assertUnmodifiedSince } from "../shared/preconditions.js";
import { deleteNoteablesChildren } from "../shared/dependent-rows.js";
import { lockForDeletion } from "../shared/row-locks.js";
import type { IssueAccess, IssueWithAssignees } from "./queries.js";

/**
 * DELETE on the issue found for `destroy` (findIssue: 404 "Issue Not Found", then 403), then
 * `destroy_conditionally!` (412 on a stale If-Unmodified-Since).
 */
export async function deleteIssue(ctx: DomainContext, { issue }: IssueAccess<IssueWithAssignees>, unmodifiedSince?: string | null): Promise<boolean> {
  assertUnmodifiedSince(issue.updatedAt, unmodifiedSince);
  await ctx.db.$transaction((tx) => destroyIssues(tx, ctx, [issue.id]));
  return true;
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
