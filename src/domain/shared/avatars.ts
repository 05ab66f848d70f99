// Avatar images (groups, topics, users): checked by content, size-limited as GitLab (200 KiB),
// stored in the database (table StoredFile: every server process reaches it, no shared filesystem
// is needed) and served at /uploads/-/system/<owner>/avatar/<id>/<file>.
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { fileTypeFromBuffer } from "file-type";
import { validationError } from "../../errors.js";
import type { Prisma } from "../../generated/prisma/client.js";
import type { Services } from "./context.js";

export const AVATAR_MAX_BYTES = 200 * 1024;
const IMAGE_EXTENSIONS: Record<string, string> = {
  png: "image/png", jpg: "image/jpeg", gif: "image/gif", bmp: "image/bmp", tif: "image/tiff", ico: "image/x-icon", webp: "image/webp",
};
const FORMAT_MESSAGE =
  "file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp";

/** What an Upload resolves to (graphql-upload-minimal's FileUpload). */
export interface FileUpload {
  filename: string;
  createReadStream(): Readable;
}

export type AvatarOwner = "group" | "topic" | "user";

export interface CheckedAvatar {
  bytes: Buffer;
  filename: string;
}

export type AvatarCheck = { avatar: CheckedAvatar } | { errors: { avatar: string[] } };

/** Reads an uploaded avatar and checks it by content: the model errors GitLab would report, if any. */
export async function inspectAvatar(upload: FileUpload | Promise<FileUpload>): Promise<AvatarCheck> {
  const file = await upload;
  const bytes = await readUpload(file, AVATAR_MAX_BYTES);
  if (!bytes) return { errors: { avatar: ["is too big (should be at most 200 KiB)"] } };
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !IMAGE_EXTENSIONS[type.ext]) return { errors: { avatar: [FORMAT_MESSAGE] } };
  return { avatar: { bytes, filename: safeFilename(file.filename, type.ext) } };
}

/** Reads and checks an uploaded avatar before anything is changed: 400 {"message":{"avatar":[...]}}. */
export async function checkAvatar(upload: FileUpload | Promise<FileUpload>): Promise<CheckedAvatar> {
  const checked = await inspectAvatar(upload);
  if ("errors" in checked) throw validationError(checked.errors);
  return checked.avatar;
}

/**
 * The file's bytes, or null when it exceeds `limit` bytes, also when the multipart parser already
 * cut it at its own size limit (graphql-upload-minimal then throws an HTTP 413 error).
 */
async function readUpload(file: FileUpload, limit: number): Promise<Buffer | null> {
  try {
    return await readLimited(file.createReadStream(), limit);
  } catch (error) {
    if ((error as { status?: number }).status === 413) return null;
    throw error;
  }
}

/**
 * The whole stream, or null when it exceeds `limit` bytes. Past the limit the rest is still read
 * (and dropped) so that a multipart parser feeding the stream is never left waiting.
 */
async function readLimited(stream: Readable, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size <= limit) chunks.push(Buffer.from(chunk));
  }
  return size > limit ? null : Buffer.concat(chunks);
}

const EXTENSION_SPELLINGS: Record<string, string[]> = { jpg: ["jpg", "jpeg"], tif: ["tif", "tiff"] };

/**
 * The caller's filename made safe, with an extension that matches the content (python-gitlab calls
 * every avatar avatar.png): the file is served with the type of its extension.
 */
function safeFilename(name: string, ext: string): string {
  const base = path.basename(name || "avatar").replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "") || "avatar";
  const current = path.extname(base);
  if ((EXTENSION_SPELLINGS[ext] ?? [ext]).includes(current.slice(1).toLowerCase())) return base;
  return `${base.slice(0, base.length - current.length) || "avatar"}.${ext}`;
}

/**
 * The client an avatar row is written with: the open transaction of its owner's save, so that the
 * row commits or rolls back with the owner (on SQLite, a query through another client while an
 * interactive transaction is open would wait for it forever), or the database client.
 */
export type FileStore = Pick<Prisma.TransactionClient, "storedFile">;

