// `npm run bench`: Forgeline's real server process over HTTP beside a bare node:http +
// better-sqlite3 handler returning byte-identical bodies (bench/baseline.mjs), on a fresh database.
//
//   npm run bench [-- --pairs 3 --duration 5 --large 1000000 --web-concurrency N --only award,user]
//   npm run bench -- --database-url postgresql://postgres@127.0.0.1:5432/bench   (an empty database)
//
// For each GET route: a warm-up, then `pairs` alternating runs (Forgeline, baseline, baseline,
// Forgeline, ...) of `duration` seconds with 10 connections; medians per side and their ratios
// (throughput, p50, p99, server CPU per request over the whole process group). Then an open-loop
// run at 200 requests/s for 30 s on the award list, the issue list of a project with 1,000 issues
// against one with 1,000,000 (one connection), POST /projects/:id/issues with a group hook
// listening (issues/s, and how fast the deliveries follow), and the server's memory.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createFixtures, sha256, startReceiver, type Fixtures } from "./fixtures.js";
import { compare, describeRun, fixed, type Comparison } from "./compare.js";
import { closedLoop, openLoop, type Request } from "./load.js";
import { freePort, startCommand, startMeasured, type Measured } from "./processes.js";

const ROOT_TOKEN = "bench-root-token-0123456789abcdef";
const CONNECTIONS = 10;
const PAGINATION_HEADERS = ["content-type", "x-page", "x-per-page", "x-total", "x-total-pages", "x-next-page", "x-prev-page", "link"];

const { values: args } = parseArgs({
  options: {
    pairs: { type: "string", default: "3" },
    duration: { type: "string", default: "5" },
    large: { type: "string", default: "1000000" },
    rate: { type: "string", default: "200" },
    "open-loop-seconds": { type: "string", default: "30" },
    "web-concurrency": { type: "string", default: String(os.availableParallelism()) },
    only: { type: "string" },
    "database-url": { type: "string", default: "" },
  },
});
const PAIRS = Number(args.pairs);
// PostgreSQL needs the key set explicitly; the server and the seed script inherit it
if (args["database-url"]) process.env.WEBHOOK_ENCRYPTION_KEY ||= "b7".repeat(32);
const SECONDS = Number(args.duration);

interface Route {
  key: string;
  name: string;
  path: (f: Fixtures) => string;
}

const ROUTES: Route[] = [
  { key: "award", name: "GET award emoji of an issue (20 of 25)", path: (f) => `/api/v4/projects/${f.projectId}/issues/${f.issueIid}/award_emoji?per_page=20` },
  { key: "issues", name: "GET project issues (20 of 1,000)", path: (f) => `/api/v4/projects/${f.smallProjectId}/issues?per_page=20` },
  { key: "approval", name: "GET merge request approval_state", path: (f) => `/api/v4/projects/${f.projectId}/merge_requests/${f.mergeRequestIid}/approval_state` },
  { key: "project", name: "GET /projects/:id", path: (f) => `/api/v4/projects/${f.projectId}` },
  { key: "user", name: "GET /user", path: () => "/api/v4/user" },
];


async function answers(url: string): Promise<boolean> {
  return (await fetch(url)).status < 500;
}

