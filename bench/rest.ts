// `npm run bench`: request latency and memory of the REST facade on a fresh SQLite database.
// Runs the real app in process (no socket) so that the numbers are the server's own cost.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { createServices } from "../src/services.js";
import { applyMigrations } from "../src/db/migrate.js";
import { bootstrap } from "../src/domain/bootstrap.js";

const TOKEN = "bench-root-token-0123456789abcdef";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "forgeline-bench-"));
  const dbFile = path.join(dir, "bench.db");
  await applyMigrations(`file:${dbFile}`);
  const config = loadConfig({ DATA_DIR: dir, DATABASE_URL: `file:${dbFile}`, INITIAL_ROOT_TOKEN: TOKEN, PUBLIC_URL: "http://bench.test", ALLOW_LOCAL_WEBHOOKS: "true" });
  const services = await createServices(config);
  await bootstrap(services);
  const app = createApp(services);
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await app.fetch(new Request(`http://bench.test/api/v4${url}`, {
      method,
      headers: { "PRIVATE-TOKEN": TOKEN, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }));
    const text = await response.text();
    if (response.status >= 400) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };

  const group = await call("POST", "/groups", { name: "Bench", path: "bench", visibility: "public" });
  for (let i = 0; i < 60; i++) await call("POST", "/projects", { name: `p${i}`, namespace_id: group.id, topics: ["bench"] });

  // work items in one project: issues, a merge request with notes, reactions and an approval rule
  const project = await call("GET", "/projects/bench%2Fp1");
  const p = `/projects/${project.id}`;
  for (let i = 0; i < 40; i++) await call("POST", `${p}/issues`, { title: `Issue ${i}`, labels: "bug,bench" });
  await call("POST", `${p}/repository/branches`, { branch: "feature", ref: "main" });
  const commit = (n: number) => ({ branch: "feature", commit_message: `Change ${n}`, actions: [{ action: "create", file_path: `f${n}.txt`, content: "x" }] });
  await call("POST", `${p}/repository/commits`, commit(0));
  const mr = await call("POST", `${p}/merge_requests`, { source_branch: "feature", target_branch: "main", title: "Bench MR" });
  const mrPath = `${p}/merge_requests/${mr.iid}`;
  for (let i = 0; i < 20; i++) await call("POST", `${mrPath}/notes`, { body: `Note ${i}` });
  await call("POST", `${mrPath}/award_emoji`, { name: "thumbsup" });
  await call("POST", `${p}/approval_rules`, { name: "Reviewers", approvals_required: 1, user_ids: [1] });
  await call("POST", `/groups/${group.id}/hooks`, { url: "http://127.0.0.1:9/bench", push_events: true, issues_events: true });

  let created = 0;
  const cases: Array<[string, () => Promise<unknown>]> = [
    ["GET /user", () => call("GET", "/user")],
    ["GET /projects/:id (path)", () => call("GET", "/projects/bench%2Fp1")],
    ["GET /projects?per_page=20", () => call("GET", "/projects?per_page=20")],
    ["GET /groups/:id/members", () => call("GET", `/groups/${group.id}/members`)],
    ["GET /users?per_page=20", () => call("GET", "/users?per_page=20")],
    ["POST /projects", () => call("POST", "/projects", { name: `n${++created}`, namespace_id: group.id })],
    ["GET /projects/:id/issues?per_page=20", () => call("GET", `${p}/issues?per_page=20`)],
    ["GET /projects/:id/issues/:iid", () => call("GET", `${p}/issues/1`)],
    ["POST /projects/:id/issues (hooked)", () => call("POST", `${p}/issues`, { title: `New ${++created}` })],
    ["GET .../merge_requests/:iid", () => call("GET", mrPath)],
    ["GET .../merge_requests/:iid/notes", () => call("GET", `${mrPath}/notes`)],
    ["GET .../merge_requests/:iid/approval_state", () => call("GET", `${mrPath}/approval_state`)],
    ["POST .../repository/commits (hooked)", () => call("POST", `${p}/repository/commits`, commit(++created))],
  ];
  console.log(`rounds per case: ${ROUNDS}`);
  for (const [name, run] of cases) {
    for (let i = 0; i < 20; i++) await run(); // warm-up
    const samples: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const start = performance.now();
      await run();
      samples.push(performance.now() - start);
    }
    samples.sort((a, b) => a - b);
    const pct = (p: number) => samples[Math.min(samples.length - 1, Math.floor(samples.length * p))]!.toFixed(2);
    console.log(`${name.padEnd(36)} p50 ${pct(0.5)} ms  p95 ${pct(0.95)} ms  p99 ${pct(0.99)} ms`);
  }
  const memory = process.memoryUsage();
  console.log(`rss ${(memory.rss / 2 ** 20).toFixed(1)} MiB, heap used ${(memory.heapUsed / 2 ** 20).toFixed(1)} MiB`);
  await services.db.$disconnect();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
