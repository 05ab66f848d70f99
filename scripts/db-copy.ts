// Moves a SQLite instance onto PostgreSQL: copies every row of the SQLite file into an empty
// PostgreSQL database (migrated here if it is not yet), keeping ids, then moves each id sequence
// past the copied rows and prints the row counts of both sides. The git repositories are copied
// with them, into a new folder for the PostgreSQL servers' REPOSITORIES_DIR.
//
//   npm run db:copy -- --from file:./data/forgeline.db --to postgresql://user@host/forgeline \
//     [--uploads DIR] [--repositories-from DIR] --repositories-to DIR
//
// The repositories are read from --repositories-from (default: REPOSITORIES_DIR, else
// "repositories" beside the SQLite file); their `@hashed` tree is copied as it is into
// --repositories-to, which must be empty (required when there are repositories): project ids are
// kept, so every repository's path stays valid.
//
// Avatars uploaded before they were kept in the database (StoredFile) are files under the uploads
// folder (UPLOADS_DIR, by default "uploads" beside the SQLite file): they are copied in as rows.
//
// Stop the server first: the copy reads one snapshot of the file, and writes made after it would
// be left behind. Encrypted columns (hook URLs, tokens, headers) are copied as they are: start the
// PostgreSQL servers with the SQLite instance's key (WEBHOOK_ENCRYPTION_KEY, or the 64 hex digits
// in <DATA_DIR>/encryption.key when the key was generated).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { cp, rm } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { isPostgresqlUrl } from "../src/config.js";
import { applyMigrations } from "../src/db/migrate.js";
import { findRepositories } from "../src/backup/repositories.js";

/** Filled by the migrations, not copied: migration history, cache versions. */
const NOT_COPIED = new Set(["_prisma_migrations", "CacheVersion"]);
const ROWS_PER_STATEMENT = 500;

class CopyError extends Error {}

interface Column {
  name: string;
  type: string;
}

interface Table {
  name: string;
  columns: Column[];
  /** columns referencing this same table (a parent group, say): parents are inserted first */
  selfReferences: string[];
}

interface Options {
  from: string;
  to: string;
  uploads: string;
  repositories: RepositoriesCopy | null;
}

/** Where the repositories' `@hashed` tree is copied from and to. */
interface RepositoriesCopy {
  from: string;
  to: string;
  count: number;
}

/** The repositories' hashed storage (src/git/store.ts): @hashed/ab/cd/<sha256 of the id>.git */
const HASHED = "@hashed";

function options(): Options {
  const { values } = parseArgs({
    options: {
      from: { type: "string" }, to: { type: "string" }, uploads: { type: "string" },
      "repositories-from": { type: "string" }, "repositories-to": { type: "string" },
    },
  });
  if (!values.from?.startsWith("file:")) throw new CopyError("--from must be the SQLite file's URL (file:path)");
  if (!values.to || !isPostgresqlUrl(values.to)) throw new CopyError("--to must be a PostgreSQL URL (postgresql://...)");
  const dataDir = path.dirname(path.resolve(values.from.slice("file:".length)));
  const uploads = values.uploads ?? path.join(dataDir, "uploads");
  const repositoriesFrom = path.resolve(values["repositories-from"] ?? (process.env.REPOSITORIES_DIR || path.join(dataDir, "repositories")));
  return { from: values.from, to: values.to, uploads, repositories: repositoriesCopy(repositoriesFrom, values["repositories-to"]) };
}

/** Null when there are no repositories to copy; refuses a missing or non-empty target. */
function repositoriesCopy(from: string, to: string | undefined): RepositoriesCopy | null {
  const count = countRepositories(path.join(from, HASHED));
  if (!count) return null;
  if (!to) throw new CopyError(`${from} holds ${count} repositories: name the PostgreSQL servers' REPOSITORIES_DIR with --repositories-to`);
  const target = path.resolve(to);
  if (target === path.resolve(from)) throw new CopyError("--repositories-to must be another folder than --repositories-from");
  if (existsSync(target) && readdirSync(target).length) throw new CopyError(`the repositories target ${target} is not empty: copy only into a new folder`);
  return { from, to: target, count };
}

function countRepositories(hashed: string): number {
  return findRepositories(hashed).length;
}

async function copyRepositories({ from, to }: RepositoriesCopy): Promise<void> {
  await cp(path.join(from, HASHED), path.join(to, HASHED), { recursive: true, errorOnExist: true, force: false, preserveTimestamps: true, verbatimSymlinks: true });
}

