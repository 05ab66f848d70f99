// Scale-out: three server processes and two delivery workers on one database (PostgreSQL in that
// leg, one SQLite file otherwise). The servers start together on an empty database (migrations and
// the root bootstrap run once), then take 1,000 concurrent writes spread over them: issues,
// reactions, approvals (each sent twice at once, to race) and issue closes, every one firing a
// group hook. One worker is killed with SIGKILL while deliveries are in flight and started again.
// Then: no 5xx answer, iids unique and gapless per project, every outbox event received at least
// once under its one Idempotency-Key (duplicates counted and printed), and a revoked token refused
// by every server at once; a rate limit counted once for all servers.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../webhooks/receiver.js";
import { databaseUrlFor, onPostgresql, queryDatabase, TEST_ENCRYPTION_KEY, withAdmin } from "../helpers/test-database.js";
import { cloneUrl, commitFile, git, gitOk, workDir } from "./helpers/git.js";
import { restClient, type RestClient } from "./helpers/rest.js";
import { E2E_ROOT_TOKEN, newDataDir, REPO_ROOT, startServer, type RunningServer } from "./helpers/server.js";

const SERVERS = 3;
const PROJECTS = 3;
const USERS = 6;
const ISSUES_PER_PROJECT = 200;
const MERGE_REQUESTS_PER_PROJECT = 4;
const AWARDS = 250;
const CLOSES = 6;
const CONCURRENCY = 24;
const EMOJI = ["thumbsup", "thumbsdown", "smile", "tada", "rocket", "eyes"];

const dataDir = newDataDir();
const database = `forgeline_multi_${process.pid}_${Date.now().toString(36)}`;
const databaseUrl = onPostgresql ? databaseUrlFor(database) : `file:${path.join(dataDir, "forgeline.db")}`;
const env: Record<string, string> = {
  DATABASE_URL: databaseUrl, ALLOW_LOCAL_WEBHOOKS: "true", WEBHOOK_WORKER: "false",
  // a lease of 50 s: the killed worker's rows are sent again within the test's time, and a delivery
  // slowed by a loaded machine is not a failure: four failures in a row disable the hook for a
  // minute, and a disabled hook hears nothing. At 5 s, runs on a loaded machine enqueued only 348
  // to 490 of the 606 issue events, as a disabled hook would; the failure message lists the failed attempts.
  WEBHOOK_TIMEOUT: "20", WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
};

let servers: RunningServer[] = [];
const workers: Spawned[] = [];
let receiver: Receiver;

interface Spawned {
  child: ChildProcess;
  exited: Promise<unknown>;
  output(): string;
}

function spawnWorker(): Spawned {
  const workerEnv: NodeJS.ProcessEnv = { ...process.env, ...env, DATA_DIR: dataDir, PUBLIC_URL: servers[0]!.url };
  delete workerEnv.NODE_OPTIONS;
  const child = spawn(process.execPath, ["--import", "tsx", "src/worker.ts"], { cwd: REPO_ROOT, env: workerEnv, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return { child, exited: new Promise((resolve) => child.once("exit", resolve)), output: () => output };
}

async function kill(worker: Spawned, signal: NodeJS.Signals) {
  try {
    process.kill(-worker.child.pid!, signal);
  } catch {
    return; // gone already
  }
  await worker.exited;
}

const queryRows = <T>(sql: string, ...params: unknown[]) => queryDatabase<T>(databaseUrl, sql, ...params);

const outboxRows = () =>
  queryRows<{ idempotencyKey: string; trigger: string; status: string }>('SELECT "idempotencyKey", "trigger", "status" FROM "WebHookDelivery"');

/** Resolves once the worker holds leases on rows it has not finished (claimed, being sent). */
async function holdingLeases(worker: Spawned): Promise<number> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const [row] = await queryRows<{ n: number | string }>(
      'SELECT count(*) AS n FROM "WebHookDelivery" WHERE "status" = \'pending\' AND "leaseOwner" LIKE ?', `%:${worker.child.pid}:%`);
    if (Number(row!.n) > 0) return Number(row!.n);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the worker to kill never held a lease");
}

beforeAll(async () => {
  receiver = await startReceiver();
  receiver.answer = { status: 200, delayMs: 15 };
  if (onPostgresql) await withAdmin((admin) => admin.query(`CREATE DATABASE "${database}"`));
  // all together on the empty database: each migrates and bootstraps, and only one may do it
  // (each waits its turn for the migration lock: more than one start's time on a loaded machine)
  servers = await Promise.all(Array.from({ length: SERVERS }, () => startServer({ dataDir, env, readyTimeoutMs: 150_000 })));
}, 180_000);

afterAll(async () => {
  await Promise.all(workers.map((worker) => kill(worker, "SIGTERM")));
  await Promise.all(servers.map((server) => server.stop()));
  await receiver?.close();
  if (onPostgresql) await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
});

/** What the servers printed after they started (a 5xx answer logs its cause there). */
const serverLogs = () =>
  servers.map((server, i) => `server ${i}:\n${server.output().split("\n").filter((line) => !line.startsWith("Created administrator")).join("\n").slice(-6000)}`).join("\n");

/** Runs `tasks` with at most `limit` in flight. */
async function inParallel<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: limit }, lane));
  return results;
}

