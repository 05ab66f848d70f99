// Project snippets. (Interface first: findProjectSnippet is what notes, emoji and webhooks build
// on; the snippets area fills in the rest.)
import type { Snippet, SnippetFile } from "../../generated/prisma/client.js";
import { notFound } from "../../errors.js";
import { AccessLevel, findProject, openVisibilities, type ProjectAccess } from "../access.js";
import { isAdmin, type DomainContext } from "../context.js";
import { featureAvailable } from "../project-features.js";

export type SnippetWithFiles = Snippet & { files: SnippetFile[] };

export interface SnippetAccess {
  snippet: SnippetWithFiles;
  access: ProjectAccess;
}

/** A snippet of a project the caller can see, by id; one they may not read answers 404. */
export async function findProjectSnippet(ctx: DomainContext, projectRef: string | number, id: number): Promise<SnippetAccess> {
  const access = await findProject(ctx, projectRef);
  const snippet = await ctx.db.snippet.findFirst({
    where: { id, projectId: access.project.id },
    include: { files: { orderBy: { position: "asc" } } },
  });
  if (!snippet || !canReadSnippet(ctx, access, snippet)) throw notFound("Snippet");
  return { snippet, access };
}

/** The project's snippet feature, then the snippet's own visibility (private: members only). */
export function canReadSnippet(ctx: DomainContext, access: ProjectAccess, snippet: Snippet): boolean {
  if (!featureAvailable(ctx, access, "snippets")) return false;
  if (isAdmin(ctx.actor) || snippet.authorId === ctx.actor?.user.id) return true;
  return access.level >= AccessLevel.guest || openVisibilities(ctx.actor).includes(snippet.visibility);
}
