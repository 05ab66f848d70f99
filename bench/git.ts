// `npm run bench:git`: git over HTTP on Forgeline's real server, measured with the real `git`.
//
//   npm run bench:git [-- --pairs 7 --commits 1000 --duration 4 --rounds 3 --pushes 50 --large-mb 200 --merges 5 --only clone,reads,hook,rss,merge]
//   npm run bench:git -- --database-url postgresql://postgres@127.0.0.1:5432/bench_git   (an empty database)
//
// - clone: push of a generated 1,000-commit repository into an empty project, then `git clone
//   --bare` of it, against the same on `git http-backend` behind a bare node:http bridge
//   (bench/git-http-backend.mjs); alternating runs, medians and ratios;
// - reads: p50 of files/:path/raw and tree at 1 and 10 connections, against the award-list read;
// - hook: `git push` of one commit -> push webhook received on a loopback receiver, sequential;
// - rss: the server's process group's memory while a ~200 MB repository of random bytes is cloned;
// - merge: PUT .../merge of 100 commits changing 1,000 files, against `git merge` by hand.
// Targets are reported, not asserted; the exit code is non-zero only on errors.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { measureClonePush, measureHookLatency, measureReads, measureRss, type Bench } from "./git-measures.js";
import { createHistory, git } from "./git-repos.js";
import { measureMerge } from "./git-merge.js";
import { freePort, startCommand, startMeasured, type Measured } from "./processes.js";

const ROOT_TOKEN = "bench-root-token-0123456789abcdef";

const { values: args } = parseArgs({
  options: {
    pairs: { type: "string", default: "7" },
    commits: { type: "string", default: "1000" },
    duration: { type: "string", default: "4" },
    rounds: { type: "string", default: "3" },
    pushes: { type: "string", default: "50" },
    "large-mb": { type: "string", default: "200" },
    merges: { type: "string", default: "5" },
    "web-concurrency": { type: "string", default: String(os.availableParallelism()) },
    only: { type: "string", default: "clone,reads,hook,rss,merge" },
    "database-url": { type: "string", default: "" },
  },
});
// PostgreSQL needs the key set explicitly
if (args["database-url"]) process.env.WEBHOOK_ENCRYPTION_KEY ||= "b7".repeat(32);

async function startForgeline(dir: string): Promise<Measured> {
  const port = await freePort();
  return startMeasured("forgeline", startCommand(), {
    ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: path.join(dir, "data"), DATABASE_URL: args["database-url"],
    INITIAL_ROOT_TOKEN: ROOT_TOKEN, PUBLIC_URL: `http://127.0.0.1:${port}`, ALLOW_LOCAL_WEBHOOKS: "true", MAX_PUSH_SIZE_MB: "1024",
    WEB_CONCURRENCY: args["web-concurrency"],
  }, port, (url) => fetch(`${url}/-/readiness`).then((r) => r.status === 200));
}

async function startBaseline(root: string): Promise<Measured> {
  const port = await freePort();
  return startMeasured("baseline", [process.execPath, path.join(import.meta.dirname, "git-http-backend.mjs"), root, String(port)], process.env, port,
    (url) => fetch(`${url}/none.git/info/refs?service=git-upload-pack`).then((r) => r.status === 404));
}

function api(base: string) {
  return async (method: string, route: string, body?: unknown, token = ROOT_TOKEN): Promise<any> => {
    const response = await fetch(`${base}/api/v4${route}`, {
      method, headers: { "PRIVATE-TOKEN": token, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
}

const loadAverage = () => `load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`;

async function run(bench: Bench, only: string[]): Promise<string[]> {
  const measures: [string, () => Promise<string>][] = [
    ["clone", () => measureClonePush(bench, Number(args.pairs))],
    ["reads", () => measureReads(bench, Number(args.rounds), Number(args.duration))],
    ["hook", () => measureHookLatency(bench, Number(args.pushes))],
    ["rss", () => measureRss(bench, Number(args["large-mb"]))],
    ["merge", () => measureMerge(bench, Number(args.merges))],
  ];
  const summaries: string[] = [];
  for (const [key, measure] of measures.filter(([key]) => only.includes(key))) {
    // the machine may be shared: what else ran shows here
    console.log(`\n[${key}: ${loadAverage()}]`);
    summaries.push(await measure());
  }
  return summaries;
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "forgeline-bench-git-"));
  const baselineRoot = path.join(dir, "baseline");
  let forgeline: Measured | undefined;
  let baseline: Measured | undefined;
  try {
    const started = performance.now();
    const history = await createHistory(path.join(dir, "history.git"), Number(args.commits));
    console.log(`${args.commits} commits generated in ${((performance.now() - started) / 1000).toFixed(1)} s (pack ${(history.packBytes / 2 ** 20).toFixed(1)} MiB); data in ${dir}`);
    forgeline = await startForgeline(dir);
    baseline = await startBaseline(baselineRoot);
    const database = args["database-url"] ? args["database-url"].replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@") : "SQLite";
    console.log(`Forgeline (WEB_CONCURRENCY=${args["web-concurrency"]}) on ${forgeline.url}, database ${database}; ${(await git(["--version"])).trim()}; ` +
      `${os.availableParallelism()} cores, ${loadAverage()}`);
    const call = api(forgeline.url);
    const group = await call("POST", "/groups", { name: "Bench git", path: "bench-git", visibility: "public" });
    const bench: Bench = { dir, forgeline, baseline, baselineRoot, history, api: call, groupId: group.id, token: ROOT_TOKEN };
    const summaries = await run(bench, args.only.split(","));
    console.log(`\n[end: ${loadAverage()}]`);
    for (const line of summaries) console.log(`SUMMARY ${line}`);
  } catch (error) {
    if (forgeline) console.error(`Forgeline's output (last 4,000 characters):\n${forgeline.output().slice(-4000)}`);
    throw error;
  } finally {
    await Promise.all([forgeline?.stop(), baseline?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
