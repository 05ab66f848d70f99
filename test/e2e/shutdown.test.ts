// Graceful shutdown (issue 31): on SIGTERM or SIGINT a server stops accepting, lets the requests in
// flight finish (up to SHUTDOWN_TIMEOUT), a delivery worker finishes or releases the deliveries it
// holds, and every process exits 0 with no child left; a second signal exits at once. Against the
// real processes: the server (one process and a cluster), `npm run worker`'s worker, and `npm start`
// under coreutils' `timeout`.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { request, type IncomingMessage } from "node:http";
import { connect } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SAME_STOP_WINDOW_MS } from "../../src/shutdown.js";
import { pngOfSize } from "../helpers/images.js";
import { queryDatabase } from "../helpers/test-database.js";
import { startReceiver, type Receiver } from "../webhooks/receiver.js";
import { cloneUrl, gitOk, workDir } from "./helpers/git.js";
import {
  descendants, groupMembers, stillRunning, waitFor, webProcesses, type ProcessInfo,
} from "./helpers/processes.js";
import { restClient } from "./helpers/rest.js";
import {
  answersReady, E2E_ROOT_TOKEN, freePort, newDataDir, REPO_ROOT, serverEnv, startServer, startWorker, type RunningServer,
} from "./helpers/server.js";

