// Personal snippets (GitLab's PersonalSnippet, lib/api/snippets.rb, PersonalSnippetPolicy): snippets
// of no project. Public ones are for everyone, internal ones for signed-in users, private ones for
// their author and administrators; their author (or an administrator) changes them. The files,
// parameters and service errors are the project snippets' (writes.ts, params.ts).
import type { Prisma } from "../../generated/prisma/client.js";
import { appErrorOf, notFound, recordNotFound } from "../../errors.js";
import { AccessLevel, openVisibilities } from "../shared/access-levels.js";
import { requireAdmin, requireAuthenticated } from "../shared/guards.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { projectById, type ProjectAccess } from "../shared/parents.js";
import { authorizedProjectsWhere } from "../shared/visibility-filters.js";
import { fitsIdColumn } from "../shared/record-ids.js";
import { checkCreateParams, checkUpdateParams, type SnippetCreateInput, type SnippetUpdateInput } from "./params.js";
import { findSnippetsProject, projectSnippetAccess, snippetFilesInclude, snippetFiltersWhere, type SnippetFilters, type SnippetView, type SnippetWithFiles } from "./queries.js";
import { changeSnippet, insertSnippet, removeSnippet } from "./writes.js";

const SNIPPET_ORDER: Prisma.SnippetOrderByWithRelationInput[] = [{ createdAt: "desc" }, { id: "desc" }];

/** PersonalSnippetPolicy's read_snippet: by visibility, the author, administrators. */
export function canReadPersonalSnippet(ctx: DomainContext, snippet: Pick<SnippetView, "visibility" | "authorId">): boolean {
  if (isAdmin(ctx.actor) || (ctx.actor && snippet.authorId === ctx.actor.user.id)) return true;
  return openVisibilities(ctx.actor).includes(snippet.visibility);
}

/** The personal snippets the caller may read, as a filter. */
export function readablePersonalSnippetsWhere(ctx: DomainContext): Prisma.SnippetWhereInput {
  if (isAdmin(ctx.actor)) return { projectId: null };
  const open: Prisma.SnippetWhereInput = { visibility: { in: openVisibilities(ctx.actor) } };
  return { projectId: null, OR: ctx.actor ? [open, { authorId: ctx.actor.user.id }] : [open] };
}

const asView = <T extends object>(snippet: T) => ({ ...snippet, project: null });

/**
 * GET /snippets/:id and its raw forms (SnippetsFinder without params): a personal snippet the
 * caller may read, or a project snippet as its project's endpoints find it; else 404 Snippet Not Found.
 */
export async function findSnippet(ctx: DomainContext, id: number): Promise<SnippetView> {
  const snippet = fitsIdColumn(id) ? await ctx.db.snippet.findUnique({ where: { id }, include: snippetFilesInclude }) : null;
  if (!snippet) throw notFound("Snippet");
  if (snippet.projectId != null) {
    // SnippetsFinder reads it only where its project and snippet rules allow: anything else is a miss
    try {
      return (await projectSnippetAccess(ctx, snippet, "find_by")).snippet;
    } catch (error) {
      const status = appErrorOf(error)?.status;
      if (status === 403 || status === 404) throw notFound("Snippet");
      throw error;
    }
  }
  if (!canReadPersonalSnippet(ctx, snippet)) throw notFound("Snippet");
  return asView(snippet);
}

/** A personal snippet by database id (the graph's node), as findSnippet reads it; a project snippet is a miss. */
export async function findPersonalSnippetById(ctx: DomainContext, id: number): Promise<SnippetView> {
  const snippet = fitsIdColumn(id) ? await ctx.db.snippet.findUnique({ where: { id }, include: snippetFilesInclude }) : null;
  if (!snippet || snippet.projectId != null || !canReadPersonalSnippet(ctx, snippet)) throw notFound("Snippet");
  return asView(snippet);
}

/** PUT and DELETE look among the caller's own snippets (`snippets_for_current_user`): anyone else's is a 404. */
async function ownPersonalSnippet(ctx: DomainContext, id: number): Promise<SnippetView> {
  const actor = requireAuthenticated(ctx);
  const snippet = fitsIdColumn(id)
    ? await ctx.db.snippet.findFirst({ where: { id, projectId: null, authorId: actor.user.id }, include: snippetFilesInclude })
    : null;
  if (!snippet) throw notFound("Snippet");
  return asView(snippet);
}

/** GET /snippets/:id/user_agent_detail: administrators first (401/403), then `Snippet.find` ("404 Not found"). */
export async function findSnippetToAdminister(ctx: DomainContext, id: number): Promise<SnippetView> {
  requireAdmin(ctx);
  const snippet = fitsIdColumn(id) ? await ctx.db.snippet.findUnique({ where: { id }, include: snippetFilesInclude }) : null;
  if (!snippet) throw recordNotFound();
  return asView(snippet);
}

