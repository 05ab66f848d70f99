// Searching a project's repository (Gitlab::ProjectSearchResults' commits and blobs, without
// Elasticsearch): the commits whose message holds the term (`git rev-list --grep`) and the
// lines of files holding it (`git grep`), plus the files whose path holds it, at a ref (the
// default branch unless another is named). A missing ref or an empty repository finds nothing.
import type { DomainContext } from "../shared/context.js";
import type { ProjectAccess } from "../shared/parents.js";
import { paginateList, pageWindow, type Page, type PageArgs } from "../shared/pagination.js";
import { featureAvailable } from "../shared/project-features.js";
import { readCommits, repositoryOf, resolveCommitSha, type CommitRecord } from "./git.js";

/** GitLab's search result blob (Gitlab::Search::FoundBlob as Entities::Blob shows it). */
export interface FoundBlob {
  basename: string;
  data: string;
  path: string;
  filename: string;
  id: null;
  ref: string;
  startline: number;
  project_id: number;
}

/** Lines of context around a match, as basic search shows them. */
const CONTEXT_LINES = 2;

/** The commit `ref` names, or null when the repository cannot be searched by this caller. */
async function searchedCommit(ctx: DomainContext, access: ProjectAccess, ref: string | null | undefined): Promise<string | null> {
  if (!featureAvailable(ctx, access, "repository")) return null;
  const repo = repositoryOf(ctx, access.project.id);
  return resolveCommitSha(repo, ref || access.project.defaultBranch);
}

/** Commits reachable from the ref whose message holds the term (any case), newest first. */
export async function searchCommits(ctx: DomainContext, access: ProjectAccess, term: string, ref: string | null | undefined, page: PageArgs): Promise<Page<CommitRecord>> {
  const head = await searchedCommit(ctx, access, ref);
  if (!head) return paginateList<CommitRecord>([], page);
  const repo = repositoryOf(ctx, access.project.id);
  const matching = ["--regexp-ignore-case", "--fixed-strings", `--grep=${term}`];
  const window = pageWindow(page);
  const [count, shas] = await Promise.all([
    repo.revList(["--count", ...matching, "--end-of-options", head]),
    repo.revList([`--skip=${window.skip}`, `--max-count=${window.take}`, ...matching, "--end-of-options", head]),
  ]);
  const total = Number(count[0] ?? 0);
  const rows = await readCommits(ctx, access.project.id, shas);
  return { rows, info: { page: window.page, perPage: window.perPage, total, hasNext: window.skip + rows.length < total, hasPrev: window.page > 1 } };
}

/** Blobs: each run of matching lines (with their context) of each file, then the files whose path holds the term. */
export async function searchBlobs(ctx: DomainContext, access: ProjectAccess, term: string, ref: string | null | undefined, page: PageArgs): Promise<Page<FoundBlob>> {
  const head = await searchedCommit(ctx, access, ref);
  if (!head) return paginateList<FoundBlob>([], page);
  const repo = repositoryOf(ctx, access.project.id);
  const shownRef = ref || access.project.defaultBranch;
  const [grepped, paths] = await Promise.all([repo.grep(head, term, CONTEXT_LINES), repo.filePaths(head)]);
  const byContent = parseGrep(grepped, head).map((chunk) => blob(access.project.id, shownRef, chunk.path, chunk.startline, chunk.lines.join("\n") + "\n"));
  const lower = term.toLowerCase();
  const contentPaths = new Set(byContent.map((b) => b.path));
  const byName = paths
    .filter((path) => path.toLowerCase().includes(lower) && !contentPaths.has(path))
    .map((path) => blob(access.project.id, shownRef, path, 1, ""));
  return paginateList([...byContent, ...byName], page);
}

function blob(projectId: number, ref: string, path: string, startline: number, data: string): FoundBlob {
  const filename = path;
  const base = path.split("/").at(-1)!;
  const dot = base.lastIndexOf(".");
  const basename = path.slice(0, path.length - base.length) + (dot > 0 ? base.slice(0, dot) : base);
  return { basename, data, path, filename, id: null, ref, startline, project_id: projectId };
}

interface Chunk { path: string; startline: number; lines: string[] }

/**
 * `git grep --null --line-number --context` output: every line, match or context, is
 * `<commit>:<path>\0<number>\0<text>`; a line `--` separates runs that are not adjacent.
 */
function parseGrep(output: string, commit: string): Chunk[] {
  const chunks: Chunk[] = [];
  let current: Chunk | null = null;
  for (const line of output.split("\n")) {
    if (line === "--" || line === "") {
      current = null;
      continue;
    }
    const first = line.indexOf("\0");
    const second = first === -1 ? -1 : line.indexOf("\0", first + 1);
    if (first === -1 || second === -1) continue;
    const path = line.slice(0, first).replace(`${commit}:`, "");
    const number = Number(line.slice(first + 1, second));
    const text = line.slice(second + 1);
    if (!current || current.path !== path || number !== current.startline + current.lines.length) {
      current = { path, startline: number, lines: [] };
      chunks.push(current);
    }
    current.lines.push(text);
  }
  return chunks;
}
