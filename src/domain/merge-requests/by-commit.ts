// Merge requests found from a commit: GET /projects/:id/repository/commits/:sha/merge_requests
// (MergeRequestsFinder with commit_sha: MergeRequest.by_related_commit_sha) and Commit#merged_merge_request,
// which the cherry-pick and revert messages name. GitLab finds the first kind in its table of each
// diff's commits; here git answers it: a merge request whose commits (its head, less its target as
// mergeRequestCommits measures it) hold the commit, or whose merge or squash commit it is.
import type { MergeRequest, Prisma } from "../../generated/prisma/client.js";
import { notFound } from "../../errors.js";
import type { ProjectAccess } from "../shared/parents.js";
import type { DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { requireRepositoryEnabled } from "../repository/access.js";
import { repositoryOf, resolveCommit, type CommitRecord, type GitRepository } from "../repository/git.js";
import { mergeRequestCommits, targetHeadOf } from "./commits.js";
import { canReadMergeRequests, requireReadMergeRequests, ROW_INCLUDE, type MergeRequestRow } from "./queries.js";

/** The states the list filters on (anything else, and `all`, lists every state). */
const STATES = new Set(["opened", "closed", "locked", "merged"]);

/**
 * GET .../commits/:sha/merge_requests: read_merge_request (403), the commit (404), then the
 * related merge requests, newest first.
 */
export async function listCommitMergeRequests(
  ctx: DomainContext, access: ProjectAccess, sha: string, filters: { state?: string | null }, page: PageArgs,
): Promise<Page<MergeRequestRow>> {
  requireRepositoryEnabled(ctx, access);
  requireReadMergeRequests(ctx, access);
  const projectId = access.project.id;
  const commit = await resolveCommit(ctx, projectId, sha);
  if (!commit) throw notFound("Commit");
  const ids = await mergeRequestIdsRelatedTo(ctx, projectId, commit.sha);
  const where: Prisma.MergeRequestWhereInput = { id: { in: ids }, ...(filters.state && STATES.has(filters.state) ? { state: filters.state } : {}) };
  const orderBy = [{ createdAt: "desc" as const }, { id: "desc" as const }];
  return paginate(
    page,
    (cap) => ctx.db.mergeRequest.count({ where, take: cap }),
    (skip, take) => ctx.db.mergeRequest.findMany({ include: ROW_INCLUDE, where, orderBy, skip, take }) as Promise<MergeRequestRow[]>,
  );
}

type Candidate = Pick<MergeRequest, "id" | "projectId" | "headSha" | "targetBranch" | "mergeCommitSha" | "squashCommitSha">;

/** MergeRequest.by_related_commit_sha: by merge or squash commit, or by the commits of each one. */
async function mergeRequestIdsRelatedTo(ctx: DomainContext, projectId: number, sha: string): Promise<number[]> {
  const rows: Candidate[] = await ctx.db.mergeRequest.findMany({
    where: { projectId },
    select: { id: true, projectId: true, headSha: true, targetBranch: true, mergeCommitSha: true, squashCommitSha: true },
  });
  const repo = repositoryOf(ctx, projectId);
  const byMergeOrSquash = rows.filter((mr) => mr.mergeCommitSha === sha || mr.squashCommitSha === sha);
  const containing = await headsContaining(repo, sha, rows.map((mr) => mr.headSha).filter((head): head is string => !!head));
  const reached = rows.filter((mr) => mr.headSha && containing.has(mr.headSha));
  const inCommits = await Promise.all(reached.map((mr) => targetLacks(ctx, repo, mr, sha)));
  return [...new Set([...byMergeOrSquash.map((mr) => mr.id), ...reached.filter((_mr, i) => inCommits[i]).map((mr) => mr.id)])];
}

/**
 * The heads that have `sha` in their history, with one `git rev-list --ancestry-path ^sha heads...`
 * (it lists the descendants of `sha` reachable from the heads, so a head is listed when it is one).
 */
async function headsContaining(repo: GitRepository, sha: string, heads: string[]): Promise<Set<string>> {
  const others = [...new Set(heads)].filter((head) => head !== sha);
  const found = new Set(heads.filter((head) => head === sha));
  if (!others.length) return found;
  const descendants = new Set(await repo.revList(["--ancestry-path", `^${sha}`, ...others]).catch(() => [] as string[]));
  for (const head of others) if (descendants.has(head)) found.add(head);
  return found;
}

/** Whether the commit is one of the merge request's own: its target head (as the MR's commits are measured) lacks it. */
async function targetLacks(ctx: DomainContext, repo: GitRepository, mr: Candidate, sha: string): Promise<boolean> {
  const target = await targetHeadOf(ctx, mr);
  return !target || !(await repo.isAncestor(sha, target));
}

/** The merge request a commit merged, for the messages of a cherry-pick or revert. */
export interface MergedMergeRequest {
  iid: number;
  /** its commits, newest first */
  commits: CommitRecord[];
}

/**
 * Commit#merged_merge_request: for a merge commit the merge request it merged, for another commit
 * the one it is the squash commit of; only one the caller may read.
 */
export async function mergedMergeRequestOf(ctx: DomainContext, access: ProjectAccess, commit: CommitRecord): Promise<MergedMergeRequest | null> {
  if (!canReadMergeRequests(ctx, access)) return null;
  const by = commit.parentShas.length > 1 ? { mergeCommitSha: commit.sha } : { squashCommitSha: commit.sha };
  const mr = await ctx.db.mergeRequest.findFirst({ where: { projectId: access.project.id, ...by }, orderBy: { id: "desc" } });
  return mr && { iid: mr.iid, commits: await mergeRequestCommits(ctx, mr) };
}
