// The real `git` command against a running server: clones and pushes over HTTP, as a developer
// would run them (no credential prompt, a fixed identity, no user or system configuration).
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { RunningServer } from "./server.js";

export interface GitRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const IDENTITY = { GIT_AUTHOR_NAME: "Dev Eloper", GIT_AUTHOR_EMAIL: "dev@example.com", GIT_COMMITTER_NAME: "Dev Eloper", GIT_COMMITTER_EMAIL: "dev@example.com" };

function environment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith("GIT_")) env[name] = value;
  return { ...env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", ...IDENTITY, ...extra };
}

/** Runs git in `cwd`; never throws for git's own failures (the test reads code and stderr). */
export function git(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd: options.cwd, env: environment(options.env ?? {}) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.on("error", () => {}); // git may exit before it reads its input
    child.stdin.end(options.input ?? "");
  });
}

/** git, failing the test with git's own message when it fails. */
export async function gitOk(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<string> {
  const run = await git(args, options);
  if (run.code !== 0) throw new Error(`git ${args.join(" ")} failed (${run.code}):\n${run.stderr}`);
  return run.stdout;
}

export const workDir = (prefix = "forgeline-git-") => mkdtempSync(path.join(os.tmpdir(), prefix));

/** The HTTP clone URL of a project, with credentials when given (`user:password@`). */
export function cloneUrl(server: RunningServer, fullPath: string, credentials?: { user: string; password: string }): string {
  const auth = credentials ? `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@` : "";
  return `http://${auth}127.0.0.1:${server.port}/${fullPath}.git`;
}

/** Commits a file in the work tree `cwd` and returns the new commit's id. */
export async function commitFile(cwd: string, file: string, content: string, message = `Change ${file}`): Promise<string> {
  const fs = await import("node:fs/promises");
  await fs.mkdir(path.dirname(path.join(cwd, file)), { recursive: true });
  await fs.writeFile(path.join(cwd, file), content);
  await gitOk(["add", file], { cwd });
  await gitOk(["commit", "-q", "-m", message], { cwd });
  return (await gitOk(["rev-parse", "HEAD"], { cwd })).trim();
}

/** The git processes (upload-pack, receive-pack, cat-file...) running on the server's repositories. */
export async function serverGitProcesses(server: RunningServer): Promise<string[]> {
  const { execFileSync } = await import("node:child_process");
  const out = execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes(server.dataDir) && /git(-| )(upload-pack|receive-pack|index-pack|unpack-objects)/.test(line));
}
