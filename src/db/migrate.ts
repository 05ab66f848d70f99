// Applies pending migrations with the Prisma CLI (`migrate deploy`, WebAssembly schema engine).
import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { isPostgresqlUrl } from "../config.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const prismaBin = path.join(root, "node_modules", ".bin", "prisma");

/** pg_advisory_lock key held while one process migrates (Prisma's own lock is 72707369). */
const MIGRATION_LOCK = 4_170_002;

export async function applyMigrations(databaseUrl: string): Promise<void> {
  if (databaseUrl.startsWith("file:")) {
    mkdirSync(path.dirname(path.resolve(databaseUrl.slice("file:".length))), { recursive: true });
  }
  if (isPostgresqlUrl(databaseUrl)) await oneAtATime(databaseUrl, () => migrateDeploy(databaseUrl));
  else await migrateDeploy(databaseUrl);
}

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

/**
 * Processes starting together migrate one after the other, however long the first takes: Prisma's
 * own advisory lock gives up after 10 s, which a first migration of an empty database can exceed.
 * The later ones then find nothing left to apply.
 */
async function oneAtATime(databaseUrl: string, run: () => Promise<void>): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await run();
  } finally {
    await client.end(); // ends the session, and with it the lock
  }
}