export type PersonalSnippetList = "own" | "public" | "all";

/**
 * GET /snippets (the caller's own personal snippets), GET /snippets/public (everyone's public
 * personal snippets) and GET /snippets/all (every snippet the caller may read, personal and of
 * projects whose snippets are not disabled: SnippetsFinder's all_available); signed-in callers
 * only; newest first.
 */
export async function listPersonalSnippets(ctx: DomainContext, list: PersonalSnippetList, filters: SnippetFilters, page: PageArgs): Promise<Page<SnippetView>> {
  const actor = requireAuthenticated(ctx);
  const scope: Prisma.SnippetWhereInput =
    list === "own" ? { projectId: null, authorId: actor.user.id }
    : list === "public" ? { projectId: null, visibility: "public" }
    : await readableSnippetsEverywhereWhere(ctx);
  const where = { AND: [scope, snippetFiltersWhere(filters)] };
  const snippets = await paginate(
    page,
    (cap) => ctx.db.snippet.count({ where, orderBy: SNIPPET_ORDER, take: cap }),
    (skip, take) => ctx.db.snippet.findMany({ where, include: snippetFilesInclude, orderBy: SNIPPET_ORDER, skip, take }),
  );
  return { ...snippets, rows: await withProjects(ctx, snippets.rows) };
}

/**
 * Every snippet the caller may read: the personal ones, any snippet of a project whose snippets
 * they may use as a member, and the public (or, signed in, internal) snippets of the public and
 * internal projects whose snippets are open to everyone who sees the project.
 */
async function readableSnippetsEverywhereWhere(ctx: DomainContext): Promise<Prisma.SnippetWhereInput> {
  const featureOn = { snippetsAccessLevel: { not: "disabled" } };
  // administrators read every snippet, but not of a project whose snippets are disabled (featureAvailable)
  if (isAdmin(ctx.actor)) return { OR: [{ projectId: null }, { project: featureOn }] };
  const open = { in: openVisibilities(ctx.actor) };
  return {
    OR: [
      readablePersonalSnippetsWhere(ctx),
      { project: { AND: [await authorizedProjectsWhere(ctx, AccessLevel.guest), featureOn] } },
      { visibility: open, project: { visibility: open, snippetsAccessLevel: "enabled" } },
    ],
  };
}

/** Rows as the entity shows them: a project snippet with its project (from the projects cache). */
async function withProjects(ctx: DomainContext, rows: SnippetWithFiles[]): Promise<SnippetView[]> {
  const ids = [...new Set(rows.flatMap((row) => (row.projectId == null ? [] : [row.projectId])))];
  const projects = new Map(await Promise.all(ids.map(async (id) => [id, await projectById(ctx, id)] as const)));
  return rows.map((row) => ({ ...row, project: row.projectId == null ? null : projects.get(row.projectId) ?? null }));
}

/** POST /snippets: visibility defaults to internal; any signed-in user may create one. */
export async function createPersonalSnippet(ctx: DomainContext, input: SnippetCreateInput): Promise<SnippetView> {
  const withDefault = { ...input, visibility: input.visibility ?? "internal" };
  checkCreateParams(withDefault);
  requireAuthenticated(ctx);
  return insertSnippet(ctx, null, withDefault);
}

/** PUT /snippets/:id: Grape's params, the sign-in, then one of the caller's own snippets. */
export async function updatePersonalSnippet(ctx: DomainContext, id: number, input: SnippetUpdateInput): Promise<SnippetView> {
  checkUpdateParams(input);
  const snippet = await ownPersonalSnippet(ctx, id);
  return changeSnippet(ctx, snippet, input);
}

/** DELETE /snippets/:id: one of the caller's own snippets, `destroy_conditionally!`. */
export async function deletePersonalSnippet(ctx: DomainContext, id: number, unmodifiedSince?: string | null): Promise<boolean> {
  const snippet = await ownPersonalSnippet(ctx, id);
  return removeSnippet(ctx, snippet, unmodifiedSince);
}

/**
 * What a snippet named by id alone belongs to (the graph's updateSnippet and destroySnippet): its
 * project, found as findSnippetsProject finds it, or "personal"; no such snippet: "404 Not found".
 */
export async function findSnippetContainer(ctx: DomainContext, id: number): Promise<ProjectAccess | "personal"> {
  const row = fitsIdColumn(id) ? await ctx.db.snippet.findUnique({ where: { id }, select: { projectId: true } }) : null;
  if (!row) throw recordNotFound();
  return row.projectId == null ? "personal" : findSnippetsProject(ctx, row.projectId);
}
