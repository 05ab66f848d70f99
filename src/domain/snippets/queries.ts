// Project snippets (GitLab's ProjectSnippet, lib/api/project_snippets.rb): who may read them and
// the read endpoints, by their REST paths and by database id.
// Writes: snippets/writes.ts; Grape's parameter rules: snippets/params.ts.
import { posix } from "node:path";
import type { Prisma, Snippet, SnippetFile } from "../../generated/prisma/client.js";
import { forbidden, notFound, recordNotFound } from "../../errors.js";
import { AccessLevel, openVisibilities } from "../shared/access-levels.js";
import { findProject, type ProjectAccess } from "../shared/parents.js";
import { requireAdmin, requireAuthenticated } from "../shared/guards.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { featureAvailable } from "../shared/project-features.js";
import { fitsIdColumn } from "../shared/record-ids.js";

export type SnippetWithFiles = Snippet & { files: SnippetFile[] };

/** A snippet as rendered: its files and its project (for web_url), loaded with it. */
export type SnippetView = SnippetWithFiles & { project: ProjectAccess["project"] | null };

export interface SnippetAccess {
  snippet: SnippetView;
  access: ProjectAccess;
}

/** Files in the order the snippet's repository lists them (by path; `position` is written that way). */
export const snippetFilesInclude = { files: { orderBy: { position: "asc" } } } as const satisfies Prisma.SnippetInclude;
const SNIPPET_ORDER: Prisma.SnippetOrderByWithRelationInput[] = [{ createdAt: "desc" }, { id: "desc" }];

/**
 * How a missing (or hidden) snippet answers: GET finds it with `find` ("404 Not found"); raw, PUT
 * and DELETE with `find_by` ("404 Snippet Not Found").
 */
export type SnippetLookup = "find" | "find_by";

const snippetMiss = (lookup: SnippetLookup) => (lookup === "find" ? recordNotFound() : notFound("Snippet"));

/**
 * GET /projects/:id/snippets/:snippet_id: the project as findSnippetsProject finds it (404, then
 * 403 without the snippets feature), then a snippet of it the caller may read (anonymous callers
 * read public snippets of public projects).
 */
export async function findProjectSnippet(ctx: DomainContext, projectRef: string | number, id: number, lookup: SnippetLookup = "find"): Promise<SnippetAccess> {
  const access = await findSnippetsProject(ctx, projectRef);
  const snippet = await readableSnippet(ctx, access, id);
  if (!snippet) throw snippetMiss(lookup);
  return { snippet, access };
}

/**
 * GET /projects/:id/snippets/:snippet_id/user_agent_detail: the project as the endpoints'
 * before-filter finds it (404, then 403 without the snippets feature), then administrators only
 * (401/403), then the snippet ("404 Not found").
 */
export async function findProjectSnippetToAdminister(ctx: DomainContext, projectRef: string | number, id: number): Promise<SnippetAccess> {
  const access = await findSnippetsProject(ctx, projectRef);
  requireAdmin(ctx);
  const snippet = await readableSnippet(ctx, access, id);
  if (!snippet) throw snippetMiss("find");
  return { snippet, access };
}

/** The project snippet with this id, as findProjectSnippet finds it by its path (a personal snippet is a miss). */
export async function findProjectSnippetById(ctx: DomainContext, id: number, lookup: SnippetLookup = "find"): Promise<SnippetAccess> {
  const snippet = fitsIdColumn(id) ? await ctx.db.snippet.findUnique({ where: { id }, include: snippetFilesInclude }) : null;
  return projectSnippetAccess(ctx, snippet, lookup);
}

/** A snippet row already read, as findProjectSnippetById finds it (a personal snippet or none is a miss). */
export async function projectSnippetAccess(ctx: DomainContext, snippet: SnippetWithFiles | null, lookup: SnippetLookup): Promise<SnippetAccess> {
  if (snippet?.projectId == null) throw snippetMiss(lookup);
  const access = await findSnippetsProject(ctx, snippet.projectId);
  if (!canReadSnippet(ctx, access, snippet)) throw snippetMiss(lookup);
  return { snippet: { ...snippet, project: access.project }, access };
}

/**
 * Snippet.for_project_with_user: the project's snippet feature first, then members (Guest and
 * above) and administrators see every snippet, everyone else the public ones (and internal ones
 * when signed in). Authorship alone does not count: an author who left the project loses private ones.
 */
export function canReadSnippet(ctx: DomainContext, access: ProjectAccess, snippet: Pick<Snippet, "visibility">): boolean {
  if (!featureAvailable(ctx, access, "snippets")) return false;
  if (isAdmin(ctx.actor) || access.level >= AccessLevel.guest) return true;
  return openVisibilities(ctx.actor).includes(snippet.visibility);
}

/** Prisma filter for the snippets of a project the caller may read (the feature is checked apart). */
function readableSnippetsWhere(ctx: DomainContext, access: ProjectAccess): Prisma.SnippetWhereInput {
  const projectId = access.project.id;
  if (isAdmin(ctx.actor) || access.level >= AccessLevel.guest) return { projectId };
  return { projectId, visibility: { in: openVisibilities(ctx.actor) } };
}

