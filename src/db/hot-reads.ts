// Raw SQL for the reads on every hot route. A Prisma model query costs 350-650 µs of CPU here
// (its query compiler runs on each call), the same statement through $queryRaw about 100 µs, with
// the same row types. The SQL is portable (quoted identifiers, bound values) to SQLite and PostgreSQL.
import type { AwardEmoji, Issue, MergeRequest } from "../generated/prisma/client.js";
import type { Tx } from "../domain/shared/events.js";

/** A project's issue by iid, every column. */
export async function issueByIid(db: Tx, projectId: number, iid: number): Promise<Issue | null> {
  const rows = await db.$queryRaw<Issue[]>`SELECT * FROM "Issue" WHERE "projectId" = ${projectId} AND "iid" = ${iid}`;
  return rows[0] ?? null;
}

/** A project's merge request by iid, every column. */
export async function mergeRequestByIid(db: Tx, projectId: number, iid: number): Promise<MergeRequest | null> {
  const rows = await db.$queryRaw<MergeRequest[]>`SELECT * FROM "MergeRequest" WHERE "projectId" = ${projectId} AND "iid" = ${iid}`;
  return rows[0] ?? null;
}

/** How many reactions an awardable has, counting no further than `cap`. */
export async function countAwards(db: Tx, awardableType: string, awardableId: number, cap: number): Promise<number> {
  const [row] = await db.$queryRaw<{ n: bigint | number }[]>`
    SELECT COUNT(*) AS "n" FROM (
      SELECT 1 FROM "AwardEmoji" WHERE "awardableType" = ${awardableType} AND "awardableId" = ${awardableId} LIMIT ${cap}
    ) AS "capped"`;
  return Number(row!.n);
}

/**
 * A page of an awardable's reactions, oldest first, with their count (up to `cap`) in the same
 * statement; `counted` is null when the page is empty (past the end: the count was not taken).
 */
export async function awardsPage(
  db: Tx, awardableType: string, awardableId: number, skip: number, take: number, cap: number,
): Promise<{ rows: AwardEmoji[]; counted: number | null }> {
  const rows = await db.$queryRaw<(AwardEmoji & { _counted: bigint | number })[]>`
    SELECT "AwardEmoji".*, (
      SELECT COUNT(*) FROM (
        SELECT 1 FROM "AwardEmoji" WHERE "awardableType" = ${awardableType} AND "awardableId" = ${awardableId} LIMIT ${cap}
      ) AS "capped"
    ) AS "_counted"
    FROM "AwardEmoji" WHERE "awardableType" = ${awardableType} AND "awardableId" = ${awardableId}
    ORDER BY "id" LIMIT ${take} OFFSET ${skip}`;
  const counted = rows.length ? Number(rows[0]!._counted) : null;
  return { rows: rows.map(({ _counted, ...award }) => award), counted };
}
