// The commits of a merge request: what its source head has that the target branch lacks
// (`git log target..source`), the diff refs around them and the files they change.
import type { Db } from "../../db/client.js";
import type { Commit, MergeRequest } from "../../generated/prisma/client.js";
import type { Tx } from "../shared/events.js";
import { commitsBetween, getCommitBySha, mergeBase } from "../repository/commits.js";
import { branchHead } from "./branches.js";

type Reader = Db | Tx;
type MergeRequestRefs = Pick<MergeRequest, "projectId" | "headSha" | "targetBranch"> & Partial<Pick<MergeRequest, "mergeCommitSha">>;

/**
 * The target head the MR is measured against: the target branch as it is now, or for a merged MR
 * the target as it was when merged (its merge commit's first parent), so its diff stays as it was.
 */
export async function targetHeadOf(db: Reader, mr: MergeRequestRefs): Promise<string | null> {
  if (mr.mergeCommitSha) {
    const mergeCommit = await getCommitBySha(db, mr.projectId, mr.mergeCommitSha);
    if (mergeCommit) return mergeCommit.parentSha;
  }
  return branchHead(db, mr.projectId, mr.targetBranch);
}

/**
 * The MR's commits, newest first, against its target head; with the target branch gone, the
 * whole history of the source head counts.
 */
export async function mergeRequestCommits(db: Reader, mr: MergeRequestRefs): Promise<Commit[]> {
  if (!mr.headSha) return [];
  return commitsBetween(db, mr.projectId, await targetHeadOf(db, mr), mr.headSha);
}

export interface DiffRefs {
  base_sha: string | null;
  head_sha: string | null;
  start_sha: string | null;
}

/**
 * GitLab's diff_refs and changes_count: start is the target head, head the source head, base
 * their merge base; changes are the distinct paths the MR's commits add, modify or remove.
 */
export async function mergeRequestDiff(db: Reader, mr: MergeRequestRefs): Promise<{ diffRefs: DiffRefs; changesCount: string }> {
  const startSha = await targetHeadOf(db, mr);
  const commits = mr.headSha ? await commitsBetween(db, mr.projectId, startSha, mr.headSha) : [];
  const baseSha = mr.headSha && startSha ? await mergeBase(db, mr.projectId, [startSha, mr.headSha]) : null;
  return { diffRefs: { base_sha: baseSha, head_sha: mr.headSha, start_sha: startSha }, changesCount: String(changedPathsOf(commits).size) };
}

/** The distinct paths the commits add, modify or remove. */
export function changedPathsOf(commits: Commit[]): Set<string> {
  return new Set(commits.flatMap((c) => [c.addedPaths, c.modifiedPaths, c.removedPaths].flatMap((list) => JSON.parse(list) as string[])));
}

const diffs = new WeakMap<object, ReturnType<typeof mergeRequestDiff>>();

/** mergeRequestDiff once per merge request row (diff_refs and changes_count share it). */
export function mergeRequestDiffOnce(db: Reader, mr: MergeRequestRefs): ReturnType<typeof mergeRequestDiff> {
  let diff = diffs.get(mr);
  if (!diff) {
    diff = mergeRequestDiff(db, mr);
    diffs.set(mr, diff);
  }
  return diff;
}
