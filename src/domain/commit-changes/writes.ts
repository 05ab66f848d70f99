// POST /projects/:id/repository/commits/:sha/cherry_pick and .../revert (lib/api/commits.rb,
// Commits::CherryPickService and RevertService, Gitaly's UserCherryPick and UserRevert): a new
// commit on the branch holding the commit's changes to its first parent, applied or undone,
// moved through the one ref-update path so pushes' hooks, merge request heads and events follow.
import { forbidden, notFound, type AppError } from "../../errors.js";
import type { CommitObject, Signature } from "../../git/objects.js";
import type { ProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { mergedMergeRequestOf } from "../merge-requests/by-commit.js";
import { canPushToBranch } from "../repository/access.js";
import { blankParamErrors, branchNamed, requireParams } from "../repository/branches.js";
import { commitRecord, resolveCommit, signature, type CommitRecord, type GitRepository } from "../repository/git.js";
import { cherryPickedTree, EmptyChangeError, MergeConflictError, revertedTree } from "../repository/merges.js";
import { BRANCH_PREFIX, moveRefs, withRepository } from "../repository/ref-updates.js";
import { changeFailed, cherryPickMessage, revertMessage, type CommitChangeAction } from "./messages.js";

export interface CommitChangeInput {
  branch: string;
  dry_run?: boolean | null;
  /** a cherry-pick's own message instead of GitLab's */
  message?: string | null;
}

/** The new commit, or null after a dry run that would have succeeded. */
export type CommitChangeResult = CommitRecord | null;

/** Before the project is looked up: signed in (401), then a branch that is not blank (400). */
export function checkCommitChange(ctx: DomainContext, input: Pick<CommitChangeInput, "branch">): void {
  requireAuthenticated(ctx);
  requireParams(blankParamErrors({ branch: input.branch }));
}

/**
 * Cherry-picks commit `sha` in a repository the caller may read (findRepositoryProject; the public
 * graph finds it with findRepositoryToPush, a bare 403 for readers, so that only the branch's own
 * refusal is left to tell), after checkCommitChange.
 */
export function cherryPickCommit(ctx: DomainContext, access: ProjectAccess, sha: string, input: CommitChangeInput): Promise<CommitChangeResult> {
  return changeCommit(ctx, access, sha, input, "cherry_pick");
}

/** Reverts commit `sha`, as cherryPickCommit. */
export function revertCommit(ctx: DomainContext, access: ProjectAccess, sha: string, input: Omit<CommitChangeInput, "message">): Promise<CommitChangeResult> {
  return changeCommit(ctx, access, sha, { ...input, message: null }, "revert");
}

/** The endpoints' checks in GitLab's order: push to the branch (403), the commit (404), the branch (404). */
async function changeCommit(ctx: DomainContext, access: ProjectAccess, sha: string, input: CommitChangeInput, action: CommitChangeAction): Promise<CommitChangeResult> {
  const user = ctx.actor!.user;
  if (!(await canPushToBranch(ctx, access, input.branch))) throw forbidden("You are not allowed to push into this branch");
  const projectId = access.project.id;
  const commit = await resolveCommit(ctx, projectId, sha);
  if (!commit) throw notFound("Commit");
  const merged = await mergedMergeRequestOf(ctx, access, commit);
  const message = input.message ?? (action === "cherry_pick" ? cherryPickMessage(commit, merged) : revertMessage(commit, merged));
  const committer = signature(user, ctx.now());
  return withRepository(ctx, projectId, async (repo) => {
    const branch = await branchNamed(ctx.db, projectId, input.branch);
    if (!branch) throw notFound("Branch");
    const picked = (await repo.commit(commit.sha))!;
    const tree = await changedTree(repo, action, picked, branch.headSha, committer, (code) => changeFailed(action, merged, code, !!input.dry_run));
    if (input.dry_run) return null;
    // a cherry-pick keeps the picked commit's author (and date), a revert is the user's own
    const author = action === "cherry_pick" ? picked.author : committer;
    const newSha = await repo.writeCommit({ tree, parents: [branch.headSha], author, committer, message });
    await moveRefs(ctx, projectId, [{ ref: `${BRANCH_PREFIX}${input.branch}`, oldSha: branch.headSha, newSha }], { actorId: user.id });
    return commitRecord(projectId, (await repo.commit(newSha))!);
  });
}

/** The new commit's tree, or GitLab's 400 when git cannot apply the change or it changes nothing. */
async function changedTree(
  repo: GitRepository, action: CommitChangeAction, commit: CommitObject, ontoSha: string, committer: Signature, failed: (code: "conflict" | "empty") => AppError,
): Promise<string> {
  try {
    return action === "cherry_pick" ? await cherryPickedTree(repo, commit, ontoSha, committer) : await revertedTree(repo, commit, ontoSha, committer);
  } catch (error) {
    if (error instanceof MergeConflictError) throw failed("conflict");
    if (error instanceof EmptyChangeError) throw failed("empty");
    throw error;
  }
}
