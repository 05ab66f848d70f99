// GitLab's messages of a cherry-pick and a revert (Commit#cherry_pick_message, #revert_message,
// Commits::ChangeService's failure), which name the merge request a merge or squash commit merged.
import { AppError } from "../../errors.js";
import type { MergedMergeRequest } from "../merge-requests/by-commit.js";
import { commitTitle, type CommitRecord } from "../repository/git.js";

export type CommitChangeAction = "cherry_pick" | "revert";

/** Commit#title: the first line, or when it is 100 characters or longer its first words and "...". */
export function shortTitle(message: string): string {
  const full = commitTitle(message);
  if (full.length < 100) return full;
  const cut = full.slice(0, 78);
  const space = cut.lastIndexOf(" ");
  return `${space > 0 ? cut.slice(0, space) : cut}...`;
}

/** The message, then "(cherry-picked from commit <sha>)" and the merged merge request's commits, oldest first. */
export function cherryPickMessage(commit: CommitRecord, merged: MergedMergeRequest | null): string {
  const lines = [`(cherry-picked from commit ${commit.sha})`];
  if (merged?.commits.length) lines.push("", ...[...merged.commits].reverse().map((c) => `${c.sha.slice(0, 8)} ${shortTitle(c.message)}`));
  return `${commit.message}\n\n${lines.join("\n")}`;
}

/** `Revert "<title>"`, then the commit, or the merge request a merge or squash commit merged. */
export function revertMessage(commit: CommitRecord, merged: MergedMergeRequest | null): string {
  const description = merged ? `This reverts merge request !${merged.iid}` : `This reverts commit ${commit.sha}`;
  return `Revert "${shortTitle(commit.message).trim()}"\n\n${description}`;
}

const FAILED: Record<CommitChangeAction, string> = { cherry_pick: "cherry-pick", revert: "revert" };

/**
 * 400 with GitLab's message and `error_code` (`conflict`, or `empty` when the branch already has
 * the change); a dry run adds `"dry_run": "error"`.
 */
export function changeFailed(action: CommitChangeAction, merged: MergedMergeRequest | null, errorCode: "conflict" | "empty", dryRun: boolean): AppError {
  const subject = merged ? "Merge request" : "Commit";
  const message =
    `${subject} ${FAILED[action]} failed: Can't perform this action automatically. ` +
    "It may have already been done, or a more recent commit may have updated some of this content. Please perform this action locally.";
  const body = { message, error_code: errorCode, ...(dryRun ? { dry_run: "error" } : {}) };
  return new AppError(400, body);
}