/** What a test started, stopped after it whatever happened (a passing test has stopped it already). */
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function start(env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer({ env });
  cleanups.push(() => server.stop());
  return server;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The exit code, failing with the end of the log when the process has not exited within `ms`. */
async function exitCode(proc: { exited: Promise<number | null>; output(): string }, ms = 20_000): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running after ${ms} ms:\n${proc.output().slice(-3000)}`)), ms);
  });
  try {
    return await Promise.race([proc.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls until the log holds `text`. */
const logged = (source: { output(): string }, text: string, ms = 10_000) =>
  waitFor(() => (source.output().includes(text) ? true : undefined), ms, `log line "${text}"`);

/** Processes seen earlier that still run after `ms` (polled: a child may take a moment to read its EOF). */
async function leftRunning(processes: ProcessInfo[], ms: number): Promise<string[]> {
  const deadline = Date.now() + ms;
  let left = processes.filter(stillRunning);
  while (left.length && Date.now() < deadline) {
    await sleep(20);
    left = left.filter(stillRunning);
  }
  return left.map((process) => `${process.pid} ${process.command}`);
}

/** Whether a new connection to the port is refused (nothing listens). */
function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

type Answer = { status: number; text: string } | { error: string };

interface HeldRequest {
  /** the answer, or the error that ended the request (a connection cut) */
  readonly answer: Promise<Answer>;
  /** sends the rest of the body slowly: `pieces` chunks `gapMs` apart */
  sendRest(pieces?: number, gapMs?: number): Promise<void>;
}

/**
 * A POST whose headers and first `firstBytes` bytes of body are sent, the rest held back; resolves
 * once the server has it in hand (it answered 100 Continue, so it counts as in flight).
 */
async function holdRequest(url: string, headers: Record<string, string>, body: Buffer, firstBytes: number): Promise<HeldRequest> {
  const req = request(url, { method: "POST", headers: { ...headers, "Content-Length": body.length, Expect: "100-continue" } });
  const answer = new Promise<Answer>((resolve) => {
    req.on("response", (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, text }));
      response.on("error", (error) => resolve({ error: String(error) }));
    });
    req.on("error", (error) => resolve({ error: String(error) }));
  });
  await new Promise<void>((resolve, reject) => {
    req.once("continue", resolve);
    req.once("error", reject);
    req.flushHeaders();
  });
  req.write(body.subarray(0, firstBytes));
  let sent = firstBytes;
  return {
    answer,
    async sendRest(pieces = 5, gapMs = 150) {
      const size = Math.ceil((body.length - sent) / pieces);
      while (sent < body.length) {
        await sleep(gapMs);
        req.write(body.subarray(sent, sent + size));
        sent += size;
      }
      req.end();
    },
  };
}

/** POST /projects/:id/issues with its JSON body held back after a few bytes. */
function holdIssue(server: RunningServer, projectId: number, title: string): Promise<HeldRequest> {
  const body = Buffer.from(JSON.stringify({ title, description: "x".repeat(2000) }));
  return holdRequest(`${server.apiUrl}/projects/${projectId}/issues`, { "PRIVATE-TOKEN": E2E_ROOT_TOKEN, "Content-Type": "application/json" }, body, 10);
}

function multipart(fields: Record<string, string>, file: { field: string; filename: string; type: string; bytes: Buffer }) {
  const boundary = `----forgeline-${Date.now().toString(36)}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function projectWithReadme(server: RunningServer, name: string): Promise<{ id: number; path_with_namespace: string }> {
  const created = await restClient(server).post("/projects", { name, initialize_with_readme: true });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

const issueTitles = async (server: RunningServer, projectId: number) =>
  (await queryDatabase<{ title: string }>(server.databaseUrl, 'SELECT "title" FROM "Issue" WHERE "projectId" = ? ORDER BY "iid"', projectId)).map((row) => row.title);

describe("a server process (WEB_CONCURRENCY=1)", () => {
  it("SIGTERM during a slow upload: new connections are refused, the upload finishes 201 and is kept, the server exits 0 with no child left", async () => {
    const server = await start();
    const project = await projectWithReadme(server, "Before the stop");
    // the server's git children: a clone (upload-pack, over when it ends) and a file read (a cat-file kept for the next)
    await gitOk(["clone", "-q", cloneUrl(server, project.path_with_namespace, { user: "root", password: E2E_ROOT_TOKEN }), `${workDir()}/clone`]);
    expect((await restClient(server).get(`/projects/${project.id}/repository/files/README.md?ref=main`)).status).toBe(200);
    const children = descendants(server.pid);
    expect(children.some((child) => / cat-file /.test(child.command)), children.map((child) => child.command).join("\n")).toBe(true);

    const avatar = pngOfSize(150_000);
    const { body, contentType } = multipart({ name: "Uploaded while stopping", path: "uploaded-while-stopping" }, { field: "avatar", filename: "slow.png", type: "image/png", bytes: avatar });
    const upload = await holdRequest(`${server.apiUrl}/groups`, { "PRIVATE-TOKEN": E2E_ROOT_TOKEN, "Content-Type": contentType }, body, 1000);
    process.kill(server.pid, "SIGTERM"); // the server process only, as a process manager would
    await waitFor(async () => ((await refusesConnections(server.port)) ? true : undefined), 10_000, "new connections refused");
    await upload.sendRest(10, 150); // the rest of the upload comes while the server stops

    const answer = await upload.answer;
    expect(answer).toMatchObject({ status: 201 });
    expect(JSON.parse((answer as { text: string }).text).avatar_url).toMatch(/\/slow\.png$/);
    expect(await exitCode(server)).toBe(0);
    expect(server.output()).toContain("waiting for 1 request(s) in flight (at most 30 s)");
    expect(server.output()).toContain('"server stopped"');
    expect(await leftRunning(children, 1_000)).toEqual([]);

    // the upload is in the database the server left
    const [group] = await queryDatabase<{ avatarPath: string | null }>(server.databaseUrl, 'SELECT "avatarPath" FROM "Namespace" WHERE "path" = ?', "uploaded-while-stopping");
    expect(group?.avatarPath).toMatch(/\/slow\.png$/);
    const [file] = await queryDatabase<{ size: number | string }>(server.databaseUrl, 'SELECT length("content") AS size FROM "StoredFile" WHERE "path" = ?', group!.avatarPath);
    expect(Number(file?.size)).toBe(avatar.length);
  }, 90_000);

  it("a second signal, while a request is still in flight, exits at once with code 1", async () => {
    const server = await start({ SHUTDOWN_TIMEOUT: "60" });
    const project = await projectWithReadme(server, "Second signal");
    const held = await holdIssue(server, project.id, "never finished");
    process.kill(server.pid, "SIGTERM");
    await logged(server, "waiting for 1 request(s) in flight (at most 60 s)");
    await sleep(SAME_STOP_WINDOW_MS + 200); // a repeat within the window would be the same stop (see the SIGINT test)
    const at = Date.now();
    process.kill(server.pid, "SIGTERM");
    expect(await exitCode(server, 10_000)).toBe(1);
    expect(Date.now() - at).toBeLessThan(10_000); // SHUTDOWN_TIMEOUT is 60 s
    expect(server.output()).toContain("SIGTERM again: server exiting at once");
    expect(await held.answer).toHaveProperty("error");
  }, 90_000);

  it("SHUTDOWN_TIMEOUT: a request still in flight after it is cut, and the server exits 0", async () => {
    const server = await start({ SHUTDOWN_TIMEOUT: "2" });
    const project = await projectWithReadme(server, "Cut");
    const held = await holdIssue(server, project.id, "never finished");
    const at = Date.now();
    process.kill(server.pid, "SIGTERM");
    expect(await exitCode(server, 30_000)).toBe(0);
    const took = Date.now() - at;
    expect(took).toBeGreaterThanOrEqual(2_000);
    expect(took).toBeLessThan(15_000);
    expect(server.output()).toContain("SHUTDOWN_TIMEOUT reached: cutting 1 request(s) still in flight");
    expect(await held.answer).toMatchObject({ error: expect.stringMatching(/socket hang up|ECONNRESET/) });
    expect(await issueTitles(server, project.id)).toEqual([]);
  }, 90_000);

  it("SIGINT stops it as SIGTERM does; the same SIGINT again at once (npm passing on a terminal's Ctrl-C) is the same stop", async () => {
    const server = await start();
    const project = await projectWithReadme(server, "Interrupted");
    const held = await holdIssue(server, project.id, "sent while interrupted");
    process.kill(server.pid, "SIGINT");
    await logged(server, "SIGINT: server stopping");
    process.kill(server.pid, "SIGINT");
    await logged(server, "SIGINT again within");
    await held.sendRest();
    expect(await held.answer).toMatchObject({ status: 201 });
    expect(await exitCode(server)).toBe(0);
    expect(server.output()).not.toContain("exiting at once");
    expect(await issueTitles(server, project.id)).toEqual(["sent while interrupted"]);
  }, 90_000);
});

/** A repository whose clone is ~24 MB that does not compress: too much for the pipes and socket buffers between git and a client that does not read. */
async function pushLargeRepository(server: RunningServer, project: { path_with_namespace: string }): Promise<string> {
  const work = workDir();
  cleanups.push(() => rm(work, { recursive: true, force: true }));
  const dir = `${work}/large`;
  await gitOk(["clone", "-q", cloneUrl(server, project.path_with_namespace, { user: "root", password: E2E_ROOT_TOKEN }), dir]);
  writeFileSync(path.join(dir, "large.bin"), randomBytes(24 * 1024 * 1024));
  await gitOk(["add", "large.bin"], { cwd: dir });
  await gitOk(["commit", "-q", "-m", "Large file"], { cwd: dir });
  await gitOk(["push", "-q", "origin", "main"], { cwd: dir });
  return (await gitOk(["rev-parse", "HEAD"], { cwd: dir })).trim();
}

const pktLine = (text: string) => `${(text.length + 4).toString(16).padStart(4, "0")}${text}`;

/**
 * A clone's pack request (smart HTTP, protocol v0) whose answer is not read until `read()`: git
 * on the server fills the pipes and socket buffers and waits, the request in flight.
 */
async function holdDownload(server: RunningServer, fullPath: string, sha: string): Promise<{ read(): Promise<Buffer> }> {
  const body = `${pktLine(`want ${sha}\n`)}0000${pktLine("done\n")}`;
  const req = request(`${server.url}/${fullPath}.git/git-upload-pack`, {
    method: "POST",
    headers: {
      Authorization: `Basic ${Buffer.from(`root:${E2E_ROOT_TOKEN}`).toString("base64")}`,
      "Content-Type": "application/x-git-upload-pack-request", Accept: "application/x-git-upload-pack-result", "Content-Length": body.length,
    },
  });
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    req.once("response", resolve);
    req.once("error", reject);
    req.end(body);
  });
  expect(response.statusCode).toBe(200);
  return {
    read: () => new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("end", () => resolve(Buffer.concat(chunks)));
      response.once("error", reject);
    }),
  };
}

