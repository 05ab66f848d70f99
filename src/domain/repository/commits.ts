// The commit graph of a project: storing a commit, finding one by sha, branch name or short sha,
// and walking first parents (history, and the commits one head has that another lacks).
import { createHash, randomUUID } from "node:crypto";
import type { Db } from "../../db/client.js";
import type { Commit } from "../../generated/prisma/client.js";
import type { Tx } from "../shared/events.js";
import type { TreeChange } from "./tree.js";

type Reader = Db | Tx;

export interface NewCommit {
  projectId: number;
  parentSha: string | null;
  /** a merge commit's second parent */
  secondParentSha?: string | null;
  message: string;
  author: { name: string; email: string };
  committer: { name: string; email: string };
  at: Date;
  change: TreeChange;
}

/** SHA-1 hex of the commit's content and a random nonce: unique, and shaped like git's. */
function commitSha(input: NewCommit): string {
  const { projectId, parentSha, message, author, at } = input;
  return createHash("sha1").update(JSON.stringify([projectId, parentSha, message, author, at.toISOString(), randomUUID()])).digest("hex");
}

/** Commit#full_title: the first line of the message. */
export function commitTitle(message: string): string {
  return message.trim() ? message.split(/[\r\n]/, 1)[0]! : "No commit message";
}

export async function writeCommit(tx: Tx, input: NewCommit): Promise<Commit> {
  const { change } = input;
  return tx.commit.create({
    data: {
      projectId: input.projectId,
      sha: commitSha(input),
      parentSha: input.parentSha,
      secondParentSha: input.secondParentSha ?? null,
      title: commitTitle(input.message),
      message: input.message,
      authorName: input.author.name,
      authorEmail: input.author.email,
      authoredAt: input.at,
      committerName: input.committer.name,
      committerEmail: input.committer.email,
      additions: change.additions,
      deletions: change.deletions,
      addedPaths: JSON.stringify(change.added),
      modifiedPaths: JSON.stringify(change.modified),
      removedPaths: JSON.stringify(change.removed),
      treePaths: JSON.stringify(change.tree),
    },
  });
}

/** The file paths of the tree after a commit (none before the first one). */
export const treeOf = (commit: Commit | null): string[] => (commit ? (JSON.parse(commit.treePaths) as string[]) : []);

export function getCommitBySha(db: Reader, projectId: number, sha: string): Promise<Commit | null> {
  return db.commit.findUnique({ where: { projectId_sha: { projectId, sha: sha.toLowerCase() } } });
}

/**
 * What git would take `ref` for, as GitLab's `project.commit(ref)` does: a branch name, a full
 * sha, or an unambiguous abbreviated sha (4+ hex digits).
 */
export async function resolveCommit(db: Reader, projectId: number, ref: string): Promise<Commit | null> {
  const branch = await db.branch.findUnique({ where: { projectId_name: { projectId, name: ref } } });
  if (branch) return getCommitBySha(db, projectId, branch.headSha);
  if (!/^[0-9a-f]{4,40}$/i.test(ref)) return null;
  if (ref.length === 40) return getCommitBySha(db, projectId, ref);
  const candidates = await db.commit.findMany({ where: { projectId, sha: { startsWith: ref.toLowerCase() } }, take: 2 });
  return candidates.length === 1 ? candidates[0]! : null;
}

/** Where a commit sits in the graph: its row id (creation order) and its parents. */
export interface CommitLink {
  id: number;
  parents: string[];
}

const LINK_COLUMNS = { id: true, sha: true, parentSha: true, secondParentSha: true } as const;

const linkOf = (row: Pick<Commit, "id" | "parentSha" | "secondParentSha">): CommitLink =>
  ({ id: row.id, parents: [row.parentSha, row.secondParentSha].filter((sha): sha is string => sha != null) });

/** sha -> place in the graph of every commit of the project: only the links, so walking stays cheap. */
async function commitLinks(db: Reader, projectId: number): Promise<Map<string, CommitLink>> {
  const rows = await db.commit.findMany({ where: { projectId }, select: LINK_COLUMNS });
  return new Map(rows.map((row) => [row.sha, linkOf(row)]));
}

