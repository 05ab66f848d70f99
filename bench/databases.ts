// `npm run bench:databases`: the same Forgeline on SQLite and on PostgreSQL, side by side in one
// run on one machine (the targets of "PostgreSQL as fast as the embedded database").
//
//   npm run bench:databases -- --database-url postgresql://postgres@127.0.0.1:5432/bench   (an empty database)
//        [--pairs 3 --duration 5 --rate 200 --open-loop-seconds 30 --web-concurrency N --only award,user]
//
// Both servers get the same fixtures. Per GET route: alternating runs (SQLite, PostgreSQL, ...) at
// 1 connection (p50) and at 10 (throughput, server CPU per request; on PostgreSQL also the
// database server's own CPU per request, read from /proc, so PostgreSQL must run on this machine
// with its other databases idle), and the statements and round trips per request the servers
// report in /-/metrics. Then an open loop at `rate` requests/s on the award list, and
// POST /projects/:id/issues at 10 connections with a group hook listening.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { compare, describeRun, fixed } from "./compare.js";
import { createFixtures, startReceiver, type Fixtures } from "./fixtures.js";
import { closedLoop, openLoop, type Request, type RunResult } from "./load.js";
import { freePort, postgresqlCpuSeconds, startCommand, startMeasured, type Measured } from "./processes.js";

const ROOT_TOKEN = "bench-root-token-0123456789abcdef";

const { values: args } = parseArgs({
  options: {
    pairs: { type: "string", default: "3" },
    duration: { type: "string", default: "5" },
    rate: { type: "string", default: "200" },
    "open-loop-seconds": { type: "string", default: "30" },
    "web-concurrency": { type: "string", default: String(os.availableParallelism()) },
    only: { type: "string" },
    "database-url": { type: "string", default: "" },
  },
});
if (!/^postgres(ql)?:\/\//.test(args["database-url"])) {
  console.error("usage: npm run bench:databases -- --database-url postgresql://user@127.0.0.1:5432/<an empty database>");
  process.exit(2);
}
process.env.WEBHOOK_ENCRYPTION_KEY ||= "b7".repeat(32);
const PAIRS = Number(args.pairs);
const SECONDS = Number(args.duration);

interface Route {
  key: string;
  name: string;
  /** the route template the server's metrics name it by */
  template: string;
  path: (f: Fixtures) => string;
}

const ROUTES: Route[] = [
  { key: "award", name: "GET award emoji of an issue (20 of 25)", template: "/api/v4/projects/:id/issues/:issue_iid/award_emoji",
    path: (f) => `/api/v4/projects/${f.projectId}/issues/${f.issueIid}/award_emoji?per_page=20` },
  { key: "issues", name: "GET project issues (20 of 1,000)", template: "/api/v4/projects/:id/issues",
    path: (f) => `/api/v4/projects/${f.smallProjectId}/issues?per_page=20` },
  { key: "approval", name: "GET merge request approval_state", template: "/api/v4/projects/:id/merge_requests/:merge_request_iid/approval_state",
    path: (f) => `/api/v4/projects/${f.projectId}/merge_requests/${f.mergeRequestIid}/approval_state` },
  { key: "project", name: "GET /projects/:id", template: "/api/v4/projects/:id", path: (f) => `/api/v4/projects/${f.projectId}` },
  { key: "user", name: "GET /user", template: "/api/v4/user", path: () => "/api/v4/user" },
];

interface Server {
  measured: Measured;
  fixtures: Fixtures;
}

async function startServer(name: string, dir: string, databaseUrl: string, receiverUrl: string): Promise<Server> {
  const port = await freePort();
  const dataDir = path.join(dir, name);
  const measured = await startMeasured(name, startCommand(), {
    ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: databaseUrl,
    INITIAL_ROOT_TOKEN: ROOT_TOKEN, PUBLIC_URL: `http://127.0.0.1:${port}`, ALLOW_LOCAL_WEBHOOKS: "true",
    WEB_CONCURRENCY: args["web-concurrency"], LOG_LEVEL: "warn",
  }, port, (url) => fetch(`${url}/-/readiness`).then((r) => r.status === 200));
  if (databaseUrl) measured.databaseCpuSeconds = postgresqlCpuSeconds;
  const fixtures = await createFixtures(measured.url, ROOT_TOKEN, { dataDir, databaseUrl }, receiverUrl, { small: 1000, large: 1000 });
  return { measured, fixtures };
}

