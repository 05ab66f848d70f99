// The commits of a merge request: what its source head has that the target branch lacks
// (`git log target..source`), the diff refs around them and the files they change.
import type { Db } from "../../db/client.js";
import type { Commit, MergeRequest } from "../../generated/prisma/client.js";
import type { Tx } from "../shared/events.js";
import { commitLinksOfProjects, commitsBetween, getCommitBySha, mergeBase, shasBetweenIn } from "../repository/commits.js";
import { branchHead } from "./branches.js";
import DataLoader from "dataloader";
import type { LoaderFactory } from "../shared/loaders.js";

type Reader = Db | Tx;
export type MergeRequestRefs = Pick<MergeRequest, "projectId" | "headSha" | "targetBranch"> & Partial<Pick<MergeRequest, "mergeCommitSha">>;

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

/**
 * mergeRequestCommits of many merge requests in three statements whatever their number (the
 * projects' commit graphs, the target branches' heads, the commits' rows): mergeRequestCommitsLoader,
 * read by listMergeRequestCommits for REST and for a page of merge requests on the public graph.
 */
export async function batchMergeRequestCommits(db: Reader, mrs: readonly MergeRequestRefs[]): Promise<Commit[][]> {
  const links = await commitLinksOfProjects(db, [...new Set(mrs.map((mr) => mr.projectId))]);
  const linksOf = (mr: MergeRequestRefs) => links.get(mr.projectId)!;
  const mergeCommitOf = (mr: MergeRequestRefs) => (mr.mergeCommitSha ? linksOf(mr).get(mr.mergeCommitSha.toLowerCase()) : undefined);
  const heads = await targetBranchHeads(db, mrs.filter((mr) => mr.headSha && !mergeCommitOf(mr)));
  // targetHeadOf: a merged MR against its merge commit's first parent (a merge commit always has
  // one: parents[0]), the others against their target's head
  const shas = mrs.map((mr) => {
    if (!mr.headSha) return [];
    const mergeCommit = mergeCommitOf(mr);
    const targetHead = mergeCommit ? (mergeCommit.parents[0] ?? null) : (heads.get(inProject(mr.projectId, mr.targetBranch)) ?? null);
    return shasBetweenIn(linksOf(mr), targetHead, mr.headSha);
  });
  const wanted = new Map<number, Set<string>>();
  mrs.forEach((mr, i) => wanted.set(mr.projectId, new Set([...(wanted.get(mr.projectId) ?? []), ...shas[i]!])));
  const withCommits = [...wanted].filter(([, projectShas]) => projectShas.size);
  const rows = withCommits.length
    ? await db.commit.findMany({ where: { OR: withCommits.map(([projectId, projectShas]) => ({ projectId, sha: { in: [...projectShas] } })) } })
    : [];
  const bySha = new Map(rows.map((row) => [inProject(row.projectId, row.sha), row]));
  return mrs.map((mr, i) => shas[i]!.map((sha) => bySha.get(inProject(mr.projectId, sha))!));
}

/** a branch name or sha within a project */
const inProject = (projectId: number, name: string) => `${projectId}:${name}`;

/** The heads of the merge requests' target branches (by inProject: project id and name), in one statement. */
async function targetBranchHeads(db: Reader, mrs: MergeRequestRefs[]): Promise<Map<string, string>> {
  if (!mrs.length) return new Map();
  const branches = await db.branch.findMany({
    where: { OR: mrs.map((mr) => ({ projectId: mr.projectId, name: mr.targetBranch })) },
    select: { projectId: true, name: true, headSha: true },
  });
  return new Map(branches.map((branch) => [inProject(branch.projectId, branch.name), branch.headSha]));
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

/** The commits of each merge request of a page, in a fixed number of statements. */
export const mergeRequestCommitsLoader: LoaderFactory<DataLoader<MergeRequestRefs & { id: number }, Commit[], number>> = (services) =>
  new DataLoader((mrs) => batchMergeRequestCommits(services.db, mrs), { cacheKeyFn: (mr) => mr.id });
