// Starts the real Forgeline server (`node --import tsx src/server.ts`, as `npm start`) as a child process on a free loopback
// port with its own data directory, waits for /-/readiness, and stops it again.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";
import { onPostgresql, postgresqlDatabaseOf, TEST_ENCRYPTION_KEY } from "../../helpers/test-database.js";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const READY_TIMEOUT_MS = 45_000;
const STOP_TIMEOUT_MS = 10_000;

/** A token INITIAL_ROOT_TOKEN accepts (20+ characters of letters, digits, '_', '-', '.'). */
export const E2E_ROOT_TOKEN = "e2e-root-token-0123456789abcdef";

export interface ServerOptions {
  /** reuse a data directory (a restart); a new temporary one by default */
  dataDir?: string;
  /** INITIAL_ROOT_TOKEN; `null` leaves it unset so the server generates one */
  rootToken?: string | null;
  /** further environment variables (they win over the defaults above) */
  env?: Record<string, string>;
  /** the script to run instead of src/server.ts (relative to the repository) */
  script?: string;
  /** how long to wait for /-/readiness (default 45 s) */
  readyTimeoutMs?: number;
}

export interface RunningServer {
  port: number;
  /** the process started (the cluster's primary when WEB_CONCURRENCY > 1) */
  pid: number;
  /** http://127.0.0.1:<port> */
  url: string;
  /** http://127.0.0.1:<port>/api/v4 */
  apiUrl: string;
  dataDir: string;
  /** INITIAL_ROOT_TOKEN given at start, if any */
  rootToken: string | undefined;
  /** the database it runs on (DATABASE_URL, or the SQLite file in its data directory) */
  databaseUrl: string;
  /** WEBHOOK_ENCRYPTION_KEY given at start, if any */
  encryptionKey: string | undefined;
  /** everything the process printed so far (stdout and stderr) */
  output(): string;
  /** SIGTERM, then wait for the exit; resolves to the exit code */
  stop(): Promise<number | null>;
  /** resolves to the exit code once the process has exited (by itself or signalled by the test) */
  readonly exited: Promise<number | null>;
}

export function newDataDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), "forgeline-e2e-"));
}

/** Binds port 0 on loopback to learn a free port, then releases it. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** The environment startServer gives the server (for a test that starts it another way, e.g. `npm start`). */
export async function serverEnv(port: number, dataDir: string, options: ServerOptions = {}): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir };
  for (const inherited of ["DATABASE_URL", "PUBLIC_URL", "INITIAL_ROOT_TOKEN", "NODE_OPTIONS"]) delete env[inherited];
  if (onPostgresql && !options.env?.DATABASE_URL) {
    // the data directory's own database, as the SQLite file in it would be
    env.DATABASE_URL = await postgresqlDatabaseOf(dataDir, inject("templateDatabase"));
    env.WEBHOOK_ENCRYPTION_KEY = TEST_ENCRYPTION_KEY;
  }
  env.WEB_CONCURRENCY = "1"; // one process unless a test asks for a cluster (cluster.test.ts)
  if (options.rootToken !== null) env.INITIAL_ROOT_TOKEN = options.rootToken ?? E2E_ROOT_TOKEN;
  env.PUBLIC_URL = `http://127.0.0.1:${port}`; // the address the clients use, so links match their base URL
  return { ...env, ...options.env };
}

