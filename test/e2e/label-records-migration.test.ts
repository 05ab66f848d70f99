// The migration that made labels records (20261128100000_label_records) on a database holding
// issues and merge requests with the old lists of label names: the migrations before it applied
// to an empty database of the leg's kind (SQLite, or PostgreSQL with FORGELINE_TEST_DATABASE),
// rows written the way the server of then wrote them (the `labels` JSON column, which triggers
// copied into name rows), then the migration and every one after it. Each project gets one label
// per name its issues and merge requests carry, in GitLab's default colour, linked to them; another
// project's same name is another label; the name rows, the column and the triggers go.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseUrlFor, onPostgresql, withAdmin } from "../helpers/test-database.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MIGRATIONS = path.join(ROOT, "prisma", ...(onPostgresql ? ["postgresql", "migrations"] : ["migrations"]));
const LABEL_RECORDS = "20261128100000_label_records";

const migrations = readdirSync(MIGRATIONS).filter((name) => /^\d+_/.test(name)).sort();
const before = migrations.filter((name) => name < LABEL_RECORDS);
const from = migrations.filter((name) => name >= LABEL_RECORDS);
const sqlOf = (name: string) => readFileSync(path.join(MIGRATIONS, name, "migration.sql"), "utf8");

type Row = Record<string, unknown>;
interface Column { name: string; type: string; required: boolean }

/** The few things the test asks of either database. */
interface Db {
  exec(sql: string): Promise<void>;
  all(sql: string): Promise<Row[]>;
  columns(table: string): Promise<Column[]>;
  /** column -> referenced table */
  references(table: string): Promise<Map<string, string>>;
  insert(table: string, values: Row): Promise<number>;
  close(): Promise<void>;
}

