// Running the `git` program on a bare repository: a clean environment (no user or system
// configuration, no variables inherited from whoever started the server), output collected up to
// a limit, and git's failures as GitCommandError.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { trackGitProcess } from "../observability/metrics.js";

export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(" ")} failed (${exitCode ?? "killed"}): ${stderr.trim().split("\n").slice(-3).join(" | ")}`);
  }
}

/** Output longer than this is a programming error on our side (use a stream). */
const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * The environment of every git process: the server's PATH and nothing git-specific from outside,
 * no configuration files but the repository's own, never a prompt for credentials.
 */
export function gitEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith("GIT_") && value !== undefined) env[name] = value;
  }
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_NO_REPLACE_OBJECTS: "1",
    LC_ALL: "C",
    ...extra,
  };
}

export interface GitRunOptions {
  /** written to git's standard input, which is then closed */
  input?: Buffer | string;
  /** extra environment variables */
  env?: Record<string, string>;
  /** exit codes that are answers, not failures (`merge-base --is-ancestor` answers 1) */
  okExitCodes?: readonly number[];
  maxOutput?: number;
  /** a working directory (a temporary worktree); default: none needed */
  cwd?: string;
  /** git is killed after this long (default: DEFAULT_TIMEOUT_MS) */
  timeoutMs?: number;
}

/** No git command of a request may run longer than this: a pathological input must not hold a process. */
const DEFAULT_TIMEOUT_MS = 120_000;

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  exitCode: number;
}

/** `git --git-dir=<repo> <args>`, collected. */
export function runGit(gitDir: string | null, args: readonly string[], options: GitRunOptions = {}): Promise<GitResult> {
  const fullArgs = gitDir ? [`--git-dir=${gitDir}`, ...args] : [...args];
  return new Promise((resolve, reject) => {
    const child = spawnGit(fullArgs, { env: gitEnvironment(options.env), cwd: options.cwd });
    const chunks: Buffer[] = [];
    const errors: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const limit = options.maxOutput ?? DEFAULT_MAX_OUTPUT;
    child.stdout!.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        child.kill("SIGKILL");
        return;
      }
      chunks.push(chunk);
    });
    child.stderr!.on("data", (chunk: Buffer) => errors.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(errors).toString("utf8");
      if (size > limit) return reject(new GitCommandError(fullArgs, code, `output over ${limit} bytes`));
      if (code === 0 || (code !== null && options.okExitCodes?.includes(code))) {
        return resolve({ stdout: Buffer.concat(chunks), stderr, exitCode: code });
      }
      reject(new GitCommandError(fullArgs, code, stderr));
    });
    child.stdin!.on("error", () => {}); // git may exit before reading all of its input
    child.stdin!.end(options.input ?? "");
  });
}

let started = 0;

/** How many git processes this process has started (the git-call budgets of the tests read it). */
export const gitProcessesStarted = () => started;

/**
 * Spawns git with pipes on all three streams, in a session and process group of its own
 * (`detached`): a signal to the server's group (a terminal's Ctrl-C, `timeout`) stops the server
 * gracefully, and the git processes serving its requests in flight (a clone being sent) must finish
 * with them rather than die of that signal. They still end with the server: each reads the end of
 * its input, or writes to a closed pipe, when the server is gone.
 */
export function spawnGit(args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  started++;
  const child = spawn("git", args, { env: gitEnvironment(), ...options, detached: true, stdio: ["pipe", "pipe", "pipe"] });
  trackGitProcess(args, child);
  return child;
}

/** The standard output as text, without the last newline. */
export async function gitText(gitDir: string | null, args: readonly string[], options: GitRunOptions = {}): Promise<string> {
  return (await runGit(gitDir, args, options)).stdout.toString("utf8").replace(/\n$/, "");
}
