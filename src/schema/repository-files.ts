// Repository files and blobs (src/domain/repository/files.ts, blobs.ts): GitLab's file, blame
// range and blob entities and their root fields. The files API also sends a file's facts as
// X-Gitlab-* headers; the raw routes are download routes answering the blob itself.
import type { Context } from "../context.js";
import { findProjectWithCodeToPush } from "../domain/repository/access.js";
import { blobView, findBlob, rawBlobOf, type BlobView, type RawBlob } from "../domain/repository/blobs.js";
import {
  checkBlameRequest, checkFileRequest, checkFileWrite, checkRawFileRequest, createFile, deleteFile, fileBlame, fileView, findFile,
  rawFile, updateFile,
  type BlameRange, type FileCommitted, type FileFacts, type FileView,
} from "../domain/repository/files.js";
import { gitTime, type CommitRecord } from "../domain/repository/git.js";
import { contentDisposition } from "../domain/shared/downloads.js";
import { builder } from "./builder.js";
import * as route from "../rest/route.js";

/** The files API's reads also accept read_repository tokens. */
const readRepository = { tokenScopes: ["read_repository"] };

/** GitLab's no_cache_headers. */
const NO_CACHE_HEADERS = { "Cache-Control": "max-age=0, private, must-revalidate, no-store, no-cache", Expires: "Fri, 01 Jan 1990 00:00:00 GMT" };

/**
 * set_http_headers: each fact as `X-Gitlab-<Words-Of-Its-Name>` with its value as text; a
 * non-ASCII value goes out as its UTF-8 bytes, as Rack sends it.
 */
function gitlabHeaders(facts: FileFacts): Record<string, string> {
  return Object.fromEntries(
    Object.entries(facts).map(([key, value]) => {
      const words = key.replace(/^./, (c) => c.toUpperCase()).replace(/(?<=.)([A-Z])/g, "-$1");
      return [`X-Gitlab-${words}`, Buffer.from(String(value ?? ""), "utf8").toString("latin1")];
    }),
  );
}

/** A raw blob's headers; Rails names the file (dropping an .xhtml extension browsers would obey). */
function rawHeaders(raw: RawBlob, fileName: string | null): Record<string, string> {
  const name = fileName?.endsWith(".xhtml") ? fileName.split(".")[0]! : fileName;
  return {
    "Content-Type": raw.contentType,
    "Content-Disposition": name === null ? raw.disposition : contentDisposition(raw.disposition, name),
    "Content-Length": String(raw.size),
    ...NO_CACHE_HEADERS,
  };
}

const RepositoryFileEntity = builder.objectRef<FileView>("RepositoryFile").implement({
  fields: (t) => ({
    file_name: t.string({ resolve: (file) => file.facts.fileName }),
    file_path: t.string({ resolve: (file) => file.facts.filePath }),
    size: t.int({ resolve: (file) => file.facts.size }),
    encoding: t.string({ resolve: (file) => file.facts.encoding }),
    content_sha256: t.string({ resolve: (file) => file.facts.contentSha256 }),
    ref: t.string({ resolve: (file) => file.facts.ref }),
    blob_id: t.string({ resolve: (file) => file.facts.blobId }),
    commit_id: t.string({ resolve: (file) => file.facts.commitId }),
    last_commit_id: t.string({ nullable: true, resolve: (file) => file.facts.lastCommitId }),
    execute_filemode: t.boolean({ resolve: (file) => file.facts.executeFilemode }),
    content: t.exposeString("content"),
  }),
});

const BlameRangeCommitEntity = builder.objectRef<CommitRecord>("BlameRangeCommit").implement({
  fields: (t) => ({
    id: t.exposeString("sha"),
    parent_ids: t.stringList({ resolve: (commit) => commit.parentShas }),
    message: t.exposeString("message"),
    authored_date: t.field({ type: "DateTime", resolve: (commit) => gitTime(commit.authoredAt, commit.authorTimezone) }),
    author_name: t.exposeString("authorName"),
    author_email: t.exposeString("authorEmail"),
    committed_date: t.field({ type: "DateTime", resolve: (commit) => gitTime(commit.committedAt, commit.committerTimezone) }),
    committer_name: t.exposeString("committerName"),
    committer_email: t.exposeString("committerEmail"),
  }),
});

const BlameRangeEntity = builder.objectRef<BlameRange>("BlameRange").implement({
  fields: (t) => ({
    commit: t.field({ type: BlameRangeCommitEntity, resolve: (range) => range.commit }),
    lines: t.exposeStringList("lines"),
  }),
});

const RepositoryBlobEntity = builder.objectRef<BlobView>("RepositoryBlob").implement({
  fields: (t) => ({
    size: t.exposeInt("size"),
    encoding: t.exposeString("encoding"),
    content: t.exposeString("content"),
    sha: t.exposeString("sha"),
  }),
});

const RepositoryFileWriteEntity = builder.objectRef<FileCommitted>("RepositoryFileWrite").implement({
  fields: (t) => ({
    file_path: t.exposeString("filePath"),
    branch: t.exposeString("branch"),
  }),
});

// range[start] and range[end] as text: the domain answers Grape's errors for each
const BlameRangeInput = builder.inputType("BlameRangeInput", {
  fields: (t) => ({ start: t.string({ required: false }), end: t.string({ required: false }) }),
});