/** Statements and round trips per request of a route so far (sums and counts of the server's histograms). */
async function databaseWork(server: Server, route: string, method = "GET") {
  const text = await (await fetch(`${server.measured.url}/-/metrics`)).text();
  const histogram = (name: string) => {
    const value = (part: "sum" | "count") => {
      const line = text.split("\n").find((l) => l.startsWith(`${name}_${part}{`) && l.includes(`method="${method}"`) && l.includes(`route="${route}"`));
      return Number(line?.slice(line.lastIndexOf(" ") + 1) ?? 0);
    };
    return { count: value("count"), sum: value("sum") };
  };
  return { statements: histogram("http_request_db_statements"), roundTrips: histogram("http_request_db_round_trips") };
}

async function perRequest(server: Server, route: string, method: string, run: () => Promise<unknown>) {
  const before = await databaseWork(server, route, method);
  await run();
  const after = await databaseWork(server, route, method);
  const requests = after.statements.count - before.statements.count;
  return {
    statements: (after.statements.sum - before.statements.sum) / requests,
    roundTrips: (after.roundTrips.sum - before.roundTrips.sum) / requests,
  };
}

const cpuWithDatabase = (r: RunResult) => r.cpuMsPerRequest + (r.databaseCpuMsPerRequest ?? 0);

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "forgeline-bench-databases-"));
  const selected = args.only ? ROUTES.filter((route) => args.only!.split(",").includes(route.key)) : ROUTES;
  const receiver = await startReceiver();
  const servers: Server[] = [];
  try {
    servers.push(await startServer("sqlite", dir, "", receiver.url));
    servers.push(await startServer("postgresql", dir, args["database-url"], receiver.url));
    const [sqlite, postgresql] = servers as [Server, Server];
    const database = args["database-url"].replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
    console.log(`Forgeline (WEB_CONCURRENCY=${args["web-concurrency"]}) on SQLite and on ${database}; data in ${dir}`);
    const results: Record<string, unknown> = {};
    const request = (route: Route) => (target: Measured): Request => {
      const { fixtures } = servers.find((server) => server.measured === target)!;
      return { path: route.path(fixtures), headers: { "PRIVATE-TOKEN": fixtures.readerToken } };
    };

    console.log(`\nGET routes: ${PAIRS} alternating pairs of ${SECONDS} s at 1 and at 10 connections (ratios: PostgreSQL / SQLite)`);
    for (const route of selected) {
      const one = await compare(postgresql.measured, sqlite.measured, request(route), 1, PAIRS, SECONDS);
      const work: Record<string, Awaited<ReturnType<typeof perRequest>>> = {};
      let ten: Awaited<ReturnType<typeof compare>> | undefined;
      work.postgresql = await perRequest(postgresql, route.template, "GET", async () => {
        work.sqlite = await perRequest(sqlite, route.template, "GET", async () => {
          ten = await compare(postgresql.measured, sqlite.measured, request(route), 10, PAIRS, SECONDS);
        });
      });
      const { a, b } = ten!;
      console.log(`${route.name}\n  1 connection:   postgresql p50 ${fixed(one.a.p50)} ms, sqlite ${fixed(one.b.p50)} ms, ratio ${fixed(one.ratios.p50)}` +
        `\n  10 connections: ${describeRun(a)}\n                  ${describeRun(b)}` +
        `\n  ratios: rps ${fixed(ten!.ratios.rps)}, Forgeline + database CPU per request ${fixed(cpuWithDatabase(a) / b.cpuMsPerRequest)}` +
        `\n  per request: postgresql ${fixed(work.postgresql!.statements, 1)} statements in ${fixed(work.postgresql!.roundTrips, 1)} round trips,` +
        ` sqlite ${fixed(work.sqlite!.statements, 1)} statements`);
      results[route.key] = { oneConnection: one, tenConnections: ten, work };
    }

    const rate = Number(args.rate);
    const openSeconds = Number(args["open-loop-seconds"]);
    const awardRoute = ROUTES[0]!;
    console.log(`\nOpen loop, ${rate} requests/s for ${openSeconds} s: ${awardRoute.name}`);
    const openLoops: Record<string, Awaited<ReturnType<typeof openLoop>>> = {};
    for (const { measured, fixtures } of [postgresql, sqlite]) {
      const r = await openLoop(measured.url + awardRoute.path(fixtures), { "PRIVATE-TOKEN": fixtures.readerToken }, rate, openSeconds);
      openLoops[measured.name] = r;
      console.log(`  ${measured.name.padEnd(10)} answered 2xx ${r.answered2xx}/${r.offered}, failed ${r.failed}, p50 ${fixed(r.p50)} ms, p99 ${fixed(r.p99)} ms, max ${fixed(r.max)} ms`);
    }
    results.openLoop = openLoops;

    console.log(`\nPOST /projects/:id/issues, 10 connections, ${SECONDS * 2} s, a group hook listening`);
    const posts: Record<string, RunResult & { statements: number; roundTrips: number }> = {};
    for (const server of [postgresql, sqlite]) {
      const { measured, fixtures } = server;
      let run: RunResult | undefined;
      const work = await perRequest(server, "/api/v4/projects/:id/issues", "POST", async () => {
        run = await closedLoop(measured, {
          method: "POST", path: `/api/v4/projects/${fixtures.projectId}/issues`,
          headers: { "PRIVATE-TOKEN": ROOT_TOKEN, "Content-Type": "application/json" },
          body: JSON.stringify({ title: "An issue from the benchmark", labels: "bench" }),
        }, 10, SECONDS * 2);
      });
      posts[measured.name] = { ...run!, ...work };
      console.log(`  ${describeRun(run!)}\n  ${"".padEnd(9)} ${fixed(work.statements, 1)} statements in ${fixed(work.roundTrips, 1)} round trips per request`);
    }
    results.postIssue = posts;

    const award = results.award as { oneConnection: Awaited<ReturnType<typeof compare>>; tenConnections: Awaited<ReturnType<typeof compare>> } | undefined;
    const summary = [
      award ? `award c1-p50=${fixed(award.oneConnection.ratios.p50)}x c10-rps=${fixed(1 / award.tenConnections.ratios.rps)}x(sqlite/pg) ` +
        `cpu+db/cpu=${fixed(cpuWithDatabase(award.tenConnections.a) / award.tenConnections.b.cpuMsPerRequest)}x` : "award skipped",
      `open ${rate}/s postgresql p99=${fixed(openLoops.postgresql!.p99)}ms failed=${openLoops.postgresql!.failed} sqlite p99=${fixed(openLoops.sqlite!.p99)}ms`,
      `POST issue postgresql ${fixed(posts.postgresql!.rps, 0)}/s p99=${fixed(posts.postgresql!.p99, 0)}ms sqlite ${fixed(posts.sqlite!.rps, 0)}/s p99=${fixed(posts.sqlite!.p99, 0)}ms`,
    ];
    console.log(`\nSUMMARY ${summary.join(" | ")}`);
    writeFileSync(path.join(dir, "results.json"), JSON.stringify(results, null, 2));
    console.log(`(raw results: ${path.join(dir, "results.json")})`);
  } finally {
    receiver.close();
    await Promise.all(servers.map((server) => server.measured.stop()));
    rmSync(path.join(dir, "sqlite"), { recursive: true, force: true });
    rmSync(path.join(dir, "postgresql"), { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
