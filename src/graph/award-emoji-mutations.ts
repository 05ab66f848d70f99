// awardEmojiAdd, awardEmojiRemove and awardEmojiToggle on an issue, merge request or note given by
// its global id (award-emoji rules in src/domain/award-emoji/).
import { AppError } from "../errors.js";
import { addAwardEmoji } from "../domain/award-emoji/award-emoji.js";
import { removeOwnAwardEmoji, toggleAwardEmoji } from "../domain/award-emoji/award-toggle.js";
import type { Context } from "../context.js";
import { AwardEmojiRef } from "./award-emoji.js";
import { builder } from "./builder.js";
import { payload } from "./errors.js";
import { awardablePathOf } from "./mutation-inputs.js";

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

const awardInput = (t: PothosSchemaTypes.InputFieldBuilder<any, "InputObject">) => ({
  awardableId: t.id({ required: true, description: "Global id of the issue, merge request or note." }),
  name: t.string({ required: true, description: "Emoji name (aliases such as +1 too)." }),
});

type AwardInput = { awardableId: string | number; name: string };

const write = <T>(ctx: Context, input: AwardInput, run: (path: Awaited<ReturnType<typeof awardablePathOf>>) => Promise<T>) =>
  withReasons(async () => run(await awardablePathOf(ctx, String(input.awardableId))));

builder.relayMutationField(
  "awardEmojiAdd",
  { inputFields: awardInput },
  { resolve: (_root, { input }, ctx) => payload(ctx, "awardEmoji", () => write(ctx, input as AwardInput, (path) => addAwardEmoji(ctx, path, input.name))) },
  {
    outputFields: (t) => ({
      awardEmoji: t.field({ type: AwardEmojiRef, nullable: true, resolve: (result) => result.awardEmoji }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);

builder.relayMutationField(
  "awardEmojiRemove",
  { inputFields: awardInput },
  {
    resolve: (_root, { input }, ctx) =>
      payload(ctx, "awardEmoji", () => write(ctx, input as AwardInput, async (path) => (await removeOwnAwardEmoji(ctx, path, input.name), null))),
  },
  {
    outputFields: (t) => ({
      awardEmoji: t.field({ type: AwardEmojiRef, nullable: true, description: "Always null: the reaction is gone.", resolve: () => null }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);

builder.relayMutationField(
  "awardEmojiToggle",
  { inputFields: awardInput },
  {
    resolve: async (_root, { input }, ctx) => {
      const result = await payload(ctx, "awardEmoji", () => write(ctx, input as AwardInput, (path) => toggleAwardEmoji(ctx, path, input.name)));
      return { ...result, toggledOn: result.errors.length === 0 && result.awardEmoji !== null };
    },
  },
  {
    outputFields: (t) => ({
      awardEmoji: t.field({ type: AwardEmojiRef, nullable: true, resolve: (result) => result.awardEmoji }),
      toggledOn: t.boolean({ description: "Whether the emoji is now awarded.", resolve: (result) => result.toggledOn }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);
