// Every table a server cache is built on bumps its version on every write (the triggers of the
// cache_versions migrations); a cache on a table without them would never learn of changes made
// by another process.
import Database from "better-sqlite3";
import { expect, it } from "vitest";
import { TableCache } from "../../src/domain/caches.js";
import { startTestApp } from "../helpers/app.js";

it("each cached table has a version row and insert, update and delete triggers", async () => {
  const t = await startTestApp();
  const cachedTables = new Set(Object.values(t.services.caches).flatMap((cache) => (cache instanceof TableCache ? cache.tables : [])));
  expect(cachedTables.size).toBeGreaterThan(5);
  const db = new Database(t.services.config.databaseUrl.slice("file:".length), { readonly: true });
  try {
    const versioned = new Set((db.prepare('SELECT "name" FROM "CacheVersion"').all() as { name: string }[]).map((row) => row.name));
    const triggers = db.prepare("SELECT tbl_name AS tableName, sql FROM sqlite_master WHERE type = 'trigger'").all() as { tableName: string; sql: string }[];
    for (const table of cachedTables) {
      expect(versioned, table).toContain(table);
      for (const event of ["INSERT", "UPDATE", "DELETE"]) {
        const fires = triggers.some((trigger) => trigger.tableName === table && trigger.sql.includes(`AFTER ${event}`) && trigger.sql.includes(`'${table}'`));
        expect(fires, `${table} ${event}`).toBe(true);
      }
    }
  } finally {
    db.close();
  }
});
