// The commits of a merge request: what its source head has that the target branch lacks
// (`git log target..source`), and the merge base. Both depend only on two commit ids, so what git
// answered is kept by those ids (GitRepository.remember). Diff refs: versions.ts.
import DataLoader from "dataloader";
import type { MergeRequest } from "../../generated/prisma/client.js";
import type { Services } from "../shared/context.js";
import type { LoaderFactory } from "../shared/loaders.js";
import { readCommit, readCommits, repositoryOf, type CommitRecord } from "../repository/git.js";
import { branchHead } from "./branches.js";

type Reader = Pick<Services, "db" | "git">;
export type MergeRequestRefs = Pick<MergeRequest, "projectId" | "headSha" | "targetBranch"> & Partial<Pick<MergeRequest, "mergeCommitSha">>;

/**
 * The target head the MR is measured against: the target branch as it is now, or for a merged MR
 * the target as it was when merged (its merge commit's first parent), so its diff stays as it was.
 */
export async function targetHeadOf(r: Reader, mr: MergeRequestRefs): Promise<string | null> {
  if (mr.mergeCommitSha) {
    const mergeCommit = await readCommit(r, mr.projectId, mr.mergeCommitSha);
    if (mergeCommit?.parentShas[0]) return mergeCommit.parentShas[0];
  }
  return branchHead(r.db, mr.projectId, mr.targetBranch);
}

/** `git rev-list head ^base`: newest first; the whole history of head without a base. */
export async function shasBetween(r: Pick<Services, "git">, projectId: number, baseSha: string | null, headSha: string): Promise<string[]> {
  const repo = repositoryOf(r, projectId);
  return repo.remember(`between\0${baseSha}\0${headSha}`, () => repo.revList(baseSha ? [headSha, `^${baseSha}`] : [headSha])).catch(() => []);
}

/** `git merge-base`, kept. */
export async function mergeBaseOf(r: Pick<Services, "git">, projectId: number, a: string, b: string): Promise<string | null> {
  const repo = repositoryOf(r, projectId);
  return repo.remember(`base\0${a}\0${b}`, () => repo.mergeBase([a, b])).catch(() => null);
}

/**
 * The MR's commits, newest first, against its target head; with the target branch gone, the
 * whole history of the source head counts.
 */
export async function mergeRequestCommits(r: Reader, mr: MergeRequestRefs): Promise<CommitRecord[]> {
  if (!mr.headSha) return [];
  return readCommits(r, mr.projectId, await shasBetween(r, mr.projectId, await targetHeadOf(r, mr), mr.headSha));
}

/**
 * mergeRequestCommits of many merge requests: one statement for the target branches' heads, then
 * git for each pair of heads not asked about before (mergeRequestCommitsLoader, read by
 * listMergeRequestCommits for REST and for a page of merge requests on the public graph).
 */
export async function batchMergeRequestCommits(r: Reader, mrs: readonly MergeRequestRefs[]): Promise<CommitRecord[][]> {
  const heads = await targetBranchHeads(r, mrs.filter((mr) => mr.headSha && !mr.mergeCommitSha));
  return Promise.all(mrs.map(async (mr) => {
    if (!mr.headSha) return [];
    const target = mr.mergeCommitSha ? await targetHeadOf(r, mr) : (heads.get(inProject(mr.projectId, mr.targetBranch)) ?? null);
    return readCommits(r, mr.projectId, await shasBetween(r, mr.projectId, target, mr.headSha));
  }));
}

/** a branch name within a project */
const inProject = (projectId: number, name: string) => `${projectId}:${name}`;

/** The heads of the merge requests' target branches (by inProject: project id and name), in one statement. */
async function targetBranchHeads(r: Reader, mrs: MergeRequestRefs[]): Promise<Map<string, string>> {
  if (!mrs.length) return new Map();
  const branches = await r.db.branch.findMany({
    where: { OR: mrs.map((mr) => ({ projectId: mr.projectId, name: mr.targetBranch })) },
    select: { projectId: true, name: true, headSha: true },
  });
  return new Map(branches.map((branch) => [inProject(branch.projectId, branch.name), branch.headSha]));
}

/** The commits of each merge request of a page. */
export const mergeRequestCommitsLoader: LoaderFactory<DataLoader<MergeRequestRefs & { id: number }, CommitRecord[], number>> = (services) =>
  new DataLoader((mrs) => batchMergeRequestCommits(services, mrs), { cacheKeyFn: (mr) => mr.id });