/** The pack of an upload-pack answer ("NAK", then the pack), checked whole by its SHA-1 trailer. */
function packOf(answer: Buffer): Buffer {
  expect(answer.subarray(0, 8).toString("latin1")).toBe("0008NAK\n");
  const pack = answer.subarray(8);
  expect(pack.subarray(0, 4).toString("latin1")).toBe("PACK");
  expect(createHash("sha1").update(pack.subarray(0, -20)).digest().equals(pack.subarray(-20)), `a pack of ${pack.length} bytes cut short`).toBe(true);
  return pack;
}

describe("a cluster (WEB_CONCURRENCY=2)", () => {
  it("Ctrl-C (SIGINT to the whole process group) during an upload and a clone: both finish, every process stops and exits 0", async () => {
    const server = await start({ WEB_CONCURRENCY: "2" });
    cleanups.unshift(() => rm(server.dataDir, { recursive: true, force: true })); // after the server's stop: its repository is large
    const web = await waitFor(() => {
      const pids = webProcesses(server.pid);
      return pids.length === 2 ? pids : undefined;
    }, 30_000, "two web processes");
    const project = await projectWithReadme(server, "Clustered");
    const head = await pushLargeRepository(server, project);
    expect((await restClient(server).get(`/projects/${project.id}/repository/files/README.md?ref=main`)).status).toBe(200);
    const download = await holdDownload(server, project.path_with_namespace, head);
    // git on the server waits for the client to read: a git process in flight for the request
    await waitFor(() => (descendants(server.pid).some((process) => / (upload-pack|pack-objects) /.test(process.command)) ? true : undefined), 10_000, "git sending the pack");
    const processes = descendants(server.pid);
    const held = await holdIssue(server, project.id, "sent during Ctrl-C");
    process.kill(-server.pid, "SIGINT"); // what a terminal's Ctrl-C does: every process of the foreground group
    await sleep(300);
    const [pack] = await Promise.all([download.read(), held.sendRest()]);
    expect(packOf(pack).length).toBeGreaterThan(24 * 1024 * 1024);
    expect(await held.answer).toMatchObject({ status: 201 });
    expect(await exitCode(server)).toBe(0);
    const log = server.output();
    // each web process stopped gracefully (and so exited 0): the primary's message after the
    // terminal's SIGINT was not taken for a second signal
    for (const pid of web) expect(log).toMatch(new RegExp(`web process ${pid} stopped"`));
    expect(log).not.toContain("exiting at once");
    expect(log).not.toMatch(/web process \d+ exited/);
    expect(await leftRunning(processes, 1_000)).toEqual([]);
    expect(groupMembers(server.pid).map((member) => `${member.pid} ${member.command}`)).toEqual([]);
    expect(await issueTitles(server, project.id)).toEqual(["sent during Ctrl-C"]);
  }, 90_000);
});

