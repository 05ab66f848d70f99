import { PrismaClient } from "../generated/prisma/client.js";
import { adapterFactory, type PrepareDirect, type SqlStats } from "./adapter.js";

export type Db = PrismaClient;
export type { PrepareDirect, SqlStats } from "./adapter.js";

export interface DbHandle {
  db: Db;
  /** statements sent so far (the statement budgets of the tests read it) */
  stats: SqlStats;
}

/** `onConnect` receives the connection's own `prepare` once Prisma opens it. */
export function createDb(databaseUrl: string, onConnect?: (prepare: PrepareDirect) => void): DbHandle {
  const stats: SqlStats = { statements: 0, writes: 0 };
  return { db: new PrismaClient({ adapter: adapterFactory(databaseUrl, stats, onConnect) }), stats };
}

/**
 * SQLite settings for a server: write-ahead logging (readers never wait for the writer, several
 * processes can share the file) with `synchronous=NORMAL`, the usual durable pairing for WAL.
 */
export async function configureDatabase(db: Db): Promise<void> {
  await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await db.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
}
