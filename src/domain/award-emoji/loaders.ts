// Batch loads for the per-request loaders (src/domain/loaders.ts): the reactions of many
// awardables in one query, for lists of issues, MRs and notes (their vote counts: issuable-facts.ts).
import type { AwardEmoji, Prisma } from "../../generated/prisma/client.js";
import type { Db } from "../../db/client.js";
import type { AwardableType } from "./awardables.js";
import DataLoader from "dataloader";
import type { LoaderFactory } from "../shared/loaders.js";

/** `${awardable_type}:${awardable_id}`, e.g. "Issue:12" */
export type AwardableKey = `${AwardableType}:${number}`;

export const awardableKey = (type: AwardableType, id: number): AwardableKey => `${type}:${id}`;

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

/** Emoji reactions of an awardable (`awardableKey(type, id)`), oldest first. */
export const awardEmojiLoader: LoaderFactory<DataLoader<AwardableKey, AwardEmoji[]>> = (services) =>
  new DataLoader((keys) => batchAwardEmoji(services.db, keys));