interface Spawned {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** Own process group, so stopping it also stops the node process tsx starts. */
function spawnServer(env: NodeJS.ProcessEnv, script = "src/server.ts"): Spawned {
  // `npm start`'s command: one node process (tsx as a loader, no wrapper process in between)
  const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: REPO_ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  child.stdout!.on("data", (chunk) => (text += chunk));
  child.stderr!.on("data", (chunk) => (text += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => text, exited };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

async function waitUntilReady(url: string, spawned: Spawned, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void spawned.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`server exited with ${exitCode} before it was ready:\n${spawned.output()}`);
    if (await answersReady(url)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  signalGroup(spawned.child, "SIGKILL");
  throw new Error(`server not ready after ${timeoutMs} ms:\n${spawned.output()}`);
}

/** Forgeline's readiness answer (a receiver of another test that took the port answers 200 too). */
export async function answersReady(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/-/readiness`);
    return response.status === 200 && "master_check" in ((await response.json().catch(() => ({}))) as object);
  } catch {
    return false;
  }
}

/** Starts attempts with a new port when the one found free was taken before the server bound it. */
const PORT_ATTEMPTS = 3;

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePort(options);
    } catch (error) {
      if (attempt === PORT_ATTEMPTS || !String((error as Error).message).includes("EADDRINUSE")) throw error;
    }
  }
}

async function startOnFreePort(options: ServerOptions): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = options.dataDir ?? newDataDir();
  const env = await serverEnv(port, dataDir, options);
  const spawned = spawnServer(env, options.script);
  const url = `http://127.0.0.1:${port}`;
  await waitUntilReady(url, spawned, options.readyTimeoutMs);
  return {
    port,
    pid: spawned.child.pid!,
    url,
    apiUrl: `${url}/api/v4`,
    dataDir,
    rootToken: env.INITIAL_ROOT_TOKEN,
    databaseUrl: env.DATABASE_URL ?? `file:${path.join(dataDir, "forgeline.db")}`,
    encryptionKey: env.WEBHOOK_ENCRYPTION_KEY,
    output: spawned.output,
    stop: () => stopProcess(spawned),
    exited: spawned.exited,
  };
}

async function stopProcess({ child, exited }: Spawned): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  signalGroup(child, "SIGTERM");
  const timer = setTimeout(() => signalGroup(child, "SIGKILL"), STOP_TIMEOUT_MS);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

export interface FinishedRun {
  code: number | null;
  output: string;
}

/** Runs the server with settings that should make it exit by itself (bad settings). */
export async function runUntilExit(options: ServerOptions = {}, timeoutMs = 30_000): Promise<FinishedRun> {
  const dataDir = options.dataDir ?? newDataDir();
  const spawned = spawnServer(await serverEnv(await freePort(), dataDir, options));
  const timer = setTimeout(() => signalGroup(spawned.child, "SIGKILL"), timeoutMs);
  const code = await spawned.exited;
  clearTimeout(timer);
  return { code, output: spawned.output() };
}

export interface RunningWorker {
  pid: number;
  /** everything the process printed so far (stdout and stderr) */
  output(): string;
  /** resolves to the exit code once the process has exited */
  readonly exited: Promise<number | null>;
  /** SIGTERM, then wait for the exit; resolves to the exit code */
  stop(): Promise<number | null>;
}

/**
 * `npm run worker`'s command (a webhook delivery worker on its own) beside a running server: its
 * database and data directory (the encryption key), and `env` on top; resolves once it has started.
 */
export async function startWorker(server: RunningServer, env: Record<string, string> = {}): Promise<RunningWorker> {
  const workerEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: server.databaseUrl, PUBLIC_URL: server.url };
  for (const inherited of ["INITIAL_ROOT_TOKEN", "NODE_OPTIONS", "WEBHOOK_ENCRYPTION_KEY"]) delete workerEnv[inherited];
  if (server.encryptionKey) workerEnv.WEBHOOK_ENCRYPTION_KEY = server.encryptionKey;
  const spawned = spawnServer({ ...workerEnv, ...env }, "src/worker.ts");
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exitCode: number | null | undefined;
  void spawned.exited.then((code) => (exitCode = code));
  while (!/webhook worker \S+ started/.test(spawned.output())) {
    if (exitCode !== undefined) throw new Error(`worker exited with ${exitCode} before it started:\n${spawned.output()}`);
    if (Date.now() > deadline) {
      signalGroup(spawned.child, "SIGKILL");
      throw new Error(`worker not started after ${READY_TIMEOUT_MS} ms:\n${spawned.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { pid: spawned.child.pid!, output: spawned.output, exited: spawned.exited, stop: () => stopProcess(spawned) };
}
