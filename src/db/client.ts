import { PrismaClient } from "../generated/prisma/client.js";
import { adapterFactory } from "./adapter.js";

export type Db = PrismaClient;

export function createDb(databaseUrl: string): Db {
  return new PrismaClient({ adapter: adapterFactory(databaseUrl) });
}

/**
 * SQLite settings for a server: write-ahead logging (readers never wait for the writer, several
 * processes can share the file) with `synchronous=NORMAL`, the usual durable pairing for WAL.
 */
export async function configureDatabase(db: Db): Promise<void> {
  await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await db.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
}
