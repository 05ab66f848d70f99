// Batch loads for the per-request loaders (shared/loaders.ts): every reaction of many awardables in
// one query, for the vote counts of lists of issues, MRs and notes (issuable-facts.ts); and the same
// page of many awardables' reactions, read by listAwardEmoji.
import { Prisma, type AwardEmoji } from "../../generated/prisma/client.js";
import { awardsPage, countAwards, type AwardableRef } from "../../db/hot-reads.js";
import { childPages } from "../shared/child-pages.js";
import { paginateCounted, type Page, type PageArgs } from "../shared/pagination.js";
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

/** One page of an awardable's reactions (the page as asked: REST's page/per_page or a row offset). */
interface AwardPageKey {
  type: AwardableType;
  id: number;
  page: PageArgs;
}

const awardPageCacheKey = (key: AwardPageKey) => JSON.stringify(key);

/**
 * The same page of many awardables' reactions, oldest first: one statement per kind of page asked
 * for. A single awardable (every REST list) takes the hot path, its page and count in one statement.
 */
async function batchAwardPages(db: Db, keys: readonly AwardPageKey[]): Promise<Page<AwardEmoji>[]> {
  const groups = new Map<string, AwardPageKey[]>();
  for (const key of keys) {
    const group = awardPageCacheKey({ ...key, id: 0 });
    groups.set(group, [...(groups.get(group) ?? []), key]);
  }
  const pages = new Map<string, Page<AwardEmoji>>();
  for (const group of groups.values()) {
    const { type, page } = group[0]!;
    const ids = group.map((key) => key.id);
    const byAwardable = ids.length === 1 ? new Map([[ids[0]!, await awardPageOf(db, type, ids[0]!, page)]]) : await childPages<AwardEmoji>(
      db, { table: "AwardEmoji", parentColumn: "awardableId", where: Prisma.sql`"awardableType" = ${type} AND "awardableId" IN (${Prisma.join(ids)})`, orderBy: Prisma.sql`"id" ASC` }, ids, page,
    );
    for (const key of group) pages.set(awardPageCacheKey(key), byAwardable.get(key.id)!);
  }
  return keys.map((key) => pages.get(awardPageCacheKey(key))!);
}

/** A page of one awardable's reactions, with their count, in one statement. */
export function awardPageOf(db: Db, type: AwardableType, awardable: AwardableRef, page: PageArgs): Promise<Page<AwardEmoji>> {
  return paginateCounted(
    page,
    (cap) => countAwards(db, type, awardable, cap),
    (skip, take, cap) => awardsPage(db, type, awardable, skip, take, cap),
  );
}

/** A page of an awardable's reactions (`AwardPageKey`), the same page of a page of awardables in one statement. */
export const awardPagesLoader: LoaderFactory<DataLoader<AwardPageKey, Page<AwardEmoji>, string>> = (services) =>
  new DataLoader((keys) => batchAwardPages(services.db, keys), { cacheKeyFn: awardPageCacheKey });
