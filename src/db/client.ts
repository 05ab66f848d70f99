import { PrismaClient } from "../generated/prisma/client.js";
import { adapterFactory, countStatements, type PrepareDirect, type SqlStats } from "./adapter.js";
import { currentRequest } from "../observability/request-scope.js";
import { postgresqlAdapterFactory, type PoolSettings } from "./postgresql.js";
import { readDirectly } from "./direct-reads.js";
import type { SqlQueryable } from "@prisma/driver-adapter-utils";

export type Db = PrismaClient;
export type { PrepareDirect, SqlStats } from "./adapter.js";

export interface DbHandle {
  db: Db;
  /** statements sent so far (the statement budgets of the tests read it) */
  stats: SqlStats;
}

/**
 * Interactive transactions wait their turn rather than fail: a write queued behind others on one
 * row (a project's next iid) or for a pooled connection on a loaded machine answered 500 after
 * Prisma's defaults (2 s to start, 5 s to finish). GitLab's own statement timeout is 15 s.
 */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 };

/** `onConnect` receives the connection's own `prepare` once Prisma opens it (SQLite). */
export function createDb(databaseUrl: string, onConnect?: (prepare: PrepareDirect) => void): DbHandle {
  const stats: SqlStats = { statements: 0, roundTrips: 0, writes: 0 };
  const factory = adapterFactory(databaseUrl, stats, onConnect);
  const db = new PrismaClient({ adapter: factory, transactionOptions: TRANSACTION_OPTIONS });
  readDirectly(db, { adapter: connectedAdapter(db, factory), placeholders: "question-marks" });
  return { db, stats };
}

/**
 * The adapter Prisma connected through `factory` (connecting the client first if it has not yet),
 * for the reads sent without the client (direct-reads.ts).
 */
function connectedAdapter(db: { $connect(): Promise<void> }, factory: { connect(): Promise<unknown> }): () => Promise<SqlQueryable> {
  let adapter: SqlQueryable | undefined;
  const connect = factory.connect.bind(factory);
  factory.connect = async () => (adapter = (await connect()) as SqlQueryable);
  return async () => {
    if (!adapter) await db.$connect();
    return adapter!;
  };
}

export interface PostgresqlHandle extends DbHandle {
  /** a query outside Prisma (a round trip, not counted as a statement): rows as arrays; `prepareAs` names it a prepared statement */
  query(sql: string, prepareAs?: string): Promise<unknown[][]>;
  /** ends the connection pool (Prisma's $disconnect leaves a pool it was given open) */
  closePool(): Promise<void>;
}

/**
 * The PostgreSQL client: generated from the same models for the other provider
 * (scripts/postgresql-schema.ts), so its API is the SQLite client's and it is typed as one.
 */
export async function createPostgresqlDb(databaseUrl: string, settings: PoolSettings): Promise<PostgresqlHandle> {
  const stats: SqlStats = { statements: 0, roundTrips: 0, writes: 0 };
  const { PrismaClient: PostgresqlClient } = await import("../generated/prisma-postgresql/client.js");
  const factory = postgresqlAdapterFactory(databaseUrl, settings);
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    countStatements(adapter, stats);
    return adapter;
  };
  const pool = factory.pool;
  const client = new PostgresqlClient({ adapter: factory, transactionOptions: TRANSACTION_OPTIONS });
  reportRollbacks(client, stats);
  readDirectly(client, { adapter: connectedAdapter(client, factory), placeholders: "numbered" });
  return {
    db: client as unknown as Db,
    stats,
    query: async (sql, prepareAs) => {
      stats.roundTrips++;
      const request = currentRequest();
      if (request) request.dbRoundTrips++;
      return (await pool.query({ text: sql, rowMode: "array", ...(prepareAs && { name: prepareAs }) })).rows;
    },
    closePool: () => pool.end(),
  };
}

/**
 * A transaction that read rows it had written into a cache, then rolled back, leaves rows in the
 * cache that never existed, and no committed version change tells the caches so (SQLite's
 * version check reads through the transaction and sees the versions go back): each rollback of
 * an interactive transaction is reported to `stats.onRollback`.
 */
function reportRollbacks(client: { $transaction: (...args: any[]) => Promise<unknown> }, stats: SqlStats): void {
  const transaction = client.$transaction.bind(client);
  client.$transaction = (run: unknown, ...rest: unknown[]) =>
    typeof run === "function"
      ? transaction(run, ...rest).catch((error: unknown) => {
          stats.onRollback?.();
          throw error;
        })
      : transaction(run, ...rest);
}

/**
 * SQLite settings for a server: write-ahead logging (readers never wait for the writer, several
 * processes can share the file) with `synchronous=NORMAL`, the usual durable pairing for WAL.
 */
export async function configureDatabase(db: Db): Promise<void> {
  await unlocked(() => db.$queryRawUnsafe("PRAGMA journal_mode = WAL"));
  await db.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
}

/** How long a starting process waits for another one that holds the file's lock (applying migrations). */
const START_LOCK_WAIT_MS = 120_000;

/**
 * Runs `statement` again while SQLite answers "database is locked": processes started together on
 * one file (a cluster, `npm run worker` beside `npm start`) wait for the one migrating it, which
 * can take longer than the driver's busy timeout on a loaded machine.
 */
async function unlocked<T>(statement: () => Promise<T>, deadline = Date.now() + START_LOCK_WAIT_MS): Promise<T> {
  for (;;) {
    try {
      return await statement();
    } catch (error) {
      if (!String((error as Error)?.message).includes("SQLITE_BUSY") || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