async function readableSnippet(ctx: DomainContext, access: ProjectAccess, id: number): Promise<SnippetView | null> {
  const snippet = await ctx.db.snippet.findFirst({ where: { id, projectId: access.project.id }, include: snippetFilesInclude });
  if (!snippet || !canReadSnippet(ctx, access, snippet)) return null;
  return { ...snippet, project: access.project };
}

/**
 * The project of a snippet endpoint (the API's `before` filter): 404 when the caller cannot see
 * the project, 403 when its snippets are disabled or for members only.
 */
export async function findSnippetsProject(ctx: DomainContext, projectRef: string | number): Promise<ProjectAccess> {
  const access = await findProject(ctx, projectRef);
  requireSnippetsFeature(ctx, access);
  return access;
}

/**
 * The project of the project snippet with this id, as findSnippetsProject finds it: what PUT and
 * DELETE start from when the snippet is named by its id alone (they find the snippet itself after
 * checking the params and the sign-in). No such project snippet: "404 Not found".
 */
export async function findSnippetsProjectBySnippetId(ctx: DomainContext, snippetId: number): Promise<ProjectAccess> {
  const snippet = fitsIdColumn(snippetId) ? await ctx.db.snippet.findUnique({ where: { id: snippetId }, select: { projectId: true } }) : null;
  if (snippet?.projectId == null) throw recordNotFound();
  return findSnippetsProject(ctx, snippet.projectId);
}

/** 403 when the project's snippets are disabled or for members only. */
function requireSnippetsFeature(ctx: DomainContext, access: ProjectAccess): void {
  if (!featureAvailable(ctx, access, "snippets")) throw forbidden();
}

/** PUT and DELETE look the snippet up with `find_by`: a miss is "404 Snippet Not Found". */
export async function snippetForChange(ctx: DomainContext, access: ProjectAccess, id: number): Promise<SnippetView> {
  const snippet = await readableSnippet(ctx, access, id);
  if (!snippet) throw snippetMiss("find_by");
  return snippet;
}

/** Narrowing a snippet list (the public graph's `snippets` arguments; REST's personal lists take the dates). */
export interface SnippetFilters {
  ids?: readonly number[] | null;
  author_id?: number | null;
  visibility?: string | null;
  /** created at or after this time (SnippetsFinder's created_after, inclusive) */
  created_after?: Date | null;
  /** created at or before this time */
  created_before?: Date | null;
}

export function snippetFiltersWhere(filters: SnippetFilters): Prisma.SnippetWhereInput {
  const createdAt = {
    ...(filters.created_after ? { gte: filters.created_after } : {}),
    ...(filters.created_before ? { lte: filters.created_before } : {}),
  };
  return {
    ...(filters.ids ? { id: { in: [...filters.ids] } } : {}),
    ...(filters.author_id != null ? { authorId: filters.author_id } : {}),
    ...(filters.visibility ? { visibility: filters.visibility } : {}),
    ...(Object.keys(createdAt).length ? { createdAt } : {}),
  };
}

/**
 * GET /projects/:id/snippets of a project the caller may see: 403 when its snippets are closed to
 * the caller (as findSnippetsProject), then signed-in callers only; newest first.
 */
export async function listProjectSnippets(ctx: DomainContext, access: ProjectAccess, filters: SnippetFilters, page: PageArgs): Promise<Page<SnippetView>> {
  requireSnippetsFeature(ctx, access);
  requireAuthenticated(ctx);
  const where = { AND: [readableSnippetsWhere(ctx, access), snippetFiltersWhere(filters)] };
  const snippets = await paginate(
    page,
    (cap) => ctx.db.snippet.count({ where, orderBy: SNIPPET_ORDER, take: cap }),
    (skip, take) => ctx.db.snippet.findMany({ where, include: snippetFilesInclude, orderBy: SNIPPET_ORDER, skip, take }),
  );
  return { ...snippets, rows: snippets.rows.map((snippet) => ({ ...snippet, project: access.project })) };
}

export interface SnippetRaw {
  /** the blob's name: the file's path without its folders */
  file_name: string;
  content: string;
}

/**
 * GET /projects/:id/snippets/:snippet_id/raw of a snippet found with `find_by`: its first file
 * (its repository's first blob).
 */
export function snippetRaw(snippet: SnippetWithFiles): SnippetRaw {
  const [file] = snippet.files;
  // create and update always leave a file; without one there would be no blob to send
  if (!file) throw notFound("Snippet");
  return { file_name: posix.basename(file.path), content: file.content };
}

/**
 * GET /snippets/:id/files/:ref/:file_path/raw: the file at that path on the snippet repository's
 * branch (`main`, or HEAD); anything else is "404 File Not Found".
 */
export function snippetFileRaw(snippet: SnippetWithFiles, ref: string, filePath: string): SnippetRaw {
  const file = ref === "main" || ref === "HEAD" ? snippet.files.find((f) => f.path === filePath) : undefined;
  if (!file) throw notFound("File");
  return { file_name: posix.basename(file.path), content: file.content };
}
