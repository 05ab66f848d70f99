// PUT .../merge_requests/:iid/merge (lib/api/merge_requests.rb with MergeRequests::MergeService):
// the project's merge method through the one ref-update path: a merge commit (of the source, or of
// its squash) on the target branch, or for `ff` the target moved to the source (or its squash)
// with no merge commit; `rebase_merge` and `ff` need the target's head in the source's history.
// Squashing follows the project's squash_option; messages its commit templates. The merge request
// is marked merged with its "merge" event and the source branch removed when asked, all under the
// repository's lock. GitLab's answers: 401 without the right to merge into the target branch, 405
// when a mergeability check fails (closed, merged, draft, not approved, no source branch,
// unresolved threads the project requires resolved), 422 "Branch cannot be merged" when git
// cannot merge it (a conflict, a rebase needed, the target branch gone, or the merge lost a race),
// 409 on a `sha` that is not the head.
// A merge into the default branch closes the issues the merge request says it closes.
import { AppError, conflict, methodNotAllowed, unauthorized } from "../../errors.js";
import { mergeRequestByIid } from "../../db/hot-reads.js";
import { findProject, type ProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { BLANK_SHA, publish, type Tx } from "../shared/events.js";
import { canPushCode } from "../repository/access.js";
import { signature, type GitRepository } from "../repository/git.js";
import { MergeConflictError, writeMergeCommit, writeSquashCommit } from "../repository/merges.js";
import { protectedBranchesMatching } from "../repository/protection-rules.js";
import { BRANCH_PREFIX, moveRefs, withRepository } from "../repository/ref-updates.js";
import { changeState } from "../issues/writes.js";
import { canUpdateIssue } from "../issues/queries.js";
import { closingReferencesIn, referencedFullPath } from "../issues/references.js";
import { projectFullPath } from "../shared/web-urls.js";
import { branchHead } from "./branches.js";
import { defaultMergeMessage, STATE_CHECK_FAILURES } from "./fields.js";
import { ROW_INCLUDE, type MergeRequestAccess, type MergeRequestRow } from "./queries.js";
import { canMerge, detailedMergeStatusOf } from "./presenter.js";
import { authorOf, withCheckedMergeability } from "./mergeability.js";
import { renderCommitTemplate, type TemplateSubject } from "./commit-templates.js";
import { ffMergeMustBePossible, squashOnMerge } from "../projects/merge-settings.js";

export interface MergeInput {
  merge_commit_message?: string | null;
  squash_commit_message?: string | null;
  squash?: boolean | null;
  should_remove_source_branch?: boolean | null;
  merge_when_pipeline_succeeds?: boolean | null;
  sha?: string | null;
}

const cannotBeMerged = () => new AppError(422, { message: "Branch cannot be merged" });

/** PUT .../merge on the merge request found for the caller (findMergeRequest). */
export async function mergeMergeRequest(ctx: DomainContext, { mergeRequest, access }: MergeRequestAccess, input: MergeInput): Promise<MergeRequestRow> {
  requireAuthenticated(ctx);
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
  if (ffMergeMustBePossible(mr.project) && !(await repo.isAncestor(targetSha, sourceSha))) throw cannotBeMerged();

  const user = ctx.actor!.user;
  const at = ctx.now();
  const squash = squashOnMerge(mr.project, input.squash ?? mr.squash);
  const subject: TemplateSubject = {
    ctx, repo, mr, targetSha, sourceSha, mergedBy: user, author: await authorOf(ctx, mr), closesIssues: closesLine(closing),
  };
  let merge: MergeCommits;
  try {
    merge = await writeMerge(subject, input, squash, at);
  } catch (error) {
    if (error instanceof MergeConflictError) throw cannotBeMerged();
    throw error;
  }
  const updates = [{ ref: `${BRANCH_PREFIX}${mr.targetBranch}`, oldSha: targetSha, newSha: merge.targetHead }];
  if (removeSource) updates.push({ ref: `${BRANCH_PREFIX}${mr.sourceBranch}`, oldSha: sourceSha, newSha: BLANK_SHA });
  await moveRefs(ctx, projectId, updates, {
    actorId: user.id,
    inTransaction: (tx) => markMerged(tx, ctx, mr, input, { at, ...merge, squash }, closing),
  });
}

/** The commits a merge writes, and where the target branch goes. */
interface MergeCommits {
  targetHead: string;
  /** null when the target fast-forwards (merge_method ff) */
  mergeSha: string | null;
  squashSha: string | null;
}

/**
 * The squash commit (on the target head, by the merge request's author) when squashing, then the
 * merge commit, or none where the project fast-forwards (its checks made sure the target's head
 * is in the source's history).
 */
async function writeMerge(subject: TemplateSubject, input: MergeInput, squash: boolean, at: Date): Promise<MergeCommits> {
  const { repo, mr, targetSha, sourceSha } = subject;
  const committer = signature(subject.mergedBy, at);
  const squashSha = squash
    ? await writeSquashCommit(repo, targetSha, sourceSha, input.squash_commit_message || (await squashMessage(subject)), signature(subject.author, at), committer)
    : null;
  const merged = squashSha ?? sourceSha;
  if (mr.project.mergeMethod === "ff") return { targetHead: merged, mergeSha: null, squashSha };
  const mergeSha = await writeMergeCommit(repo, targetSha, merged, input.merge_commit_message || (await mergeMessage(subject, squash)), committer);
  return { targetHead: mergeSha, mergeSha, squashSha };
}

/** The project's merge commit template, else GitLab's default_merge_commit_message. */
async function mergeMessage(subject: TemplateSubject, squash: boolean): Promise<string> {
  const template = subject.mr.project.mergeCommitTemplate;
  if (template?.trim()) return renderCommitTemplate(template, subject, squash);
  const [first, title, seeAlso] = defaultMergeMessage(subject.mr).split("\n\n");
  return [first, title, ...(subject.closesIssues ? [subject.closesIssues] : []), seeAlso].join("\n\n");
}

/** The project's squash commit template, else the merge request's title (default_squash_commit_message). */
async function squashMessage(subject: TemplateSubject): Promise<string> {
  const template = subject.mr.project.squashCommitTemplate;
  return template?.trim() ? (await renderCommitTemplate(template, subject, true)) || subject.mr.title : subject.mr.title;
}

async function markMerged(
  tx: Tx, ctx: DomainContext, mr: MergeRequestRow, input: MergeInput,
  merge: { at: Date; mergeSha: string | null; squashSha: string | null; squash: boolean }, closing: ClosingIssue[],
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
      mergeError: null,
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

/** The "Closes ..." line of the issues the merge closes ("" when none). */
function closesLine(closing: ClosingIssue[]): string {
  return closing.length ? `Closes ${toSentence(closing.map((issue) => issue.reference))}` : "";
}
