// GET /projects/:id/repository/tree (lib/api/repositories.rb, Repositories::TreeFinder and Gitaly's
// GetTreeEntries): the entries of a directory at a ref, or of everything below it, trees first, then
// blobs, then submodules; paged by offset with totals (`legacy`), by Gitaly's page token (`keyset`),
// or not at all (`none`, recursive listings only).
import { internalError, notFound, paramError } from "../../errors.js";
import { runGit } from "../../git/command.js";
import type { TreeEntry, TreeEntryType } from "../../git/objects.js";
import type { ProjectAccess } from "../shared/parents.js";
import type { DomainContext } from "../shared/context.js";
import { paginateList, pageWindow, type KeysetPage, type Page } from "../shared/pagination.js";
import { requireRepositoryEnabled } from "./access.js";
import { repositoryOf, resolveCommitSha, type GitRepository } from "./git.js";

/** Entities::TreeObject. */
export interface TreeObjectView {
  id: string;
  name: string;
  type: TreeEntryType;
  path: string;
  /** octal, zero-padded to six digits ("040000") */
  mode: string;
}

export interface TreeFilters {
  ref?: string | null;
  path?: string | null;
  recursive?: boolean | null;
}

export type TreePagination = "legacy" | "keyset" | "none";

export interface TreePageArgs {
  pagination?: TreePagination | null;
  page?: number | null;
  per_page?: number | null;
  page_token?: string | null;
}

export async function listTree(
  ctx: DomainContext,
  access: ProjectAccess,
  filters: TreeFilters,
  page: TreePageArgs,
): Promise<Page<TreeObjectView> | KeysetPage<TreeObjectView>> {
  const pagination = page.pagination ?? "legacy";
  if (pagination === "none" && !filters.recursive) throw paramError('pagination cannot be "none" unless "recursive" is true');
  requireRepositoryEnabled(ctx, access);
  const entries = await treeEntries(repositoryOf(ctx, access.project.id), access.project.defaultBranch, filters);
  if (pagination === "none") return { rows: entries, next: null };
  if (pagination === "keyset") return keysetPage(entries, page);
  return paginateList(entries, page);
}

/** Every entry the request lists, in GitLab's order. */
async function treeEntries(repo: GitRepository, defaultBranch: string, filters: TreeFilters): Promise<TreeObjectView[]> {
  const commit = await resolveCommitSha(repo, filters.ref || defaultBranch);
  if (!commit) throw notFound("Tree");
  const segments = pathSegments(filters.path ?? "");
  const dir = await repo.entryAt(commit, segments.join("/"));
  if (!dir) throw notFound("invalid revision or path");
  if (dir.type !== "tree") return []; // Gitaly lists nothing for a file, without an error
  const entries = filters.recursive ? await recursiveEntries(repo, dir.sha, dir.path) : await directoryEntries(repo, dir.sha, dir.path);
  return treesFirst(entries);
}

/**
 * The requested path's segments. Gitaly refuses absolute paths and paths that climb out of the
 * repository (GitLab answers its message as a 404); "" and "/" are the root.
 */
function pathSegments(path: string): string[] {
  if (path === "/") return [];
  if (path.startsWith("/")) throw notFound("Only relative path is accepted");
  const segments = path.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) throw notFound("Path cannot include traversal syntax");
  return segments;
}

async function directoryEntries(repo: GitRepository, treeSha: string, dir: string): Promise<TreeObjectView[]> {
  const entries = (await repo.tree(treeSha)) ?? [];
  return entries.map((entry) => view(entry, dir ? `${dir}/${entry.name}` : entry.name));
}

/** `git ls-tree -r -t`: every tree and file below the tree, each tree before what it holds. */
async function recursiveEntries(repo: GitRepository, treeSha: string, dir: string): Promise<TreeObjectView[]> {
  const out = await runGit(repo.gitDir, ["ls-tree", "-r", "-t", "-z", "--full-tree", treeSha]);
  const entries: TreeObjectView[] = [];
  for (const record of out.stdout.toString("utf8").split("\0")) {
    const tab = record.indexOf("\t");
    if (tab === -1) continue;
    const [mode, type, sha] = record.slice(0, tab).split(" ") as [string, TreeEntryType, string];
    const relative = record.slice(tab + 1);
    entries.push(view({ mode, type, sha, name: relative.slice(relative.lastIndexOf("/") + 1) }, dir ? `${dir}/${relative}` : relative));
  }
  return entries;
}

function view(entry: TreeEntry, path: string): TreeObjectView {
  return { id: entry.sha, name: entry.name, type: entry.type, path, mode: entry.mode.padStart(6, "0") };
}

const TYPE_ORDER: Record<TreeEntryType, number> = { tree: 0, blob: 1, commit: 2 };

/** Tree#sorted_entries: trees, then blobs, then submodules, each group in git's order. */
function treesFirst(entries: TreeObjectView[]): TreeObjectView[] {
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => TYPE_ORDER[a.entry.type] - TYPE_ORDER[b.entry.type] || a.index - b.index)
    .map(({ entry }) => entry);
}

/**
 * Gitaly's tree pagination: the page after the entry the token names (its path in the current
 * token, its object id in the older one), and a next token only when more entries follow a full page.
 */
function keysetPage(entries: TreeObjectView[], page: TreePageArgs): KeysetPage<TreeObjectView> {
  const { perPage } = pageWindow(page);
  const start = page.page_token ? startAfter(entries, page.page_token) : 0;
  const rows = entries.slice(start, start + perPage);
  const more = rows.length === perPage && start + perPage < entries.length;
  return { rows, next: more ? { page_token: encodePageToken(rows.at(-1)!.path) } : null };
}

function startAfter(entries: TreeObjectView[], token: string): number {
  const fileName = decodePageToken(token);
  const index = fileName === null ? entries.findIndex((entry) => entry.id === token) : entries.findIndex((entry) => entry.path === fileName);
  // Gitaly fails the call ("could not find starting OID"), which GitLab does not rescue: a 500
  if (index === -1) throw internalError();
  return index + 1;
}

/** base64 (padded) of Go's JSON of {"file_name": path}: `<`, `>`, `&` and the line separators escaped. */
export function encodePageToken(path: string): string {
  const json = JSON.stringify({ file_name: path }).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return Buffer.from(json, "utf8").toString("base64");
}

/** The path in a page token, or null when the token is not one (an object id). */
function decodePageToken(token: string): string | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return null;
  try {
    const parsed = JSON.parse(Buffer.from(token, "base64").toString("utf8"));
    return parsed && typeof parsed.file_name === "string" ? parsed.file_name : null;
  } catch {
    return null;
  }
}