/** Writes the avatar's row and returns its path (relative to /uploads/-/system/). */
export async function storeAvatar(files: FileStore, owner: AvatarOwner, id: number, avatar: CheckedAvatar): Promise<string> {
  const relative = path.posix.join(owner, "avatar", String(id), avatar.filename);
  const content = new Uint8Array(avatar.bytes);
  await files.storedFile.upsert({ where: { path: relative }, create: { path: relative, content }, update: { content } });
  return relative;
}

/** Removes a stored avatar, and its legacy file if any; a missing one is not an error. */
export async function removeAvatarFile(services: Services, relative: string | null | undefined): Promise<void> {
  if (!relative) return;
  await services.db.storedFile.deleteMany({ where: { path: relative } });
  await rm(path.join(services.config.uploadsDir, relative), { force: true });
}

/**
 * Stores the new avatar of owner `id` with `files` (the transaction saving the owner, if any): its
 * relative path, null to remove it, undefined to keep it.
 */
export type StoreAvatar = (files: FileStore, id: number) => Promise<string | null | undefined>;

/**
 * Changes an owner's avatar around the database write `save`, which calls the given StoreAvatar
 * once it knows the owner's id and saves the returned path. `next` is the checked new avatar, null
 * to remove it, undefined to keep it. An avatar written for a failed save is removed again (one
 * written inside the save's transaction is already rolled back); the previous avatar is removed
 * only once the save has succeeded.
 */
export async function changeAvatar<T>(
  services: Services,
  owner: AvatarOwner,
  previous: string | null,
  next: CheckedAvatar | null | undefined,
  save: (store: StoreAvatar) => Promise<T>,
): Promise<T> {
  const written: { path: string | null } = { path: null };
  const store: StoreAvatar = async (files, id) => {
    if (next === undefined) return undefined;
    written.path = next ? await storeAvatar(files, owner, id, next) : null;
    return written.path;
  };
  let result: T;
  try {
    result = await save(store);
  } catch (error) {
    // the same filename overwrote the previous avatar in place: that path stays referenced
    if (written.path !== previous) await removeAvatarFile(services, written.path);
    throw error;
  }
  if (next !== undefined && written.path !== previous) await removeAvatarFile(services, previous);
  return result;
}

export function avatarUrl(services: Pick<Services, "config">, relative: string | null | undefined): string | null {
  return relative ? `${services.config.publicUrl}/uploads/-/system/${relative}` : null;
}

/** Reads a stored avatar for serving; null when the path is unknown or escapes the uploads root. */
export async function readStoredAvatar(services: Services, relative: string): Promise<{ bytes: Buffer; type: string } | null> {
  const root = path.resolve(services.config.uploadsDir);
  const file = path.resolve(root, relative);
  const ext = path.extname(file).slice(1).toLowerCase();
  const type = IMAGE_EXTENSIONS[ext === "jpeg" ? "jpg" : ext === "tiff" ? "tif" : ext];
  if (!file.startsWith(root + path.sep) || !type) return null;
  const key = path.relative(root, file).split(path.sep).join("/");
  const row = await services.db.storedFile.findUnique({ where: { path: key }, select: { content: true } });
  if (row) return { bytes: Buffer.from(row.content), type };
  // avatars stored before they moved to the database are files under the uploads directory
  try {
    return { bytes: await readFile(file), type };
  } catch {
    return null;
  }
}

/** An `avatar` argument as a change: undefined keeps, null removes, an upload is read and checked. */
export interface AvatarArg {
  next: CheckedAvatar | null | undefined;
  /** model errors to report with the owner's other validation errors */
  errors: { avatar?: string[] };
}

export async function readAvatarArg(upload: FileUpload | Promise<FileUpload> | null | undefined): Promise<AvatarArg> {
  if (upload == null) return { next: upload, errors: {} };
  const checked = await inspectAvatar(upload);
  return "errors" in checked ? { next: undefined, errors: checked.errors } : { next: checked.avatar, errors: {} };
}
