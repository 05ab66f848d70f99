// `npm run bench:search`: issue search on a big table. Seeds a public project with N issues
// (default 1,000,000, straight through SQL: scripts/seed-issues.ts), then times
// `/search?scope=issues` and `/projects/:id/search?scope=issues` at one connection for terms that
// match one issue, a few, every issue, or none, as the administrator and as a user who is no
// member (whose search also filters by visibility), and prints the query plan of each statement a
// search sends (EXPLAIN QUERY PLAN on SQLite, EXPLAIN on PostgreSQL), to show the index at work.
//
//   npm run bench:search -- [--issues 1000000] [--requests 50] [--database-url postgresql://.../<an empty database>]
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { createApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { closeServices, createServices } from "../src/services.js";
import { fixed, median } from "./compare.js";
import { percentile } from "./load.js";
import { freePort, startCommand, startMeasured } from "./processes.js";

const ROOT_TOKEN = "bench-root-token-0123456789abcdef";

const { values: args } = parseArgs({
  options: {
    issues: { type: "string", default: "1000000" },
    requests: { type: "string", default: "50" },
    "database-url": { type: "string", default: "" },
  },
});
process.env.WEBHOOK_ENCRYPTION_KEY ||= "b7".repeat(32);
const ISSUES = Number(args.issues);
const REQUESTS = Number(args.requests);
const postgresql = /^postgres(ql)?:\/\//.test(args["database-url"]);

/** Search terms and how many of the issues each matches. */
const TERMS = [
  { name: "one issue", term: "gateway" },
  { name: "a few issues (a seeded number)", term: `issue ${Math.max(1, Math.floor(ISSUES * 0.7654321))}` },
  { name: "every seeded issue", term: "Seeded issue" },
  { name: "no issue", term: "xylophone" },
];

async function call(base: string, token: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${base}/api/v4${route}`, {
    method, headers: { "PRIVATE-TOKEN": token, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return { body: text ? JSON.parse(text) : null, total: response.headers.get("x-total") };
}

/** p50 and p99 in ms of `requests` sequential GETs (after two warm-ups), and the answer's row count and X-Total. */
async function time(url: string, token: string, requests: number) {
  const durations: number[] = [];
  let rows = 0;
  let total: string | null = null;
  for (let i = -2; i < requests; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { "PRIVATE-TOKEN": token } });
    const body = (await response.json()) as unknown[];
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
    if (i >= 0) durations.push(performance.now() - started);
    rows = body.length;
    total = response.headers.get("x-total");
  }
  const sorted = durations.sort((a, b) => a - b);
  return { p50: median(sorted), p99: percentile(sorted, 0.99), rows, total };
}

/** The statements (with their bound values) one request sends, run in this process on the same database. */
async function statementsOf(databaseUrl: string, dataDir: string, route: string, token: string): Promise<{ sql: string; args: readonly unknown[] }[]> {
  const services = await createServices(loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PUBLIC_URL: "http://bench.test" }));
  try {
    const app = createApp(services);
    const request = () => app.fetch(new Request(`http://bench.test/api/v4${route}`, { headers: { "PRIVATE-TOKEN": token } }));
    await (await request()).text(); // warm: the caches answer, as on a running server
    const statements: { sql: string; args: readonly unknown[] }[] = [];
    services.sqlStats.trace = (sql, values) => statements.push({ sql, args: values });
    await (await request()).text();
    services.sqlStats.trace = undefined;
    return statements;
  } finally {
    await closeServices(services);
  }
}

