// Forgeline on PostgreSQL (DATABASE_URL=postgresql://...): two real server processes on one fresh
// database that they migrate at start; a short everyday scenario; a revoked token refused by the
// other process at once; and the PostgreSQL migrations giving the tables, columns and indexes the
// SQLite migrations give (the two variants of one schema must not drift).
// Needs PostgreSQL on 127.0.0.1:5432 with trust auth (POSTGRES_URL overrides; .ci/run starts it).
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { E2E_ROOT_TOKEN, runUntilExit, startServer, type RunningServer } from "./helpers/server.js";

const ADMIN_URL = process.env.POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const database = `forgeline_test_${process.pid}_${Date.now().toString(36)}`;
const databaseUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${database}` }).toString();
const KEY = "a".repeat(64);

let admin: pg.Client;
let first: RunningServer;
let second: RunningServer;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  const env = { DATABASE_URL: databaseUrl, WEBHOOK_ENCRYPTION_KEY: KEY };
  first = await startServer({ env });
  second = await startServer({ env, rootToken: null });
}, 120_000);

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  await admin?.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await admin?.end();
});

async function call(server: RunningServer, method: string, path: string, token?: string, body?: unknown) {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers["PRIVATE-TOKEN"] = token;
  const response = await fetch(server.apiUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

describe("on PostgreSQL", () => {
  it("refuses to start without WEBHOOK_ENCRYPTION_KEY", async () => {
    const run = await runUntilExit({ env: { DATABASE_URL: databaseUrl } });
    expect(run.code).toBe(2);
    expect(run.output).toContain("WEBHOOK_ENCRYPTION_KEY must be set when DATABASE_URL is a PostgreSQL URL");
  });

  it("serves issues, labels, reactions and counts from either process", async () => {
    const group = await call(first, "POST", "/groups", E2E_ROOT_TOKEN, { name: "Pg", path: "pg", visibility: "public" });
    expect(group.status).toBe(201);
    const project = await call(first, "POST", "/projects", E2E_ROOT_TOKEN, { name: "Pg", path: "pg", namespace_id: group.body.id, visibility: "public" });
    expect(project.status).toBe(201);
    const p = `/projects/${project.body.id}`;
    const created = await Promise.all(["one", "two", "three", "four"].map((title, i) =>
      call(i % 2 ? second : first, "POST", `${p}/issues`, E2E_ROOT_TOKEN, { title, labels: i % 2 ? "bug" : "bug,ui" })));
    expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(created.map((r) => r.body.iid)).size).toBe(4);
    expect((await call(second, "POST", `${p}/issues/1/award_emoji`, E2E_ROOT_TOKEN, { name: "thumbsup" })).status).toBe(201);
    const labelled = await call(first, "GET", `${p}/issues?labels=ui`);
    expect(labelled.headers.get("x-total")).toBe("2");
    expect((await call(second, "GET", `${p}/issues`)).headers.get("x-total")).toBe("4");
    const awards = await call(first, "GET", `${p}/issues/1/award_emoji`);
    expect(awards.body.map((a: { name: string }) => a.name)).toEqual(["thumbsup"]);
  });

  it("a token revoked through one process is refused by the other at once", async () => {
    const user = await call(first, "POST", "/users", E2E_ROOT_TOKEN, { username: "pguser", name: "Pg", email: "pg@example.com", password: "password-123456" });
    const token = await call(first, "POST", `/users/${user.body.id}/personal_access_tokens`, E2E_ROOT_TOKEN, { name: "t", scopes: ["api"] });
    for (let i = 0; i < 2; i++) expect((await call(second, "GET", "/user", token.body.token)).status).toBe(200);
    expect((await call(first, "DELETE", `/personal_access_tokens/${token.body.id}`, token.body.token)).status).toBe(204);
    expect((await call(second, "GET", "/user", token.body.token)).status).toBe(401);
  });

  it("has the tables, columns and indexes the SQLite migrations make", async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const columns = await client.query(
        "SELECT table_name || '.' || column_name AS name FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'",
      );
      // the search indexes differ by nature (migrations search_indexes): PostgreSQL's pg_trgm GIN
      // indexes and SQLite's FTS5 tables (with their shadow tables) serve the same matches
      const indexes = await client.query(
        "SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey' AND indexdef NOT LIKE '%gin_trgm_ops%'",
      );
      const trigramIndexes = await client.query("SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public' AND indexdef LIKE '%gin_trgm_ops%'");
      expect(trigramIndexes.rows.map((r) => r.name).sort()).toEqual([
        "Issue_description_trgm_idx", "Issue_title_trgm_idx", "MergeRequest_description_trgm_idx", "MergeRequest_title_trgm_idx",
      ]);
      const sqlite = new Database(inject("templateDb"), { readonly: true });
      try {
        const searchTables = (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'").all() as { name: string }[]).map((t) => t.name);
        expect(searchTables.sort()).toEqual(["IssueSearch", "MergeRequestSearch"]);
        const isSearchTable = (name: string) => searchTables.some((search) => name === search || name.startsWith(`${search}_`));
        const tables = (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'").all() as { name: string }[])
          .map((t) => t.name)
          .filter((name) => !isSearchTable(name));
        const sqliteColumns = tables.flatMap((table) => (sqlite.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => `${table}.${c.name}`));
        const sqliteIndexes = (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex_%'").all() as { name: string }[]).map((i) => i.name);
        expect(columns.rows.map((r) => r.name).sort()).toEqual(sqliteColumns.sort());
        expect(indexes.rows.map((r) => r.name).sort()).toEqual(sqliteIndexes.sort());
      } finally {
        sqlite.close();
      }
    } finally {
      await client.end();
    }
  });
});
