// Avatar images (groups, topics, users): checked by content, size-limited as GitLab (200 KiB),
// stored under the uploads directory and served at /uploads/-/system/<owner>/avatar/<id>/<file>.
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { fileTypeFromBuffer } from "file-type";
import { validationError } from "../errors.js";
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

/** Reads and checks an uploaded avatar before anything is changed: 400 {"message":{"avatar":[...]}}. */
export async function checkAvatar(upload: FileUpload | Promise<FileUpload>): Promise<CheckedAvatar> {
  const file = await upload;
  const bytes = await readLimited(file.createReadStream(), AVATAR_MAX_BYTES);
  if (!bytes) throw validationError({ avatar: ["is too big (should be at most 200 KiB)"] });
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !IMAGE_EXTENSIONS[type.ext]) throw validationError({ avatar: [FORMAT_MESSAGE] });
  return { bytes, filename: safeFilename(file.filename, type.ext) };
}

/** The whole stream, or null as soon as it exceeds `limit` bytes. */
async function readLimited(stream: Readable, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > limit) {
      stream.destroy();
      return null;
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

function safeFilename(name: string, ext: string): string {
  const base = path.basename(name || "avatar").replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "") || "avatar";
  return path.extname(base) ? base : `${base}.${ext}`;
}

/** Writes the avatar (atomically) and returns its path relative to the uploads directory. */
export async function storeAvatar(services: Services, owner: AvatarOwner, id: number, avatar: CheckedAvatar): Promise<string> {
  const relative = path.posix.join(owner, "avatar", String(id), avatar.filename);
  const target = path.join(services.config.uploadsDir, relative);
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, avatar.bytes);
  await rename(temporary, target);
  return relative;
}

/** Removes a stored avatar file; a missing file is not an error. */
export async function removeAvatarFile(services: Services, relative: string | null | undefined): Promise<void> {
  if (relative) await rm(path.join(services.config.uploadsDir, relative), { force: true });
}

export function avatarUrl(services: Services, relative: string | null | undefined): string | null {
  return relative ? `${services.config.publicUrl}/uploads/-/system/${relative}` : null;
}

/** Reads a stored avatar for serving; null when the path is unknown or escapes the directory. */
export async function readStoredAvatar(services: Services, relative: string): Promise<{ bytes: Buffer; type: string } | null> {
  const root = path.resolve(services.config.uploadsDir);
  const file = path.resolve(root, relative);
  const ext = path.extname(file).slice(1).toLowerCase();
  const type = IMAGE_EXTENSIONS[ext === "jpeg" ? "jpg" : ext === "tiff" ? "tif" : ext];
  if (!file.startsWith(root + path.sep) || !type) return null;
  try {
    return { bytes: await readFile(file), type };
  } catch {
    return null;
  }
}