async function openSqlite(): Promise<Db> {
  const dir = mkdtempSync(path.join(tmpdir(), "label-records-"));
  const db = new Database(path.join(dir, "old.db"));
  return {
    exec: async (sql) => void db.exec(sql),
    all: async (sql) => db.prepare(sql).all() as Row[],
    columns: async (table) => (db.prepare(`PRAGMA table_info("${table}")`).all() as any[])
      .map((c) => ({ name: c.name, type: String(c.type).toUpperCase(), required: c.notnull === 1 && c.dflt_value === null && c.pk === 0 })),
    references: async (table) => new Map((db.prepare(`PRAGMA foreign_key_list("${table}")`).all() as any[]).map((fk) => [fk.from, fk.table])),
    insert: async (table, values) => {
      const names = Object.keys(values);
      const sql = `INSERT INTO "${table}" (${names.map((n) => `"${n}"`).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`;
      const args = Object.values(values).map((v) => (v instanceof Date ? v.toISOString() : typeof v === "boolean" ? Number(v) : v));
      return Number(db.prepare(sql).run(...(args as any[])).lastInsertRowid);
    },
    close: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openPostgresql(): Promise<Db> {
  const name = `forgeline_label_records_${process.pid}_${Date.now()}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  const client = new pg.Client({ connectionString: databaseUrlFor(name) });
  await client.connect();
  return {
    exec: async (sql) => void (await client.query(sql)),
    all: async (sql) => (await client.query(sql)).rows,
    columns: async (table) => (await client.query(
      "SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1",
      [table],
    )).rows.map((c) => ({ name: c.column_name, type: String(c.data_type).toUpperCase(), required: c.is_nullable === "NO" && c.column_default === null })),
    references: async (table) => new Map((await client.query(
      `SELECT kcu.column_name, ccu.table_name AS target FROM information_schema.table_constraints tc
       JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name
       JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name
       WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_name = $1`,
      [table],
    )).rows.map((r) => [r.column_name, r.target])),
    insert: async (table, values) => {
      const names = Object.keys(values);
      const sql = `INSERT INTO "${table}" (${names.map((n) => `"${n}"`).join(", ")}) VALUES (${names.map((_, i) => `$${i + 1}`).join(", ")}) RETURNING "id"`;
      return Number((await client.query(sql, Object.values(values))).rows[0].id);
    },
    close: async () => {
      await client.end();
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

let db: Db;
/** The rows made so far, by table: what a required reference points at. */
const made = new Map<string, number>();
let serial = 0;

/** A row with the given values, every other required column filled (references to the rows made before). */
async function row(table: string, values: Row): Promise<number> {
  const references = await db.references(table);
  const full: Row = { ...values };
  for (const column of await db.columns(table)) {
    if (!column.required || column.name in full) continue;
    const target = references.get(column.name);
    if (target) {
      if (!made.has(target)) throw new Error(`${table}.${column.name} needs a ${target} made first`);
      full[column.name] = made.get(target);
    } else if (/INT|SERIAL|NUMERIC|REAL|DOUBLE/.test(column.type)) full[column.name] = 0;
    else if (/BOOL/.test(column.type)) full[column.name] = false;
    else if (/DATE|TIME/.test(column.type)) full[column.name] = new Date();
    else full[column.name] = `${table.toLowerCase()}-${column.name}-${++serial}`;
  }
  const id = await db.insert(table, full);
  made.set(table, id);
  return id;
}

const ids: Record<string, number> = {};

beforeAll(async () => {
  db = onPostgresql ? await openPostgresql() : await openSqlite();
  for (const name of before) await db.exec(sqlOf(name));
  // a user, a group, two projects; issues and merge requests as the server of then wrote them
  ids.user = await row("User", { username: "old-timer", email: "old@example.com", name: "Old Timer" });
  ids.group = await row("Namespace", { name: "Old", path: "old", kind: "group", traversalIds: "" });
  ids.a = await row("Project", { name: "A", path: "a", namespaceId: ids.group });
  ids.b = await row("Project", { name: "B", path: "b", namespaceId: ids.group });
  const issue = (projectId: number, iid: number, labels: string[]) =>
    row("Issue", { projectId, iid, title: `Issue ${iid}`, authorId: ids.user, labels: JSON.stringify(labels) });
  ids.issueA1 = await issue(ids.a!, 1, ["bug", "ui"]);
  ids.issueA2 = await issue(ids.a!, 2, ["bug"]);
  ids.issueA3 = await issue(ids.a!, 3, []);
  ids.issueB1 = await issue(ids.b!, 1, ["bug", "ui ✓"]);
  made.set("Project", ids.a!);
  ids.mrA1 = await row("MergeRequest", {
    projectId: ids.a, iid: 1, title: "MR", authorId: ids.user, sourceBranch: "topic", targetBranch: "main", labels: JSON.stringify(["review", "bug"]),
  });
  // an issue's labels changed after it was written: the update trigger rewrote its name rows
  await db.exec(`UPDATE "Issue" SET "labels" = '${JSON.stringify(["bug", "ui", "later"])}' WHERE "id" = ${ids.issueA1}`);
  for (const name of from) await db.exec(sqlOf(name));
}, 120_000);

afterAll(async () => db?.close());

describe(`migration ${LABEL_RECORDS}`, () => {
  it("makes one project label per name a project's issues and merge requests carry, in GitLab's default colour", async () => {
    const labels = await db.all(`SELECT "id", "title", "color", "description", "projectId", "groupId" FROM "Label" ORDER BY "projectId", "title"`);
    expect(labels.map((l) => [Number(l.projectId), l.title, l.color, l.description, l.groupId])).toEqual([
      [ids.a, "bug", "#6699cc", null, null], [ids.a, "later", "#6699cc", null, null], [ids.a, "review", "#6699cc", null, null],
      [ids.a, "ui", "#6699cc", null, null],
      [ids.b, "bug", "#6699cc", null, null], [ids.b, "ui ✓", "#6699cc", null, null],
    ]);
  });

  it("links each issue and merge request to its project's labels of those names", async () => {
    const issues = await db.all(`SELECT "IssueLabel"."issueId", "Label"."title", "Label"."projectId" FROM "IssueLabel" JOIN "Label" ON "Label"."id" = "IssueLabel"."labelId"`);
    const byIssue = (id: number) => issues.filter((r) => Number(r.issueId) === id).map((r) => [r.title, Number(r.projectId)]).sort();
    expect(byIssue(ids.issueA1!)).toEqual([["bug", ids.a], ["later", ids.a], ["ui", ids.a]]);
    expect(byIssue(ids.issueA2!)).toEqual([["bug", ids.a]]);
    expect(byIssue(ids.issueA3!)).toEqual([]);
    expect(byIssue(ids.issueB1!)).toEqual([["bug", ids.b], ["ui ✓", ids.b]]);
    const mrs = await db.all(`SELECT "Label"."title", "Label"."projectId" FROM "MergeRequestLabel" JOIN "Label" ON "Label"."id" = "MergeRequestLabel"."labelId" WHERE "mergeRequestId" = ${ids.mrA1}`);
    expect(mrs.map((r) => [r.title, Number(r.projectId)]).sort()).toEqual([["bug", ids.a], ["review", ids.a]]);
  });

  it("leaves no name rows, labels column or copying trigger behind", async () => {
    expect((await db.columns("Issue")).map((c) => c.name)).not.toContain("labels");
    expect((await db.columns("MergeRequest")).map((c) => c.name)).not.toContain("labels");
    expect((await db.columns("IssueLabel")).map((c) => c.name).sort()).toEqual(["issueId", "labelId"]);
    expect(await db.columns("IssueLabelName")).toEqual([]);
    const triggers = onPostgresql
      ? await db.all(`SELECT tgname AS name FROM pg_trigger WHERE NOT tgisinternal AND tgname LIKE '%Label_from_%'`)
      : await db.all(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%Label_from_%'`);
    expect(triggers).toEqual([]);
  });

  it("leaves the links working for what came after: a label deleted takes its links, not the issue", async () => {
    const [bug] = await db.all(`SELECT "id" FROM "Label" WHERE "projectId" = ${ids.a} AND "title" = 'bug'`);
    if (!onPostgresql) await db.exec("PRAGMA foreign_keys = ON");
    await db.exec(`DELETE FROM "Label" WHERE "id" = ${bug!.id}`);
    const left = await db.all(`SELECT "issueId" FROM "IssueLabel" WHERE "labelId" = ${bug!.id}`);
    expect(left).toEqual([]);
    expect(await db.all(`SELECT "id" FROM "Issue" WHERE "id" = ${ids.issueA2}`)).toHaveLength(1);
  });
});
