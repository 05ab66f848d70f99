// Every table a server cache is built on bumps its version on every write (the triggers of the
// cache_versions migrations, on each database); a cache on a table without them would never learn
// of changes made by another process.
import { expect, it } from "vitest";
import { TableCache } from "../../src/domain/shared/caches.js";
import { startTestApp } from "../helpers/app.js";
import { onPostgresql, queryDatabase } from "../helpers/test-database.js";

const TRIGGERS = onPostgresql
  ? `SELECT c.relname AS "tableName", pg_get_triggerdef(t.oid) AS "sql" FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal`
  : `SELECT tbl_name AS "tableName", sql FROM sqlite_master WHERE type = 'trigger'`;

/** The trigger bumps `table`'s version after `event` (PostgreSQL: one function reads the table's name). */
function bumps(trigger: { tableName: string; sql: string }, table: string, event: string): boolean {
  if (trigger.tableName !== table) return false;
  if (onPostgresql) return new RegExp(`AFTER [A-Z ]*\\b${event}\\b`).test(trigger.sql) && trigger.sql.includes("bump_cache_version");
  return trigger.sql.includes(`AFTER ${event}`) && trigger.sql.includes(`'${table}'`);
}

it("each cached table has a version row and insert, update and delete triggers", async () => {
  const t = await startTestApp();
  const cachedTables = new Set(Object.values(t.services.caches).flatMap((cache) => (cache instanceof TableCache ? cache.tables : [])));
  expect(cachedTables.size).toBeGreaterThan(5);
  const url = t.services.config.databaseUrl;
  const versioned = new Set((await queryDatabase<{ name: string }>(url, 'SELECT "name" FROM "CacheVersion"')).map((row) => row.name));
  const triggers = await queryDatabase<{ tableName: string; sql: string }>(url, TRIGGERS);
  for (const table of cachedTables) {
    expect(versioned, table).toContain(table);
    for (const event of ["INSERT", "UPDATE", "DELETE"]) {
      expect(triggers.some((trigger) => bumps(trigger, table, event)), `${table} ${event}`).toBe(true);
    }
  }
});
