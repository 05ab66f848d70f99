// createSnippet, updateSnippet and destroySnippet: project and personal snippets over the REST
// snippet writes (snippets/writes.ts and personal.ts rules). GitLab's `blobActions` are the REST
// `files`; createSnippet without a projectPath creates a personal snippet.
import { AppError } from "../../errors.js";
import { FILE_ACTIONS } from "../../domain/snippets/params.js";
import { findSnippetsProject } from "../../domain/snippets/queries.js";
import { createPersonalSnippet, deletePersonalSnippet, findSnippetContainer, updatePersonalSnippet } from "../../domain/snippets/personal.js";
import { createProjectSnippet, deleteProjectSnippet, updateProjectSnippet } from "../../domain/snippets/writes.js";
import type { Context } from "../../context.js";
import { builder } from "../shared/builder.js";
import { projectPathOf, recordIdOf, VisibilityLevelsEnum } from "../shared/mutation-inputs.js";
import { payloadMutation } from "../shared/payload-mutation.js";
import { SnippetRef } from "./types.js";

const SnippetBlobActionEnum = builder.enumType("SnippetBlobActionEnum", { values: FILE_ACTIONS });

const SnippetBlobActionInput = builder.inputType("SnippetBlobActionInputType", {
  description: "A change to a snippet's files (REST `files[]`).",
  fields: (t) => ({
    action: t.field({ type: SnippetBlobActionEnum, required: true }),
    previousPath: t.string({ description: "The file's path before a move." }),
    filePath: t.string({ required: true }),
    content: t.string(),
  }),
});

type BlobAction = { action: string; previousPath?: string | null; filePath: string; content?: string | null };

const restFiles = (actions: readonly BlobAction[]) =>
  actions.map((blob) => ({ action: blob.action, previous_path: blob.previousPath, file_path: blob.filePath, content: blob.content }));

/** The snippet a global id names and its project or "personal" (the writes find the snippet, after checking the input). */
async function snippetInContainer(ctx: Context, gid: string | number) {
  const id = recordIdOf(gid, "Snippet");
  return { id, container: await findSnippetContainer(ctx, id) };
}

/** A new snippet's files: GitLab's CreateService takes `create` actions only. */
function newFiles(actions: readonly BlobAction[] | null | undefined) {
  if (!actions) return undefined;
  if (actions.some((blob) => blob.action !== "create")) throw new AppError(400, { message: { error: "Snippet actions have invalid data" } });
  return restFiles(actions);
}

const snippet = { field: "snippet", type: SnippetRef };

payloadMutation("createSnippet", {
  inputFields: (t) => ({
    projectPath: t.id({ description: "Full path of the project the snippet belongs to; without it a personal snippet." }),
    title: t.string({ required: true }),
    description: t.string(),
    visibilityLevel: t.field({ type: VisibilityLevelsEnum, required: true }),
    blobActions: t.field({ type: [SnippetBlobActionInput], description: "The files (`create` actions)." }),
  }),
  write: async (input, ctx) => {
    const snippetInput = { title: input.title, description: input.description, visibility: input.visibilityLevel, files: newFiles(input.blobActions) };
    if (input.projectPath == null) return createPersonalSnippet(ctx, snippetInput);
    return createProjectSnippet(ctx, await findSnippetsProject(ctx, projectPathOf(input.projectPath)), snippetInput);
  },
  returns: snippet,
});

payloadMutation("updateSnippet", {
  inputFields: (t) => ({
    id: t.id({ required: true, description: "Global id of the snippet." }),
    title: t.string(),
    description: t.string(),
    visibilityLevel: t.field({ type: VisibilityLevelsEnum }),
    blobActions: t.field({ type: [SnippetBlobActionInput] }),
  }),
  write: async (input, ctx) => {
    const { id, container } = await snippetInContainer(ctx, input.id);
    const changes = {
      title: input.title,
      description: input.description,
      visibility: input.visibilityLevel,
      files: input.blobActions ? restFiles(input.blobActions) : undefined,
    };
    return container === "personal" ? updatePersonalSnippet(ctx, id, changes) : updateProjectSnippet(ctx, container, id, changes);
  },
  returns: snippet,
});

payloadMutation("destroySnippet", {
  inputFields: (t) => ({ id: t.id({ required: true, description: "Global id of the snippet." }) }),
  write: async (input, ctx) => {
    const { id, container } = await snippetInContainer(ctx, input.id);
    await (container === "personal" ? deletePersonalSnippet(ctx, id) : deleteProjectSnippet(ctx, container, id));
    return null;
  },
  returns: { ...snippet, description: "Always null: the snippet is gone." },
});
