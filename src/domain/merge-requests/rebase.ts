// PUT .../merge_requests/:iid/rebase and GET .../merge_ref (MergeRequests::RebaseService and
// MergeabilityCheckService). GitLab rebases in the background and answers 202 at once; here the
// rebase is done before answering (202 with rebase_in_progress false), through the one push path
// so the merge request's head, its approvals and the push hooks follow. The merge ref is a merge
// commit of the target and source heads kept off every branch, written once per pair of heads.
import { AppError, forbidden } from "../../errors.js";
import { requireAuthenticated } from "../shared/access.js";
import type { DomainContext } from "../shared/context.js";
import type { Tx } from "../shared/events.js";
import { canPushToBranch } from "../repository/access.js";
import { mergeSourceOf, replayCommits, writeMergeCommit } from "../repository/merges.js";
import { protectedBranchesMatching } from "../repository/protection-rules.js";
import { lockBranches, pushBranch } from "../repository/push.js";
import { branchHead } from "./branches.js";
import { defaultMergeMessage } from "./fields.js";
import { findMergeRequest, ROW_INCLUDE, type MergeRequestRow } from "./queries.js";
import { detailedMergeStatusOf } from "./presenter.js";

export async function rebaseMergeRequest(ctx: DomainContext, projectRef: string, iid: number): Promise<{ rebase_in_progress: boolean }> {
  const user = requireAuthenticated(ctx).user;
  const { mergeRequest: mr, access } = await findMergeRequest(ctx, projectRef, iid);
  // RebaseService#validate, in its order
  if (!(await branchHead(ctx.db, mr.projectId, mr.sourceBranch))) throw forbidden("Source branch does not exist");
  if (!(await canPushToBranch(ctx, access, mr.sourceBranch))) throw forbidden("Cannot push to source branch");
  const protections = await protectedBranchesMatching(ctx.db, mr.projectId, mr.sourceBranch);
  if (protections.length && !protections.some((p) => p.allowForcePush)) throw forbidden("Source branch is protected from force push");
  await ctx.db.$transaction(async (tx) => {
    await lockBranches(tx, ctx, mr.projectId, [mr.sourceBranch, mr.targetBranch]);
    const [sourceSha, targetSha] = await Promise.all([branchHead(tx, mr.projectId, mr.sourceBranch), branchHead(tx, mr.projectId, mr.targetBranch)]);
    if (!sourceSha || !targetSha) return;
    const source = await mergeSourceOf(tx, mr.projectId, targetSha, sourceSha);
    if (source.baseSha === targetSha) return; // already on top of the target
    const replayed = await replayCommits(tx, mr.projectId, targetSha, [...source.commits].reverse(), { name: user.name, email: user.email }, ctx.now());
    const after = replayed.at(-1)?.sha ?? targetSha;
    await pushBranch(tx, ctx, { projectId: mr.projectId, branch: mr.sourceBranch, before: sourceSha, after, commitShas: replayed.map((c) => c.sha) });
  });
  return { rebase_in_progress: false };
}

const NOT_MERGEABLE = new Set(["not_open", "commits_status", "conflict"]);

/** GET .../merge_ref: the merge ref's head, or 400 when git could not merge the merge request. */
export async function mergeRequestMergeRef(ctx: DomainContext, projectRef: string, iid: number): Promise<{ commit_id: string }> {
  const { mergeRequest } = await findMergeRequest(ctx, projectRef, iid);
  const mr = (await ctx.db.mergeRequest.findUniqueOrThrow({ where: { id: mergeRequest.id }, include: ROW_INCLUDE })) as MergeRequestRow;
  if (NOT_MERGEABLE.has(await detailedMergeStatusOf(ctx, mr))) throw new AppError(400, { message: "Merge request is not mergeable" });
  const commitId = await ctx.db.$transaction((tx) => mergeRefCommit(tx, mr, ctx.now()));
  if (!commitId) throw new AppError(400, { message: "Merge request is not mergeable" });
  return { commit_id: commitId };
}

async function mergeRefCommit(tx: Tx, mr: MergeRequestRow, at: Date): Promise<string | null> {
  const [targetSha, sourceSha] = await Promise.all([branchHead(tx, mr.projectId, mr.targetBranch), branchHead(tx, mr.projectId, mr.sourceBranch)]);
  if (!targetSha || !sourceSha) return null;
  const message = defaultMergeMessage(mr);
  const existing = await tx.commit.findFirst({ where: { projectId: mr.projectId, parentSha: targetSha, secondParentSha: sourceSha, message }, select: { sha: true } });
  if (existing) return existing.sha;
  const author = await tx.user.findUnique({ where: { id: mr.authorId }, select: { name: true, email: true } });
  const committer = author ?? { name: "Ghost User", email: "ghost@localhost" };
  const source = await mergeSourceOf(tx, mr.projectId, targetSha, sourceSha);
  return (await writeMergeCommit(tx, source, sourceSha, message, committer, at)).sha;
}
