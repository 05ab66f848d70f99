// What issue and merge request entities show beyond their own columns, for a whole page in one
// statement: comment counts, thumbsup/thumbsdown counts, (issues) assignees and the labels' ids. A UNION of three
// small grouped reads, portable SQL (the same text on SQLite and PostgreSQL).
import { Prisma } from "../../generated/prisma/client.js";
import type { Db } from "../../db/client.js";
import { DOWNVOTE_NAME, UPVOTE_NAME } from "./emoji-names.js";
import DataLoader from "dataloader";
import type { LoaderFactory } from "./loaders.js";

export type IssuableType = "Issue" | "MergeRequest";

/** `${type}:${id}`, e.g. "Issue:12" */
export type IssuableKey = `${IssuableType}:${number}`;

export const issuableKey = (type: IssuableType, id: number): IssuableKey => `${type}:${id}`;

export interface IssuableFacts {
  /** comments: notes that are not system notes */
  userNotesCount: number;
  upvotes: number;
  downvotes: number;
  /** assignees of an issue, by ascending id (merge requests load theirs with the row) */
  assigneeIds: number[];
  /** the labels it links to, by id */
  labelIds: number[];
}

const NOTES = "@notes";
const ASSIGNEE = "@assignee";
const LABEL = "@label";
/** constants as SQL literals (PostgreSQL cannot type a bare parameter in a UNION's select list) */
const literal = (text: string) => Prisma.raw(`'${text}'`);

export async function batchIssuableFacts(db: Db, keys: readonly IssuableKey[]): Promise<IssuableFacts[]> {
  const facts = new Map<IssuableKey, IssuableFacts>(keys.map((key) => [key, { userNotesCount: 0, upvotes: 0, downvotes: 0, assigneeIds: [], labelIds: [] }]));
  for (const type of ["Issue", "MergeRequest"] as const) {
    const ids = keys.filter((key) => key.startsWith(`${type}:`)).map((key) => Number(key.slice(type.length + 1)));
    if (!ids.length) continue;
    for (const row of await db.$queryRaw<{ fact: string; id: number | bigint; value: number | bigint }[]>(factsQuery(type, ids))) {
      const entry = facts.get(issuableKey(type, Number(row.id)))!;
      const value = Number(row.value);
      if (row.fact === NOTES) entry.userNotesCount = value;
      else if (row.fact === ASSIGNEE) entry.assigneeIds.push(value);
      else if (row.fact === LABEL) entry.labelIds.push(value);
      else if (row.fact === UPVOTE_NAME) entry.upvotes = value;
      else if (row.fact === DOWNVOTE_NAME) entry.downvotes = value;
    }
  }
  for (const entry of facts.values()) entry.assigneeIds.sort((a, b) => a - b);
  return keys.map((key) => facts.get(key)!);
}

function factsQuery(type: IssuableType, ids: number[]): Prisma.Sql {
  const list = Prisma.join(ids);
  const labelTable = Prisma.raw(type === "Issue" ? '"IssueLabel"' : '"MergeRequestLabel"');
  const labelOwner = Prisma.raw(type === "Issue" ? '"issueId"' : '"mergeRequestId"');
  const assignees =
    type === "Issue" ? Prisma.sql`UNION ALL SELECT ${literal(ASSIGNEE)}, "issueId", "userId" FROM "IssueAssignee" WHERE "issueId" IN (${list})` : Prisma.empty;
  return Prisma.sql`SELECT ${literal(NOTES)} AS "fact", "noteableId" AS "id", COUNT(*) AS "value" FROM "Note"
    WHERE "noteableType" = ${type} AND "noteableId" IN (${list}) AND NOT "system" GROUP BY "noteableId"
    UNION ALL SELECT "name", "awardableId", COUNT(*) FROM "AwardEmoji"
    WHERE "awardableType" = ${type} AND "awardableId" IN (${list}) AND "name" IN (${UPVOTE_NAME}, ${DOWNVOTE_NAME}) GROUP BY "awardableId", "name"
    ${assignees}
    UNION ALL SELECT ${literal(LABEL)}, ${labelOwner}, "labelId" FROM ${labelTable} WHERE ${labelOwner} IN (${list})`;
}

/** Comment and vote counts, assignees of an issue or merge request (`issuableKey(type, id)`). */
export const issuableFactsLoader: LoaderFactory<DataLoader<IssuableKey, IssuableFacts>> = (services) =>
  new DataLoader((keys) => batchIssuableFacts(services.db, keys));
