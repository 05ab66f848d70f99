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
  /** How many `poll` reads have come back so far: a mark for `changedSince`. */
  readsDone?(): number;
  /**
   * Whether a read that came back after the `mark` taken with `readsDone` found one of `tables`
   * changed by another process (or could not tell which tables changed).
   */
  changedSince?(mark: number, tables: ReadonlySet<string>): boolean;
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
 * PostgreSQL: what other processes changed is read at the start of every request and worker round
 * (`poll`, one small prepared query outside Prisma, shared by the requests that arrive while it is
 * on its way). What this process writes is known from the statements
 * it sends (`wrote`), without a round trip: the table of each INSERT, UPDATE or DELETE, as the
 * triggers will version it; anything else that is not a read empties every cache.
 */
export interface PostgresqlTableVersions extends TableVersions {
  /** a statement other than a read, sent by this process */
  wrote(sql: string): void;
  /** a transaction rolled back: what it read into the caches after writing never existed */
  rolledBack(): void;
}

export function postgresqlTableVersions(query: (sql: string, prepareAs: string) => Promise<[string, unknown][]>): PostgresqlTableVersions {
  const seen = new Map<string, unknown>();
  const changed = new Set<string>();
  let everything = true;
  let readsDone = 0;
  /** table -> the number of the last read that found it changed (the first read finds every table changed) */
  const foundChangedBy = new Map<string, number>();
  const read = async () => {
    const rows = await query('SELECT "name", "version" FROM "CacheVersion"', "cache_versions");
    const number = ++readsDone;
    for (const [name, version] of rows) {
      if (seen.get(name) !== version) {
        changed.add(name);
        foundChangedBy.set(name, number);
      }
      seen.set(name, version);
    }
  };
  let current: Promise<void> | undefined;
  let following: Promise<void> | undefined;
  const start = () => (current = read().finally(() => (current = undefined)));
  return {
    // Requests arriving together share one read: a read already sent may have missed a commit
    // made before the caller arrived, so a caller arriving during a read joins the next one.
    poll() {
      if (!current) return start();
      following ??= current.then(
        () => undefined,
        () => undefined,
      ).then(() => {
        following = undefined;
        return current ?? start();
      });
      return following;
    },
    readsDone: () => readsDone,
    changedSince(mark, tables) {
      for (const table of tables) if ((foundChangedBy.get(table) ?? 0) > mark) return true;
      return false;
    },
    wrote(sql) {
      if (TRANSACTION_CONTROL.test(sql)) return;
      const table = writtenTable(sql);
      if (table === null) everything = true;
      else if (table !== "") changed.add(table);
    },
    rolledBack() {
      everything = true;
    },
    changedTables() {
      if (everything) {
        everything = false;
        changed.clear();
        return EVERY_TABLE;
      }
      if (changed.size === 0) return NOTHING;
      const answer = new Set(changed);
      changed.clear();
      return answer;
    },
  };
}

const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SET)\b/i;
const WRITE = /^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:"public"\.)?"(\w+)"(?:\s+SET\s+(.*?)\s+WHERE\b)?/is;

/**
 * Updates of these columns alone bump no version (the triggers' UPDATE OF lists leave them out:
 * a token's last use is written on every request and changes nothing a cache keeps).
 */
const UNVERSIONED_COLUMNS: Record<string, string[]> = { AccessToken: ["lastUsedAt"] };

/** The table a write statement changes ("" when no cache can care), null when it cannot be told. */
function writtenTable(sql: string): string | null {
  const match = WRITE.exec(sql);
  if (!match) return null;
  const [, table, assignments] = match;
  const unversioned = UNVERSIONED_COLUMNS[table!];
  if (unversioned && assignments) {
    const columns = [...assignments.matchAll(/"(\w+)"\s*=/g)].map((column) => column[1]!);
    if (columns.length && columns.every((column) => unversioned.includes(column))) return "";
  }
  return table!;
}
