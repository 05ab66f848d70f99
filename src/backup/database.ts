// The database part of a backup: SQLite's online backup API (one consistent copy while the server
// writes) or PostgreSQL's pg_dump (one snapshot, custom format), and their way back: a file copy
// or pg_restore into an empty database, the migrations table included so the server starts
// without migrating.
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { isPostgresqlUrl } from "../config.js";
import type { DatabaseKind } from "./archive.js";

export const kindOf = (databaseUrl: string): DatabaseKind => (isPostgresqlUrl(databaseUrl) ? "postgresql" : "sqlite");

/** The file a backup stores the database in, under database/. */
export const databaseFileName = (kind: DatabaseKind) => (kind === "sqlite" ? "forgeline.db" : "forgeline.dump");

/** Filled by the migrations themselves: rows there do not make a database "in use". */
const MIGRATION_TABLES = new Set(["_prisma_migrations", "CacheVersion"]);

const LATEST_MIGRATION_SQL = 'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name DESC LIMIT 1';

const sqliteFile = (databaseUrl: string) => path.resolve(databaseUrl.slice("file:".length));

/**
 * pg_dump and pg_restore are libpq programs: a Prisma-only parameter (`schema`,
 * `connection_limit`...) in the URL would make them refuse it.
 */
function libpqUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  for (const name of ["schema", "connection_limit", "pool_timeout", "pgbouncer", "statement_cache_size", "socket_timeout"]) url.searchParams.delete(name);
  return url.toString();
}

/** Writes the database into `file`; returns the latest applied migration it holds. */
export async function dumpDatabase(databaseUrl: string, file: string): Promise<string | null> {
  if (kindOf(databaseUrl) === "sqlite") {
    const source = new Database(sqliteFile(databaseUrl), { readonly: true, fileMustExist: true });
    try {
      // every page in one step: a step-wise copy restarts whenever another process writes
      await source.backup(file, { progress: () => 2 ** 30 });
    } finally {
      source.close();
    }
    return latestMigrationOnSqlite(file);
  }
  await promisify(execFile)("pg_dump", ["--format=custom", `--file=${file}`, `--dbname=${libpqUrl(databaseUrl)}`], { maxBuffer: 64 * 1024 * 1024 });
  return latestMigrationOnPostgresql(databaseUrl);
}

/**
 * Also turns the copy out of WAL mode, so that it is one file (no -wal or -shm beside it) that
 * opens alone; the server sets WAL again when it opens the restored file.
 */
function latestMigrationOnSqlite(file: string): string | null {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma("journal_mode = DELETE");
    return (db.prepare(LATEST_MIGRATION_SQL).pluck().get() as string | undefined) ?? null;
  } finally {
    db.close();
  }
}

async function latestMigrationOnPostgresql(databaseUrl: string): Promise<string | null> {
  return withClient(databaseUrl, async (client) => (await client.query(LATEST_MIGRATION_SQL)).rows[0]?.migration_name ?? null);
}

async function withClient<T>(databaseUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** The first table holding rows (beside the migrations' own), or null when the database is empty or absent. */
export async function tableWithRows(databaseUrl: string): Promise<string | null> {
  if (kindOf(databaseUrl) === "postgresql") {
    return withClient(databaseUrl, async (client) => {
      const { rows } = await client.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename");
      for (const { name } of rows.filter((row) => !MIGRATION_TABLES.has(row.name))) {
        if ((await client.query(`SELECT EXISTS (SELECT 1 FROM "${name}") AS taken`)).rows[0].taken) return name;
      }
      return null;
    });
  }
  const file = sqliteFile(databaseUrl);
  if (!existsSync(file)) return null;
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
    return tables.filter((name) => !MIGRATION_TABLES.has(name)).find((name) => db.prepare(`SELECT EXISTS (SELECT 1 FROM "${name}")`).pluck().get()) ?? null;
  } finally {
    db.close();
  }
}

/** Restores `file` (a backup of the same kind) into the empty database `databaseUrl`. */
export async function restoreDatabase(file: string, databaseUrl: string): Promise<void> {
  if (kindOf(databaseUrl) === "sqlite") return restoreSqlite(file, sqliteFile(databaseUrl));
  // one transaction: a failure leaves the database as it was; --clean drops the tables a start
  // of the server may have migrated into it (it holds no rows: checked before)
  await promisify(execFile)("pg_restore", [
    "--single-transaction", "--exit-on-error", "--clean", "--if-exists", "--no-owner", "--no-privileges",
    `--dbname=${libpqUrl(databaseUrl)}`, file,
  ], { maxBuffer: 64 * 1024 * 1024 });
}

/** Copied beside the target, then renamed over it: never seen half-written. */
function restoreSqlite(file: string, target: string): void {
  const folder = path.dirname(target);
  const name = path.basename(target);
  const temporary = `${target}.restoring`;
  copyFileSync(file, temporary);
  // an empty database's write-ahead log and shared memory would not belong to the restored file
  for (const leftover of readdirSync(folder).filter((entry) => entry === `${name}-wal` || entry === `${name}-shm`)) rmSync(path.join(folder, leftover));
  renameSync(temporary, target);
}
