// What the commits API tells about a commit beyond the commit itself (lib/api/commits.rb): its diff
// against its first parent (GET .../commits/:sha/diff), the branches and tags that hold it
// (GET .../commits/:sha/refs), and for the commits list its stats (`with_stats`) and trailers
// (`trailers`), read for a whole page with one git process each.
import { notFound } from "../../errors.js";
import { runGit } from "../../git/command.js";
import type { ProjectAccess } from "../shared/parents.js";
import type { DomainContext } from "../shared/context.js";
import { paginateList, type Page, type PageArgs } from "../shared/pagination.js";
import { requireRepositoryEnabled } from "./access.js";
import { diffCollection, type DiffView } from "./diffs.js";
import { repositoryOf, resolveCommit, type CommitRecord, type GitRepository } from "./git.js";

async function commitOf(ctx: DomainContext, access: ProjectAccess, sha: string): Promise<CommitRecord> {
  requireRepositoryEnabled(ctx, access);
  const commit = await resolveCommit(ctx, access.project.id, sha);
  if (!commit) throw notFound("Commit");
  return commit;
}

/** `commit.diffs(expanded: true)`: nothing collapsed, the collection's hard limits kept. */
export async function listCommitDiffs(
  ctx: DomainContext,
  access: ProjectAccess,
  filters: { sha: string; unidiff?: boolean | null },
  page: PageArgs,
): Promise<Page<DiffView>> {
  const commit = await commitOf(ctx, access, filters.sha);
  const repo = repositoryOf(ctx, access.project.id);
  const collection = await diffCollection(repo, commit.parentShas[0] ?? null, commit.sha, { expanded: true, unidiff: filters.unidiff ?? false });
  return paginateList(collection.diffs, page);
}

export type CommitRefType = "branch" | "tag" | "all";

export interface CommitRefView {
  type: "branch" | "tag";
  name: string;
}

/** The branches (then the tags) whose history holds the commit, each by name. */
export async function listCommitRefs(
  ctx: DomainContext,
  access: ProjectAccess,
  filters: { sha: string; type?: CommitRefType | null },
  page: PageArgs,
): Promise<Page<CommitRefView>> {
  const commit = await commitOf(ctx, access, filters.sha);
  const repo = repositoryOf(ctx, access.project.id);
  const type = filters.type ?? "all";
  const refs: CommitRefView[] = [];
  if (type !== "tag") refs.push(...(await refNames(repo, commit.sha, "refs/heads/")).map((name) => ({ type: "branch" as const, name })));
  if (type !== "branch") refs.push(...(await refNames(repo, commit.sha, "refs/tags/")).map((name) => ({ type: "tag" as const, name })));
  return paginateList(refs, page);
}

async function refNames(repo: GitRepository, sha: string, prefix: string): Promise<string[]> {
  return (await repo.refsContaining(sha, [prefix])).map((ref) => ref.slice(prefix.length));
}

export interface CommitStatsView {
  additions: number;
  deletions: number;
}

/** A commit of the commits list with what the caller asked for besides: stats, trailers. */
export interface ListedCommit extends CommitRecord {
  stats: CommitStatsView | null;
  /** each trailer key's last value (null: not asked for) */
  trailers: Record<string, string> | null;
  /** each trailer key's values, in order (null: not asked for) */
  extendedTrailers: Record<string, string[]> | null;
}

/** The commits of a page with their stats and trailers when asked for (`with_stats`, `trailers`). */
export async function withListDetails(
  ctx: DomainContext,
  projectId: number,
  commits: CommitRecord[],
  asked: { with_stats?: boolean | null; trailers?: boolean | null },
): Promise<ListedCommit[]> {
  const repo = repositoryOf(ctx, projectId);
  const [stats, trailers] = await Promise.all([
    asked.with_stats && commits.length ? commitStats(repo, commits) : null,
    asked.trailers && commits.length ? commitTrailers(repo, commits) : null,
  ]);
  return commits.map((commit) => {
    const own = trailers?.get(commit.sha) ?? [];
    return {
      ...commit,
      stats: stats ? (stats.get(commit.sha) ?? { additions: 0, deletions: 0 }) : null,
      trailers: trailers ? Object.fromEntries(own) : null,
      extendedTrailers: trailers ? groupValues(own) : null,
    };
  });
}

/**
 * Lines added and deleted against the first parent (everything, for a root commit), as the single
 * commit's stats count them: `git diff-tree --stdin` reads "<commit> <parent>" lines.
 */
async function commitStats(repo: GitRepository, commits: CommitRecord[]): Promise<Map<string, CommitStatsView>> {
  const input = commits.map((commit) => `${[commit.sha, ...commit.parentShas.slice(0, 1)].join(" ")}\n`).join("");
  const out = await runGit(repo.gitDir, ["diff-tree", "--stdin", "--root", "-r", "-z", "--numstat", "--no-renames"], { input });
  const stats = new Map<string, CommitStatsView>();
  let current: CommitStatsView | null = null;
  for (const token of out.stdout.toString("utf8").split("\0")) {
    if (!token.includes("\t")) {
      if (/^[0-9a-f]{40}$/.test(token)) stats.set(token, (current = { additions: 0, deletions: 0 }));
      continue;
    }
    const [added, deleted] = token.split("\t");
    if (current && added !== "-") current.additions += Number(added);
    if (current && deleted !== "-") current.deletions += Number(deleted);
  }
  return stats;
}

/** Each commit's trailers as git parses them (`%(trailers)`, folded lines unfolded), in order. */
async function commitTrailers(repo: GitRepository, commits: CommitRecord[]): Promise<Map<string, [string, string][]>> {
  const format = "--format=%H%x00%(trailers:only,unfold,separator=%x00,key_value_separator=%x01)%x02";
  const out = await runGit(repo.gitDir, ["log", "--no-walk=unsorted", format, "--end-of-options", ...commits.map((commit) => commit.sha)]);
  const trailers = new Map<string, [string, string][]>();
  for (const record of out.stdout.toString("utf8").split("\x02\n")) {
    const [sha, ...lines] = record.split("\0");
    if (!sha) continue;
    const pairs = lines.filter((line) => line.includes("\x01")).map((line) => {
      const separator = line.indexOf("\x01");
      return [line.slice(0, separator), line.slice(separator + 1)] as [string, string];
    });
    trailers.set(sha, pairs);
  }
  return trailers;
}

function groupValues(pairs: [string, string][]): Record<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of pairs) grouped.set(key, [...(grouped.get(key) ?? []), value]);
  return Object.fromEntries(grouped);
}
