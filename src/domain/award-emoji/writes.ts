// Adding and removing emoji reactions (AwardEmojis services): added by users who may react to
// the awardable, removed by their author or an administrator. Both publish the `emoji` domain
// event in the same transaction.
import { recordNotFound, unauthorized } from "../../errors.js";
import type { AwardEmoji } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { canonicalEmojiName } from "../shared/emoji-names.js";
import { publish, type EmojiEvent, type Tx } from "../shared/events.js";
import { assertUnmodifiedSince } from "../shared/preconditions.js";
import { holdParent } from "../shared/row-locks.js";
import { awardEmojiNotFound, mayAward, type Awardable } from "./awardables.js";
import { ofAwardable, type AwardAccess } from "./queries.js";

/**
 * AwardEmojis::AddService on an awardable the caller may read: aliases are stored under GitLab's
 * name (`+1` -> `thumbsup`); every refusal answers 404 "Award Emoji <reason> Not Found", as
 * GitLab's API does.
 */
export async function addAwardEmoji(ctx: DomainContext, awardable: Awardable, name: string): Promise<AwardEmoji> {
  if (!mayAward(ctx, awardable)) throw awardEmojiNotFound();
  if (awardable.note?.system) throw awardEmojiNotFound("Awardable cannot be awarded emoji");
  const canonical = validName(name);
  const userId = ctx.actor!.user.id;
  const data = { name: canonical, userId, ...ofAwardable(awardable) };
  try {
    return await ctx.db.$transaction(async (tx) => {
      await holdAwardable(tx, ctx, awardable);
      if (await tx.awardEmoji.findFirst({ where: data, select: { id: true } })) throw nameTaken();
      const award = await tx.awardEmoji.create({ data });
      await publishEmoji(tx, ctx, "award", award, awardable);
      return award;
    });
  } catch (error) {
    // a concurrent identical award loses on the unique index
    if ((error as { code?: string }).code === "P2002") throw nameTaken();
    throw error;
  }
}

/** The awardable and its project, held against a concurrent deletion (domain/row-locks.ts); gone: 404. */
async function holdAwardable(tx: Tx, ctx: DomainContext, awardable: Awardable): Promise<void> {
  const held = (await holdParent(tx, ctx, "Project", awardable.noteable.access.project.id)) && (await holdParent(tx, ctx, awardable.type, awardable.id));
  if (!held) throw recordNotFound();
}

const nameTaken = () => awardEmojiNotFound("Name has already been taken");

/** The model's name validations (presence, then a known emoji), joined as Rails' `to_sentence`. */
function validName(name: string): string {
  const canonical = canonicalEmojiName(name);
  const errors = [...(name.trim() ? [] : ["Name can't be blank"]), ...(canonical ? [] : ["Name is not a valid emoji name"])];
  if (errors.length) throw awardEmojiNotFound(errors.join(" and "));
  return canonical!;
}

/**
 * DELETE on a reaction found for removal (findAwardEmoji), without checking that the caller may
 * read the awardable: only its author or an administrator may remove it; anyone else gets 401, as
 * in GitLab. If-Unmodified-Since is honoured (412).
 */
export async function removeAwardEmoji(ctx: DomainContext, found: AwardAccess, unmodifiedSince?: string | null): Promise<boolean> {
  const { award, awardable } = found;
  const user = ctx.actor?.user;
  if (!user || (award.userId !== user.id && !user.isAdmin)) throw unauthorized();
  assertUnmodifiedSince(award.updatedAt, unmodifiedSince);
  await ctx.db.$transaction(async (tx) => {
    // published before the row goes, so that subscribers can still read it
    await publishEmoji(tx, ctx, "revoke", award, awardable);
    const { count } = await tx.awardEmoji.deleteMany({ where: { id: award.id } });
    if (count === 0) throw recordNotFound();
  });
  return true;
}

function publishEmoji(tx: Tx, ctx: DomainContext, action: EmojiEvent["action"], award: AwardEmoji, awardable: Awardable) {
  return publish(tx, ctx, "emoji", {
    action,
    awardableType: awardable.type,
    awardableId: awardable.id,
    projectId: awardable.noteable.access.project.id,
    awardEmojiId: award.id,
    name: award.name,
    userId: award.userId,
    actorId: ctx.actor!.user.id,
  });
}
