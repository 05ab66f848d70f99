// PUT .../merge_requests/:iid/rebase and GET .../merge_ref (MergeRequests::RebaseService and
// MergeabilityCheckService). GitLab rebases in the background and answers 202 at once; here the
// rebase is done before answering (202 with rebase_in_progress false), through the one ref-update
// path so the merge request's head, its approvals and the push hooks follow. A rebase git cannot
// do moves nothing and is reported as GitLab's worker reports it: in the merge request's
// merge_error, which the next successful rebase or merge clears. The merge ref is the merge commit
// of the target and source heads, kept in refs/merge-requests/:iid/merge.
import { AppError, forbidden } from "../../errors.js";
import type { MergeRequest } from "../../generated/prisma/client.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { canPushToBranch } from "../repository/access.js";
import { signature } from "../repository/git.js";
import { MergeConflictError, rebaseCommits } from "../repository/merges.js";
import { protectedBranchesMatching } from "../repository/protection-rules.js";
import { BRANCH_PREFIX, moveRefs, withRepository } from "../repository/ref-updates.js";
import { branchHead } from "./branches.js";
import { withCheckedMergeability, writeMergeRef } from "./mergeability.js";
import { ROW_INCLUDE, type MergeRequestAccess, type MergeRequestRow } from "./queries.js";
import { detailedMergeStatusOf } from "./presenter.js";

/** PUT .../rebase on the merge request found for the caller (findMergeRequest). */
export async function rebaseMergeRequest(ctx: DomainContext, { mergeRequest: mr, access }: MergeRequestAccess): Promise<{ rebase_in_progress: boolean }> {
  const user = requireAuthenticated(ctx).user;
  // RebaseService#validate, in its order
  if (!(await branchHead(ctx.db, mr.projectId, mr.sourceBranch))) throw forbidden("Source branch does not exist");
  if (!(await canPushToBranch(ctx, access, mr.sourceBranch))) throw forbidden("Cannot push to source branch");
  const protections = await protectedBranchesMatching(ctx.db, mr.projectId, mr.sourceBranch);
  if (protections.length && !protections.some((p) => p.allowForcePush)) throw forbidden("Source branch is protected from force push");
  await whileRebasing(ctx, mr.id, () => withRepository(ctx, mr.projectId, async (repo) => {
    const [sourceSha, targetSha] = await Promise.all([branchHead(ctx.db, mr.projectId, mr.sourceBranch), branchHead(ctx.db, mr.projectId, mr.targetBranch)]);
    if (!sourceSha || !targetSha) return;
    if ((await repo.mergeBase([targetSha, sourceSha])) === targetSha) return; // already on top of the target
    const commits = (await repo.revList(["--reverse", sourceSha, `^${targetSha}`]));
    let head: string;
    try {
      head = await rebaseCommits(repo, targetSha, commits, signature(user, ctx.now()));
    } catch (error) {
      if (!(error instanceof MergeConflictError)) throw error;
      await ctx.db.mergeRequest.update({ where: { id: mr.id }, data: { mergeError: REBASE_ERROR } });
      return;
    }
    await moveRefs(ctx, mr.projectId, [{ ref: `${BRANCH_PREFIX}${mr.sourceBranch}`, oldSha: sourceSha, newSha: head }], {
      actorId: user.id,
      inTransaction: async (tx) => {
        await tx.mergeRequest.updateMany({ where: { id: mr.id, mergeError: { not: null } }, data: { mergeError: null } });
      },
    });
  }));
  return { rebase_in_progress: false };
}

/** A rebase that started this long ago is taken for one whose process died (GitLab asks Sidekiq). */
const REBASE_TIMEOUT_MS = 10 * 60_000;

/** GitLab's rebase_in_progress?: a rebase of the merge request runs (in any process). */
export const rebaseInProgress = (ctx: DomainContext, mr: Pick<MergeRequest, "rebaseStartedAt">) =>
  mr.rebaseStartedAt !== null && ctx.now().getTime() - mr.rebaseStartedAt.getTime() < REBASE_TIMEOUT_MS;

/** Marks the merge request as being rebased while `rebase` runs (waiting for the lock included); updated_at stays. */
async function whileRebasing(ctx: DomainContext, id: number, rebase: () => Promise<void>): Promise<void> {
  await ctx.db.$executeRaw`UPDATE "MergeRequest" SET "rebaseStartedAt" = ${ctx.now()} WHERE "id" = ${id}`;
  try {
    await rebase();
  } finally {
    await ctx.db.$executeRaw`UPDATE "MergeRequest" SET "rebaseStartedAt" = NULL WHERE "id" = ${id}`;
  }
}

/** RebaseService::REBASE_ERROR: what merge_error says after a rebase git could not do. */
export const REBASE_ERROR = "Rebase failed: Rebase locally, resolve all conflicts, then push the branch.";

const NOT_MERGEABLE = new Set(["not_open", "commits_status", "conflict"]);

/** GET .../merge_ref: the merge ref's head, or 400 when git could not merge the merge request. */
export async function mergeRequestMergeRef(ctx: DomainContext, { mergeRequest }: MergeRequestAccess): Promise<{ commit_id: string }> {
  const mr = await withCheckedMergeability(ctx, (await ctx.db.mergeRequest.findUniqueOrThrow({ where: { id: mergeRequest.id }, include: ROW_INCLUDE })) as MergeRequestRow);
  if (NOT_MERGEABLE.has(await detailedMergeStatusOf(ctx, mr))) throw new AppError(400, { message: "Merge request is not mergeable" });
  const commitId = await withRepository(ctx, mr.projectId, async (repo) => {
    const [targetSha, sourceSha] = await Promise.all([branchHead(ctx.db, mr.projectId, mr.targetBranch), branchHead(ctx.db, mr.projectId, mr.sourceBranch)]);
    return targetSha && sourceSha ? writeMergeRef(ctx, repo, mr, targetSha, sourceSha) : null;
  });
  if (!commitId) throw new AppError(400, { message: "Merge request is not mergeable" });
  return { commit_id: commitId };
}
