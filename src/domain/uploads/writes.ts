// Uploading a file to attach to markdown (GitLab's UploadService) and deleting an upload
// (Uploads::DestroyService).
import type { Readable } from "node:stream";
import { validationError } from "../../errors.js";
import type { DomainContext } from "../shared/context.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { GroupOrProjectAccess } from "../shared/parents.js";
import { newSecret, ownerOf, UPLOAD_COLUMNS, type FoundUpload, type UploadRecord } from "./queries.js";
import { requireAdministerUploads, sanitizedFilename } from "./rules.js";

/** What an Upload argument resolves to (graphql-upload-minimal's FileUpload). */
export interface UploadedFile {
  filename: string;
  createReadStream(): Readable;
}

/**
 * POST .../uploads: any signed-in caller who may see the parent (GitLab's upload_file: Guests of a
 * private project, anyone signed in on a public one). The size is bounded by the request body's.
 */
export async function createUpload(ctx: DomainContext, parent: GroupOrProjectAccess, file: UploadedFile | Promise<UploadedFile>): Promise<UploadRecord> {
  const actor = requireAuthenticated(ctx);
  const { filename, createReadStream } = await file;
  const name = sanitizedFilename(filename ?? "");
  if (!name || name === "." || name === "..") throw validationError({ file: ["is invalid"] });
  const content = await readAll(createReadStream());
  return ctx.db.upload.create({
    data: { ...ownerOf(parent), secret: newSecret(), filename: name, size: content.length, content: new Uint8Array(content), uploadedById: actor.user.id },
    select: UPLOAD_COLUMNS,
  });
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** DELETE .../uploads/:upload_id and .../uploads/:secret/:filename: Maintainers and above. */
export async function deleteUpload(ctx: DomainContext, { parent, upload }: FoundUpload): Promise<void> {
  requireAdministerUploads(ctx, parent);
  await ctx.db.upload.deleteMany({ where: { id: upload.id } });
}
