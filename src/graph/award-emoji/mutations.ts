// awardEmojiAdd, awardEmojiRemove and awardEmojiToggle on an issue, merge request or note given by
// its global id (award-emoji rules in src/domain/award-emoji/).
import { AppError } from "../../errors.js";
import { addAwardEmoji } from "../../domain/award-emoji/writes.js";
import { removeOwnAwardEmoji, toggleAwardEmoji } from "../../domain/award-emoji/toggle.js";
import type { Context } from "../../context.js";
import { AwardEmojiRef } from "./types.js";
import type { Awardable } from "../../domain/award-emoji/awardables.js";
import { awardableOf } from "../shared/mutation-inputs.js";
import { payloadMutation, type PayloadInputFieldBuilder } from "../shared/payload-mutation.js";

/**
 * The REST API reports every refused reaction as "404 Award Emoji <reason> Not Found"; a reason
 * (name taken, unknown emoji, system note) is a validation error on the graph, listed in `errors`.
 */
async function withReasons<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const reason = error instanceof AppError && error.status === 404 ? /^404 Award Emoji (.+) Not Found$/.exec(error.message)?.[1] : undefined;
    throw reason ? new AppError(400, { message: reason }) : error;
  }
}

const awardInput = (t: PayloadInputFieldBuilder) => ({
  awardableId: t.id({ required: true, description: "Global id of the issue, merge request or note." }),
  name: t.string({ required: true, description: "Emoji name (aliases such as +1 too)." }),
});

type AwardInput = { awardableId: string | number; name: string };

const awardEmoji = { field: "awardEmoji", type: AwardEmojiRef };

/** The write on the awardable the input names, its refusal reasons as validation errors. */
const onAwardable = <T>(ctx: Context, input: AwardInput, run: (awardable: Awardable) => Promise<T>) =>
  withReasons(async () => run(await awardableOf(ctx, input.awardableId)));

payloadMutation("awardEmojiAdd", {
  inputFields: awardInput,
  write: (input, ctx) => onAwardable(ctx, input, (awardable) => addAwardEmoji(ctx, awardable, input.name)),
  returns: awardEmoji,
});

payloadMutation("awardEmojiRemove", {
  inputFields: awardInput,
  write: (input, ctx) => onAwardable(ctx, input, async (awardable) => (await removeOwnAwardEmoji(ctx, awardable, input.name), null)),
  returns: { ...awardEmoji, description: "Always null: the reaction is gone." },
});

payloadMutation("awardEmojiToggle", {
  inputFields: awardInput,
  write: (input, ctx) => onAwardable(ctx, input, (awardable) => toggleAwardEmoji(ctx, awardable, input.name)),
  returns: awardEmoji,
  extraFields: (t) => ({
    toggledOn: t.boolean({ description: "Whether the emoji is now awarded.", resolve: (p) => p.errors.length === 0 && p.result !== null }),
  }),
});
