// Reactions named rather than numbered, as GitLab's GraphQL mutations take them (AwardEmojis::
// RemoveService and ToggleService): the caller's own reaction of that name on the awardable.
import type { AwardEmoji } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { addAwardEmoji, removeAwardEmoji } from "./writes.js";
import { awardEmojiNotFound, type Awardable } from "./awardables.js";
import { canonicalEmojiName } from "../shared/emoji-names.js";

/** The caller's reaction called `name` (or an alias of it) on a readable awardable, or null. */
async function ownAward(ctx: DomainContext, awardable: Awardable, name: string): Promise<AwardEmoji | null> {
  const userId = ctx.actor?.user.id;
  if (userId == null) throw awardEmojiNotFound();
  const canonical = canonicalEmojiName(name) ?? name;
  return ctx.db.awardEmoji.findFirst({ where: { awardableType: awardable.type, awardableId: awardable.id, userId, name: canonical } });
}

/** Removes the caller's reaction called `name`; 404 when they have none. */
export async function removeOwnAwardEmoji(ctx: DomainContext, awardable: Awardable, name: string): Promise<void> {
  const award = await ownAward(ctx, awardable, name);
  if (!award) throw awardEmojiNotFound();
  await removeAwardEmoji(ctx, { award, awardable });
}

/** Adds the reaction, or removes it when the caller already gave it: the award, or null when toggled off. */
export async function toggleAwardEmoji(ctx: DomainContext, awardable: Awardable, name: string): Promise<AwardEmoji | null> {
  const award = await ownAward(ctx, awardable, name);
  if (!award) return addAwardEmoji(ctx, awardable, name);
  await removeAwardEmoji(ctx, { award, awardable });
  return null;
}