const setDownload = (ctx: Context, raw: RawBlob, headers: Record<string, string>) => {
  ctx.rest.download = { headers, open: raw.open };
};

// ref, branch, commit_message and content are optional here: the domain checks them with the
// file path, answering Grape's combined errors in declaration order.
builder.queryFields((t) => ({
  projectRepositoryFile: t.field({
    type: RepositoryFileEntity,
    extensions: { rest: route.get("/projects/:id/repository/files/:file_path"), ...readRepository },
    args: { id: t.arg.id({ required: true }), file_path: t.arg.string({ required: true }), ref: t.arg.string({ required: false }) },
    resolve: async (_r, args, ctx) => {
      checkFileRequest(args.file_path, args.ref);
      const file = await fileView(ctx, await findFile(ctx, String(args.id), args.file_path, args.ref));
      ctx.rest.headers = gitlabHeaders(file.facts);
      return file;
    },
  }),
  projectRepositoryFileRaw: t.string({
    extensions: { rest: route.get("/projects/:id/repository/files/:file_path/raw", { download: true }), ...readRepository },
    args: {
      id: t.arg.id({ required: true }),
      file_path: t.arg.string({ required: true }),
      ref: t.arg.string({ required: false }),
      lfs: t.arg.boolean({ required: false }), // no LFS objects here: every blob is sent as it is
    },
    resolve: async (_r, args, ctx) => {
      checkRawFileRequest(args.file_path, args.ref);
      const { facts, raw } = await rawFile(await findFile(ctx, String(args.id), args.file_path, args.ref));
      setDownload(ctx, raw, { ...rawHeaders(raw, facts.fileName), ...gitlabHeaders(facts) });
      return facts.fileName;
    },
  }),
  projectRepositoryFileBlame: t.field({
    type: [BlameRangeEntity],
    extensions: { rest: route.get("/projects/:id/repository/files/:file_path/blame"), ...readRepository },
    args: {
      id: t.arg.id({ required: true }),
      file_path: t.arg.string({ required: true }),
      ref: t.arg.string({ required: false }),
      range: t.arg({ type: BlameRangeInput, required: false }),
    },
    resolve: async (_r, args, ctx) => {
      checkBlameRequest(args.file_path, args.ref, args.range);
      const blame = await fileBlame(ctx, await findFile(ctx, String(args.id), args.file_path, args.ref), args.range);
      ctx.rest.headers = gitlabHeaders(blame.facts);
      return blame.ranges;
    },
  }),
  projectRepositoryBlob: t.field({
    extensions: { rest: route.get("/projects/:id/repository/blobs/:sha") },
    type: RepositoryBlobEntity,
    args: { id: t.arg.id({ required: true }), sha: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => blobView(ctx, await findBlob(ctx, String(args.id), args.sha)),
  }),
  projectRepositoryBlobRaw: t.string({
    extensions: { rest: route.get("/projects/:id/repository/blobs/:sha/raw", { download: true }) },
    args: { id: t.arg.id({ required: true }), sha: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const raw = await rawBlobOf(await findBlob(ctx, String(args.id), args.sha));
      setDownload(ctx, raw, rawHeaders(raw, null));
      return args.sha;
    },
  }),
}));

builder.mutationFields((t) => {
  const writeArgs = {
    id: t.arg.id({ required: true }),
    file_path: t.arg.string({ required: true }),
    branch: t.arg.string({ required: false }),
    commit_message: t.arg.string({ required: false }),
    start_branch: t.arg.string({ required: false }),
    author_email: t.arg.string({ required: false }),
    author_name: t.arg.string({ required: false }),
  };
  const contentArgs = {
    content: t.arg.string({ required: false }),
    encoding: t.arg.string({ required: false }),
    last_commit_id: t.arg.string({ required: false }),
    execute_filemode: t.arg.boolean({ required: false }),
  };
  return {
    createRepositoryFile: t.field({
      extensions: { rest: route.post("/projects/:id/repository/files/:file_path") },
      type: RepositoryFileWriteEntity,
      args: { ...writeArgs, ...contentArgs },
      resolve: async (_r, { id, file_path, ...input }, ctx) => {
        checkFileWrite("create", file_path, input);
        return createFile(ctx, await findProjectWithCodeToPush(ctx, String(id)), file_path, input);
      },
    }),
    updateRepositoryFile: t.field({
      extensions: { rest: route.put("/projects/:id/repository/files/:file_path") },
      type: RepositoryFileWriteEntity,
      args: { ...writeArgs, ...contentArgs },
      resolve: async (_r, { id, file_path, ...input }, ctx) => {
        checkFileWrite("update", file_path, input);
        return updateFile(ctx, await findProjectWithCodeToPush(ctx, String(id)), file_path, input);
      },
    }),
    deleteRepositoryFile: t.boolean({
      extensions: { rest: route.del("/projects/:id/repository/files/:file_path") },
      args: writeArgs,
      resolve: async (_r, { id, file_path, ...input }, ctx) => {
        checkFileWrite("delete", file_path, input);
        return deleteFile(ctx, await findProjectWithCodeToPush(ctx, String(id)), file_path, input);
      },
    }),
  };
});
