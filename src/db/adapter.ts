// The Prisma driver adapter, chosen from DATABASE_URL. Shared by the server and the Prisma CLI.
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

export function adapterFactory(databaseUrl: string) {
  return new PrismaBetterSQLite3({ url: databaseUrl });
}

/** For the Prisma CLI (migrate, studio): DATABASE_URL or the default file. */
export function migrationAdapterFactory() {
  return adapterFactory(process.env.DATABASE_URL || "file:./data/forgeline.db");
}
