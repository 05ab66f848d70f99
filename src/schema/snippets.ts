// Project snippets: GitLab's Entities::ProjectSnippet and the /projects/:id/snippets endpoints
// (raw: the first file's content as a RawBlob), each through one domain function.
import type { Context } from "../context.js";
import type { Snippet, User } from "../generated/prisma/client.js";
import { snippetFileRawUrl, snippetHttpUrlToRepo, snippetRawUrl, snippetSshUrlToRepo, snippetWebUrl } from "../domain/snippets/urls.js";
import { createProjectSnippet, deleteProjectSnippet, updateProjectSnippet } from "../domain/snippets/writes.js";
import { findProject } from "../domain/shared/parents.js";
import { findProjectSnippet, findSnippetsProject, listProjectSnippets, snippetFileRaw, snippetRaw, type SnippetRaw, type SnippetView } from "../domain/snippets/queries.js";
import {
  createPersonalSnippet,
  deletePersonalSnippet,
  findSnippet,
  findSnippetToAdminister,
  listPersonalSnippets,
  updatePersonalSnippet,
} from "../domain/snippets/personal.js";
import { findUserAgentDetail } from "../domain/shared/user-agent-details.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf } from "./pagination.js";
import { UserBasic } from "./users.js";
import { userLoader } from "../domain/shared/loaders.js";
import * as route from "../rest/route.js";

/** Every snippet root field answers with the domain's SnippetView (files and project loaded). */
const view = (snippet: Snippet) => snippet as SnippetView;
const webUrl = (ctx: Context, snippet: Snippet) => snippetWebUrl(ctx, view(snippet));

interface SnippetFileView {
  path: string;
  raw_url: string;
}

const SnippetFileRef = builder.objectRef<SnippetFileView>("SnippetFile").implement({
  fields: (t) => ({
    path: t.exposeString("path"),
    raw_url: t.exposeString("raw_url"),
  }),
});

