// `npm run studio`: Prisma Studio on the server's database, at http://127.0.0.1:5555/ (loopback only).
//
//   npm run studio [-- --port 5555]        (or STUDIO_PORT; 0 picks a free port)
//
// The database is the server's: DATABASE_URL, else the SQLite file in DATA_DIR (./data/forgeline.db).
//
// Why not `prisma studio`: the Studio inside the Prisma 6 CLI runs a Prisma Client with the native
// query engine, which it downloads from binaries.prisma.sh at start; offline the download fails and
// the page stays blank (React error #200). It also listens on every interface unless given
// --hostname. This serves Prisma's embeddable Studio (@prisma/studio-core) instead: its page builds
// SQL in the browser, and this process runs it with the drivers the server uses (better-sqlite3,
// pg); nothing is downloaded, and nothing is sent anywhere but this process.
import { parseArgs } from "node:util";
import path from "node:path";
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import pg from "pg";
import { DEFAULT_DATA_DIR, defaultDatabaseUrl, isPostgresqlUrl } from "../src/config.js";
import { loadStudioAssets } from "./studio/assets.js";
import { postgresqlExecutor, sqliteExecutor, type StudioExecutor } from "./studio/executors.js";
import { startStudioServer } from "./studio/server.js";

class UsageError extends Error {}

function portOf(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new UsageError(`the port must be an integer from 0 to 65535, got "${raw}"`);
  return Number(raw);
}

/** A URL without its password, for messages. */
const redacted = (url: string) => url.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");

function openDatabase(url: string): { executor: StudioExecutor; dialect: "sqlite" | "postgresql" } {
  if (isPostgresqlUrl(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    // an idle connection lost (database restarted): logged, the next query connects again
    pool.on("error", (error) => console.error(`Studio: PostgreSQL connection lost: ${error.message}`));
    return { executor: postgresqlExecutor(pool), dialect: "postgresql" };
  }
  if (!url.startsWith("file:")) throw new UsageError(`DATABASE_URL must be a SQLite file URL (file:path) or a PostgreSQL URL, got "${redacted(url)}"`);
  const file = path.resolve(url.slice("file:".length));
  if (!existsSync(file)) throw new UsageError(`no database at ${file}: start the server once (npm start) to create it, or set DATABASE_URL / DATA_DIR`);
  return { executor: sqliteExecutor(new Database(file, { fileMustExist: true, timeout: 5000 })), dialect: "sqlite" };
}

async function main() {
  const { values } = parseArgs({ options: { port: { type: "string", short: "p" } } });
  const port = portOf(values.port ?? process.env.STUDIO_PORT ?? "5555");
  const databaseUrl = process.env.DATABASE_URL || defaultDatabaseUrl(process.env.DATA_DIR || DEFAULT_DATA_DIR);
  const { executor, dialect } = openDatabase(databaseUrl);
  const assets = await loadStudioAssets();
  const studio = await startStudioServer({ executor, dialect, assets, port });
  console.log(`Prisma Studio (${dialect}, ${redacted(databaseUrl)}) is running at ${studio.url}`);

  const stop = async () => {
    await studio.close();
    await executor.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error) => {
  if (error instanceof UsageError) {
    console.error(`Studio: ${error.message}`);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
