// Merges, squashes, rebases, cherry-picks and reverts written as git objects (the refs are moved
// by the caller through the ref-update path). Merges use `git merge-tree --write-tree`, as Gitaly
// does. Git 2.39 has no `merge-tree --merge-base`, which a cherry-pick or revert needs (the merge
// base must be a commit of our choosing, not the one git would find): both sides are written as
// stand-in commits whose only parent is the wanted base, so that base is the merge base git finds.
import type { CommitObject, Signature } from "../../git/objects.js";
import { EMPTY_TREE } from "../../git/repository.js";
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

/** A cherry-pick or revert that changes nothing on the branch (Gitaly's ChangesAlreadyApplied). */
export class EmptyChangeError extends Error {
  constructor() {
    super("the change is already applied");
  }
}

/**
 * The tree of merging `theirsTree` into `oursTree` from `baseSha` (null: from the empty tree), as
 * `git merge-tree --merge-base` would give; MergeConflictError when git cannot.
 */
export async function mergedTreeFromBase(repo: GitRepository, baseSha: string | null, oursTree: string, theirsTree: string, person: Signature): Promise<string> {
  const standIn = (tree: string) => repo.writeCommit({ tree, parents: baseSha ? [baseSha] : [], author: person, committer: person, message: "stand-in\n" });
  const [ours, theirs] = await Promise.all([standIn(oursTree), standIn(theirsTree)]);
  return mergedTree(repo, ours, theirs);
}

/**
 * Gitaly's UserCherryPick: the changes `commit` made to its first parent (mainline 1 for a merge
 * commit), applied to the tree of `ontoSha`. EmptyChangeError when they are already there.
 */
export async function cherryPickedTree(repo: GitRepository, commit: CommitObject, ontoSha: string, person: Signature): Promise<string> {
  const onto = (await repo.commit(ontoSha))!;
  const tree = await mergedTreeFromBase(repo, commit.parents[0] ?? null, onto.tree, commit.tree, person);
  if (tree === onto.tree) throw new EmptyChangeError();
  return tree;
}

/**
 * Gitaly's UserRevert: the changes `commit` made to its first parent (mainline 1 for a merge
 * commit) undone on the tree of `ontoSha`. EmptyChangeError when nothing is left to undo.
 */
export async function revertedTree(repo: GitRepository, commit: CommitObject, ontoSha: string, person: Signature): Promise<string> {
  const onto = (await repo.commit(ontoSha))!;
  const parentTree = commit.parents[0] ? (await repo.commit(commit.parents[0]))!.tree : EMPTY_TREE;
  const tree = await mergedTreeFromBase(repo, commit.sha, onto.tree, parentTree, person);
  if (tree === onto.tree) throw new EmptyChangeError();
  return tree;
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
    const tree = await mergedTreeFromBase(repo, parent, ontoCommit.tree, commit.tree, committer);
    onto = await repo.writeCommit({ tree, parents: [onto], author: commit.author, committer, message: commit.message });
  }
  return onto;
}
