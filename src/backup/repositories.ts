// The repositories part of a backup, as GitLab's backup does it: each bare repository as a
// `git bundle` of all its refs plus its own small files (config, HEAD, description, info/).
// Copying objects/ and refs/ file by file while a push or `gc` runs can store a ref whose objects
// were not copied, or miss a pack that a repack replaced; `git bundle create` reads the refs once
// and packs every object they reach, so each repository in the archive is whole and consistent
// (as of the moment its refs were read). Empty repositories (no refs) have no bundle.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { cp, mkdir } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

/** git without the user's or the system's configuration, never prompting. */
async function git(gitDir: string, args: string[]): Promise<string> {
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" };
  const { stdout } = await promisify(execFile)("git", [`--git-dir=${gitDir}`, ...args], { env, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** Held by the bundle (objects, refs) or transient (locks, fetch results): not copied as files. */
const NOT_COPIED = new Set(["objects", "refs", "packed-refs", "logs", "FETCH_HEAD", "ORIG_HEAD", "gc.pid", "gc.log"]);
const isTransient = (name: string) => name.endsWith(".lock") || name.endsWith(".tmp");

/**
 * The bare repositories under `root` (folders named *.git holding a HEAD), relative to it. A
 * folder a repository is being created in (`<path>.git.<random>.tmp`, see src/git/store.ts) is skipped.
 */
export function findRepositories(root: string, relative = ""): string[] {
  const folder = path.join(root, relative);
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !isTransient(entry.name))
    .flatMap((entry) => {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.name.endsWith(".git") && existsSync(path.join(root, child, "HEAD"))) return [child];
      return findRepositories(root, child);
    });
}

export interface RepositoriesBackup {
  repositories: string[];
  bundled: number;
}

/**
 * Writes each repository under `root` into `into` as `<path>/` (its files) and `<path>.bundle`.
 * A repository removed while the backup runs (its project deleted) is left out.
 */
export async function backupRepositories(root: string, into: string): Promise<RepositoriesBackup> {
  const repositories: string[] = [];
  let bundled = 0;
  for (const repository of findRepositories(root)) {
    const [gitDir, target] = [path.join(root, repository), path.join(into, repository)];
    try {
      if (await backupRepository(gitDir, target)) bundled++;
      repositories.push(repository);
    } catch (error) {
      if (existsSync(path.join(gitDir, "HEAD"))) throw error;
      rmSync(target, { recursive: true, force: true });
      rmSync(`${target}.bundle`, { force: true });
    }
  }
  return { repositories, bundled };
}

/** False when the repository has no refs (nothing to bundle). */
async function backupRepository(gitDir: string, target: string): Promise<boolean> {
  await mkdir(target, { recursive: true });
  await cp(gitDir, target, {
    recursive: true,
    filter: (source) => source === gitDir || !isSkipped(path.relative(gitDir, source)),
  });
  const hasRefs = (await git(gitDir, ["for-each-ref", "--count=1", "--format=%(refname)"])).trim() !== "";
  if (!hasRefs) return false;
  await git(gitDir, ["bundle", "create", "--quiet", `${target}.bundle`, "--all"]);
  return true;
}

function isSkipped(relative: string): boolean {
  const first = relative.split(path.sep)[0];
  return NOT_COPIED.has(first) || isTransient(path.basename(relative));
}

/** Restores every repository of `from` (a backup's repositories/ folder) under `root`. */
export async function restoreRepositories(from: string, repositories: string[], root: string): Promise<void> {
  for (const repository of repositories) await restoreRepository(path.join(from, repository), path.join(root, repository));
}

async function restoreRepository(saved: string, gitDir: string): Promise<void> {
  await cp(saved, gitDir, { recursive: true, errorOnExist: true, force: false });
  for (const folder of ["objects/info", "objects/pack", "refs/heads", "refs/tags"]) await mkdir(path.join(gitDir, folder), { recursive: true });
  if (!existsSync(`${saved}.bundle`)) return;
  // no gc in the background: the restore is over when this returns
  await git(gitDir, ["-c", "gc.auto=0", "-c", "maintenance.auto=false", "fetch", "--quiet", "--no-write-fetch-head", `${saved}.bundle`, "+refs/*:refs/*"]);
}

/** Whether `folder` exists and holds anything. */
export function hasContent(folder: string): boolean {
  return existsSync(folder) && readdirSync(folder).length > 0;
}

/** Removes what a failed restore wrote into a folder that was empty. */
export function emptyFolder(folder: string): void {
  if (!existsSync(folder)) return;
  for (const entry of readdirSync(folder)) rmSync(path.join(folder, entry), { recursive: true, force: true });
}
