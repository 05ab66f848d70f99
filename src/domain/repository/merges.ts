// Merges, squashes and rebases written as git objects (the refs are moved by the caller through
// the ref-update path). Merges use `git merge-tree --write-tree`, as Gitaly does. Git 2.39 has no
// `merge-tree --merge-base`, which a cherry-pick needs (the merge base must be the picked commit's
// parent): each picked commit is merged with a stand-in commit that has the new base's tree and
// the picked commit's parent as its only parent, so that parent is the merge base git finds.
import type { Signature } from "../../git/objects.js";
import type { GitRepository } from "./git.js";

export interface Person {
  name: string;
  email: string;
}

/** Git could not merge the two histories on its own. */
export class MergeConflictError extends Error {
  constructor(readonly paths: string[]) {
    super(`merge conflict in ${paths.join(", ")}`);
  }
}

/** The tree of merging `theirs` into `ours`; MergeConflictError when git cannot. */
export async function mergedTree(repo: GitRepository, ours: string, theirs: string): Promise<string> {
  const result = await repo.mergeTree(ours, theirs);
  if (result.conflicts) throw new MergeConflictError(result.conflicts);
  return result.tree;
}

/** A merge commit: first parent the target head, second the merged head. */
export async function writeMergeCommit(repo: GitRepository, targetSha: string, mergedSha: string, message: string, committer: Signature): Promise<string> {
  const tree = await mergedTree(repo, targetSha, mergedSha);
  return repo.writeCommit({ tree, parents: [targetSha, mergedSha], author: committer, committer, message });
}

/**
 * GitLab's squash (Gitaly UserSquash): one commit on the target head holding everything the
 * source brings, authored by `author`.
 */
export async function writeSquashCommit(repo: GitRepository, targetSha: string, sourceSha: string, message: string, author: Signature, committer: Signature): Promise<string> {
  const tree = await mergedTree(repo, targetSha, sourceSha);
  return repo.writeCommit({ tree, parents: [targetSha], author, committer, message });
}

/**
 * `git rebase`: the commits (oldest first; merge commits are dropped as git drops them) written
 * again on top of `ontoSha`, each keeping its author and message, committed by `committer`. A
 * commit already on its new parent is kept as it is. Returns the new head.
 */
export async function rebaseCommits(repo: GitRepository, ontoSha: string, shas: readonly string[], committer: Signature): Promise<string> {
  let onto = ontoSha;
  for (const sha of shas) {
    const commit = (await repo.commit(sha))!;
    if (commit.parents.length > 1) continue;
    const parent = commit.parents[0] ?? null;
    if (parent === onto) {
      onto = commit.sha;
      continue;
    }
    const ontoCommit = (await repo.commit(onto))!;
    const standIn = await repo.writeCommit({ tree: ontoCommit.tree, parents: parent ? [parent] : [], author: committer, committer, message: "rebase\n" });
    const tree = await mergedTree(repo, standIn, commit.sha);
    onto = await repo.writeCommit({ tree, parents: [onto], author: commit.author, committer, message: commit.message });
  }
  return onto;
}
