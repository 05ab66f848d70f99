// Raw SQL for the reads on every hot route. A Prisma model query costs 350-650 µs of CPU here
// (its query compiler runs on each call); these statements go to the driver adapter directly
// outside transactions (direct-reads.ts), with the row types of the models. The SQL is portable
// (quoted identifiers, bound values) to SQLite and PostgreSQL.
import { Prisma, type AwardEmoji, type Issue, type MergeRequest } from "../generated/prisma/client.js";
import type { Tx } from "../domain/shared/events.js";
import { queryRows } from "./direct-reads.js";

/** A project's issue by iid, every column. */
export async function issueByIid(db: Tx, projectId: number, iid: number): Promise<Issue | null> {
  const rows = await queryRows<Issue>(db, Prisma.sql`SELECT * FROM "Issue" WHERE "projectId" = ${projectId} AND "iid" = ${iid}`);
  return rows[0] ?? null;
}

/** A project's merge request by iid, every column. */
export async function mergeRequestByIid(db: Tx, projectId: number, iid: number): Promise<MergeRequest | null> {
  const rows = await queryRows<MergeRequest>(db, Prisma.sql`SELECT * FROM "MergeRequest" WHERE "projectId" = ${projectId} AND "iid" = ${iid}`);
  return rows[0] ?? null;
}

/**
 * An awardable by its id, or an issue or merge request by its project and iid: then its id is read
 * in the statement that reads its reactions, which need not wait for the awardable's own read.
 */
export type AwardableRef = number | { table: "Issue" | "MergeRequest"; projectId: number; iid: number };

const awardableIdOf = (ref: AwardableRef) =>
  typeof ref === "number"
    ? Prisma.sql`${ref}`
    : Prisma.sql`(SELECT "id" FROM ${Prisma.raw(ref.table === "Issue" ? '"Issue"' : '"MergeRequest"')} WHERE "projectId" = ${ref.projectId} AND "iid" = ${ref.iid})`;

/** How many reactions an awardable has, counting no further than `cap`. */
export async function countAwards(db: Tx, awardableType: string, awardable: AwardableRef, cap: number): Promise<number> {
  const [row] = await queryRows<{ n: bigint | number }>(db, Prisma.sql`
    SELECT COUNT(*) AS "n" FROM (
      SELECT 1 FROM "AwardEmoji" WHERE "awardableType" = ${awardableType} AND "awardableId" = ${awardableIdOf(awardable)} LIMIT ${cap}
    ) AS "capped"`);
  return Number(row!.n);
}

/**
 * A page of an awardable's reactions, oldest first, with their count (up to `cap`) in the same
 * statement; `counted` is null when the page is empty (past the end: the count was not taken).
 */
export async function awardsPage(
  db: Tx, awardableType: string, awardable: AwardableRef, skip: number, take: number, cap: number,
): Promise<{ rows: AwardEmoji[]; counted: number | null }> {
  const awardableId = awardableIdOf(awardable);
  const rows = await queryRows<(AwardEmoji & { _counted: bigint | number })>(db, Prisma.sql`
    SELECT "AwardEmoji".*, (
      SELECT COUNT(*) FROM (
        SELECT 1 FROM "AwardEmoji" WHERE "awardableType" = ${awardableType} AND "awardableId" = ${awardableId} LIMIT ${cap}
      ) AS "capped"
    ) AS "_counted"
    FROM "AwardEmoji" WHERE "awardableType" = ${awardableType} AND "awardableId" = ${awardableId}
    ORDER BY "id" LIMIT ${take} OFFSET ${skip}`);
  const counted = rows.length ? Number(rows[0]!._counted) : null;
  return { rows: rows.map(({ _counted, ...award }) => award), counted };
}