describe("a webhook worker on its own (npm run worker)", () => {
  let receiver: Receiver;

  interface DeliveryRow {
    status: string;
    attempts: number;
    leaseOwner: string | null;
    leaseExpiresAt: unknown;
    idempotencyKey: string;
  }

  it("finishes the delivery in flight before it exits 0; with SHUTDOWN_TIMEOUT passed it releases the lease, and another worker sends it at once", async () => {
    receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const server = await start({ WEBHOOK_WORKER: "false", ALLOW_LOCAL_WEBHOOKS: "true" });
    const root = restClient(server);
    const project = await projectWithReadme(server, "Hooked");
    const hook = await root.post(`/projects/${project.id}/hooks`, { url: `${receiver.url}/hook`, issues_events: true, push_events: false });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const deliveries = () =>
      queryDatabase<DeliveryRow>(server.databaseUrl, 'SELECT "status", "attempts", "leaseOwner", "leaseExpiresAt", "idempotencyKey" FROM "WebHookDelivery" WHERE "hookId" = ? ORDER BY "id"', hook.body.id);
    const worker = async (env: Record<string, string> = {}) => {
      const started = await startWorker(server, { ALLOW_LOCAL_WEBHOOKS: "true", ...env });
      cleanups.push(() => started.stop());
      return started;
    };

    // a slow receiver: the worker waits for its answer and records it
    receiver.answer = { status: 200, delayMs: 1_500 };
    expect((await root.post(`/projects/${project.id}/issues`, { title: "slowly received" })).status).toBe(201);
    const patient = await worker();
    await receiver.waitFor(1, 20_000);
    let at = Date.now();
    process.kill(patient.pid, "SIGTERM");
    expect(await exitCode(patient)).toBe(0);
    expect(Date.now() - at).toBeGreaterThan(1_000); // it waited for the answer
    expect(patient.output()).toContain("webhook delivered");
    expect(await deliveries()).toMatchObject([{ status: "done", attempts: 1, leaseOwner: null }]);

    // a receiver that takes 20 s, a worker allowed 1 s: it gives the delivery back
    receiver.clear();
    receiver.answer = { status: 200, delayMs: 20_000 };
    expect((await root.post(`/projects/${project.id}/issues`, { title: "never answered in time" })).status).toBe(201);
    const hurried = await worker({ SHUTDOWN_TIMEOUT: "1" });
    await receiver.waitFor(1, 20_000);
    at = Date.now();
    process.kill(hurried.pid, "SIGTERM");
    expect(await exitCode(hurried)).toBe(0);
    const took = Date.now() - at;
    expect(took).toBeGreaterThanOrEqual(1_000);
    expect(took).toBeLessThan(8_000);
    expect(hurried.output()).toContain("released 1 delivery(ies) still in hand");
    const [, released] = await deliveries();
    expect(released).toMatchObject({ status: "pending", attempts: 0, leaseOwner: null, leaseExpiresAt: null });

    // not held until its lease (WEBHOOK_TIMEOUT + 30 s) would have expired: the next worker takes it at once
    receiver.answer = { status: 200 };
    const next = await worker();
    await waitFor(async () => ((await deliveries())[1]?.status === "done" ? true : undefined), 15_000, "the released delivery sent");
    expect(receiver.requests.map((received) => received.headers["idempotency-key"])).toEqual([released!.idempotencyKey, released!.idempotencyKey]);
    process.kill(next.pid, "SIGTERM");
    expect(await exitCode(next)).toBe(0);
  }, 120_000);
});