async function explain(databaseUrl: string, statements: { sql: string; args: readonly unknown[] }[]): Promise<string[]> {
  if (postgresql) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const plans: string[] = [];
      for (const { sql, args: values } of statements) {
        const { rows } = await client.query({ text: `EXPLAIN ${sql}`, values: values as unknown[] });
        plans.push(rows.map((row) => row["QUERY PLAN"]).join("\n"));
      }
      return plans;
    } finally {
      await client.end();
    }
  }
  const db = new Database(databaseUrl.slice("file:".length), { readonly: true });
  try {
    // bound as the SQLite adapter binds them: booleans as 0/1, times as ISO text
    const bindable = (value: unknown) =>
      typeof value === "boolean" ? Number(value) : value instanceof Date ? value.toISOString().replace("Z", "+00:00") : value;
    return statements.map(({ sql, args: values }) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...values.map(bindable)) as { detail: string }[]).map((row) => row.detail).join("\n"));
  } finally {
    db.close();
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "forgeline-bench-search-"));
  const databaseUrl = postgresql ? args["database-url"] : `file:${path.join(dataDir, "forgeline.db")}`;
  const port = await freePort();
  const server = await startMeasured("server", startCommand(), {
    ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: databaseUrl,
    INITIAL_ROOT_TOKEN: ROOT_TOKEN, PUBLIC_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: "warn",
  }, port, (url) => fetch(`${url}/-/readiness`).then((r) => r.status === 200));
  try {
    const root = (method: string, route: string, body?: unknown) => call(server.url, ROOT_TOKEN, method, route, body);
    const project = (await root("POST", "/projects", { name: "Searched", path: "searched", visibility: "public" })).body;
    await root("POST", `/projects/${project.id}/issues`, { title: "Checkout gateway timeout", description: "Seen after the deploy" });
    const user = (await root("POST", "/users", { username: "outsider", name: "Outsider", email: "outsider@bench.test", password: "bench-password-123" })).body;
    const outsider = (await root("POST", `/users/${user.id}/personal_access_tokens`, { name: "bench", scopes: ["api"] })).body.token as string;
    const started = performance.now();
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/seed-issues.ts", String(project.id), String(ISSUES)], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    });
    console.log(`${stdout.trim()} (${fixed((performance.now() - started) / 1000, 1)} s with the index kept by its triggers)`);
    console.log(`Forgeline on ${postgresql ? "PostgreSQL" : "SQLite"}, ${ISSUES.toLocaleString("en")} issues in one public project; ${REQUESTS} sequential requests per line\n`);

    const routes = [
      { name: "/search", route: (term: string) => `/search?scope=issues&search=${encodeURIComponent(term)}` },
      { name: "/projects/:id/search", route: (term: string) => `/projects/${project.id}/search?scope=issues&search=${encodeURIComponent(term)}` },
    ];
    const callers = [{ name: "administrator", token: ROOT_TOKEN }, { name: "non-member", token: outsider }];
    const results: Record<string, unknown>[] = [];
    for (const { name: termName, term } of TERMS) {
      for (const { name: routeName, route } of routes) {
        for (const caller of callers) {
          const r = await time(`${server.url}/api/v4${route(term)}`, caller.token, REQUESTS);
          results.push({ term, route: routeName, caller: caller.name, ...r });
          console.log(`${termName.padEnd(31)} ${routeName.padEnd(21)} ${caller.name.padEnd(13)} p50 ${fixed(r.p50).padStart(7)} ms  p99 ${fixed(r.p99).padStart(7)} ms  rows ${r.rows}, X-Total ${r.total ?? "(none)"}`);
        }
      }
    }

    console.log("\nQuery plans of a non-member's search (the term matching one issue):");
    for (const { name: routeName, route } of routes) {
      const statements = await statementsOf(databaseUrl, dataDir, route("gateway"), outsider);
      const plans = await explain(databaseUrl, statements);
      console.log(`\n${routeName}: ${statements.length} statements`);
      statements.forEach(({ sql }, i) => console.log(`-- ${sql.replace(/\s+/g, " ").slice(0, 220)}\n${plans[i]!.replace(/^/gm, "   ")}`));
    }
  } catch (error) {
    console.error(server.output().slice(-4000));
    throw error;
  } finally {
    await server.stop();
  }
}

void main().then(() => process.exit(0), (error) => {
  console.error(error);
  process.exit(1);
});
