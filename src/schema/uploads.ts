// Markdown uploads (GitLab's MarkdownUploads API): files attached to the text of a project's or a
// group's issues, merge requests and notes. Uploading answers the markdown to paste; Maintainers list,
// fetch by id and delete; anyone who may see the parent fetches a file by its secret and name.
import type { User } from "../generated/prisma/client.js";
import type { Context } from "../context.js";
import { userLoader } from "../domain/shared/loaders.js";
import { findGroup, findGroupToWrite, findProject, findProjectToWrite, type GroupOrProjectAccess } from "../domain/shared/parents.js";
import { listUploads } from "../domain/uploads/lists.js";
import { uploadDownload, uploadMarkdown, type UploadMarkdown } from "../domain/uploads/presenter.js";
import { findUploadById, findUploadBySecret, findUploadBySecretToDelete, type UploadRecord } from "../domain/uploads/queries.js";
import { createUpload, deleteUpload, type UploadedFile } from "../domain/uploads/writes.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf } from "./pagination.js";
import * as route from "../rest/route.js";

/** Entities::ProjectUpload. */
const UploadMarkdownEntity = builder.objectRef<UploadMarkdown>("ProjectUpload").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    alt: t.exposeString("alt"),
    url: t.exposeString("url"),
    full_path: t.exposeString("full_path"),
    markdown: t.exposeString("markdown"),
  }),
});

/** The uploader as Entities::MarkdownUploadAdmin shows them. */
const UploadedByEntity = builder.objectRef<User>("UploadedBy").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    username: t.exposeString("username"),
  }),
});

/** Entities::MarkdownUploadAdmin. */
const UploadAdminEntity = builder.objectRef<UploadRecord>("MarkdownUploadAdmin").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    size: t.exposeInt("size"),
    filename: t.exposeString("filename"),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    uploaded_by: t.field({
      type: UploadedByEntity,
      nullable: true,
      resolve: (upload, _a, ctx) => (upload.uploadedById === null ? null : ctx.loaders.get(userLoader).load(upload.uploadedById)),
    }),
  }),
});

const PARENTS = [
  { name: "project", path: "projects", find: findProject, findToWrite: findProjectToWrite },
  { name: "group", path: "groups", find: findGroup, findToWrite: findGroupToWrite },
] as const;

type Finder = (ctx: Context, id: string) => Promise<GroupOrProjectAccess>;

const sendFile = async (ctx: Context, upload: UploadRecord) => {
  ctx.rest.download = await uploadDownload(ctx, upload);
  return upload.filename;
};

for (const parent of PARENTS) {
  const find = parent.find as Finder;
  const findToWrite = parent.findToWrite as Finder;
  const base = `/${parent.path}/:id/uploads`;
  builder.queryFields((t) => ({
    [`${parent.name}Uploads`]: t.field({
      type: [UploadAdminEntity],
      extensions: { rest: route.get(base) },
      args: { id: t.arg.id({ required: true }), ...pageArgs },
      resolve: async (_r, { id, ...page }, ctx) => rowsOf(ctx, await listUploads(ctx, await find(ctx, String(id)), page)),
    }),
    [`${parent.name}UploadFile`]: t.string({
      extensions: { rest: route.get(`${base}/:upload_id`, { download: true }) },
      args: { id: t.arg.id({ required: true }), upload_id: t.arg.int({ required: true }) },
      resolve: async (_r, args, ctx) => sendFile(ctx, (await findUploadById(ctx, await find(ctx, String(args.id)), args.upload_id)).upload),
    }),
    [`${parent.name}UploadFileBySecret`]: t.string({
      extensions: { rest: route.get(`${base}/:secret/:filename`, { download: true }) },
      args: { id: t.arg.id({ required: true }), secret: t.arg.string({ required: true }), filename: t.arg.string({ required: true }) },
      resolve: async (_r, args, ctx) =>
        sendFile(ctx, (await findUploadBySecret(ctx, await find(ctx, String(args.id)), args.secret, args.filename)).upload),
    }),
  }));
  builder.mutationFields((t) => ({
    [`create${capitalized(parent.name)}Upload`]: t.field({
      type: UploadMarkdownEntity,
      extensions: { rest: route.post(base) },
      args: { id: t.arg.id({ required: true }), file: t.arg({ type: "Upload", required: true }) },
      resolve: async (_r, args, ctx) =>
        uploadMarkdown(await createUpload(ctx, await findToWrite(ctx, String(args.id)), args.file as unknown as Promise<UploadedFile>)),
    }),
    [`delete${capitalized(parent.name)}Upload`]: t.boolean({
      extensions: { rest: route.del(`${base}/:upload_id`) },
      args: { id: t.arg.id({ required: true }), upload_id: t.arg.int({ required: true }) },
      resolve: async (_r, args, ctx) => {
        await deleteUpload(ctx, await findUploadById(ctx, await findToWrite(ctx, String(args.id)), args.upload_id));
        return true;
      },
    }),
    [`delete${capitalized(parent.name)}UploadBySecret`]: t.boolean({
      extensions: { rest: route.del(`${base}/:secret/:filename`) },
      args: { id: t.arg.id({ required: true }), secret: t.arg.string({ required: true }), filename: t.arg.string({ required: true }) },
      resolve: async (_r, args, ctx) => {
        await deleteUpload(ctx, await findUploadBySecretToDelete(ctx, await findToWrite(ctx, String(args.id)), args.secret, args.filename));
        return true;
      },
    }),
  }));
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
