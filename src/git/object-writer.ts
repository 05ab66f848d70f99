// Writes objects into a repository as loose objects (git's own format: zlib of "<type> <size>\0"
// and the body, at objects/<2 hex>/<38 hex>), so that a commit through the API costs no process
// starts: only the ref update runs git. Written to a temporary file and renamed, so a reader never
// sees half an object; an object already there is left alone (same name, same bytes).
import { createHash, randomBytes } from "node:crypto";
import { mkdir, rename, stat, writeFile, unlink } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { deflate } from "node:zlib";
import type { ObjectType } from "./objects.js";

const deflateAsync = promisify(deflate);

export function objectSha(type: ObjectType, body: Buffer): string {
  return createHash("sha1").update(`${type} ${body.length}\0`).update(body).digest("hex");
}

export async function writeLooseObject(gitDir: string, type: ObjectType, body: Buffer): Promise<string> {
  const sha = objectSha(type, body);
  const folder = path.join(gitDir, "objects", sha.slice(0, 2));
  const file = path.join(folder, sha.slice(2));
  if (await exists(file)) return sha;
  await mkdir(folder, { recursive: true });
  const temporary = path.join(folder, `tmp_obj_${randomBytes(6).toString("hex")}`);
  const compressed = await deflateAsync(Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]), { level: 1 });
  try {
    await writeFile(temporary, compressed, { mode: 0o444 });
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
  return sha;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
