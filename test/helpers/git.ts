// What `git` itself says about a project's bare repository (the expected answers of repository
// tests), objects written with git's plumbing, and archives unpacked with tar and unzip.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestApp } from "./app.js";

export interface GitTreeEntry {
  mode: string;
  type: "blob" | "tree" | "commit";
  sha: string;
  path: string;
}

const GIT_ENV = { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", LC_ALL: "C" };

/** git on the bare repository of a project. */
export function gitOf(t: TestApp, projectId: number) {
  const gitDir = t.services.git.pathOf(projectId);
  const run = (args: string[], options: { input?: string | Buffer; env?: Record<string, string> } = {}): Buffer =>
    execFileSync("git", [`--git-dir=${gitDir}`, ...args], {
      input: options.input,
      env: { ...process.env, ...GIT_ENV, ...options.env },
      maxBuffer: 256 * 1024 * 1024,
    });
  const text = (...args: string[]) => run(args).toString("utf8").replace(/\n$/, "");
  /** standard output as bytes */
  const bytes = (...args: string[]) => run(args);
  /** `text` with `input` on standard input */
  const withInput = (input: string | Buffer, ...args: string[]) => run(args, { input }).toString("utf8").replace(/\n$/, "");
  const lines = (...args: string[]) => {
    const out = text(...args);
    return out ? out.split("\n") : [];
  };
  /** `git ls-tree -z [args] <treeish>` as entries. */
  const lsTree = (...args: string[]): GitTreeEntry[] =>
    run(["ls-tree", "-z", ...args])
      .toString("utf8")
      .split("\0")
      .filter(Boolean)
      .map((record) => {
        const tab = record.indexOf("\t");
        const [mode, type, sha] = record.slice(0, tab).split(" ") as [string, GitTreeEntry["type"], string];
        return { mode, type, sha, path: record.slice(tab + 1) };
      });
  /** A commit written with git's plumbing (no ref moved), dated as asked. */
  const commitTree = (tree: string, parents: string[], message: string, date = "2024-01-01T00:00:00Z", who = "Plumber <plumber@example.com>") => {
    const [name, email] = [who.replace(/ <.*$/, ""), who.replace(/^.*<|>$/g, "")];
    const env = { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_AUTHOR_DATE: date, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email, GIT_COMMITTER_DATE: date };
    return run(["commit-tree", tree, ...parents.flatMap((p) => ["-p", p]), "-m", message], { env }).toString("utf8").trim();
  };
  const writeBlob = (content: Buffer | string) => run(["hash-object", "-w", "--stdin"], { input: content }).toString("utf8").trim();
  /** `git mktree` of "<mode> <type> <sha>\t<name>" lines. */
  const mkTree = (entries: string[]) => run(["mktree"], { input: entries.map((e) => `${e}\n`).join("") }).toString("utf8").trim();
  return { gitDir, run, text, bytes, withInput, lines, lsTree, commitTree, writeBlob, mkTree };
}

export type Git = ReturnType<typeof gitOf>;

export interface UnpackedFile {
  content: Buffer;
  executable: boolean;
}

/** An archive unpacked with the system's tar (which detects gzip and bzip2) or unzip: its files by path. */
export function unpack(archive: Buffer, kind: "tar" | "zip"): Map<string, UnpackedFile> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "forgeline-archive-"));
  const file = path.join(dir, kind === "zip" ? "archive.zip" : "archive.tar");
  writeFileSync(file, archive);
  const out = path.join(dir, "out");
  execFileSync("mkdir", [out]);
  if (kind === "zip") execFileSync("unzip", ["-q", file, "-d", out]);
  else execFileSync("tar", ["-xf", file, "-C", out]);
  const files = new Map<string, UnpackedFile>();
  const walk = (at: string, relative: string) => {
    for (const name of readdirSync(at)) {
      const full = path.join(at, name);
      const rel = relative ? `${relative}/${name}` : name;
      const stat = statSync(full);
      if (stat.isDirectory()) walk(full, rel);
      else files.set(rel, { content: readFileSync(full), executable: (stat.mode & 0o100) !== 0 });
    }
  };
  walk(out, "");
  return files;
}

/** Command lines of running processes that mention `text`. */
export function processesMentioning(text: string): string[] {
  return execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(text) && !line.startsWith("ps "));
}
