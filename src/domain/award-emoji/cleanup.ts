// Reactions go with what they react to (GitLab's `has_many :award_emoji, dependent: :destroy`).
import type { Tx } from "../events.js";
import type { AwardableType } from "./awardables.js";

/** Deletes the reactions on the given awardables; call it in the transaction that deletes them. */
export async function deleteReactionsOf(tx: Tx, awardableType: AwardableType, awardableIds: number[]): Promise<void> {
  if (awardableIds.length) await tx.awardEmoji.deleteMany({ where: { awardableType, awardableId: { in: awardableIds } } });
}