export const SnippetEntity = builder.prismaObject("Snippet", {
  name: "ProjectSnippet",
  fields: (t) => ({
    id: t.exposeInt("id"),
    title: t.exposeString("title"),
    description: t.exposeString("description", { nullable: true }),
    visibility: t.exposeString("visibility"),
    author: t.field({ type: UserBasic, resolve: async (s, _a, ctx) => (await ctx.loaders.get(userLoader).load(s.authorId)) as User }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
    project_id: t.exposeInt("projectId", { nullable: true }),
    web_url: t.string({ resolve: (s, _a, ctx) => webUrl(ctx, s) }),
    raw_url: t.string({ resolve: (s, _a, ctx) => snippetRawUrl(ctx, view(s)) }),
    ssh_url_to_repo: t.string({ resolve: (s, _a, ctx) => snippetSshUrlToRepo(ctx, view(s)) }),
    http_url_to_repo: t.string({ resolve: (s, _a, ctx) => snippetHttpUrlToRepo(ctx, view(s)) }),
    file_name: t.string({ nullable: true, resolve: (s) => view(s).files[0]?.path ?? null }),
    files: t.field({
      type: [SnippetFileRef],
      resolve: (s, _a, ctx) => view(s).files.map((file) => ({ path: file.path, raw_url: snippetFileRawUrl(ctx, view(s), file.path) })),
    }),
    imported: t.boolean({ resolve: () => false }),
    imported_from: t.string({ resolve: () => "none" }),
  }),
});

/** A file's name and content: what REST's `text` routes send as a text/plain body (see rest/route.ts). */
export const RawBlob = builder.objectRef<SnippetRaw>("RawBlob").implement({
  fields: (t) => ({ file_name: t.exposeString("file_name"), content: t.exposeString("content") }),
});

const SnippetFileInput = builder.inputType("SnippetFileInput", {
  fields: (t) => ({
    file_path: t.string({ required: false }),
    content: t.string({ required: false }),
  }),
});

const SnippetFileActionInput = builder.inputType("SnippetFileActionInput", {
  fields: (t) => ({
    action: t.string({ required: false }),
    content: t.string({ required: false }),
    file_path: t.string({ required: false }),
    previous_path: t.string({ required: false }),
  }),
});

// No `access: "authenticated"` on these fields: GitLab checks the project and its snippet feature
// (404 / 403) before it asks for a signed-in user, so the domain functions do the sign-in check.
builder.queryFields((t) => ({
  projectSnippets: t.field({
    extensions: { rest: route.get("/projects/:id/snippets") },
    type: [SnippetEntity],
    args: { id: t.arg.id({ required: true }), ...pageArgs },
    resolve: async (_r, { id, ...args }, ctx) => rowsOf(ctx, await listProjectSnippets(ctx, await findProject(ctx, id), {}, args)),
  }),
  projectSnippet: t.field({
    extensions: { rest: route.get("/projects/:id/snippets/:snippet_id") },
    type: SnippetEntity,
    args: { id: t.arg.id({ required: true }), snippet_id: t.arg.int({ required: true }) },
    resolve: async (_r, args, ctx) => (await findProjectSnippet(ctx, String(args.id), args.snippet_id)).snippet,
  }),
  projectSnippetRaw: t.field({
    // a RawBlob answer: REST sends the first file as text/plain
    extensions: { rest: route.get("/projects/:id/snippets/:snippet_id/raw") },
    type: RawBlob,
    args: { id: t.arg.id({ required: true }), snippet_id: t.arg.int({ required: true }) },
    resolve: async (_r, args, ctx) => snippetRaw((await findProjectSnippet(ctx, String(args.id), args.snippet_id, "find_by")).snippet),
  }),
}));

// title, visibility and the file params are checked by the domain, so that REST and GraphQL
// both answer with Grape's texts ("title is missing, title is empty", "files, content are ...").
builder.mutationFields((t) => ({
  createProjectSnippet: t.field({
    extensions: { rest: route.post("/projects/:id/snippets") },
    type: SnippetEntity,
    args: {
      id: t.arg.id({ required: true }),
      title: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
      visibility: t.arg.string({ required: false }),
      files: t.arg({ type: [SnippetFileInput], required: false }),
      content: t.arg.string({ required: false }),
      file_name: t.arg.string({ required: false }),
    },
    resolve: async (_r, { id, ...input }, ctx) => createProjectSnippet(ctx, await findSnippetsProject(ctx, String(id)), input),
  }),
  updateProjectSnippet: t.field({
    extensions: { rest: route.put("/projects/:id/snippets/:snippet_id") },
    type: SnippetEntity,
    args: {
      id: t.arg.id({ required: true }),
      snippet_id: t.arg.int({ required: true }),
      content: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
      file_name: t.arg.string({ required: false }),
      title: t.arg.string({ required: false }),
      visibility: t.arg.string({ required: false }),
      files: t.arg({ type: [SnippetFileActionInput], required: false }),
    },
    resolve: async (_r, { id, snippet_id, ...input }, ctx) => updateProjectSnippet(ctx, await findSnippetsProject(ctx, String(id)), snippet_id, input),
  }),
  deleteProjectSnippet: t.boolean({
    extensions: { rest: route.del("/projects/:id/snippets/:snippet_id") },
    args: { id: t.arg.id({ required: true }), snippet_id: t.arg.int({ required: true }) },
    resolve: async (_r, args, ctx) =>
      deleteProjectSnippet(ctx, await findSnippetsProject(ctx, String(args.id)), args.snippet_id, ctx.request.headers.get("if-unmodified-since")),
  }),
}));

const createdArgs = builder.args((t) => ({
  created_after: t.field({ type: "DateTime", required: false }),
  created_before: t.field({ type: "DateTime", required: false }),
}));

// Personal snippets (lib/api/snippets.rb): the same entity, found through the personal snippets'
// rules (a project snippet's id answers as its project's endpoints read it).
builder.queryFields((t) => ({
  personalSnippets: t.field({
    extensions: { rest: route.get("/snippets") },
    type: [SnippetEntity],
    args: { ...createdArgs, ...pageArgs },
    resolve: async (_r, { page, per_page, ...filters }, ctx) => rowsOf(ctx, await listPersonalSnippets(ctx, "own", filters, { page, per_page })),
  }),
  publicSnippets: t.field({
    extensions: { rest: route.get("/snippets/public") },
    type: [SnippetEntity],
    args: { ...createdArgs, ...pageArgs },
    resolve: async (_r, { page, per_page, ...filters }, ctx) => rowsOf(ctx, await listPersonalSnippets(ctx, "public", filters, { page, per_page })),
  }),
  allSnippets: t.field({
    extensions: { rest: route.get("/snippets/all") },
    type: [SnippetEntity],
    args: { ...createdArgs, ...pageArgs },
    resolve: async (_r, { page, per_page, ...filters }, ctx) => rowsOf(ctx, await listPersonalSnippets(ctx, "all", filters, { page, per_page })),
  }),
  snippet: t.field({
    extensions: { rest: route.get("/snippets/:id") },
    type: SnippetEntity,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_r, args, ctx) => findSnippet(ctx, args.id),
  }),
  snippetRaw: t.field({
    extensions: { rest: route.get("/snippets/:id/raw") },
    type: RawBlob,
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_r, args, ctx) => snippetRaw(await findSnippet(ctx, args.id)),
  }),
  snippetFileRaw: t.field({
    extensions: { rest: route.get("/snippets/:id/files/:ref/:file_path/raw") },
    type: RawBlob,
    args: { id: t.arg.int({ required: true }), ref: t.arg.string({ required: true }), file_path: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => snippetFileRaw(await findSnippet(ctx, args.id), args.ref, args.file_path),
  }),
  snippetUserAgentDetail: t.prismaField({
    extensions: { rest: route.get("/snippets/:id/user_agent_detail") },
    type: "UserAgentDetail",
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_q, _r, args, ctx) => findUserAgentDetail(ctx, "Snippet", (await findSnippetToAdminister(ctx, args.id)).id),
  }),
}));

builder.mutationFields((t) => ({
  createPersonalSnippet: t.field({
    extensions: { rest: route.post("/snippets") },
    type: SnippetEntity,
    args: {
      title: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
      visibility: t.arg.string({ required: false }),
      files: t.arg({ type: [SnippetFileInput], required: false }),
      content: t.arg.string({ required: false }),
      file_name: t.arg.string({ required: false }),
    },
    resolve: (_r, input, ctx) => createPersonalSnippet(ctx, input),
  }),
  updatePersonalSnippet: t.field({
    extensions: { rest: route.put("/snippets/:id") },
    type: SnippetEntity,
    args: {
      id: t.arg.int({ required: true }),
      content: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
      file_name: t.arg.string({ required: false }),
      title: t.arg.string({ required: false }),
      visibility: t.arg.string({ required: false }),
      files: t.arg({ type: [SnippetFileActionInput], required: false }),
    },
    resolve: (_r, { id, ...input }, ctx) => updatePersonalSnippet(ctx, id, input),
  }),
  deletePersonalSnippet: t.boolean({
    extensions: { rest: route.del("/snippets/:id") },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_r, args, ctx) => deletePersonalSnippet(ctx, args.id, ctx.request.headers.get("if-unmodified-since")),
  }),
}));
