// What a deleted user leaves behind (GitLab's Users::MigrateRecordsToGhostUserService and the
// users table's foreign keys): contributions move to the ghost user, or are deleted with a hard
// delete; references that only name the user (assignments, approvals, "closed by") go either way.
import { Prisma } from "../../generated/prisma/client.js";
import type { Tx } from "../shared/events.js";
import { deleteNoteablesChildren, deleteNotes } from "../shared/dependent-rows.js";

/** Without hard_delete: authored issues, merge requests, notes, reactions and project snippets move to the ghost. */
export async function moveContributionsToGhost(tx: Tx, userId: number, ghostId: number): Promise<void> {
  await tx.issue.updateMany({ where: { authorId: userId }, data: { authorId: ghostId } });
  await tx.mergeRequest.updateMany({ where: { authorId: userId }, data: { authorId: ghostId } });
  await tx.mergeRequest.updateMany({ where: { mergedById: userId }, data: { mergedById: ghostId } }); // merge_user_id
  await tx.note.updateMany({ where: { authorId: userId }, data: { authorId: ghostId } });
  // a reaction the ghost already gave (from another deleted user) stays once
  await tx.$executeRaw`DELETE FROM "AwardEmoji" WHERE "userId" = ${userId} AND ("awardableType", "awardableId", "name") IN
    (SELECT "awardableType", "awardableId", "name" FROM "AwardEmoji" WHERE "userId" = ${ghostId})`;
  await tx.awardEmoji.updateMany({ where: { userId }, data: { userId: ghostId } });
  await tx.snippet.updateMany({ where: { authorId: userId, projectId: { not: null } }, data: { authorId: ghostId } });
  await deleteSnippets(tx, { authorId: userId }); // personal snippets go with their author, as GitLab's
}

/** hard_delete: the user's issues, merge requests, snippets, notes and reactions are deleted. */
export async function deleteContributions(tx: Tx, userId: number): Promise<void> {
  await deleteIssues(tx, userId);
  await deleteMergeRequests(tx, userId);
  await deleteSnippets(tx, { authorId: userId });
  await deleteNotes(tx, Prisma.sql`SELECT "id" FROM "Note" WHERE "authorId" = ${userId}`);
  await tx.awardEmoji.deleteMany({ where: { userId } });
  await tx.mergeRequest.updateMany({ where: { mergedById: userId }, data: { mergedById: null } });
}

/** Either way: what refers to the user without being theirs (GitLab: nullified or cascaded foreign keys). */
export async function detachUser(tx: Tx, userId: number): Promise<void> {
  await tx.issue.updateMany({ where: { closedById: userId }, data: { closedById: null } });
  await tx.mergeRequest.updateMany({ where: { closedById: userId }, data: { closedById: null } });
  await tx.note.updateMany({ where: { resolvedById: userId }, data: { resolvedById: null } });
  await tx.issueAssignee.deleteMany({ where: { userId } });
  await tx.mergeRequestAssignee.deleteMany({ where: { userId } });
  await tx.mergeRequestReviewer.deleteMany({ where: { userId } });
  await tx.approval.deleteMany({ where: { userId } }); // approvals.user_id: ON DELETE CASCADE
  await tx.approvalRuleUser.deleteMany({ where: { userId } });
  await tx.protectedBranchAccessLevel.deleteMany({ where: { userId } });
  await tx.groupMember.updateMany({ where: { createdById: userId }, data: { createdById: null } });
  await tx.projectMember.updateMany({ where: { createdById: userId }, data: { createdById: null } });
  await tx.$executeRaw`DELETE FROM "WebHookTokenNotice" WHERE "tokenId" IN (SELECT "id" FROM "AccessToken" WHERE "userId" = ${userId})`;
}

const byAuthor = (table: string, userId: number) => Prisma.sql`SELECT "id" FROM ${Prisma.raw(`"${table}"`)} WHERE "authorId" = ${userId}`;

async function deleteIssues(tx: Tx, userId: number): Promise<void> {
  await deleteNoteablesChildren(tx, "Issue", byAuthor("Issue", userId));
  await tx.issue.deleteMany({ where: { authorId: userId } });
}

async function deleteMergeRequests(tx: Tx, userId: number): Promise<void> {
  const ids = byAuthor("MergeRequest", userId);
  await deleteNoteablesChildren(tx, "MergeRequest", ids);
  await tx.$executeRaw`DELETE FROM "Approval" WHERE "mergeRequestId" IN (${ids})`;
  await tx.$executeRaw`DELETE FROM "ApprovalRule" WHERE "kind" = 'merge_request' AND "containerId" IN (${ids})`;
  await tx.mergeRequest.deleteMany({ where: { authorId: userId } });
}

async function deleteSnippets(tx: Tx, where: { authorId: number }): Promise<void> {
  const ids = Prisma.sql`SELECT "id" FROM "Snippet" WHERE "authorId" = ${where.authorId}`;
  await deleteNoteablesChildren(tx, "Snippet", ids);
  await tx.snippet.deleteMany({ where });
}
