// Snippets by id across projects (the public graph's `snippets(ids:)`): a project snippet read as
// GET /projects/:id/snippets/:snippet_id reads it, a personal one as GET /snippets/:id does, those
// the caller may not read left out.
import { findProject } from "../shared/parents.js";
import type { DomainContext } from "../shared/context.js";
import { appErrorOf } from "../../errors.js";
import { canReadPersonalSnippet } from "./personal.js";
import { canReadSnippet, snippetFilesInclude, snippetFiltersWhere, type SnippetFilters, type SnippetView } from "./queries.js";

/** The snippets among `ids` the caller may read (one statement, plus the projects' access when not cached), newest first. */
export async function findSnippetsByIds(
  ctx: DomainContext,
  ids: readonly number[],
  filters: Omit<SnippetFilters, "ids"> & { type?: "personal" | "project" | null } = {},
): Promise<SnippetView[]> {
  const { type, ...narrowing } = filters;
  const rows = await ctx.db.snippet.findMany({
    where: { ...snippetFiltersWhere({ ...narrowing, ids }), ...(type ? { projectId: type === "personal" ? null : { not: null } } : {}) },
    include: snippetFilesInclude,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  const readable: SnippetView[] = [];
  for (const snippet of rows) {
    if (snippet.projectId == null) {
      if (canReadPersonalSnippet(ctx, snippet)) readable.push({ ...snippet, project: null });
      continue;
    }
    const access = await projectAccessOrNull(ctx, snippet.projectId!);
    if (access && canReadSnippet(ctx, access, snippet)) readable.push({ ...snippet, project: access.project });
  }
  return readable;
}

async function projectAccessOrNull(ctx: DomainContext, projectId: number) {
  try {
    return await findProject(ctx, projectId);
  } catch (error) {
    if (appErrorOf(error)?.status === 404) return null;
    throw error;
  }
}