function openSource(url: string): Database.Database {
  const file = path.resolve(url.slice("file:".length));
  const source = new Database(file, { readonly: true, fileMustExist: true });
  const applied = new Set((source.prepare("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL").pluck().all() as string[]));
  const missing = readdirSync(path.resolve("prisma/migrations"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !applied.has(entry.name));
  if (missing.length) throw new CopyError(`${file} lacks migrations (${missing.map((m) => m.name).join(", ")}): start this version of the server on it once, then stop it and copy`);
  return source;
}

/** The target's tables, parents before the tables that reference them. */
async function targetTables(target: pg.Client): Promise<Table[]> {
  const { rows: columns } = await target.query<{ table: string; name: string; type: string }>(`
    SELECT table_name AS "table", column_name AS "name", data_type AS "type" FROM information_schema.columns
    WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`);
  const { rows: references } = await target.query<{ child: string; parent: string; column: string }>(`
    SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent, a.attname AS "column"
    FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
    WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`);
  const unquote = (name: string) => name.replace(/^"|"$/g, "");
  const tables = new Map<string, Table>();
  for (const column of columns) {
    if (NOT_COPIED.has(column.table)) continue;
    const table = tables.get(column.table) ?? { name: column.table, columns: [], selfReferences: [] };
    table.columns.push({ name: column.name, type: column.type });
    tables.set(column.table, table);
  }
  const parents = new Map<string, Set<string>>();
  for (const reference of references) {
    const [child, parent] = [unquote(reference.child), unquote(reference.parent)];
    if (child === parent) tables.get(child)?.selfReferences.push(reference.column);
    else parents.set(child, (parents.get(child) ?? new Set()).add(parent));
  }
  const ordered: Table[] = [];
  const placed = new Set<string>();
  const place = (name: string) => {
    if (placed.has(name)) return;
    placed.add(name);
    for (const parent of parents.get(name) ?? []) place(parent);
    const table = tables.get(name);
    if (table) ordered.push(table);
  };
  for (const name of [...tables.keys()].sort()) place(name);
  return ordered;
}

async function refuseNonEmpty(target: pg.Client, tables: Table[]): Promise<void> {
  for (const table of tables) {
    const { rows } = await target.query(`SELECT EXISTS (SELECT 1 FROM "${table.name}") AS taken`);
    if (rows[0].taken) throw new CopyError(`the target database is not empty (table ${table.name} has rows): copy only into a new database`);
  }
}

/** A SQLite value as PostgreSQL takes it for a column of `type`. */
function converted(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (type === "boolean") return value === 1 || value === 1n || value === true || value === "1" || value === "true";
  if (type.startsWith("timestamp") && typeof value === "number") return new Date(value).toISOString();
  if (typeof value === "bigint") return value.toString();
  return value;
}

/** Rows whose self-referenced parent is not placed yet come after it. */
function parentsFirst(rows: Record<string, unknown>[], references: string[]): Record<string, unknown>[] {
  if (!references.length) return rows;
  const placed = new Set<unknown>();
  const ordered: Record<string, unknown>[] = [];
  let waiting = rows;
  while (waiting.length) {
    const next = waiting.filter((row) => references.some((column) => row[column] !== null && !placed.has(row[column]) && row[column] !== row.id));
    const ready = waiting.filter((row) => !next.includes(row));
    if (!ready.length) throw new CopyError(`rows of a cycle cannot be ordered (${next.length} rows)`);
    for (const row of ready) {
      placed.add(row.id);
      ordered.push(row);
    }
    waiting = next;
  }
  return ordered;
}

async function copyTable(source: Database.Database, target: pg.Client, table: Table): Promise<number> {
  const rows = parentsFirst(source.prepare(`SELECT * FROM "${table.name}" ORDER BY rowid`).all() as Record<string, unknown>[], table.selfReferences);
  const names = table.columns.map((column) => `"${column.name}"`).join(", ");
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const batch = rows.slice(start, start + ROWS_PER_STATEMENT);
    const values: unknown[] = [];
    const tuples = batch.map((row) => {
      const slots = table.columns.map((column) => {
        values.push(converted(row[column.name], column.type));
        return `$${values.length}`;
      });
      return `(${slots.join(", ")})`;
    });
    await target.query(`INSERT INTO "${table.name}" (${names}) VALUES ${tuples.join(", ")}`, values);
  }
  return rows.length;
}

