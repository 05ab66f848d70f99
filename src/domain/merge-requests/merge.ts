// PUT .../merge_requests/:iid/merge (lib/api/merge_requests.rb with MergeRequests::MergeService):
// a merge commit (of the source, or of its squash) on the target branch through the one
// ref-update path, the merge request marked merged with its "merge" event, and the source branch
// removed when asked, all under the repository's lock. GitLab's answers: 401 without the right to
// merge into the target branch, 405 when a mergeability check fails (closed, merged, draft, not
// approved, no source branch), 422 "Branch cannot be merged" when git cannot merge it (a conflict,
// the target branch gone, or the merge lost a race), 409 on a `sha` that is not the head.
// A merge into the default branch closes the issues the merge request says it closes.
import { AppError, conflict, methodNotAllowed, unauthorized } from "../../errors.js";
import { mergeRequestByIid } from "../../db/hot-reads.js";
import { findProject, requireAuthenticated, type ProjectAccess } from "../shared/access.js";
import type { DomainContext } from "../shared/context.js";
import { BLANK_SHA, publish, type Tx } from "../shared/events.js";
import { canPushCode } from "../repository/access.js";
import { signature, type GitRepository } from "../repository/git.js";
import { MergeConflictError, writeMergeCommit, writeSquashCommit, type Person } from "../repository/merges.js";
import { protectedBranchesMatching } from "../repository/protection-rules.js";
import { BRANCH_PREFIX, moveRefs, withRepository } from "../repository/ref-updates.js";
import { changeState } from "../issues/writes.js";
import { canUpdateIssue } from "../issues/queries.js";
import { closingReferencesIn, referencedFullPath } from "../issues/references.js";
import { projectFullPath } from "../shared/web-urls.js";
import { branchHead } from "./branches.js";
import { defaultMergeMessage, STATE_CHECK_FAILURES } from "./fields.js";
import { findMergeRequest, ROW_INCLUDE, type MergeRequestRow } from "./queries.js";
import { canMerge, detailedMergeStatusOf } from "./presenter.js";
import { withCheckedMergeability } from "./mergeability.js";

export interface MergeInput {
  merge_commit_message?: string | null;
  squash_commit_message?: string | null;
  squash?: boolean | null;
  should_remove_source_branch?: boolean | null;
  merge_when_pipeline_succeeds?: boolean | null;
  sha?: string | null;
}

const cannotBeMerged = () => new AppError(422, { message: "Branch cannot be merged" });

export async function mergeMergeRequest(ctx: DomainContext, projectRef: string, iid: number, input: MergeInput): Promise<MergeRequestRow> {
  requireAuthenticated(ctx);
  const { mergeRequest, access } = await findMergeRequest(ctx, projectRef, iid);
  const row = await withCheckedMergeability(ctx, await rowOf(ctx, mergeRequest.id));
  if (!(await canMerge(ctx, row))) throw unauthorized();
  // with no pipelines, merge_when_pipeline_succeeds is neither an immediate nor an automatic merge
  if (input.merge_when_pipeline_succeeds) throw methodNotAllowed();
  const status = await detailedMergeStatusOf(ctx, row);
  if (STATE_CHECK_FAILURES.has(status)) throw methodNotAllowed();
  if (status !== "mergeable") throw cannotBeMerged();
  if (input.sha && input.sha !== row.headSha) throw conflict(`SHA does not match HEAD of source branch: ${row.headSha}`);
  const removeSource = input.should_remove_source_branch ?? row.forceRemoveSourceBranch ?? false;
  const mayRemoveSource = removeSource && (await canRemoveSourceBranch(ctx, access, row));
  const closing = await closableIssues(ctx, row);
  await withRepository(ctx, row.projectId, (repo) => mergeUnderLock(ctx, repo, row, input, mayRemoveSource, closing));
  return rowOf(ctx, mergeRequest.id);
}

const rowOf = async (ctx: DomainContext, id: number): Promise<MergeRequestRow> =>
  (await ctx.db.mergeRequest.findUniqueOrThrow({ where: { id }, include: ROW_INCLUDE })) as MergeRequestRow;

/**
 * can_remove_source_branch?: not protected, not the default branch, the caller may push. A branch
 * that may not be removed stays, and the merge still happens, as GitLab does.
 */
async function canRemoveSourceBranch(ctx: DomainContext, access: ProjectAccess, mr: MergeRequestRow): Promise<boolean> {
  if (mr.sourceBranch === access.project.defaultBranch || !canPushCode(ctx, access)) return false;
  return (await protectedBranchesMatching(ctx.db, mr.projectId, mr.sourceBranch)).length === 0;
}

async function mergeUnderLock(ctx: DomainContext, repo: GitRepository, mr: MergeRequestRow, input: MergeInput, removeSource: boolean, closing: ClosingIssue[]): Promise<void> {
  const { projectId } = mr;
  // what the checks saw must still hold now that the repository is ours
  const current = await mergeRequestByIid(ctx.db, projectId, mr.iid);
  const [targetSha, sourceSha] = await Promise.all([branchHead(ctx.db, projectId, mr.targetBranch), branchHead(ctx.db, projectId, mr.sourceBranch)]);
  if (current?.state !== "opened" || !targetSha || !sourceSha) throw cannotBeMerged();
  if (sourceSha !== mr.headSha) throw conflict(`SHA does not match HEAD of source branch: ${sourceSha}`);

  const user = ctx.actor!.user;
  const at = ctx.now();
  const committer = signature(user, at);
  const squash = input.squash ?? mr.squash;
  let squashSha: string | null = null;
  let mergeSha: string;
  try {
    if (squash) squashSha = await writeSquashCommit(repo, targetSha, sourceSha, input.squash_commit_message || mr.title, signature(await authorOf(ctx, mr), at), committer);
    mergeSha = await writeMergeCommit(repo, targetSha, squashSha ?? sourceSha, input.merge_commit_message || mergeMessage(mr, closing), committer);
  } catch (error) {
    if (error instanceof MergeConflictError) throw cannotBeMerged();
    throw error;
  }
  const updates = [{ ref: `${BRANCH_PREFIX}${mr.targetBranch}`, oldSha: targetSha, newSha: mergeSha }];
  if (removeSource) updates.push({ ref: `${BRANCH_PREFIX}${mr.sourceBranch}`, oldSha: sourceSha, newSha: BLANK_SHA });
  await moveRefs(ctx, projectId, updates, {
    actorId: user.id,
    inTransaction: (tx) => markMerged(tx, ctx, mr, input, { at, mergeSha, squashSha, squash }, closing),
  });
}

