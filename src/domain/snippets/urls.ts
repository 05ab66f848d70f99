// Where a snippet is on the web: its page, its raw first file and each file's raw blob (the
// snippet repository's default branch is part of a file's raw url). A project snippet lives under
// its project (`/<project>/-/snippets/<id>`), a personal one under `/-/snippets/<id>`.
import type { Snippet } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { projectFullPath, projectPageUrl, projectWebUrl } from "../shared/web-urls.js";
import { sshUrlToRepo } from "../repository/urls.js";
import type { SnippetView } from "./queries.js";

/** Snippet repositories' default branch. */
const SNIPPET_REF = "main";

type Located = Pick<Snippet, "id"> & Pick<SnippetView, "project">;

export const snippetWebUrl = (ctx: DomainContext, snippet: Located) =>
  snippet.project ? projectPageUrl(ctx, snippet.project, "snippets", snippet.id) : `${ctx.config.publicUrl}/-/snippets/${snippet.id}`;

export const snippetRawUrl = (ctx: DomainContext, snippet: Located) => `${snippetWebUrl(ctx, snippet)}/raw`;

export const snippetFileRawUrl = (ctx: DomainContext, snippet: Located, path: string) => `${snippetWebUrl(ctx, snippet)}/raw/${SNIPPET_REF}/${path}`;

export const snippetHttpUrlToRepo = (ctx: DomainContext, snippet: Located) =>
  snippet.project ? `${projectWebUrl(ctx, snippet.project)}/snippets/${snippet.id}.git` : `${ctx.config.publicUrl}/snippets/${snippet.id}.git`;

export const snippetSshUrlToRepo = (ctx: DomainContext, snippet: Located) =>
  sshUrlToRepo(ctx, snippet.project ? `${projectFullPath(snippet.project)}/snippets/${snippet.id}` : `snippets/${snippet.id}`);
