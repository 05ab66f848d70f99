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
  changedTables(otherProcesses: boolean): ReadonlySet<string>;
}

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