/** Moves every serial column's sequence past the largest copied value. */
async function moveSequences(target: pg.Client, tables: Table[]): Promise<void> {
  for (const table of tables) {
    for (const column of table.columns) {
      const { rows } = await target.query("SELECT pg_get_serial_sequence($1, $2) AS sequence", [`"${table.name}"`, column.name]);
      if (!rows[0].sequence) continue;
      await target.query(
        `SELECT setval($1, COALESCE((SELECT max("${column.name}") FROM "${table.name}"), 0) + 1, false)`,
        [rows[0].sequence],
      );
    }
  }
}

/** Avatar files of the uploads folder that have no StoredFile row yet, added as rows. */
async function importLegacyAvatars(source: Database.Database, target: pg.Client, uploads: string): Promise<number> {
  const referenced = source.prepare(`
    SELECT "avatarPath" FROM "Namespace" WHERE "avatarPath" IS NOT NULL
    UNION SELECT "avatarPath" FROM "Topic" WHERE "avatarPath" IS NOT NULL
    EXCEPT SELECT "path" FROM "StoredFile"`).pluck().all() as string[];
  let imported = 0;
  for (const relative of referenced) {
    const file = path.resolve(uploads, relative);
    if (!file.startsWith(path.resolve(uploads) + path.sep) || !existsSync(file)) continue;
    await target.query('INSERT INTO "StoredFile" ("path", "content") VALUES ($1, $2)', [relative, readFileSync(file)]);
    imported++;
  }
  return imported;
}

async function main() {
  const { from, to, uploads, repositories } = options();
  const source = openSource(from);
  await applyMigrations(to);
  const target = new pg.Client({ connectionString: to });
  await target.connect();
  let copied: Copied;
  try {
    copied = await copyAll(source, target, uploads, repositories);
  } finally {
    await target.end();
    source.close();
  }
  printCounts(copied.counts);
  if (copied.legacyAvatars) console.log(`and ${copied.legacyAvatars} avatar files from ${uploads} into StoredFile`);
  if (repositories) console.log(`and ${repositories.count} repositories from ${repositories.from} to ${repositories.to}: start the servers with REPOSITORIES_DIR=${repositories.to}`);
}

interface Copied {
  counts: [string, number, number][];
  legacyAvatars: number;
}

/** Every row in one transaction, committed once the repositories are copied too; on failure neither is left. */
async function copyAll(source: Database.Database, target: pg.Client, uploads: string, repositories: RepositoriesCopy | null): Promise<Copied> {
  try {
    const tables = await targetTables(target);
    await refuseNonEmpty(target, tables);
    source.prepare("BEGIN").run(); // one snapshot of the file for every table
    await target.query("BEGIN");
    const counts: [string, number, number][] = [];
    for (const table of tables) {
      const copied = await copyTable(source, target, table);
      counts.push([table.name, copied, 0]);
    }
    await moveSequences(target, tables);
    const legacyAvatars = await importLegacyAvatars(source, target, uploads);
    for (const row of counts) {
      row[1] = (source.prepare(`SELECT count(*) FROM "${row[0]}"`).pluck().get() as number);
      row[2] = Number((await target.query(`SELECT count(*) AS n FROM "${row[0]}"`)).rows[0].n);
    }
    const differing = counts.filter(([name, expected, got]) => expected + (name === "StoredFile" ? legacyAvatars : 0) !== got);
    if (differing.length) throw new CopyError(`row counts differ, nothing was copied: ${differing.map(([name, a, b]) => `${name} ${a} -> ${b}`).join(", ")}`);
    if (repositories) await copyRepositories(repositories);
    await target.query("COMMIT");
    return { counts, legacyAvatars };
  } catch (error) {
    await target.query("ROLLBACK").catch(() => undefined);
    if (repositories) await rm(path.join(repositories.to, HASHED), { recursive: true, force: true }); // the target was empty
    throw error;
  }
}

function printCounts(counts: [string, number, number][]) {
  const width = Math.max(...counts.map(([name]) => name.length));
  console.log(`${"table".padEnd(width)}  sqlite  postgresql`);
  for (const [name, expected, got] of counts) console.log(`${name.padEnd(width)}  ${String(expected).padStart(6)}  ${String(got).padStart(10)}`);
  const total = counts.reduce((sum, [, n]) => sum + n, 0);
  console.log(`copied ${total} rows in ${counts.length} tables; start the servers with the SQLite instance's WEBHOOK_ENCRYPTION_KEY`);
}

main().catch((error) => {
  console.error(error instanceof CopyError ? `db:copy: ${error.message}` : error);
  process.exit(1);
});
