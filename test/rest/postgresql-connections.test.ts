// The server's PostgreSQL connections: each SQL text with parameters is a named prepared statement
// (parsed and planned once per connection), and the pool's session settings are PostgreSQL's own
// limits (statement_timeout, idle_in_transaction_session_timeout) and a name in pg_stat_activity.
// One connection per app here (DATABASE_POOL_SIZE=1), so what one request prepared is what the
// next statement sees.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { onPostgresql } from "../helpers/test-database.js";

describe.skipIf(!onPostgresql)("PostgreSQL connections", () => {
  let t: TestApp;
  let projectId: number;

  beforeAll(async () => {
    t = await startTestApp({ DATABASE_POOL_SIZE: "1", DATABASE_STATEMENT_TIMEOUT: "1" });
    projectId = (await t.root.post("/projects", { name: "Prepared", visibility: "public" })).body.id;
    expect((await t.root.post(`/projects/${projectId}/issues`, { title: "One" })).status).toBe(201);
  });

  const prepared = async () =>
    (await t.services.db.$queryRaw<{ name: string; statement: string }[]>`
      SELECT "name", "statement" FROM pg_prepared_statements WHERE "name" <> ${""}`).map((row) => row.statement);

  it("prepares a request's statements once and reuses them on the next request", async () => {
    const path = `/projects/${projectId}/issues/1`;
    expect((await t.anon.get(path)).status).toBe(200);
    const afterFirst = await prepared();
    expect(afterFirst.some((sql) => sql.includes('FROM "Issue" WHERE "projectId" = $1 AND "iid" = $2'))).toBe(true);
    expect(afterFirst.some((sql) => sql === 'SELECT "name", "version" FROM "CacheVersion"')).toBe(true);
    expect((await t.anon.get(path)).status).toBe(200);
    expect((await t.anon.get(`/projects/${projectId}/issues/1`)).body.title).toBe("One");
    const afterMore = await prepared();
    // the same texts, each prepared once (the listing query itself is the one text added)
    expect(afterMore.filter((sql) => !sql.includes("pg_prepared_statements")).sort()).toEqual(
      afterFirst.filter((sql) => !sql.includes("pg_prepared_statements")).sort(),
    );
  });

  it("names its connections in pg_stat_activity", async () => {
    const [row] = await t.services.db.$queryRaw<{ application_name: string }[]>`SELECT application_name FROM pg_stat_activity WHERE pid = pg_backend_pid()`;
    expect(row!.application_name).toMatch(new RegExp(`^forgeline .+ \\(pid ${process.pid}\\)$`));
  });

  it("cuts a statement at DATABASE_STATEMENT_TIMEOUT and ends a transaction left idle after 60 s", async () => {
    const [settings] = await t.services.db.$queryRaw<{ statement: string; idle: string }[]>`
      SELECT current_setting('statement_timeout') AS "statement", current_setting('idle_in_transaction_session_timeout') AS "idle"`;
    expect(settings).toEqual({ statement: "1s", idle: "1min" });
    await expect(t.services.db.$queryRaw`SELECT pg_sleep(${1.5})`).rejects.toThrow(/statement timeout/);
    // the connection is still usable afterwards
    expect((await t.anon.get(`/projects/${projectId}/issues/1`)).status).toBe(200);
  });

  it("prepares a statement again when its table's columns changed (a migration during a rolling upgrade)", async () => {
    const path = `/projects/${projectId}/issues/1`;
    expect((await t.anon.get(path)).status).toBe(200); // `SELECT * FROM "Issue" ...` is prepared
    await t.services.db.$executeRawUnsafe('ALTER TABLE "Issue" ADD COLUMN "addedByANewerServer" integer');
    try {
      const issue = await t.anon.get(path);
      expect(issue.status, JSON.stringify(issue.body)).toBe(200);
      expect(issue.body.title).toBe("One");
    } finally {
      await t.services.db.$executeRawUnsafe('ALTER TABLE "Issue" DROP COLUMN "addedByANewerServer"');
    }
    expect((await t.anon.get(path)).status).toBe(200);
  });
});
