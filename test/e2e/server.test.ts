// The real server process: first start, restart, settings validation, migrations, shutdown.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import Database from "better-sqlite3";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_URL_FILE, executeOnDatabase, onPostgresql, queryDatabase } from "../helpers/test-database.js";
import { RestClient } from "./helpers/rest.js";
import { newDataDir, REPO_ROOT, runUntilExit, startServer, type RunningServer } from "./helpers/server.js";

const TOKEN_FILE = "root-token.txt";
const occurrences = (text: string, part: string) => text.split(part).length - 1;

function migrationNames(): string[] {
  const dir = path.join(REPO_ROOT, "prisma", ...(onPostgresql ? ["postgresql"] : []), "migrations");
  return readdirSync(dir).filter((name) => existsSync(path.join(dir, name, "migration.sql"))).sort();
}

function appliedMigrations(server: RunningServer) {
  return queryDatabase<{ migration_name: string; finished_at: string | null; rolled_back_at: string | null }>(
    server.databaseUrl, "SELECT migration_name, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY migration_name");
}

describe("first start on an empty data directory, without INITIAL_ROOT_TOKEN", () => {
  let server: RunningServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer({ rootToken: null });
    token = readFileSync(path.join(server.dataDir, TOKEN_FILE), "utf8").trim();
  });
  afterAll(() => server?.stop());

  it("applies every migration to the new database", async () => {
    const applied = await appliedMigrations(server);
    expect(applied.map((m) => m.migration_name)).toEqual(migrationNames());
    for (const migration of applied) {
      expect(migration.finished_at).not.toBeNull();
      expect(migration.rolled_back_at).toBeNull();
    }
  });

  it("writes the generated root token to root-token.txt with mode 0600 and names the file, never logging the token", () => {
    expect(token).toMatch(/^glpat-[A-Za-z0-9_-]{20,}$/);
    expect(occurrences(server.output(), token)).toBe(0);
    expect(server.output()).toContain(path.join(server.dataDir, TOKEN_FILE));
    expect(statSync(path.join(server.dataDir, TOKEN_FILE)).mode & 0o777).toBe(0o600);
  });

  it("the token authenticates root, an administrator, over the socket", async () => {
    const res = await new RestClient(server.apiUrl, token).get("/user");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toMatchObject({ username: "root", is_admin: true });
  });

  it("answers probes and unknown routes as GitLab does", async () => {
    const health = await fetch(`${server.url}/-/health`);
    expect([health.status, await health.text()]).toEqual([200, "GitLab OK"]);
    const unknown = await new RestClient(server.apiUrl, token).get("/no/such/route");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: "404 Not Found" });
  });

  describe("a second start on the same data directory", () => {
    let restarted: RunningServer;
    let fileBefore: { text: string; mtimeMs: number };
    const otherToken = "second-start-token-0123456789";
    beforeAll(async () => {
      const file = path.join(server.dataDir, TOKEN_FILE);
      fileBefore = { text: readFileSync(file, "utf8"), mtimeMs: statSync(file).mtimeMs };
      expect(await server.stop()).toBe(0);
      restarted = await startServer({ dataDir: server.dataDir, rootToken: otherToken });
    }, 120_000); // a stop and a full start, slow when the whole suite loads both cores
    afterAll(() => restarted?.stop());

    it("creates no administrator and no token", async () => {
      expect(restarted.output()).not.toContain("Created administrator");
      const file = path.join(server.dataDir, TOKEN_FILE);
      expect(readFileSync(file, "utf8")).toBe(fileBefore.text);
      expect(statSync(file).mtimeMs).toBe(fileBefore.mtimeMs);
      expect((await new RestClient(restarted.apiUrl, otherToken).get("/user")).status).toBe(401);
    });

    it("keeps root and its first token", async () => {
      const root = new RestClient(restarted.apiUrl, token);
      const me = await root.get("/user");
      expect(me.body).toMatchObject({ username: "root" });
      const roots = await root.get("/users?username=root");
      expect(roots.body).toHaveLength(1);
      expect((await appliedMigrations(restarted)).map((m) => m.migration_name)).toEqual(migrationNames());
    });

    it("exits with 0 on SIGTERM", async () => {
      expect(await restarted.stop()).toBe(0);
    });

    // A start on an up-to-date database skips Prisma's CLI; anything not finished must still reach it.
    it("then, with the last migration recorded as failed, refuses to start with Prisma's error", async () => {
      const last = migrationNames().at(-1)!;
      await executeOnDatabase(restarted.databaseUrl, "UPDATE _prisma_migrations SET finished_at = NULL WHERE migration_name = ?", last);
      const run = await runUntilExit({ dataDir: server.dataDir, rootToken: otherToken }, 90_000);
      expect(run.code).not.toBe(0);
      expect(run.output).toContain("database migration failed");
      expect(run.output).toContain(last);
    }, 120_000);
  });
});

