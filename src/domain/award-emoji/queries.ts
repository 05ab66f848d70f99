// Emoji reactions (GitLab's award emoji, lib/api/award_emoji.rb): read by whoever may read the
// awardable (awardables.ts). Adding and removing: writes.ts.
import { recordNotFound } from "../../errors.js";
import type { AwardEmoji } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { pageKey, type Page, type PageArgs } from "../shared/pagination.js";
import { findProject } from "../shared/parents.js";
import { awardPageOf, awardPagesLoader } from "./loaders.js";
import { findAwardable, findAwardableRecord, type Awardable, type AwardablePath } from "./awardables.js";

export const ofAwardable = (awardable: Awardable) => ({ awardableType: awardable.type, awardableId: awardable.id });

/**
 * The reactions on an awardable the caller may read (found by findAwardable, or shown to them in
 * the graph), oldest first; the same page of every awardable of a request in one statement.
 */
export function listAwardEmoji(ctx: Pick<DomainContext, "loaders">, awardable: Pick<Awardable, "type" | "id">, page: PageArgs): Promise<Page<AwardEmoji>> {
  return ctx.loaders.get(awardPagesLoader).load({ type: awardable.type, id: awardable.id, page: pageKey(page) });
}

/**
 * The reactions on the awardable at `path`, for a caller who may read it (findAwardable). An
 * issue's or merge request's own reactions are read by its iid, beside the issue or merge request
 * rather than after it (on PostgreSQL the two statements travel at once), and are dropped unread
 * when the caller may not see it.
 */
export async function listAwardEmojiAt(ctx: DomainContext, path: AwardablePath, page: PageArgs): Promise<Page<AwardEmoji>> {
  const table = path.noteId == null && (path.noteableType === "Issue" || path.noteableType === "MergeRequest") ? path.noteableType : null;
  if (!table) return listAwardEmoji(ctx, await findAwardable(ctx, path), page);
  const { project } = await findProject(ctx, path.project);
  const [, awards] = await Promise.all([
    findAwardable(ctx, path),
    awardPageOf(ctx.db, table, { table, projectId: project.id, iid: path.ref }, page),
  ]);
  return awards;
}

/** A reaction with the awardable it was found on. */
export interface AwardAccess {
  award: AwardEmoji;
  awardable: Awardable;
}

/**
 * The reaction at `.../award_emoji/:award_id`: `read` (GET) on an awardable the caller may read
 * (findAwardable); `remove` (DELETE) on the awardable as GitLab's `awardable` helper finds it,
 * readable or not (findAwardableRecord), whose removal checks who asks.
 */
export async function findAwardEmoji(ctx: DomainContext, path: AwardablePath, awardId: number, purpose: "read" | "remove" = "read"): Promise<AwardAccess> {
  const awardable = purpose === "read" ? await findAwardable(ctx, path) : await findAwardableRecord(ctx, path);
  return { award: await findAward(ctx, awardable, awardId), awardable };
}

/** `awardable.award_emoji.find(award_id)` */
async function findAward(ctx: DomainContext, awardable: Awardable, awardId: number): Promise<AwardEmoji> {
  const award = await ctx.db.awardEmoji.findFirst({ where: { id: awardId, ...ofAwardable(awardable) } });
  if (!award) throw recordNotFound();
  return award;
}
