// Applies pending migrations with the Prisma CLI (`migrate deploy`, WebAssembly schema engine).
// A start on an up-to-date database (the usual case) only reads the migrations table: the CLI costs
// seconds of CPU to start, which processes starting together on a loaded machine cannot spare.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { isPostgresqlUrl } from "../config.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const prismaBin = path.join(root, "node_modules", ".bin", "prisma");

/** pg_advisory_lock key held while one process migrates (Prisma's own lock is 72707369). */
const MIGRATION_LOCK = 4_170_002;

/** Prisma's record of applied migrations (finished and not rolled back). */
const APPLIED_MIGRATIONS_SQL =
  'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL';

export async function applyMigrations(databaseUrl: string): Promise<void> {
  if (isPostgresqlUrl(databaseUrl)) {
    await oneAtATime(databaseUrl, async (client) => {
      if (!isUpToDate("prisma/postgresql/migrations", await appliedOnPostgresql(client))) await migrateDeploy(databaseUrl);
    });
    return;
  }
  const file = path.resolve(databaseUrl.slice("file:".length));
  mkdirSync(path.dirname(file), { recursive: true });
  await migrateSqlite(databaseUrl, file);
}

/** How long a process starting beside one that is migrating the same SQLite file waits for it. */
const SQLITE_LOCK_WAIT_MS = 120_000;

/**
 * Processes started together on one file (a cluster, `npm run worker`, the scale-out test) all
 * find the migrations pending; the CLI runs of all but one fail on the file's lock ("database is
 * locked", or the schema engine's SocketTimeout). They try again until the first is done, and
 * then find nothing left to apply.
 */
async function migrateSqlite(databaseUrl: string, file: string, deadline = Date.now() + SQLITE_LOCK_WAIT_MS): Promise<void> {
  for (;;) {
    try {
      if (!isUpToDate("prisma/migrations", await appliedOnSqlite(file))) await migrateDeploy(databaseUrl);
      return;
    } catch (error) {
      if (!isLockedOut(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

const isLockedOut = (error: unknown) => /SQLITE_BUSY|database is locked|SocketTimeout/.test(`${(error as Error)?.message} ${(error as { code?: string })?.code}`);

async function migrateDeploy(databaseUrl: string): Promise<void> {
  try {
    await promisify(execFile)(prismaBin, ["migrate", "deploy"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    });
  } catch (error: any) {
    throw new Error(`database migration failed: ${error.stderr || error.stdout || error.message}`);
  }
}

/** Every migration folder has a finished record; anything else (a failed one too) goes to the CLI. */
function isUpToDate(folder: string, applied: Set<string>): boolean {
  const migrations = readdirSync(path.join(root, folder), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return migrations.every((migration) => applied.has(migration.name));
}

type PgClient = import("pg").Client;

async function appliedOnPostgresql(client: PgClient): Promise<Set<string>> {
  const exists = await client.query("SELECT to_regclass('\"_prisma_migrations\"') IS NOT NULL AS present");
  if (!exists.rows[0]?.present) return new Set();
  const { rows } = await client.query<{ migration_name: string }>(APPLIED_MIGRATIONS_SQL);
  return new Set(rows.map((row) => row.migration_name));
}

async function appliedOnSqlite(file: string): Promise<Set<string>> {
  if (!existsSync(file)) return new Set();
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 10_000 });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) return new Set();
    const rows = db.prepare(APPLIED_MIGRATIONS_SQL).all() as { migration_name: string }[];
    return new Set(rows.map((row) => row.migration_name));
  } finally {
    db.close();
  }
}

/**
 * Processes starting together migrate one after the other, however long the first takes: Prisma's
 * own advisory lock gives up after 10 s, which a first migration of an empty database can exceed.
 * The later ones then find nothing left to apply.
 */
async function oneAtATime(databaseUrl: string, run: (client: PgClient) => Promise<void>): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await run(client);
  } finally {
    await client.end(); // ends the session, and with it the lock
  }
}