interface Fixture {
  group: { id: number };
  projects: number[];
  users: { id: number; token: string }[];
  mergeRequests: { project: number; iid: number }[];
}

async function setUp(root: RestClient): Promise<Fixture> {
  const group = (await root.post("/groups", { name: "Scale", path: "scale", visibility: "public" })).body;
  const hook = await root.post(`/groups/${group.id}/hooks`, {
    url: `${receiver.url}/hook`, issues_events: true, emoji_events: true, merge_requests_events: true, enable_ssl_verification: false,
  });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  const users = [];
  for (let i = 0; i < USERS; i++) {
    const user = (await root.post("/users", { username: `scale${i}`, name: `Scale ${i}`, email: `scale${i}@example.com`, password: "password-123456" })).body;
    const token = (await root.post(`/users/${user.id}/personal_access_tokens`, { name: "t", scopes: ["api"] })).body.token;
    expect((await root.post(`/groups/${group.id}/members`, { user_id: user.id, access_level: 30 })).status).toBe(201);
    users.push({ id: user.id, token });
  }
  const projects = [];
  const mergeRequests = [];
  for (let p = 0; p < PROJECTS; p++) {
    const project = (await root.post("/projects", { name: `P${p}`, path: `p${p}`, namespace_id: group.id, visibility: "public", initialize_with_readme: true })).body;
    projects.push(project.id);
    for (let m = 0; m < MERGE_REQUESTS_PER_PROJECT; m++) {
      const branch = `feature-${m}`;
      expect((await root.post(`/projects/${project.id}/repository/branches`, { branch, ref: "main" })).status).toBe(201);
      expect((await root.post(`/projects/${project.id}/repository/commits`, {
        branch, commit_message: `Change ${m}`, actions: [{ action: "create", file_path: `f${m}.txt`, content: "x" }],
      })).status).toBe(201);
      const mr = await root.post(`/projects/${project.id}/merge_requests`, { source_branch: branch, target_branch: "main", title: `Change ${m}` });
      expect(mr.status, JSON.stringify(mr.body)).toBe(201);
      mergeRequests.push({ project: project.id, iid: mr.body.iid });
    }
  }
  return { group, projects, users, mergeRequests };
}

/** The 1,000 writes, each on the next server in turn. */
function writes(fixture: Fixture): { issues: (() => Promise<number>)[]; rest: (() => Promise<number>)[] } {
  let turn = 0;
  const on = (token: string) => restClient(servers[turn++ % SERVERS]!, token);
  const status = async (answer: Promise<{ status: number }>) => (await answer).status;
  const issues = fixture.projects.flatMap((project) =>
    Array.from({ length: ISSUES_PER_PROJECT }, (_, i) => () => {
      const user = fixture.users[i % USERS]!;
      return status(on(user.token).post(`/projects/${project}/issues`, { title: `Issue ${i}`, labels: i % 3 ? "bug" : "" }));
    }));
  const awards = Array.from({ length: AWARDS }, (_, i) => () => {
    const user = fixture.users[i % USERS]!;
    // 36 different reactions, each sent about 7 times, some at once: races for one reaction
    const project = fixture.projects[i % PROJECTS]!;
    return status(on(user.token).post(`/projects/${project}/issues/${1 + (i % 12)}/award_emoji`, { name: EMOJI[Math.floor(i / 6) % EMOJI.length] }));
  });
  const approvals = fixture.mergeRequests.flatMap((mr) => fixture.users.flatMap((user) => [0, 1].map(() => () =>
    status(on(user.token).post(`/projects/${mr.project}/merge_requests/${mr.iid}/approve`, {})))));
  const closes = Array.from({ length: CLOSES }, (_, i) => () =>
    status(on(E2E_ROOT_TOKEN).put(`/projects/${fixture.projects[i % PROJECTS]}/issues/${20 + i}`, { state_event: "close" })));
  return { issues, rest: [...awards, ...approvals, ...closes] };
}

