// Merge and squash commits of the path-only repository model. With no file contents there are no
// conflicts: a merge takes the target's tree and applies what the source changed since the merge
// base (paths it added, paths it removed); the paths its commits modified stay modified.
import type { Commit } from "../../generated/prisma/client.js";
import type { Db } from "../../db/client.js";
import type { Tx } from "../shared/events.js";
import { commitsBetween, getCommitBySha, mergeBase, treeOf, writeCommit } from "./commits.js";
import type { TreeChange } from "./tree.js";

type Reader = Db | Tx;

const minus = (a: Iterable<string>, b: Set<string>) => [...a].filter((path) => !b.has(path));
const sorted = (paths: Iterable<string>) => [...new Set(paths)].sort();

export interface Person {
  name: string;
  email: string;
}

/** What merging `sourceSha` into `targetSha` brings: the source's commits and their net change. */
export interface MergeSource {
  projectId: number;
  targetSha: string;
  sourceSha: string;
  baseSha: string | null;
  /** the source commits the target lacks, newest first */
  commits: Commit[];
}

export async function mergeSourceOf(tx: Reader, projectId: number, targetSha: string, sourceSha: string): Promise<MergeSource> {
  const [baseSha, commits] = await Promise.all([mergeBase(tx, projectId, [targetSha, sourceSha]), commitsBetween(tx, projectId, targetSha, sourceSha)]);
  return { projectId, targetSha, sourceSha, baseSha, commits };
}

/** The change that turns `fromTree` into the tree with the source's additions and removals applied. */
async function changeFrom(tx: Reader, source: MergeSource, fromTree: string[]): Promise<TreeChange> {
  const [base, head] = await Promise.all([
    source.baseSha ? getCommitBySha(tx, source.projectId, source.baseSha) : null,
    getCommitBySha(tx, source.projectId, source.sourceSha),
  ]);
  const baseTree = new Set(treeOf(base));
  const headTree = new Set(treeOf(head));
  const removedBySource = new Set(minus(baseTree, headTree));
  const result = new Set(minus([...fromTree, ...minus(headTree, baseTree)], removedBySource));
  const from = new Set(fromTree);
  const touched = source.commits.flatMap((c) => JSON.parse(c.modifiedPaths) as string[]);
  return {
    tree: sorted(result),
    added: sorted(minus(result, from)),
    removed: sorted(minus(from, result)),
    modified: sorted(touched.filter((path) => from.has(path) && result.has(path))),
    additions: source.commits.reduce((n, c) => n + c.additions, 0),
    deletions: source.commits.reduce((n, c) => n + c.deletions, 0),
  };
}

/** What the source changed since the merge base: the paths of a merge request's diff. */
export async function netChange(tx: Reader, source: MergeSource): Promise<TreeChange> {
  const base = source.baseSha ? await getCommitBySha(tx, source.projectId, source.baseSha) : null;
  return changeFrom(tx, source, treeOf(base));
}

/** One commit on the merge base holding all of the source's commits (GitLab's squash). */
export async function writeSquashCommit(tx: Tx, source: MergeSource, message: string, author: Person, committer: Person, at: Date): Promise<Commit> {
  const change = await netChange(tx, source);
  return writeCommit(tx, { projectId: source.projectId, parentSha: source.baseSha, message, author, committer, at, change });
}

/** A merge commit: first parent the target head, second the merged head (the source or its squash). */
export async function writeMergeCommit(tx: Tx, source: MergeSource, mergedSha: string, message: string, committer: Person, at: Date): Promise<Commit> {
  const target = await getCommitBySha(tx, source.projectId, source.targetSha);
  const change = await changeFrom(tx, source, treeOf(target));
  return writeCommit(tx, {
    projectId: source.projectId,
    parentSha: source.targetSha,
    secondParentSha: mergedSha,
    message,
    author: committer,
    committer,
    at,
    change,
  });
}

/**
 * `git rebase`: the commits (oldest first; merge commits are dropped as git drops them) written
 * again on top of `ontoSha`, each applying its own added, modified and removed paths. Returns the
 * new commits, oldest first.
 */
export async function replayCommits(tx: Tx, projectId: number, ontoSha: string, commits: Commit[], committer: Person, at: Date): Promise<Commit[]> {
  let parent = await getCommitBySha(tx, projectId, ontoSha);
  const written: Commit[] = [];
  for (const original of commits.filter((c) => c.secondParentSha == null)) {
    const [added, modified, removed] = [original.addedPaths, original.modifiedPaths, original.removedPaths].map((list) => JSON.parse(list) as string[]);
    const gone = new Set(removed);
    const tree = sorted(minus([...treeOf(parent), ...added!, ...modified!], gone));
    const change: TreeChange = { tree, added: added!, modified: modified!, removed: removed!, additions: original.additions, deletions: original.deletions };
    const author = { name: original.authorName, email: original.authorEmail };
    parent = await writeCommit(tx, { projectId, parentSha: parent?.sha ?? null, message: original.message, author, committer, at, change });
    written.push(parent);
  }
  return written;
}
