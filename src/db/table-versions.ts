// Which cached tables changed since the last look, in this process or in any other process
// sharing the database. Triggers bump a table's row in "CacheVersion" on every write to it
// (migration 20261124110000_cache_versions). Reading that table on every cache access would cost
// a statement, so it is read only when something may have changed:
// - this connection wrote (`SqlStats.writes` moved: checked on every access, it costs nothing);
// - another connection committed (SQLite's `PRAGMA data_version` moved: about 5 µs, as it takes
//   a WAL read lock, so it is asked once per request and per worker round: `otherProcesses`).
import type { PrepareDirect, SqlStats } from "./adapter.js";

export interface TableVersions {
  /**
   * The cached tables written since the previous call (every table on the first call): by this
   * process, and by other processes too when `otherProcesses` is set.
   */
  changedTables(otherProcesses: boolean): ReadonlySet<string> | typeof EVERY_TABLE;
  /** Reads what other processes changed, where that takes a round trip (PostgreSQL). */
  poll?(): Promise<void>;
}

/** Every cached table may have changed. */
export const EVERY_TABLE = Symbol("every table");

const NOTHING: ReadonlySet<string> = new Set();

export function sqliteTableVersions(prepare: PrepareDirect, stats: SqlStats): TableVersions {
  const dataVersion = prepare("PRAGMA data_version").pluck();
  const versions = prepare('SELECT "name", "version" FROM "CacheVersion"').raw();
  let lastDataVersion: unknown = undefined;
  let lastWrites = -1;
  const seen = new Map<string, unknown>();
  return {
    changedTables(otherProcesses) {
      const now = otherProcesses ? dataVersion.get() : lastDataVersion;
      if (now === lastDataVersion && stats.writes === lastWrites) return NOTHING;
      lastDataVersion = now;
      lastWrites = stats.writes;
      const changed = new Set<string>();
      for (const [name, version] of versions.all() as [string, unknown][]) {
        if (seen.get(name) !== version) changed.add(name);
        seen.set(name, version);
      }
      return changed;
    },
  };
}

/**
 * PostgreSQL: the versions are read at the start of every request and worker round (`poll`, one
 * small query outside Prisma); a write by this process empties every cache at once (the tables it
 * touched are not known without a round trip), and the next poll learns the versions it left.
 */
export function postgresqlTableVersions(query: (sql: string) => Promise<[string, unknown][]>, stats: SqlStats): TableVersions {
  const seen = new Map<string, unknown>();
  let changed = new Set<string>();
  let lastWrites = stats.writes;
  let first = true;
  return {
    async poll() {
      for (const [name, version] of await query('SELECT "name", "version" FROM "CacheVersion"')) {
        if (seen.get(name) !== version) changed.add(name);
        seen.set(name, version);
      }
    },
    changedTables(otherProcesses) {
      if (first || stats.writes !== lastWrites) {
        first = false;
        lastWrites = stats.writes;
        changed = new Set();
        return EVERY_TABLE;
      }
      if (!otherProcesses || changed.size === 0) return NOTHING;
      const answer = changed;
      changed = new Set();
      return answer;
    },
  };
}