describe("npm start under coreutils' timeout", () => {
  it("when the time runs out, the request in flight finishes, timeout exits 124 and no process it started is left", async () => {
    const port = await freePort();
    const env = await serverEnv(port, newDataDir(), { env: { WEB_CONCURRENCY: "2", npm_config_update_notifier: "false" } });
    // timeout makes itself a process group leader and, when the time is up, signals npm and then its whole group
    const child = spawn("timeout", ["-s", "TERM", "300", "npm", "start"], { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
    });
    let text = "";
    child.stdout.on("data", (chunk) => (text += chunk));
    child.stderr.on("data", (chunk) => (text += chunk));
    const run = { output: () => text, exited: new Promise<number | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? -1 : null)))) };
    let exited = false;
    void run.exited.then(() => (exited = true));
    await waitFor(async () => {
      if (exited) throw new Error(`npm start exited before it was ready:\n${text}`);
      return (await answersReady(`http://127.0.0.1:${port}`)) ? true : undefined;
    }, 60_000, "npm start ready");
    const server = { apiUrl: `http://127.0.0.1:${port}/api/v4`, port, rootToken: E2E_ROOT_TOKEN } as RunningServer;
    const project = await projectWithReadme(server, "Timed");
    expect((await restClient(server).get(`/projects/${project.id}/repository/files/README.md?ref=main`)).status).toBe(200);
    const started = descendants(child.pid!);
    const commands = started.map((process) => process.command);
    const isNpmOrServer = (process: ProcessInfo) => /^npm\b/.test(process.command) || /^\S*node\b.*src\/server\.ts$/.test(process.command);
    expect(commands.some((command) => command.startsWith("npm start")), commands.join("\n")).toBe(true);
    expect(commands.filter((command) => /^\S*node\b.*src\/server\.ts$/.test(command)), commands.join("\n")).toHaveLength(3); // the primary and two web processes

    const held = await holdIssue(server, project.id, "sent as the time ran out");
    // timeout's timer is a SIGALRM to itself (coreutils' settimeout): one sent now is the time running out now
    process.kill(child.pid!, "SIGALRM");
    await waitFor(() => (/waiting for 1 request\(s\) in flight/.test(text) ? true : undefined), 10_000, "the request waited for");
    await held.sendRest(5, 200);
    expect(await held.answer).toMatchObject({ status: 201 });
    expect(await exitCode(run, 30_000)).toBe(124); // "If the command times out ... exit with status 124"
    // when timeout returns, npm and the server's processes have ended (none left to drain on its own);
    // their git and esbuild children end as they read the end of their input
    expect(started.filter(isNpmOrServer).filter(stillRunning).map((process) => `${process.pid} ${process.command}`)).toEqual([]);
    expect(await leftRunning(started, 1_000)).toEqual([]);
    expect(text).toContain('"server stopped"');
    expect(text).not.toContain("exiting at once");
  }, 120_000);
});