async function markMerged(
  tx: Tx, ctx: DomainContext, mr: MergeRequestRow, input: MergeInput,
  merge: { at: Date; mergeSha: string; squashSha: string | null; squash: boolean }, closing: ClosingIssue[],
): Promise<void> {
  const user = ctx.actor!.user;
  const merged = await tx.mergeRequest.update({
    where: { id: mr.id },
    data: {
      state: "merged",
      mergedById: user.id,
      mergedAt: merge.at,
      mergeCommitSha: merge.mergeSha,
      squashCommitSha: merge.squashSha,
      squash: merge.squash,
      shouldRemoveSourceBranch: input.should_remove_source_branch ?? mr.shouldRemoveSourceBranch,
      updatedAt: merge.at,
    },
  });
  const changes = { state: { previous: mr.state, current: "merged" }, updated_at: { previous: mr.updatedAt, current: merged.updatedAt } };
  await publish(tx, ctx, "merge_request", { action: "merge", projectId: mr.projectId, mergeRequestId: mr.id, actorId: user.id, changes });
  // PostMergeService#close_issues: each open one closed as its own close, with its issue event
  const issues = await tx.issue.findMany({ where: { id: { in: closing.map((issue) => issue.id) } }, include: { assignees: true }, orderBy: { id: "asc" } });
  for (const issue of issues) if (issue.state === "opened") await changeState(tx, ctx, issue, "close");
}

/** An issue the merge closes, with its reference as the merge commit message names it. */
interface ClosingIssue {
  id: number;
  reference: string;
}

/**
 * MergeRequest#visible_closing_issues_for with Issues::CloseService#can_close?: on a merge into the
 * default branch, the issues the MR's title and description close ("Closes #1", "Fixes
 * group/other#2"), in its project or another, that the merging user may update. Read before the
 * merge's transaction, through the caller's access checks.
 */
async function closableIssues(ctx: DomainContext, mr: MergeRequestRow): Promise<ClosingIssue[]> {
  if (mr.targetBranch !== mr.project.defaultBranch) return [];
  const from = { namespacePath: mr.project.namespace.fullPath, fullPath: projectFullPath(mr.project) };
  const iidsByPath = new Map<string, number[]>();
  for (const ref of closingReferencesIn(`${mr.title}\n${mr.description ?? ""}`, ctx.config.publicUrl)) {
    const path = referencedFullPath(ref, from).toLowerCase();
    iidsByPath.set(path, [...(iidsByPath.get(path) ?? []), ref.iid]);
  }
  const closing: ClosingIssue[] = [];
  for (const [path, iids] of iidsByPath) {
    const access = path === from.fullPath.toLowerCase() ? await findProject(ctx, mr.projectId) : await findProject(ctx, path).catch(skipUnreachable);
    if (!access) continue;
    const issues = await ctx.db.issue.findMany({ where: { projectId: access.project.id, iid: { in: iids } }, include: { assignees: true }, orderBy: { iid: "asc" } });
    const prefix = referencePrefix(access.project, mr.project);
    for (const issue of issues) if (canUpdateIssue(ctx, access, issue)) closing.push({ id: issue.id, reference: `${prefix}#${issue.iid}` });
  }
  return closing;
}

/** A referenced project the user cannot see, or an old path, closes nothing. */
function skipUnreachable(error: unknown): null {
  if (error instanceof AppError) return null;
  throw error;
}

/** Issue#to_reference(from): `#1` in the same project, `project#1` in the same namespace, else the full path. */
function referencePrefix(project: ProjectAccess["project"], from: MergeRequestRow["project"]): string {
  if (project.id === from.id) return "";
  return project.namespaceId === from.namespaceId ? project.path : projectFullPath(project);
}

/** "#1", "#1 and #2", "#1, #2, and #3" (Array#to_sentence). */
function toSentence(items: string[]): string {
  if (items.length <= 2) return items.join(" and ");
  return `${items.slice(0, -1).join(", ")}, and ${items.at(-1)}`;
}

/** GitLab's default_merge_commit_message, with the "Closes" line when the merge closes issues. */
function mergeMessage(mr: MergeRequestRow, closing: ClosingIssue[]): string {
  const [first, title, seeAlso] = defaultMergeMessage(mr).split("\n\n");
  const closes = closing.length ? [`Closes ${toSentence(closing.map((issue) => issue.reference))}`] : [];
  return [first, title, ...closes, seeAlso].join("\n\n");
}

/** The squash commit is authored by the merge request's author (MergeRequests::SquashService). */
async function authorOf(ctx: DomainContext, mr: MergeRequestRow): Promise<Person> {
  const author = await ctx.db.user.findUnique({ where: { id: mr.authorId }, select: { name: true, email: true } });
  return author ?? { name: "Ghost User", email: "ghost@localhost" };
}
