// Creating, changing and deleting project snippets (lib/api/project_snippets.rb with
// Snippets::CreateService / UpdateService / DestroyService and ProjectSnippetPolicy). The order
// of checks is GitLab's: project (404), snippets feature (403), parameters (400), sign-in (401),
// snippet (404), permission (403), then the services' own errors.
import { deleteNoteablesChildren } from "../shared/dependent-rows.js";
import type { Prisma } from "../../generated/prisma/client.js";
import { AppError, forbidden } from "../../errors.js";
import { AccessLevel } from "../shared/access-levels.js";
import type { ProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { assertUnmodifiedSince } from "../shared/preconditions.js";
import { lockForDeletion } from "../shared/row-locks.js";
import { recordUserAgentDetail } from "../shared/user-agent-details.js";
import { applyFileActions, defaultNames, isValidAction, type FileActionInput, type FileContent } from "./files.js";
import { checkCreateParams, checkUpdateParams, isBlank, type SnippetCreateInput, type SnippetUpdateInput } from "./params.js";
import { snippetFilesInclude, snippetForChange, type SnippetView } from "./queries.js";

const MAX_TITLE = 255;

/** A service failure as the API renders it: `render_api_error!({ error: message }, status)`. */
const serviceError = (status: number, message: string) => new AppError(status, { message: { error: message } });

const repositoryError = (creating: boolean) =>
  serviceError(400, `Repository Error ${creating ? "creating" : "updating"} the snippet`);

/** `create_snippet`: Reporters and above (and administrators), not in an archived project. */
function canCreateSnippet(ctx: DomainContext, access: ProjectAccess): boolean {
  if (access.project.archived) return false;
  return isAdmin(ctx.actor) || access.level >= AccessLevel.reporter;
}

const isAuthor = (ctx: DomainContext, snippet: SnippetView) => snippet.authorId === ctx.actor?.user.id;

/** `update_snippet`: the author, Maintainers and above, administrators; never in an archived project. */
function canUpdateSnippet(ctx: DomainContext, access: ProjectAccess, snippet: SnippetView): boolean {
  if (access.project.archived) return false;
  return isAdmin(ctx.actor) || access.level >= AccessLevel.maintainer || isAuthor(ctx, snippet);
}

/** `admin_snippet`: as update, but an author below Reporter may no longer delete. */
function canDeleteSnippet(ctx: DomainContext, access: ProjectAccess, snippet: SnippetView): boolean {
  if (access.project.archived) return false;
  if (isAdmin(ctx.actor) || access.level >= AccessLevel.maintainer) return true;
  return isAuthor(ctx, snippet) && access.level >= AccessLevel.reporter;
}

function checkTitle(title: string): void {
  if ([...title].length > MAX_TITLE) throw serviceError(400, `Title is too long (maximum is ${MAX_TITLE} characters)`);
}

/** The files of a new snippet: `files[]`, or the older `file_name` + `content` (a blank name gets a default one). */
function newSnippetFiles(input: SnippetCreateInput): FileContent[] | null {
  const actions: FileActionInput[] = input.files
    ? input.files.map((file) => ({ action: "create", file_path: file.file_path, content: file.content }))
    : [{ action: "create", file_path: input.file_name, content: input.content }];
  return applyFileActions([], actions);
}

/** Byte order of paths, as a repository lists its files. */
const byPath = (a: FileContent, b: FileContent) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** The file rows; `position` keeps the repository's listing order (by path) for every reader. */
const fileRows = (files: FileContent[]) =>
  [...files].sort(byPath).map((file, position) => ({ path: file.path, content: file.content, position }));

/** POST in a project found by findSnippetsProject. */
export async function createProjectSnippet(ctx: DomainContext, access: ProjectAccess, input: SnippetCreateInput): Promise<SnippetView> {
  checkCreateParams(input);
  requireAuthenticated(ctx);
  if (!canCreateSnippet(ctx, access)) throw forbidden();
  return insertSnippet(ctx, access, input);
}

/** The service part of a create whose params and permission were checked (project or personal snippet). */
export async function insertSnippet(ctx: DomainContext, access: ProjectAccess | null, input: SnippetCreateInput): Promise<SnippetView> {
  const actor = requireAuthenticated(ctx);
  if (input.files && input.file_name != null) throw serviceError(422, "File name and snippet files cannot be used together");
  checkTitle(input.title!);
  const files = newSnippetFiles(input);
  if (!files) throw repositoryError(true);
  const now = ctx.now();
  const snippet = await ctx.db.$transaction(async (tx) => {
    const created = await tx.snippet.create({
      data: {
        projectId: access?.project.id ?? null,
        title: input.title!,
        description: input.description ?? null,
        visibility: input.visibility!,
        authorId: actor.user.id,
        createdAt: now,
        updatedAt: now,
        files: { create: fileRows(files) },
      },
      include: snippetFilesInclude,
    });
    await recordUserAgentDetail(tx, ctx, "Snippet", created.id);
    return created;
  });
  return { ...snippet, project: access?.project ?? null };
}

/**
 * The files after an update: `files[]` actions, or `content` / `file_name` changing the only
 * file (a snippet with several files must use `files`).
 */
function updatedFiles(snippet: SnippetView, input: SnippetUpdateInput): FileContent[] | null | undefined {
  const current = snippet.files.map((file) => ({ path: file.path, content: file.content }));
  if (input.files) {
    if (!input.files.every(isValidAction)) throw serviceError(422, "Snippet actions have invalid data");
    return applyFileActions(current, input.files as FileActionInput[]);
  }
  if (input.content == null && input.file_name == null) return undefined;
  const only = current[0] ?? { path: "", content: "" };
  let path = input.file_name ?? only.path;
  if (isBlank(path)) path = defaultNames(current.map((file) => file.path))();
  return [{ path, content: input.content ?? only.content }];
}

/**
 * PUT on a snippet of a project found by findSnippetsProject: the snippet is found here, with
 * `find_by`, as GitLab checks the params and the sign-in before it looks the snippet up.
 */
export async function updateProjectSnippet(ctx: DomainContext, access: ProjectAccess, id: number, input: SnippetUpdateInput): Promise<SnippetView> {
  checkUpdateParams(input);
  requireAuthenticated(ctx);
  const snippet = await snippetForChange(ctx, access, id);
  if (!canUpdateSnippet(ctx, access, snippet)) throw forbidden();
  return changeSnippet(ctx, snippet, input);
}

/** The service part of an update the caller may make (project or personal snippet). */
export async function changeSnippet(ctx: DomainContext, snippet: SnippetView, input: SnippetUpdateInput): Promise<SnippetView> {
  if ((input.content != null || input.file_name != null) && snippet.files.length > 1) {
    throw serviceError(400, "To update Snippets with multiple files, you must use the `files` parameter");
  }
  if (input.title != null) checkTitle(input.title);
  const files = updatedFiles(snippet, input);
  if (files === null) throw repositoryError(false);
  const data: Prisma.SnippetUpdateInput = {
    title: input.title ?? undefined,
    description: input.description ?? undefined,
    visibility: input.visibility ?? undefined,
    updatedAt: ctx.now(),
  };
  const updated = await ctx.db.$transaction(async (tx) => {
    if (files) {
      await tx.snippetFile.deleteMany({ where: { snippetId: snippet.id } });
      data.files = { create: fileRows(files) };
    }
    return tx.snippet.update({ where: { id: snippet.id }, data, include: snippetFilesInclude });
  });
  return { ...updated, project: snippet.project };
}

/**
 * DELETE on a snippet of a project found by findSnippetsProject (the snippet found here after the
 * sign-in, with `find_by`): `destroy_conditionally!` (412 on a stale If-Unmodified-Since); the
 * snippet's notes go with it.
 */
export async function deleteProjectSnippet(ctx: DomainContext, access: ProjectAccess, id: number, unmodifiedSince?: string | null): Promise<boolean> {
  requireAuthenticated(ctx);
  const snippet = await snippetForChange(ctx, access, id);
  if (!canDeleteSnippet(ctx, access, snippet)) throw forbidden();
  return removeSnippet(ctx, snippet, unmodifiedSince);
}

/** The destroy a caller may do (project or personal snippet): 412 on a stale If-Unmodified-Since; its notes go with it. */
export async function removeSnippet(ctx: DomainContext, snippet: SnippetView, unmodifiedSince?: string | null): Promise<boolean> {
  assertUnmodifiedSince(snippet.updatedAt, unmodifiedSince);
  await ctx.db.$transaction(async (tx) => {
    await lockForDeletion(tx, ctx, "Snippet", [snippet.id]);
    await deleteNoteablesChildren(tx, "Snippet", [snippet.id]);
    await tx.snippet.delete({ where: { id: snippet.id } });
  });
  return true;
}
