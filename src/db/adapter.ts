// The Prisma driver adapter, chosen from DATABASE_URL. Shared by the server and the Prisma CLI.
//
// The server's adapter adds three things to @prisma/adapter-better-sqlite3, all at the connection:
// - each SQL text is prepared once per connection (the stock adapter prepares it again for every
//   query, which costs as much as running a small query);
// - transactions begin IMMEDIATE: the stock `BEGIN` is deferred, so a transaction that reads
//   before it writes fails at once with SQLITE_BUSY when another process wrote since its read
//   (no busy wait is possible there); taking the write lock at BEGIN makes it wait its turn instead;
// - every statement is counted (`SqlStats`), so tests can hold each route to a statement budget, and
//   counted and timed for the request it runs for (the request log, the metrics).
import type Database from "better-sqlite3";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { isPostgresqlUrl, postgresqlAdapterFactory } from "./postgresql.js";
import { currentRequest } from "../observability/request-scope.js";

export interface SqlStats {
  /** statements sent to the database since the process started */
  statements: number;
  /** waits for the database server: Prisma's statements, and the queries outside Prisma (PostgreSQL) */
  roundTrips: number;
  /** statements other than SELECT (writes, transaction control): cached tables may have changed */
  writes: number;
  /** when set, receives each statement's SQL and its bound values (tests name the statements of a broken budget; bench/search.ts explains them) */
  trace?: (sql: string, args: readonly unknown[]) => void;
  /** when set, receives the SQL of each statement other than a read */
  onWrite?: (sql: string) => void;
  /** when set, told of each transaction that rolled back */
  onRollback?: () => void;
}

/** For the Prisma CLI (migrate, studio): DATABASE_URL or the default file. */
export function migrationAdapterFactory() {
  const url = process.env.DATABASE_URL || "file:./data/forgeline.db";
  return isPostgresqlUrl(url) ? postgresqlAdapterFactory(url) : new PrismaBetterSQLite3({ url });
}

type Factory = InstanceType<typeof PrismaBetterSQLite3>;
type Connected = Awaited<ReturnType<Factory["connect"]>>;

/** The server's adapter: prepared-statement cache and statement counting on one connection. */
/** better-sqlite3's own `prepare` on the adapter's connection (statements outside Prisma). */
export type PrepareDirect = (sql: string) => Database.Statement;

export function adapterFactory(databaseUrl: string, stats: SqlStats, onConnect?: (prepare: PrepareDirect) => void): Factory {
  const factory = new PrismaBetterSQLite3({ url: databaseUrl });
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const client = (adapter as unknown as { client: Database.Database }).client;
    onConnect?.(client.prepare.bind(client));
    cachePreparedStatements(client);
    countStatements(adapter, stats);
    return adapter;
  };
  return factory;
}

/** Enough of a statement for the adapter: `reader`, `columns()` and a one-shot `bind(args)`. */
interface BindableStatement {
  reader: boolean;
  columns(): Database.ColumnDefinition[];
  bind(args: unknown[]): { reader: boolean; columns(): Database.ColumnDefinition[]; raw(): { all(): unknown[][] }; run(): Database.RunResult };
  /** without arguments (the adapter's `BEGIN`) */
  run(): Database.RunResult;
}

/**
 * better-sqlite3's `bind` fixes a statement's parameters for good, so the adapter's
 * `prepare(sql).bind(args)` cannot reuse a statement as it is: the cached statement is wrapped so
 * that `bind` hands the arguments to `all`/`run` instead.
 */
function cachePreparedStatements(client: Database.Database): void {
  const prepare = client.prepare.bind(client);
  const cache = new Map<string, BindableStatement>();
  (client as unknown as { prepare(sql: string): BindableStatement }).prepare = (sql: string) => {
    if (sql === "BEGIN") sql = "BEGIN IMMEDIATE";
    let cached = cache.get(sql);
    if (!cached) {
      cached = reusable(prepare(sql));
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(sql, cached);
    }
    return cached;
  };
}

/** Distinct SQL texts kept prepared (`IN (?, ?, ...)` lists make a new text per length). */
const STATEMENT_CACHE_SIZE = 2_000;

function reusable(statement: Database.Statement): BindableStatement {
  const columns = statement.reader ? statement.columns() : [];
  if (statement.reader) statement.raw(true);
  return {
    reader: statement.reader,
    columns: () => columns,
    bind: (args) => ({
      reader: statement.reader,
      columns: () => columns,
      raw: () => ({ all: () => statement.all(...args) as unknown[][] }),
      run: () => statement.run(...args),
    }),
    run: () => statement.run(),
  };
}

/** A statement that writes nothing (raw SQL may start with a line break). */
const READ_ONLY = /^\s*SELECT\b/i;

/**
 * Counts (and traces) every statement the adapter sends, in and outside transactions. A
 * transaction's writes are reported again once its COMMIT has gone through: a concurrent request
 * may have cached the rows as they were before the commit in between.
 */
export function countStatements(adapter: Pick<Connected, "queryRaw" | "executeRaw" | "startTransaction">, stats: SqlStats): void {
  const counted = <T extends object>(queryable: T, writes?: string[]): T => {
    const q = queryable as unknown as Record<"queryRaw" | "executeRaw", (query: unknown) => Promise<unknown>>;
    for (const method of ["queryRaw", "executeRaw"] as const) {
      const original = q[method].bind(queryable);
      const send = (sql: string, query: unknown) => {
        if (READ_ONLY.test(sql)) return original(query);
        stats.writes++;
        stats.onWrite?.(sql);
        if (!writes || !COMMIT.test(sql)) {
          writes?.push(sql);
          return original(query);
        }
        return original(query).then((result) => {
          for (const write of writes) stats.onWrite?.(write);
          return result;
        });
      };
      q[method] = (query) => {
        const sql = (query as { sql: string }).sql;
        stats.statements++;
        stats.roundTrips++;
        stats.trace?.(sql, (query as { args?: unknown[] }).args ?? []);
        const request = currentRequest();
        if (!request) return send(sql, query);
        request.dbStatements++;
        request.dbRoundTrips++;
        const started = performance.now();
        return send(sql, query).finally(() => (request.dbMilliseconds += performance.now() - started));
      };
    }
    return queryable;
  };
  counted(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) => counted(await startTransaction(isolationLevel), []);
}

const COMMIT = /^\s*COMMIT\b/i;