async function capture(product: Measured, f: Fixtures, routes: Route[]) {
  const responses = [];
  for (const route of routes) {
    const url = route.path(f);
    const response = await fetch(product.url + url, { headers: { "PRIVATE-TOKEN": f.readerToken } });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${body}`);
    const headers = Object.fromEntries(PAGINATION_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!]] : [])));
    responses.push({ url, status: response.status, headers, body });
  }
  return { tokens: [f.readerToken], tokenDigests: [...f.tokens, f.rootToken].map(sha256), responses };
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "forgeline-bench-"));
  const selected = args.only ? ROUTES.filter((route) => args.only!.split(",").includes(route.key)) : ROUTES;
  const receiver = await startReceiver();
  const productPort = await freePort();
  const product = await startMeasured("forgeline", startCommand(), {
    ...process.env, PORT: String(productPort), HOST: "127.0.0.1", DATA_DIR: path.join(dir, "data"), DATABASE_URL: args["database-url"],
    INITIAL_ROOT_TOKEN: ROOT_TOKEN, PUBLIC_URL: `http://127.0.0.1:${productPort}`, ALLOW_LOCAL_WEBHOOKS: "true",
    WEB_CONCURRENCY: args["web-concurrency"],
  }, productPort, (url) => fetch(`${url}/-/readiness`).then((r) => r.status === 200));
  let baseline: Measured | undefined;
  try {
    const database = args["database-url"] ? args["database-url"].replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@") : "SQLite";
    console.log(`Forgeline (WEB_CONCURRENCY=${args["web-concurrency"]}) on ${product.url}, database ${database}; data in ${dir}`);
    const started = performance.now();
    const data = { dataDir: path.join(dir, "data"), databaseUrl: args["database-url"] };
    const f = await createFixtures(product.url, ROOT_TOKEN, data, receiver.url, { small: 1000, large: Number(args.large) });
    console.log(`fixtures ready in ${fixed((performance.now() - started) / 1000, 1)} s`);
    const captured = await capture(product, f, selected);
    const captureFile = path.join(dir, "capture.json");
    writeFileSync(captureFile, JSON.stringify(captured));
    const baselinePort = await freePort();
    baseline = await startMeasured("baseline", [process.execPath, "bench/baseline.mjs", captureFile, path.join(dir, "baseline.db"), String(baselinePort)],
      process.env, baselinePort, answers);

    const results: Record<string, unknown> = {};
    const comparisons: Comparison[] = [];
    console.log(`\nClosed loop, ${CONNECTIONS} connections, ${PAIRS} alternating pairs of ${SECONDS} s (ratios: Forgeline / baseline)`);
    for (const route of selected) {
      const response = captured.responses.find((r) => r.url === route.path(f))!;
      const request = (): Request => ({ path: response.url, headers: { "PRIVATE-TOKEN": f.readerToken }, expectBody: response.body });
      const { a, b, ratios } = await compare(product, baseline, request, CONNECTIONS, PAIRS, SECONDS);
      comparisons.push({ route: route.key, product: a, baseline: b, ratios, unclean: a.unclean + b.unclean });
      console.log(`${route.name}\n  ${describeRun(a)}\n  ${describeRun(b)}\n  ratios   rps ${fixed(ratios.rps, 3)}  p50 ${fixed(ratios.p50)}  p99 ${fixed(ratios.p99)}  cpu/req ${fixed(ratios.cpuPerRequest)}`);
    }
    results.closedLoop = comparisons;

    const awardUrl = ROUTES[0]!.path(f);
    const rate = Number(args.rate);
    const openSeconds = Number(args["open-loop-seconds"]);
    console.log(`\nOpen loop, ${rate} requests/s for ${openSeconds} s: ${awardUrl}`);
    const openLoops: Record<string, unknown> = {};
    for (const target of [product, baseline]) {
      const r = await openLoop(target.url + awardUrl, { "PRIVATE-TOKEN": f.readerToken }, rate, openSeconds);
      openLoops[target.name] = r;
      console.log(`  ${target.name.padEnd(9)} answered 2xx ${r.answered2xx}/${r.offered}, within 250 ms ${fixed((100 * r.within250ms) / r.offered)} %, ` +
        `failed ${r.failed}, p50 ${fixed(r.p50)} ms, p99 ${fixed(r.p99)} ms, max ${fixed(r.max)} ms`);
    }
    results.openLoop = openLoops;

    console.log(`\nList growth, 1 connection: project issues with ${f.largeIssues} vs ${f.smallIssues} issues`);
    const largeProduct = { ...product, name: "large" };
    const smallProduct = { ...product, name: "small" };
    const growthRequest = (target: Measured): Request => ({
      path: `/api/v4/projects/${target.name === "large" ? f.largeProjectId : f.smallProjectId}/issues?per_page=20`,
      headers: { "PRIVATE-TOKEN": f.readerToken },
    });
    const growth = await compare(largeProduct, smallProduct, growthRequest, 1, PAIRS, SECONDS);
    console.log(`  ${describeRun(growth.a)}\n  ${describeRun(growth.b)}\n  large/small p50 ${fixed(growth.ratios.p50, 3)}`);
    results.growth = growth;

    console.log(`\nPOST /projects/:id/issues, ${CONNECTIONS} connections, ${SECONDS * 2} s, a group hook listening`);
    const before = receiver.received();
    const post = await closedLoop(product, {
      method: "POST", path: `/api/v4/projects/${f.projectId}/issues`, headers: { "PRIVATE-TOKEN": ROOT_TOKEN, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "An issue from the benchmark", labels: "bench" }),
    }, CONNECTIONS, SECONDS * 2);
    const deliveredDuringRun = receiver.received() - before;
    const drainStart = performance.now();
    while (receiver.received() - before < post.requests && performance.now() - drainStart < 120_000) await new Promise((resolve) => setTimeout(resolve, 100));
    const drainSeconds = (performance.now() - drainStart) / 1000;
    console.log(`  ${describeRun(post)}\n  deliveries: ${deliveredDuringRun} during the run (${fixed(deliveredDuringRun / (SECONDS * 2), 0)}/s), ` +
      `all ${receiver.received() - before} of ${post.requests} ${fixed(drainSeconds, 1)} s after it`);
    results.postIssue = { ...post, deliveredDuringRun, drainSeconds, delivered: receiver.received() - before };

    const rss = product.rssMiB();
    console.log(`\nMemory: RSS of each Forgeline process ${rss.map((mib) => fixed(mib, 0)).join(", ")} MiB`);
    results.rssMiB = rss;

    const award = comparisons.find((c) => c.route === "award");
    const open = openLoops.forgeline as Awaited<ReturnType<typeof openLoop>>;
    const summary = [
      award ? `award rps=${fixed(award.ratios.rps, 3)} cpu/req=${fixed(award.ratios.cpuPerRequest)}` : "award skipped",
      `open ${rate}/s p50=${fixed(open.p50)}ms p99=${fixed(open.p99)}ms 2xx<=250ms=${fixed((100 * open.within250ms) / open.offered)}%`,
      `growth ${f.largeIssues}/${f.smallIssues} p50=${fixed(growth.ratios.p50, 3)}`,
      `POST issue ${fixed(post.rps, 0)}/s`,
      `rss max=${fixed(Math.max(...rss), 0)}MiB`,
      ...comparisons.filter((c) => c.route !== "award").map((c) => `${c.route} rps=${fixed(c.ratios.rps, 3)}`),
    ];
    console.log(`\nSUMMARY ${summary.join(" | ")}`);
    writeFileSync(path.join(dir, "results.json"), JSON.stringify(results, null, 2));
    console.log(`(raw results: ${path.join(dir, "results.json")})`);
  } finally {
    receiver.close();
    await Promise.all([product.stop(), baseline?.stop()]);
    rmSync(path.join(dir, "data"), { recursive: true, force: true });
    rmSync(path.join(dir, "baseline.db"), { force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
