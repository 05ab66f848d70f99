// /-/metrics against real processes, read back with a Prometheus text parser: a server's counters
// and histograms move by exactly the requests sent (by method, route template and status; database
// statements per request as the log lines count them), GraphQL operations by name, webhook
// deliveries by result with their latency, the outbox depth and the leases while a receiver holds a
// delivery, git processes; the monitoring allowlist (loopback only unless MONITORING_ALLOW_CIDRS
// widens it, tried from this machine's non-loopback address); a clustered server answering for
// all its processes whichever web process a scrape reaches; a standalone worker's own endpoint.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../webhooks/receiver.js";
import { TEST_ENCRYPTION_KEY } from "../helpers/test-database.js";
import { uniqueName } from "./helpers/fixtures.js";
import { histogram, labelValues, scrape, scrapeUntil, total, type Scrape } from "./helpers/metrics.js";
import { restClient, type RestClient } from "./helpers/rest.js";
import { E2E_ROOT_TOKEN, freePort, REPO_ROOT, runUntilExit, startServer, type RunningServer } from "./helpers/server.js";

/** This machine's address on a real interface: requests to it come from a non-loopback address. */
const external = Object.values(os.networkInterfaces()).flat().find((a) => a && !a.internal && a.family === "IPv4")?.address;
const missing = external ? null : "this machine has no non-loopback IPv4 address to request /-/metrics from";
if (missing) console.warn(`Skipping the allowlist checks from outside loopback: ${missing}`);

if (missing && process.env.CI) {
  it("has a non-loopback address (CI machines have one)", () => {
    expect.fail(missing);
  });
}

const DELIVERY_TIMEOUT_MS = 20_000;

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

/** The request log lines a process printed (JSON), by correlation id. */
function logLines(output: string): Map<string, Record<string, any>> {
  const lines = new Map<string, Record<string, any>>();
  for (const text of output.split("\n")) {
    if (!text.startsWith("{")) continue;
    const line = JSON.parse(text);
    if (line.message === "request") lines.set(line.correlation_id, line);
  }
  return lines;
}

