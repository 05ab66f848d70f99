// Blobs of a project's repository: read whole (small ones through the repository's cat-file
// process, bigger ones by a git process of their own), streamed, hashed; the type and disposition
// a raw blob is sent with (Workhorse's rules); and the blobs API (lib/api/repositories.rb): a blob
// by id as JSON or raw. Only this project's repository is asked, so another project's blob id is
// not found.
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { notFound } from "../../errors.js";
import type { ObjectInfo } from "../../git/cat-file.js";
import { runGit, spawnGit } from "../../git/command.js";
import { findProject, type ProjectAccess } from "../shared/parents.js";
import type { DomainContext } from "../shared/context.js";
import { checkRateLimit } from "../shared/rate-limit.js";
import { rawTypeOf, SNIFF_BYTES, type Disposition } from "../shared/content-headers.js";
import { requireReadCode } from "./access.js";
import { repositoryOf, type GitRepository } from "./git.js";

/** GitLab's MAX_BLOB_SIZE: a JSON answer carrying a bigger blob counts against large_blob_download. */
export const MAX_BLOB_SIZE = 10 * 1024 * 1024;
const LARGE_BLOB_DOWNLOADS_PER_MINUTE = 5;

/** Blobs up to this size are held in memory; raw answers stream bigger ones. */
const BUFFERED_BLOB_BYTES = 1024 * 1024;

/** A blob found in the repository, with its content when it is small enough to hold. */
export interface LoadedBlob {
  sha: string;
  size: number;
  content: Buffer | null;
}

export async function loadBlob(repo: GitRepository, info: ObjectInfo): Promise<LoadedBlob> {
  const content = info.size <= BUFFERED_BLOB_BYTES ? await repo.blob(info.sha) : null;
  return { sha: info.sha, size: info.size, content };
}

/** The whole content, however big (callers rate-limit big ones first). */
export async function blobContent(repo: GitRepository, blob: LoadedBlob): Promise<Buffer> {
  if (blob.content) return blob.content;
  return (await runGit(repo.gitDir, ["cat-file", "blob", blob.sha], { maxOutput: blob.size })).stdout;
}

/** The content as a stream from its own `git cat-file` (killed when the reader stops early). */
export function blobStream(repo: GitRepository, sha: string): Readable {
  const child = spawnGit([`--git-dir=${repo.gitDir}`, "cat-file", "blob", sha]);
  const stdout = child.stdout!;
  child.stdin!.end();
  child.stderr!.resume();
  child.once("error", (error) => stdout.destroy(error));
  child.once("exit", (code) => {
    if (code) stdout.destroy(new Error(`git cat-file blob ${sha} exited with ${code}`));
  });
  stdout.once("close", () => {
    if (child.exitCode === null) child.kill();
  });
  return stdout;
}

async function blobHead(repo: GitRepository, blob: LoadedBlob, bytes: number): Promise<Buffer> {
  if (blob.content) return blob.content.subarray(0, bytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of blobStream(repo, blob.sha)) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= bytes) break; // leaving the loop destroys the stream, which stops git
  }
  return Buffer.concat(chunks).subarray(0, bytes);
}

export function blobSha256(repo: GitRepository, blob: LoadedBlob): Promise<string> {
  return repo.remember(`sha256\0${blob.sha}`, async () => {
    const hash = createHash("sha256");
    if (blob.content) return hash.update(blob.content).digest("hex");
    for await (const chunk of blobStream(repo, blob.sha)) hash.update(chunk);
    return hash.digest("hex");
  });
}

/** check_rate_limit_for_blob: over MAX_BLOB_SIZE, 5 JSON answers a minute per project. */
export async function limitLargeBlob(ctx: DomainContext, projectId: number, size: number): Promise<void> {
  if (size <= MAX_BLOB_SIZE) return;
  await checkRateLimit(ctx.db, ctx.now(), `large_blob_download:${projectId}`, LARGE_BLOB_DOWNLOADS_PER_MINUTE);
}

// --- raw answers


/** A blob sent as it is: what Workhorse makes of its first bytes, and a way to read it. */
export interface RawBlob {
  size: number;
  contentType: string;
  disposition: Disposition;
  /** the whole content for small blobs, a git process's output for big ones */
  open(): Buffer | Readable;
}

export async function rawBlob(repo: GitRepository, blob: LoadedBlob): Promise<RawBlob> {
  const type = await rawTypeOf(await blobHead(repo, blob, SNIFF_BYTES));
  return { size: blob.size, ...type, open: () => blob.content ?? blobStream(repo, blob.sha) };
}

// --- blobs API

/** A blob of a project's repository, found by findBlob. */
export interface FoundBlob {
  access: ProjectAccess;
  repo: GitRepository;
  info: ObjectInfo;
}

/** GET /projects/:id/repository/blobs/:sha[/raw]: the blob named by a full or abbreviated id, for a caller who may read the code. */
export async function findBlob(ctx: DomainContext, id: string, sha: string): Promise<FoundBlob> {
  const access = await findProject(ctx, id);
  requireReadCode(ctx, access);
  const repo = repositoryOf(ctx, access.project.id);
  const info = /^[0-9a-f]{4,40}$/i.test(sha) ? await repo.info(sha.toLowerCase()) : null;
  if (info?.type !== "blob") throw notFound("Blob");
  return { access, repo, info };
}

/** GitLab's blob answer: size, base64 content and the full id. */
export interface BlobView {
  size: number;
  encoding: "base64";
  content: string;
  sha: string;
}

/** GET /projects/:id/repository/blobs/:sha */
export async function blobView(ctx: DomainContext, { access, repo, info }: FoundBlob): Promise<BlobView> {
  await limitLargeBlob(ctx, access.project.id, info.size);
  const content = await blobContent(repo, await loadBlob(repo, info));
  return { size: info.size, encoding: "base64", content: content.toString("base64"), sha: info.sha };
}

/** GET /projects/:id/repository/blobs/:sha/raw */
export async function rawBlobOf({ repo, info }: FoundBlob): Promise<RawBlob> {
  return rawBlob(repo, await loadBlob(repo, info));
}
