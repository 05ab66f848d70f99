// Inserts many issues into one project straight through SQL, for measuring lists on big tables
// (a million through the API would take hours). No hooks fire and no notes are written; the
// project's issue iid counter moves past the new issues, so issues created afterwards continue it.
//
//   npm run db:seed-issues -- <project id or full path> <count>
//
// Uses the server's settings (DATABASE_URL or DATA_DIR); the server may be running meanwhile.
// SQLite or PostgreSQL (there in one INSERT ... SELECT over generate_series per 20,000 issues).
import Database from "better-sqlite3";
import pg from "pg";
import { isPostgresqlUrl, loadConfigOrExit } from "../src/config.js";

const ROWS_PER_STATEMENT = 100;
const ROWS_PER_TRANSACTION = 20_000;
const COLUMNS = ["projectId", "iid", "title", "description", "state", "confidential", "authorId", "createdAt", "updatedAt"];

function usage(message: string): never {
  console.error(`${message}\nusage: npm run db:seed-issues -- <project id or full path> <count>`);
  process.exit(2);
}

function findProject(db: Database.Database, ref: string): { id: number; authorId: number } {
  const row = /^\d+$/.test(ref)
    ? db.prepare("SELECT id, creatorId FROM Project WHERE id = ?").get(Number(ref))
    : db.prepare(
        "SELECT p.id, p.creatorId FROM Project p JOIN Namespace n ON n.id = p.namespaceId WHERE n.fullPathLower || '/' || p.pathLower = ?",
      ).get(ref.toLowerCase());
  if (!row) usage(`project ${ref} not found`);
  const { id, creatorId } = row as { id: number; creatorId: number | null };
  const root = db.prepare("SELECT id FROM User WHERE isAdmin = 1 ORDER BY id LIMIT 1").get() as { id: number } | undefined;
  return { id, authorId: creatorId ?? root?.id ?? usage("the project has no creator and there is no administrator") };
}

/** Prisma's SQLite text form of a DateTime (ISO 8601 with +00:00), so that text order is time order. */
const timestamp = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

function seed(db: Database.Database, projectId: number, authorId: number, count: number): void {
  const counter = db.prepare("SELECT lastValue FROM InternalId WHERE projectId = ? AND usage = 'issues'").get(projectId) as { lastValue: number } | undefined;
  const firstIid = (counter?.lastValue ?? 0) + 1;
  const placeholders = `(${COLUMNS.map(() => "?").join(", ")})`;
  const insertSql = (rows: number) => `INSERT INTO Issue (${COLUMNS.join(", ")}) VALUES ${Array(rows).fill(placeholders).join(", ")}`;
  const fullInsert = db.prepare(insertSql(ROWS_PER_STATEMENT));
  // one second apart, the newest a second ago: created_at order is iid order, as issues created in turn
  const newest = Date.now() - 1000;
  const rowValues = (iid: number) => {
    const at = timestamp(newest - (firstIid + count - 1 - iid) * 1000);
    return [projectId, iid, `Seeded issue ${iid}`, null, "opened", 0, authorId, at, at];
  };
  const insertRange = db.transaction((from: number, to: number) => {
    for (let iid = from; iid < to; iid += ROWS_PER_STATEMENT) {
      const rows = Math.min(ROWS_PER_STATEMENT, to - iid);
      const values = Array.from({ length: rows }, (_, i) => rowValues(iid + i)).flat();
      (rows === ROWS_PER_STATEMENT ? fullInsert : db.prepare(insertSql(rows))).run(...values);
    }
    db.prepare(
      "INSERT INTO InternalId (projectId, usage, lastValue) VALUES (?, 'issues', ?) ON CONFLICT (projectId, usage) DO UPDATE SET lastValue = excluded.lastValue",
    ).run(projectId, to - 1);
  });
  const end = firstIid + count;
  for (let from = firstIid; from < end; from += ROWS_PER_TRANSACTION) insertRange(from, Math.min(from + ROWS_PER_TRANSACTION, end));
}

/** PostgreSQL: the same rows (iid order is created_at order, the newest a second ago), set-based. */
async function seedPostgresql(databaseUrl: string, ref: string, count: number): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const found = await client.query<{ id: number; authorId: number }>(
      `SELECT p.id, COALESCE(p."creatorId", (SELECT id FROM "User" WHERE "isAdmin" ORDER BY id LIMIT 1)) AS "authorId"
       FROM "Project" p JOIN "Namespace" n ON n.id = p."namespaceId"
       WHERE p.id::text = $1 OR n."fullPathLower" || '/' || p."pathLower" = lower($1)`, [ref]);
    const project = found.rows[0] ?? usage(`project ${ref} not found`);
    const counter = await client.query<{ lastValue: number }>(`SELECT "lastValue" FROM "InternalId" WHERE "projectId" = $1 AND "usage" = 'issues'`, [project.id]);
    const first = (counter.rows[0]?.lastValue ?? 0) + 1;
    const last = first + count - 1;
    for (let from = first; from <= last; from += ROWS_PER_TRANSACTION) {
      const to = Math.min(from + ROWS_PER_TRANSACTION - 1, last);
      await client.query("BEGIN");
      await client.query(
        `INSERT INTO "Issue" ("projectId", "iid", "title", "description", "state", "confidential", "authorId", "createdAt", "updatedAt")
         SELECT $1, g, 'Seeded issue ' || g, NULL, 'opened', false, $2,
                (now() AT TIME ZONE 'UTC') - make_interval(secs => $4 - g + 1), (now() AT TIME ZONE 'UTC') - make_interval(secs => $4 - g + 1)
         FROM generate_series($3::int, $5::int) AS g`, [project.id, project.authorId, from, last, to]);
      await client.query(
        `INSERT INTO "InternalId" ("projectId", "usage", "lastValue") VALUES ($1, 'issues', $2)
         ON CONFLICT ("projectId", "usage") DO UPDATE SET "lastValue" = excluded."lastValue"`, [project.id, to]);
      await client.query("COMMIT");
    }
    return project.id;
  } finally {
    await client.end();
  }
}

async function main() {
  const [ref, countText] = process.argv.slice(2);
  if (!ref || !countText || !/^\d+$/.test(countText) || Number(countText) < 1) usage("a project and a positive count are needed");
  const config = loadConfigOrExit();
  if (isPostgresqlUrl(config.databaseUrl)) {
    const started = performance.now();
    const id = await seedPostgresql(config.databaseUrl, ref, Number(countText));
    console.log(`Inserted ${countText} issues into project ${id} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return;
  }
  const db = new Database(config.databaseUrl.slice("file:".length), { fileMustExist: true });
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 10000");
  const { id, authorId } = findProject(db, ref);
  const started = performance.now();
  seed(db, id, authorId, Number(countText));
  const seconds = (performance.now() - started) / 1000;
  console.log(`Inserted ${countText} issues into project ${id} in ${seconds.toFixed(1)} s`);
  db.close();
}

void main();