async function waitForLogLines(server: { output(): string }, ids: string[]): Promise<Record<string, any>[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const lines = logLines(server.output());
    if (ids.every((id) => lines.has(id))) return ids.map((id) => lines.get(id)!);
    if (Date.now() > deadline) throw new Error(`no log line for ${ids.filter((id) => !lines.has(id)).join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A request on a connection of its own (a clustered server's web processes then share them); its status and X-Request-Id. */
async function send(url: string, init: RequestInit = {}): Promise<{ status: number; id: string; body: string }> {
  const response = await fetch(url, { ...init, headers: { Connection: "close", "PRIVATE-TOKEN": E2E_ROOT_TOKEN, ...init.headers } });
  return { status: response.status, id: response.headers.get("x-request-id")!, body: await response.text() };
}

const delta = (after: Scrape, before: Scrape, name: string, labels: Record<string, string> = {}) => total(after, name, labels) - total(before, name, labels);
const histogramDelta = (after: Scrape, before: Scrape, name: string, labels: Record<string, string> = {}) => {
  const [a, b] = [histogram(after, name, labels), histogram(before, name, labels)];
  return { count: a.count - b.count, sum: a.sum - b.sum };
};

const SUCCESS = { result: "success" };

/** A project with an issues hook to `url`; `fire()` opens an issue (one delivery). */
async function hookedProject(root: RestClient, url: string) {
  const project = await root.post("/projects", { name: uniqueName("metrics") });
  expect(project.status, JSON.stringify(project.body)).toBe(201);
  const hook = await root.post(`/projects/${project.body.id}/hooks`, { url, issues_events: true, push_events: false, enable_ssl_verification: false });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  return {
    hookId: hook.body.id as number,
    projectId: project.body.id as number,
    async fire() {
      const issue = await root.post(`/projects/${project.body.id}/issues`, { title: "counted" });
      expect(issue.status).toBe(201);
    },
  };
}

/** A receiver that holds every request until released (a delivery in flight for as long as a test needs). */
async function startHoldingReceiver() {
  const held: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => held.push(res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/held`,
    held,
    release: () => held.splice(0).forEach((res) => res.writeHead(200).end("OK")),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe("one server process", () => {
  let server: RunningServer;
  let root: RestClient;
  beforeAll(async () => {
    server = await startServer({ env: { ALLOW_LOCAL_WEBHOOKS: "true", HOST: "0.0.0.0" } });
    root = restClient(server);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("counts exactly the requests sent, by method, route template and status, with their database statements", async () => {
    const before = await scrape(server.url);
    const user = { method: "GET", route: "/api/v4/user", status: "200" };
    const absentProject = { method: "GET", route: "/api/v4/projects/:id", status: "404" };
    const unmatched = { method: "GET", route: "unmatched", status: "404" };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await send(`${server.apiUrl}/user`);
      expect(answer.status).toBe(200);
      ids.push(answer.id);
    }
    for (let i = 0; i < 2; i++) expect((await send(`${server.apiUrl}/projects/987654321`)).status).toBe(404);
    const strayPath = `/no-such-page-${Date.now()}`;
    expect((await send(server.url + strayPath)).status).toBe(404);

    const after = await scrapeUntil(server.url, (s) =>
      delta(s, before, "http_requests_total", user) >= 3 && delta(s, before, "http_requests_total", absentProject) >= 2 &&
      delta(s, before, "http_requests_total", unmatched) >= 1);
    expect(delta(after, before, "http_requests_total", user)).toBe(3);
    expect(delta(after, before, "http_requests_total", absentProject)).toBe(2);
    expect(delta(after, before, "http_requests_total", unmatched)).toBe(1);
    expect(delta(after, before, "http_requests_total", { route: "/api/v4/user" })).toBe(3); // no other status either
    const duration = histogramDelta(after, before, "http_request_duration_seconds", user);
    expect(duration.count).toBe(3);
    expect(duration.sum).toBeGreaterThan(0);
    expect(histogramDelta(after, before, "http_request_duration_seconds", absentProject).count).toBe(2);
    // no raw path becomes a label value
    expect(labelValues(after, "http_requests_total", "route")).not.toContain(strayPath);
    expect(labelValues(after, "http_requests_total", "route").filter((route) => route.includes("987654321"))).toEqual([]);

    // the statements and their time, per request: as the requests' own log lines count them
    const lines = await waitForLogLines(server, ids);
    const statements = histogramDelta(after, before, "http_request_db_statements", { method: "GET", route: "/api/v4/user" });
    expect(statements.count).toBe(3);
    expect(statements.sum).toBe(lines.reduce((sum, line) => sum + line.db_count, 0));
    expect(statements.sum).toBeGreaterThan(0);
    const dbTime = histogramDelta(after, before, "http_request_db_duration_seconds", { method: "GET", route: "/api/v4/user" });
    expect(dbTime.count).toBe(3);
    expect(dbTime.sum).toBeCloseTo(lines.reduce((sum, line) => sum + line.db_duration_s, 0), 4);
  });

  it("counts each scrape once it is answered, with its own correlation id and log line", async () => {
    const scrapes = { method: "GET", route: "/-/metrics", status: "200" };
    const first = await scrape(server.url);
    const counted = total(first, "http_requests_total", scrapes);
    const next = await scrapeUntil(server.url, (s, earlier) => total(s, "http_requests_total", scrapes) >= counted + 1 + earlier);
    expect(total(next, "http_requests_total", scrapes)).toBe(counted + 1 + next.earlier);
    const [line] = await waitForLogLines(server, [first.requestId]);
    expect(line).toMatchObject({ method: "GET", path: "/-/metrics", route: "/-/metrics", status: 200, remote_ip: "127.0.0.1" });
    expect(line!.response_bytes).toBe(Buffer.byteLength(first.text));
  });

  it("counts GraphQL operations by name, unnamed ones as anonymous", async () => {
    const before = await scrape(server.url);
    const graphql = (body: object) => send(`${server.url}/api/graphql`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    for (let i = 0; i < 2; i++) {
      const answer = await graphql({ query: "query MetricsProbe { currentUser { username } }", operationName: "MetricsProbe" });
      expect(JSON.parse(answer.body)).toEqual({ data: { currentUser: { username: "root" } } });
    }
    expect(JSON.parse((await graphql({ query: "{ currentUser { username } }" })).body).data.currentUser.username).toBe("root");
    const probe = { operation_name: "MetricsProbe", operation_type: "query" };
    const anonymous = { operation_name: "anonymous", operation_type: "query" };
    const graphqlRequests = { method: "POST", route: "/api/graphql", status: "200" };
    const after = await scrapeUntil(server.url, (s) => delta(s, before, "http_requests_total", graphqlRequests) >= 3);
    expect(delta(after, before, "forgeline_graphql_operations_total", probe)).toBe(2);
    expect(delta(after, before, "forgeline_graphql_operations_total", anonymous)).toBe(1);
    expect(delta(after, before, "forgeline_graphql_operations_total")).toBe(3);
    expect(delta(after, before, "http_requests_total", graphqlRequests)).toBe(3);
    // REST requests run through the same GraphQL pipeline: they are not GraphQL operations
    await send(`${server.apiUrl}/user`);
    const later = await scrapeUntil(server.url, (s) => delta(s, after, "http_requests_total", { route: "/api/v4/user" }) >= 1);
    expect(delta(later, after, "forgeline_graphql_operations_total")).toBe(0);
  });

  it("counts a delivered webhook as a success and its latency from the event written to the receiver's answer", async () => {
    const hooked = await hookedProject(root, `${receiver.url}/ok`);
    receiver.clear();
    const before = await scrape(server.url);
    const fired = Date.now();
    await hooked.fire();
    await receiver.waitFor(1, DELIVERY_TIMEOUT_MS);
    const after = await scrapeUntil(server.url, (s) => delta(s, before, "forgeline_webhook_deliveries_total", SUCCESS) >= 1, DELIVERY_TIMEOUT_MS);
    const elapsed = (Date.now() - fired) / 1000;
    expect(delta(after, before, "forgeline_webhook_deliveries_total", SUCCESS)).toBe(1);
    expect(delta(after, before, "forgeline_webhook_deliveries_total")).toBe(1);
    const latency = histogramDelta(after, before, "forgeline_webhook_delivery_latency_seconds");
    expect(latency.count).toBe(1);
    expect(latency.sum).toBeGreaterThan(0);
    expect(latency.sum).toBeLessThan(elapsed + 1); // the row's clock and this one are the same machine's
  });

  it("shows the outbox depth, its oldest event's age and the worker's lease while a receiver holds the delivery", async () => {
    const holding = await startHoldingReceiver();
    try {
      const hooked = await hookedProject(root, holding.url);
      const before = await scrape(server.url);
      expect(total(before, "forgeline_webhook_outbox_pending")).toBe(0);
      expect(total(before, "forgeline_webhook_worker_leases")).toBe(0);
      const fired = Date.now();
      await hooked.fire();
      for (const deadline = Date.now() + DELIVERY_TIMEOUT_MS; holding.held.length < 1 && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 20));
      expect(holding.held).toHaveLength(1);
      const during = await scrape(server.url);
      expect(total(during, "forgeline_webhook_outbox_pending")).toBe(1);
      expect(total(during, "forgeline_webhook_worker_leases")).toBe(1);
      const age = total(during, "forgeline_webhook_outbox_oldest_pending_age_seconds");
      expect(age).toBeGreaterThan(0);
      expect(age).toBeLessThan((Date.now() - fired) / 1000 + 1);
      holding.release();
      const after = await scrapeUntil(server.url, (s) => total(s, "forgeline_webhook_outbox_pending") === 0 && total(s, "forgeline_webhook_worker_leases") === 0, DELIVERY_TIMEOUT_MS);
      expect(total(after, "forgeline_webhook_outbox_pending")).toBe(0);
      expect(total(after, "forgeline_webhook_outbox_oldest_pending_age_seconds")).toBe(0);
      expect(delta(after, before, "forgeline_webhook_deliveries_total", SUCCESS)).toBe(1);
    } finally {
      await holding.close();
    }
  });

  it("counts a refused delivery as a failure, without a latency; the row waits in the outbox for its retry", async () => {
    const hooked = await hookedProject(root, `${receiver.url}/refusing`);
    receiver.clear();
    receiver.answer = { status: 500 };
    try {
      const before = await scrape(server.url);
      await hooked.fire();
      await receiver.waitFor(1, DELIVERY_TIMEOUT_MS);
      const after = await scrapeUntil(server.url, (s) => delta(s, before, "forgeline_webhook_deliveries_total", { result: "failure" }) >= 1, DELIVERY_TIMEOUT_MS);
      expect(delta(after, before, "forgeline_webhook_deliveries_total", { result: "failure" })).toBe(1);
      expect(delta(after, before, "forgeline_webhook_deliveries_total")).toBe(1);
      expect(histogramDelta(after, before, "forgeline_webhook_delivery_latency_seconds").count).toBe(0);
      const waiting = await scrapeUntil(server.url, (s) => total(s, "forgeline_webhook_worker_leases") === 0);
      expect(total(waiting, "forgeline_webhook_outbox_pending")).toBe(1); // rescheduled, not given up
    } finally {
      receiver.answer = { status: 200, body: "OK" };
    }
    expect((await root.delete(`/projects/${hooked.projectId}/hooks/${hooked.hookId}`)).status).toBe(204); // its row goes with it
    expect(total(await scrape(server.url), "forgeline_webhook_outbox_pending")).toBe(0);
  });

  it("counts the git processes it starts, and none of a finished request is left running", async () => {
    const before = await scrape(server.url);
    const project = await root.post("/projects", { name: uniqueName("metrics-git"), initialize_with_readme: true });
    expect(project.status).toBe(201);
    expect((await root.get(`/projects/${project.body.id}/repository/tree`)).status).toBe(200);
    const after = await scrape(server.url);
    expect(delta(after, before, "forgeline_git_processes_started_total")).toBeGreaterThan(0);
    for (const command of labelValues(after, "forgeline_git_processes", "command")) {
      const running = total(after, "forgeline_git_processes", { command });
      // cat-file --batch-command processes stay open for the next reads; nothing else outlives its request
      if (command === "cat-file") expect(running).toBeGreaterThanOrEqual(0);
      else expect(running, command).toBe(0);
    }
    expect(labelValues(after, "forgeline_git_processes_started_total", "command")).toContain("cat-file");
  });

  it("serves the Node process metrics (CPU, memory, event loop lag)", async () => {
    const scraped = await scrape(server.url);
    expect(total(scraped, "process_cpu_seconds_total")).toBeGreaterThan(0);
    expect(total(scraped, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(labelValues(scraped, "nodejs_eventloop_lag_seconds", "le")).toEqual([]); // a gauge
    expect(scraped.families.map((f) => f.name)).toEqual(expect.arrayContaining(["nodejs_eventloop_lag_p99_seconds", "nodejs_heap_size_used_bytes", "nodejs_gc_duration_seconds"]));
  });

  it.skipIf(missing !== null)("answers a scrape from outside loopback as an unknown path, 404 (no MONITORING_ALLOW_CIDRS)", async () => {
    const base = `http://${external}:${server.port}`;
    expect((await send(`${base}/-/health`)).status).toBe(200); // reachable from there
    const before = await scrape(server.url);
    const refused = await send(`${base}/-/metrics`);
    const unknown = await send(`${base}/-/no-such-page`);
    expect(refused.status).toBe(404);
    expect(refused.body).toBe(unknown.body);
    expect(JSON.parse(refused.body)).toEqual({ error: "404 Not Found" });
    expect(refused.body).not.toContain("http_requests_total");
    const [line] = await waitForLogLines(server, [refused.id]);
    expect(line).toMatchObject({ route: "/-/metrics", status: 404, remote_ip: external });
    const after = await scrapeUntil(server.url, (s) => delta(s, before, "http_requests_total", { route: "/-/metrics", status: "404" }) >= 1);
    expect(delta(after, before, "http_requests_total", { route: "/-/metrics", status: "404" })).toBe(1);
  });
});

describe("settings", () => {
  it("MONITORING_ALLOW_CIDRS that is not a list of addresses or ranges stops the start with exit code 2", async () => {
    const run = await runUntilExit({ env: { MONITORING_ALLOW_CIDRS: "10.0.0.0/8,intranet" } });
    expect(run.code).toBe(2);
    expect(run.output).toContain('Invalid setting: MONITORING_ALLOW_CIDRS must list IP addresses or CIDR ranges, got "intranet"');
  });

  it("WORKER_METRICS_PORT out of range stops the start with exit code 2", async () => {
    const run = await runUntilExit({ env: { WORKER_METRICS_PORT: "70000" } });
    expect(run.code).toBe(2);
    expect(run.output).toContain('Invalid setting: WORKER_METRICS_PORT must be an integer from 0 to 65535, got "70000"');
  });
});

describe("WEB_CONCURRENCY=2", () => {
  let server: RunningServer;
  beforeAll(async () => {
    const allow: Record<string, string> = external ? { MONITORING_ALLOW_CIDRS: `${external}/32` } : {};
    server = await startServer({ env: { WEB_CONCURRENCY: "2", ALLOW_LOCAL_WEBHOOKS: "true", HOST: "0.0.0.0", ...allow } });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("answers for both web processes, whichever of them the scrape reaches", async () => {
    const user = { method: "GET", route: "/api/v4/user", status: "200" };
    const before = await scrape(server.url);
    // requests on fresh connections, until both web processes have answered some
    const answeredBy = new Map<number, number>();
    let sent = 0;
    while (answeredBy.size < 2 && sent < 400) {
      const batch = await Promise.all(Array.from({ length: 4 }, () => send(`${server.apiUrl}/user`)));
      for (const answer of batch) expect(answer.status).toBe(200);
      sent += batch.length;
      for (const line of await waitForLogLines(server, batch.map((answer) => answer.id))) answeredBy.set(line.pid, (answeredBy.get(line.pid) ?? 0) + 1);
    }
    expect([...answeredBy.keys()], `${sent} requests`).toHaveLength(2);
    expect(answeredBy.has(server.pid)).toBe(false); // the primary serves no request

    const first = await scrapeUntil(server.url, (s) => delta(s, before, "http_requests_total", user) >= sent);
    expect(delta(first, before, "http_requests_total", user)).toBe(sent);
    // every later scrape, by whichever process, has the same total
    const scrapedBy = new Set<number>();
    for (let i = 0; i < 40 && scrapedBy.size < 2; i++) {
      const again = await scrape(server.url);
      expect(delta(again, before, "http_requests_total", user)).toBe(sent);
      expect(histogramDelta(again, before, "http_request_duration_seconds", user).count).toBe(sent);
      expect(histogramDelta(again, before, "http_request_db_statements", { method: "GET", route: "/api/v4/user" }).count).toBe(sent);
      const [line] = await waitForLogLines(server, [again.requestId]);
      scrapedBy.add(line!.pid);
    }
    expect(scrapedBy.size).toBe(2);
  });

  it("adds the primary's own metrics (the delivery worker, the outbox, its process) once", async () => {
    const hooked = await hookedProject(restClient(server), `${receiver.url}/clustered`);
    receiver.clear();
    const before = await scrape(server.url);
    await hooked.fire();
    await receiver.waitFor(1, DELIVERY_TIMEOUT_MS);
    const after = await scrapeUntil(server.url, (s) => delta(s, before, "forgeline_webhook_deliveries_total", SUCCESS) >= 1, DELIVERY_TIMEOUT_MS);
    expect(delta(after, before, "forgeline_webhook_deliveries_total", SUCCESS)).toBe(1);
    expect(histogramDelta(after, before, "forgeline_webhook_delivery_latency_seconds").count).toBe(1);
    const settled = await scrapeUntil(server.url, (s) => total(s, "forgeline_webhook_outbox_pending") === 0, DELIVERY_TIMEOUT_MS);
    expect(total(settled, "forgeline_webhook_outbox_pending")).toBe(0);
    for (const name of ["forgeline_webhook_outbox_pending", "forgeline_webhook_outbox_oldest_pending_age_seconds", "forgeline_webhook_worker_leases", "nodejs_version_info"]) {
      expect(settled.families.find((f) => f.name === name)?.metrics, name).toHaveLength(1);
    }
  });

  it.skipIf(missing !== null)("answers a scrape from an address MONITORING_ALLOW_CIDRS admits", async () => {
    const allowed = await scrape(`http://${external}:${server.port}`);
    expect(total(allowed, "http_requests_total", { route: "/api/v4/user" })).toBeGreaterThan(0);
  });
});

describe("npm run worker with WORKER_METRICS_PORT", () => {
  let server: RunningServer;
  let worker: { child: ChildProcess; output: () => string; exited: Promise<number | null>; url: string };
  beforeAll(async () => {
    server = await startServer({ env: { ALLOW_LOCAL_WEBHOOKS: "true", WEBHOOK_WORKER: "false", WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY } });
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env, DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir, PUBLIC_URL: server.url, ALLOW_LOCAL_WEBHOOKS: "true",
      WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, WORKER_METRICS_PORT: String(port), HOST: "0.0.0.0",
      ...(external ? { MONITORING_ALLOW_CIDRS: `${external}/32` } : {}),
    };
    delete env.NODE_OPTIONS;
    const child = spawn(process.execPath, ["--import", "tsx", "src/worker.ts"], { cwd: REPO_ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    worker = { child, output: () => output, exited: new Promise((resolve) => child.once("exit", resolve)), url: `http://127.0.0.1:${port}` };
    for (const deadline = Date.now() + 30_000; !output.includes(`/-/metrics`);) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the worker serves no metrics:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 90_000);
  afterAll(async () => {
    if (worker && worker.child.exitCode === null) {
      process.kill(-worker.child.pid!, "SIGTERM");
      await worker.exited;
    }
    await server?.stop();
  });

  it("serves its deliveries, leases and the outbox; other paths answer 404", async () => {
    const hooked = await hookedProject(restClient(server), `${receiver.url}/worker`);
    receiver.clear();
    const before = await scrape(worker.url);
    expect(total(before, "http_requests_total")).toBe(0); // it serves no API
    await hooked.fire();
    await receiver.waitFor(1, DELIVERY_TIMEOUT_MS);
    const after = await scrapeUntil(worker.url, (s) =>
      delta(s, before, "forgeline_webhook_deliveries_total", SUCCESS) >= 1 && total(s, "forgeline_webhook_outbox_pending") === 0 &&
      total(s, "forgeline_webhook_worker_leases") === 0, DELIVERY_TIMEOUT_MS);
    expect(delta(after, before, "forgeline_webhook_deliveries_total", SUCCESS)).toBe(1);
    expect(histogramDelta(after, before, "forgeline_webhook_delivery_latency_seconds").count).toBe(1);
    expect(total(after, "forgeline_webhook_outbox_pending")).toBe(0);
    expect(total(after, "forgeline_webhook_worker_leases")).toBe(0);
    expect(total(after, "process_cpu_seconds_total")).toBeGreaterThan(0);
    // the server, whose worker is off, delivered nothing
    expect(total(await scrape(server.url), "forgeline_webhook_deliveries_total")).toBe(0);
    expect((await send(`${worker.url}/api/v4/user`)).status).toBe(404);
  });

  it.skipIf(missing !== null)("answers a scrape from an address MONITORING_ALLOW_CIDRS admits", async () => {
    expect(total(await scrape(`http://${external}:${new URL(worker.url).port}`), "forgeline_webhook_deliveries_total", SUCCESS)).toBeGreaterThan(0);
  });

  it("stops on SIGTERM with its metrics server", async () => {
    process.kill(-worker.child.pid!, "SIGTERM");
    expect(await worker.exited).toBe(0);
    await expect(fetch(`${worker.url}/-/metrics`)).rejects.toThrow();
  });
});