describe(`${SERVERS} servers and 2 workers on one ${onPostgresql ? "PostgreSQL database" : "SQLite file"}`, () => {
  it("migrate and bootstrap root once when started together", async () => {
    const created = servers.map((server) => server.output().match(/Created administrator 'root'/g)?.length ?? 0);
    expect(created.reduce((a, b) => a + b, 0)).toBe(1);
    for (const server of servers) expect((await restClient(server).get("/user")).body.username).toBe("root");
  });

  it("takes 1,000 concurrent writes with no 5xx, unique iids, every event delivered across a worker crash", async () => {
    const fixture = await setUp(restClient(servers[0]!));
    workers.push(spawnWorker(), spawnWorker());
    const { issues, rest } = writes(fixture);
    expect(issues.length + rest.length).toBe(1000);
    // the first worker dies with deliveries in flight, and is started again
    let leased = 0;
    const crash = receiver.waitFor(150, 120_000).then(async () => {
      leased = await holdingLeases(workers[0]!);
      await kill(workers[0]!, "SIGKILL");
      workers[0] = spawnWorker();
    });
    const statuses = [...await inParallel(issues, CONCURRENCY), ...await inParallel(rest, CONCURRENCY)];
    await crash;
    const byStatus = statuses.reduce<Record<number, number>>((counts, s) => ({ ...counts, [s]: (counts[s] ?? 0) + 1 }), {});
    expect(statuses.filter((s) => s >= 500), `${JSON.stringify(byStatus)}\n${serverLogs()}`).toEqual([]);
    // every issue, one award per (user, issue, emoji), one approval per (user, merge request)
    const awards = 36;
    const approvals = fixture.mergeRequests.length * USERS;
    expect(byStatus[201]).toBe(PROJECTS * ISSUES_PER_PROJECT + awards + approvals);
    expect(byStatus[200]).toBe(CLOSES);

    for (const project of fixture.projects) {
      const iids: number[] = [];
      for (let page = 1; page <= 2; page++) {
        const answer = await restClient(servers[page % SERVERS]!).get(`/projects/${project}/issues?per_page=100&page=${page}`);
        iids.push(...answer.body.map((issue: { iid: number }) => issue.iid));
      }
      expect(iids.sort((a, b) => a - b)).toEqual(Array.from({ length: ISSUES_PER_PROJECT }, (_, i) => i + 1));
    }
    // each approval was sent twice at once: one approval per user and merge request
    for (const mr of fixture.mergeRequests.slice(0, 3)) {
      const state = await restClient(servers[2]!).get(`/projects/${mr.project}/merge_requests/${mr.iid}/approvals`);
      expect(state.body.approved_by.map((a: { user: { id: number } }) => a.user.id).sort()).toEqual(fixture.users.map((u) => u.id).sort());
    }

    const rows = await waitForDeliveries(120_000);
    const keys = new Set(rows.map((row) => row.idempotencyKey));
    expect(keys.size).toBe(rows.length);
    const [hook] = (await restClient(servers[0]!).get(`/groups/${fixture.group.id}/hooks`)).body;
    const failedAttempts = await queryRows<{ status: string; error: string | null; n: number | string }>(
      'SELECT "responseStatus" AS status, "internalErrorMessage" AS error, count(*) AS n FROM "WebHookLog" ' +
      'WHERE "responseStatus" NOT LIKE \'2%\' GROUP BY "responseStatus", "internalErrorMessage"');
    const hookState = JSON.stringify({ alert_status: hook.alert_status, disabled_until: hook.disabled_until, failedAttempts });
    expect(rows.filter((row) => row.trigger === "issue_hooks").length, hookState).toBe(ISSUES_PER_PROJECT * PROJECTS + CLOSES);
    const received = receiver.requests.map((request) => String(request.headers["idempotency-key"]));
    const receivedKeys = new Set(received);
    expect([...keys].filter((key) => !receivedKeys.has(key))).toEqual([]);
    expect([...receivedKeys].filter((key) => !keys.has(key))).toEqual([]);
    console.log(`multi-process: ${statuses.length} writes ${JSON.stringify(byStatus)}; ${rows.length} events, ` +
      `${received.length} deliveries received, ${received.length - receivedKeys.size} duplicates; the killed worker held ${leased} leases`);
  }, 360_000);

  it("counts a rate limit once across the servers: 12 hook tests at once, 5 allowed", async () => {
    const root = restClient(servers[0]!);
    expect((await root.post("/features/web_hook_test_api_endpoint_rate_limit", { value: true })).status).toBe(201);
    const group = (await root.get("/groups/scale")).body;
    const [hook] = (await root.get(`/groups/${group.id}/hooks`)).body;
    // not across a minute boundary (the window is the current minute)
    if (Date.now() % 60_000 > 55_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - (Date.now() % 60_000) + 100));
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) =>
      restClient(servers[i % SERVERS]!).post(`/groups/${group.id}/hooks/${hook.id}/test/issues_events`)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(5).fill(201), ...Array(7).fill(429)]);
  });

  it("takes pushes through the 3 servers at once: every branch recorded once, one winner of a race for a branch", async () => {
    const root = restClient(servers[0]!);
    const group = (await root.get("/groups/scale")).body;
    const project = (await root.post("/projects", { name: "Pushed", path: "pushed", namespace_id: group.id, initialize_with_readme: true })).body;
    const hook = await root.post(`/projects/${project.id}/hooks`, { url: `${receiver.url}/pushes`, push_events: true });
    expect(hook.status).toBe(201);
    const credentials = { user: "root", password: E2E_ROOT_TOKEN };
    const clones = await Promise.all(servers.map(async (server, i) => {
      const dir = `${workDir()}/clone${i}`;
      await gitOk(["clone", "-q", cloneUrl(server, project.path_with_namespace, credentials), dir]);
      return dir;
    }));
    // each clone its own branch of three commits, pushed through its own server, all at once
    const heads = await Promise.all(clones.map(async (dir, i) => {
      await gitOk(["checkout", "-q", "-b", `side-${i}`], { cwd: dir });
      for (let c = 0; c < 3; c++) await commitFile(dir, `side-${i}/${c}.txt`, `${i} ${c}\n`);
      return (await gitOk(["rev-parse", "HEAD"], { cwd: dir })).trim();
    }));
    await Promise.all(clones.map((dir, i) => gitOk(["push", "-q", "origin", `side-${i}`], { cwd: dir })));
    // then the three race for main, each with a commit of its own on the same head
    await Promise.all(clones.map(async (dir, i) => {
      await gitOk(["checkout", "-q", "main"], { cwd: dir });
      await commitFile(dir, `main-${i}.txt`, `${i}\n`);
    }));
    const races = await Promise.all(clones.map((dir) => git(["push", "origin", "main"], { cwd: dir })));
    const winners = races.map((run, i) => (run.code === 0 ? i : -1)).filter((i) => i >= 0);
    expect(winners, races.map((r) => r.stderr).join("\n")).toHaveLength(1);
    const winningHead = (await gitOk(["rev-parse", "HEAD"], { cwd: clones[winners[0]!]! })).trim();
    for (const server of servers) {
      const branches = (await restClient(server).get(`/projects/${project.id}/repository/branches`)).body;
      expect(branches.map((b: { name: string; commit: { id: string } }) => [b.name, b.commit.id]))
        .toEqual([["main", winningHead], ...heads.map((head, i) => [`side-${i}`, head])]);
    }
    const pushes = async () => receiver.requests.filter((r) => r.path === "/pushes").map((r) => `${r.json.ref} ${r.json.after}`).sort();
    await expect.poll(pushes, { timeout: 30_000 }).toEqual([`refs/heads/main ${winningHead}`, ...heads.map((head, i) => `refs/heads/side-${i} ${head}`)].sort());
    // nothing left half done: no pending ref update
    const pending = await queryRows<{ n: number | string }>('SELECT count(*) AS n FROM "PendingRefUpdate"');
    expect(Number(pending[0]!.n)).toBe(0);
  }, 120_000);

  it("a token revoked through one server is refused by every server at once", async () => {
    const root = restClient(servers[0]!);
    const user = (await root.post("/users", { username: "revoked", name: "R", email: "revoked@example.com", password: "password-123456" })).body;
    const token = (await root.post(`/users/${user.id}/personal_access_tokens`, { name: "t", scopes: ["api"] })).body;
    for (const server of servers) for (let i = 0; i < 2; i++) expect((await restClient(server, token.token).get("/user")).status).toBe(200);
    expect((await restClient(servers[1]!, token.token).delete(`/personal_access_tokens/${token.id}`)).status).toBe(204);
    for (const server of servers) expect((await restClient(server, token.token).get("/user")).status).toBe(401);
  });
});

/** Waits until no outbox row is pending any more (the killed worker's lease must expire first). */
async function waitForDeliveries(timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await outboxRows();
    if (rows.length && rows.every((row) => row.status !== "pending")) {
      expect(rows.filter((row) => row.status !== "done")).toEqual([]);
      return rows;
    }
    if (Date.now() > deadline) throw new Error(`${rows.filter((row) => row.status === "pending").length} deliveries still pending\n${workers.map((w) => w.output()).join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
