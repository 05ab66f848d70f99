import { randomBytes } from "node:crypto";
// The database a test runs on. SQLite by default: each app gets a copy of the migrated template
// file. With FORGELINE_TEST_DATABASE=postgresql (the second CI leg) each app gets a database of
// its own, created from a migrated template database (CREATE DATABASE ... TEMPLATE), so test files
// stay parallel and independent; the global teardown drops them all.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";

export const onPostgresql = process.env.FORGELINE_TEST_DATABASE === "postgresql";

/** A maintenance connection (trust auth on loopback; POSTGRES_URL overrides). */
export const POSTGRES_ADMIN_URL = process.env.POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** WEBHOOK_ENCRYPTION_KEY for test servers on PostgreSQL, where the server requires one. */
export const TEST_ENCRYPTION_KEY = "5e".repeat(32);

export function databaseUrlFor(database: string): string {
  return Object.assign(new URL(POSTGRES_ADMIN_URL), { pathname: `/${database}` }).toString();
}

export async function withAdmin<T>(run: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.end();
  }
}

let created = 0;

/**
 * A new database copied from `template` (named after it, so the teardown finds it). Copies of one
 * template may not start while another session is connected to it: retried briefly.
 */
export async function createDatabaseFrom(template: string): Promise<string> {
  // the pid alone repeats in a long run: git processes use pids up fast
  const name = `${template.replace(/_template$/, "")}_${process.pid}_${randomBytes(3).toString("hex")}_${++created}`;
  await withAdmin(async (admin) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (error: any) {
        if (attempt >= 50 || !/being accessed by other users/.test(error.message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
  return databaseUrlFor(name);
}

/** Drops every database whose name starts with `prefix`. */
export async function dropDatabases(prefix: string): Promise<void> {
  await withAdmin(async (admin) => {
    const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE starts_with(datname, $1)", [prefix]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}

export const DATABASE_URL_FILE = "test-database-url";

/**
 * The PostgreSQL database of a server's data directory: made on first use and remembered in the
 * directory, so a restart or a second server on the same directory shares it as they share a
 * SQLite file.
 */
export async function postgresqlDatabaseOf(dataDir: string, template: string): Promise<string> {
  const file = path.join(dataDir, DATABASE_URL_FILE);
  if (existsSync(file)) return readFileSync(file, "utf8");
  const url = await createDatabaseFrom(template);
  writeFileSync(file, url);
  return url;
}

/**
 * Everything a database holds, for tests that check secrets never reach it in clear: SQLite's
 * files (main file and write-ahead log, as bytes on disk), or on PostgreSQL every row of every
 * table in its text form.
 */
export async function databaseContents(databaseUrl: string): Promise<{ name: string; bytes: Buffer }[]> {
  if (!databaseUrl.startsWith("file:")) return [{ name: "every table", bytes: await postgresqlRows(databaseUrl) }];
  const file = databaseUrl.slice("file:".length);
  const files = readdirSync(path.dirname(file)).filter((name) => name.startsWith(path.basename(file)));
  return files.map((name) => ({ name, bytes: readFileSync(path.join(path.dirname(file), name)) }));
}

async function postgresqlRows(databaseUrl: string): Promise<Buffer> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()");
    const texts: string[] = [];
    for (const { name } of tables) {
      const { rows } = await client.query<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`);
      texts.push(...rows.map((row) => row.row));
    }
    return Buffer.from(texts.join("\n"));
  } finally {
    await client.end();
  }
}

/** Rows of a query straight on a database of either kind (`?` marks the parameters). */
export async function queryDatabase<T>(databaseUrl: string, sql: string, ...params: unknown[]): Promise<T[]> {
  return onDatabase(databaseUrl, true, sql, params) as Promise<T[]>;
}

/** A write straight on a database of either kind (`?` marks the parameters), as an operator would. */
export async function executeOnDatabase(databaseUrl: string, sql: string, ...params: unknown[]): Promise<void> {
  await onDatabase(databaseUrl, false, sql, params);
}

async function onDatabase(databaseUrl: string, readonly: boolean, sql: string, params: unknown[]): Promise<unknown[]> {
  if (databaseUrl.startsWith("file:")) {
    const db = new Database(databaseUrl.slice("file:".length), { readonly, fileMustExist: true });
    try {
      const statement = db.prepare(sql);
      return statement.reader ? statement.all(...params) : (statement.run(...params), []);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let n = 0;
    return (await client.query(sql.replace(/\?/g, () => `$${++n}`), params)).rows;
  } finally {
    await client.end();
  }
}