/** commitLinks of many projects in one statement, by project id. */
export async function commitLinksOfProjects(db: Reader, projectIds: readonly number[]): Promise<Map<number, Map<string, CommitLink>>> {
  const byProject = new Map(projectIds.map((id) => [id, new Map<string, CommitLink>()]));
  const rows = await db.commit.findMany({ where: { projectId: { in: [...byProject.keys()] } }, select: { ...LINK_COLUMNS, projectId: true } });
  for (const row of rows) byProject.get(row.projectId)!.set(row.sha, linkOf(row));
  return byProject;
}

/** Every commit reachable from `headSha` through any parent (the head itself included). */
function reachable(links: Map<string, CommitLink>, headSha: string | null): Set<string> {
  const seen = new Set<string>();
  const pending = headSha ? [headSha] : [];
  while (pending.length) {
    const sha = pending.pop()!;
    const link = links.get(sha);
    if (!link || seen.has(sha)) continue;
    seen.add(sha);
    pending.push(...link.parents);
  }
  return seen;
}

/**
 * Newest first, as `git log` lists them: a commit is stored after its parents, so the row id
 * orders children before parents and follows commit time.
 */
const newestFirst = (links: Map<string, CommitLink>, shas: Iterable<string>) => [...shas].sort((a, b) => links.get(b)!.id - links.get(a)!.id);

/** The full rows of the given commits, in the given order. */
export async function commitsBySha(db: Reader, projectId: number, shas: string[]): Promise<Commit[]> {
  if (!shas.length) return [];
  const rows = await db.commit.findMany({ where: { projectId, sha: { in: shas } } });
  const bySha = new Map(rows.map((row) => [row.sha, row]));
  return shas.map((sha) => bySha.get(sha)!);
}

/** The shas of a commit's history, newest first (the commit itself included). */
export async function historyOrder(db: Reader, projectId: number, headSha: string): Promise<string[]> {
  const links = await commitLinks(db, projectId);
  return newestFirst(links, reachable(links, headSha));
}

/** The shas of every commit reachable from any of the heads, newest first (`git log --all`). */
export async function historyOfAll(db: Reader, projectId: number, headShas: string[]): Promise<string[]> {
  const links = await commitLinks(db, projectId);
  const all = new Set(headShas.flatMap((sha) => [...reachable(links, sha)]));
  return newestFirst(links, all);
}

/** The shas reachable from `headSha` but not from `baseSha` (`git log base..head`), newest first. */
export async function shasBetween(db: Reader, projectId: number, baseSha: string | null, headSha: string): Promise<string[]> {
  return shasBetweenIn(await commitLinks(db, projectId), baseSha, headSha);
}

/** shasBetween in links already read. */
export function shasBetweenIn(links: Map<string, CommitLink>, baseSha: string | null, headSha: string): string[] {
  const inBase = reachable(links, baseSha);
  return newestFirst(links, [...reachable(links, headSha)].filter((sha) => !inBase.has(sha)));
}

/** Commits reachable from `headSha` but not from `baseSha` (`git log base..head`), newest first. */
export async function commitsBetween(db: Reader, projectId: number, baseSha: string | null, headSha: string): Promise<Commit[]> {
  return commitsBySha(db, projectId, await shasBetween(db, projectId, baseSha, headSha));
}

/**
 * `git merge-base`: the newest commit every head reaches. A common ancestor stored later than
 * another cannot be that one's ancestor, so the newest is a best common ancestor. Null when the
 * histories share nothing.
 */
export async function mergeBase(db: Reader, projectId: number, headShas: string[]): Promise<string | null> {
  const links = await commitLinks(db, projectId);
  const [first, ...others] = headShas.map((sha) => reachable(links, sha));
  const common = [...(first ?? [])].filter((sha) => others.every((set) => set.has(sha)));
  return newestFirst(links, common)[0] ?? null;
}

/** The shas of a commit's history (the commit itself included). */
export async function historyShas(db: Reader, projectId: number, headSha: string): Promise<Set<string>> {
  return reachable(await commitLinks(db, projectId), headSha);
}
