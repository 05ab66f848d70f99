// Emoji reactions (GitLab's award emoji, lib/api/award_emoji.rb): read by whoever may read the
// awardable (awardables.ts). Adding and removing: writes.ts.
import { awardsPage, countAwards } from "../../db/hot-reads.js";
import { recordNotFound } from "../../errors.js";
import type { AwardEmoji } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { paginateCounted, type Page, type PageArgs } from "../shared/pagination.js";
import { findAwardable, type Awardable, type AwardablePath } from "./awardables.js";

export const ofAwardable = (awardable: Awardable) => ({ awardableType: awardable.type, awardableId: awardable.id });

/** The reactions on an awardable the caller may read (findAwardable), oldest first. */
export async function listAwardEmoji(ctx: DomainContext, awardable: Awardable, page: PageArgs): Promise<Page<AwardEmoji>> {
  const { awardableType, awardableId } = ofAwardable(awardable);
  return paginateCounted(
    page,
    (cap) => countAwards(ctx.db, awardableType, awardableId, cap),
    (skip, take, cap) => awardsPage(ctx.db, awardableType, awardableId, skip, take, cap),
  );
}

export async function getAwardEmoji(ctx: DomainContext, path: AwardablePath, awardId: number): Promise<AwardEmoji> {
  return findAward(ctx, await findAwardable(ctx, path), awardId);
}

/** `awardable.award_emoji.find(award_id)` */
export async function findAward(ctx: DomainContext, awardable: Awardable, awardId: number): Promise<AwardEmoji> {
  const award = await ctx.db.awardEmoji.findFirst({ where: { id: awardId, ...ofAwardable(awardable) } });
  if (!award) throw recordNotFound();
  return award;
}
