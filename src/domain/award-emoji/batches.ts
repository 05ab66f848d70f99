// Batch loads for the per-request loaders (src/domain/loaders.ts): the reactions and the
// thumbsup/thumbsdown counts of many awardables in one query, for lists of issues, MRs and notes.
import type { AwardEmoji, Prisma } from "../../generated/prisma/client.js";
import type { Db } from "../../db/client.js";
import type { AwardableType } from "./awardables.js";
import { DOWNVOTE_NAME, UPVOTE_NAME } from "./names.js";

/** `${awardable_type}:${awardable_id}`, e.g. "Issue:12" */
export type AwardableKey = `${AwardableType}:${number}`;

export const awardableKey = (type: AwardableType, id: number): AwardableKey => `${type}:${id}`;

export interface Votes {
  upvotes: number;
  downvotes: number;
}

/** Prisma filter for the awards of all the keyed awardables (one IN list per type). */
function awardablesWhere(keys: readonly AwardableKey[]): Prisma.AwardEmojiWhereInput {
  const idsByType = new Map<string, number[]>();
  for (const key of keys) {
    const [type, id] = key.split(":") as [string, string];
    idsByType.set(type, [...(idsByType.get(type) ?? []), Number(id)]);
  }
  return { OR: [...idsByType].map(([awardableType, ids]) => ({ awardableType, awardableId: { in: ids } })) };
}

export async function batchAwardEmoji(db: Db, keys: readonly AwardableKey[]): Promise<AwardEmoji[][]> {
  const rows = await db.awardEmoji.findMany({ where: awardablesWhere(keys), orderBy: { id: "asc" } });
  const byKey = new Map<string, AwardEmoji[]>();
  for (const row of rows) {
    const key = awardableKey(row.awardableType as AwardableType, row.awardableId);
    byKey.set(key, [...(byKey.get(key) ?? []), row]);
  }
  return keys.map((key) => byKey.get(key) ?? []);
}

export async function batchVotes(db: Db, keys: readonly AwardableKey[]): Promise<Votes[]> {
  const counts = await db.awardEmoji.groupBy({
    by: ["awardableType", "awardableId", "name"],
    where: { ...awardablesWhere(keys), name: { in: [UPVOTE_NAME, DOWNVOTE_NAME] } },
    _count: { _all: true },
  });
  const byKey = new Map<string, Votes>();
  for (const { awardableType, awardableId, name, _count } of counts) {
    const key = awardableKey(awardableType as AwardableType, awardableId);
    const votes = byKey.get(key) ?? { upvotes: 0, downvotes: 0 };
    if (name === UPVOTE_NAME) votes.upvotes = _count._all;
    else votes.downvotes = _count._all;
    byKey.set(key, votes);
  }
  return keys.map((key) => byKey.get(key) ?? { upvotes: 0, downvotes: 0 });
}