describe("first start with INITIAL_ROOT_TOKEN", () => {
  const knownToken = "known-initial-root-token-42";
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ rootToken: knownToken });
  });
  afterAll(() => server?.stop());

  it("uses that token, never prints it and writes no token file", async () => {
    expect(server.output()).toContain("INITIAL_ROOT_TOKEN");
    expect(server.output()).not.toContain(knownToken);
    expect(existsSync(path.join(server.dataDir, TOKEN_FILE))).toBe(false);
    const me = await new RestClient(server.apiUrl, knownToken).get("/user");
    expect(me.body).toMatchObject({ username: "root", is_admin: true });
  });
});

describe("invalid settings", () => {
  it.concurrent.each([
    ["PORT", "abc", 'got "abc"'],
    ["PORT", "70000", 'got "70000"'],
    ["PUBLIC_URL", "notaurl", 'got "notaurl"'],
    ["INITIAL_ROOT_TOKEN", "short", "at least 20 characters"],
  ])("%s=%s: exits non-zero with a clear message and creates no database", async (name, value, detail) => {
    const dataDir = newDataDir();
    const run = await runUntilExit({ dataDir, env: { [name]: value } });
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.output).toContain(`Invalid setting: ${name}`);
    expect(run.output).toContain(detail);
    expect(readdirSync(dataDir).filter((name) => name !== DATABASE_URL_FILE)).toEqual([]);
  });
});

describe("a port another program holds", () => {
  // a web process that cannot listen used to die and be forked again, forever, with no word of why
  it.each(["1", "2"])("WEB_CONCURRENCY=%s: says it cannot listen and exits 1", async (webConcurrency) => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as AddressInfo).port;
    try {
      const run = await runUntilExit({ env: { PORT: String(port), WEB_CONCURRENCY: webConcurrency } }, 90_000);
      expect(run.code, run.output).toBe(1);
      expect(run.output).toContain("EADDRINUSE");
      if (webConcurrency === "2") expect(run.output).toContain(`Cannot listen on 127.0.0.1:${port}: EADDRINUSE`);
    } finally {
      holder.close();
    }
  }, 120_000); // past runUntilExit's own 90 s kill: a loaded machine took 30 s to start two web processes
});

describe.skipIf(onPostgresql)("a start beside another process that holds the SQLite file's lock", () => {
  it("waits for the lock (as beside a process applying migrations), then migrates and serves", async () => {
    const dataDir = newDataDir();
    const holder = new Database(path.join(dataDir, "forgeline.db"));
    holder.exec("BEGIN EXCLUSIVE");
    const started = startServer({ dataDir });
    let released = false;
    const release = new Promise<void>((resolve) => setTimeout(() => {
      holder.exec("COMMIT");
      holder.close();
      released = true;
      resolve();
    }, 15_000));
    const server = await started;
    try {
      expect(released).toBe(true); // it could not have been ready while the file was locked
      await release;
      expect((await new RestClient(server.apiUrl, server.rootToken).get("/user")).body.username).toBe("root");
    } finally {
      await server.stop();
    }
  }, 120_000);
});
