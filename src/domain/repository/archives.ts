// GET /projects/:id/repository/archive[.format] (lib/api/repositories.rb, Repository#archive_metadata,
// Workhorse's send-archive): the tree of a commit, or of one path in it, as a tar, tar.gz, tar.bz2 or
// zip whose files sit under one folder named `<project path>-<ref>-<sha>[-<path>]`, the file's name
// too. Streamed from `git archive` (through `bzip2` for tar.bz2), never held in memory; the
// processes are killed when the answer is abandoned. Whatever fails before the first byte is
// GitLab's `404 File Not Found`.
import { spawn, type ChildProcess } from "node:child_process";
import { PassThrough, type Readable } from "node:stream";
import { notFound, routeNotFound } from "../../errors.js";
import { spawnGit } from "../../git/command.js";
import type { ProjectAccess } from "../shared/parents.js";
import type { DomainContext } from "../shared/context.js";
import type { Download } from "../shared/downloads.js";
import { repositoryOf, resolveCommitSha, type GitRepository } from "./git.js";

export type ArchiveKind = "tar.gz" | "tar.bz2" | "tar" | "zip";

/** Gitlab::PathRegex.archive_formats_regex, and the archive each name gives. */
const FORMATS: Record<string, ArchiveKind> = {
  zip: "zip", tar: "tar", "tar.gz": "tar.gz", tgz: "tar.gz", gz: "tar.gz",
  "tar.bz2": "tar.bz2", tbz: "tar.bz2", tbz2: "tar.bz2", tb2: "tar.bz2", bz2: "tar.bz2",
};

/** `archive.<format>`: a name outside the route's requirement matches no route at all. */
export function archiveKindOfExtension(extension: string): ArchiveKind {
  const kind = FORMATS[extension];
  if (!kind) throw routeNotFound();
  return kind;
}

/** The `format` param of `archive`: anything unknown is a tar.gz. */
export const archiveKindOfParam = (format: string | null | undefined): ArchiveKind => FORMATS[(format ?? "").toLowerCase()] ?? "tar.gz";

export interface ArchiveRequest {
  /** a commit, branch or tag (default: the default branch) */
  sha?: string | null;
  /** only this folder (or file) of the tree */
  path?: string | null;
  /** folders and files left out */
  exclude_paths?: readonly string[] | null;
}

/** The archive's file name, and the file to send. */
export interface ArchiveFile {
  fileName: string;
  download: Download;
}

const fileNotFound = () => notFound("File");

/** The archive of a project whose repository the caller may read (findRepositoryProject). */
export async function repositoryArchive(ctx: DomainContext, { project }: ProjectAccess, kind: ArchiveKind, request: ArchiveRequest): Promise<ArchiveFile> {
  const repo = repositoryOf(ctx, project.id);
  const ref = request.sha || project.defaultBranch;
  const sha = await resolveCommitSha(repo, ref);
  if (!sha) throw fileNotFound();
  const pathspecs = await archivePathspecs(repo, sha, request);
  const prefix = [project.path, ref.replaceAll("/", "-"), sha, ...(request.path ? [request.path.replaceAll("/", "-")] : [])].join("-");
  const fileName = `${prefix}.${kind}`;
  const headers = {
    "Content-Type": kind === "zip" ? "application/zip" : "application/octet-stream",
    "Content-Disposition": attachment(fileName),
    "Content-Transfer-Encoding": "binary",
  };
  return { fileName, download: { headers, open: () => archiveStream(repo.gitDir, kind, prefix, sha, pathspecs) } };
}

/**
 * Pathspecs for git archive, built from the entries found (never from the request's text): Gitaly
 * refuses a path or an excluded path that the commit does not have.
 */
async function archivePathspecs(repo: GitRepository, sha: string, request: ArchiveRequest): Promise<string[]> {
  const pathspecs: string[] = [];
  const find = async (path: string) => {
    const entry = await repo.entryAt(sha, path);
    if (!entry || !entry.path) throw fileNotFound();
    return entry.path;
  };
  if (request.path) pathspecs.push(`:(literal)${await find(request.path)}`);
  for (const excluded of request.exclude_paths ?? []) pathspecs.push(`:(exclude,literal)${await find(excluded)}`);
  return pathspecs;
}

/** Workhorse's `attachment; filename="..."`; a name that is not plain ASCII also goes in RFC 5987's `filename*`. */
function attachment(fileName: string): string {
  if (/^[\x20-\x7e]*$/.test(fileName) && !/["\\]/.test(fileName)) return `attachment; filename="${fileName}"`;
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

function archiveStream(gitDir: string, kind: ArchiveKind, prefix: string, sha: string, pathspecs: string[]): Readable {
  const format = kind === "tar.bz2" ? "tar" : kind;
  const args = [`--git-dir=${gitDir}`, "archive", `--format=${format}`, `--prefix=${prefix}/`, sha];
  const git = spawnGit(pathspecs.length ? [...args, "--", ...pathspecs] : args);
  git.stdin!.end();
  if (kind !== "tar.bz2") return outputOf([git], git.stdout!);
  // apart from the server's process group, as git is (spawnGit): a Ctrl-C lets the download finish
  const bzip2 = spawn("bzip2", ["-c"], { detached: true, stdio: ["pipe", "pipe", "pipe"] });
  git.stdout!.pipe(bzip2.stdin!);
  bzip2.stdin!.on("error", () => {}); // bzip2 gone: its own exit reports it
  return outputOf([git, bzip2], bzip2.stdout!);
}

/**
 * The last process's output as one stream that ends only once every process exited cleanly (a
 * failure midway errors the stream rather than ending a truncated archive), and whose destruction
 * (the client went away) kills the processes.
 */
function outputOf(processes: ChildProcess[], source: Readable): Readable {
  const output = new PassThrough({
    destroy(error, callback) {
      for (const child of processes) if (child.exitCode === null && child.signalCode === null) child.kill();
      callback(error);
    },
  });
  let pending = processes.length + 1;
  const settle = () => {
    if (--pending === 0) output.end();
  };
  source.pipe(output, { end: false });
  source.on("end", settle);
  for (const child of processes) {
    child.stderr!.resume();
    child.on("error", (error) => output.destroy(error));
    child.on("close", (code, signal) => (code === 0 ? settle() : output.destroy(new Error(`${child.spawnfile} ended with ${code ?? signal}`))));
  }
  return output;
}
