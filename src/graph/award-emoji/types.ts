// Emoji reactions: the `Awardable` interface (issues, merge requests, notes) and AwardEmoji. A
// page of awardables reads the same page of their reactions in one statement (listAwardEmoji, as
// REST lists them); whoever could read the awardable reads its reactions.
import type { AwardEmoji } from "../../generated/prisma/client.js";
import type { AwardableType } from "../../domain/award-emoji/awardables.js";
import { listAwardEmoji } from "../../domain/award-emoji/queries.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { offsetConnection } from "../shared/connections.js";
import { userById, UserRef } from "../users/types.js";

export const AwardEmojiRef = builder.objectRef<AwardEmoji>("AwardEmoji");

builder.objectType(AwardEmojiRef, {
  description: "An emoji reaction.",
  fields: (t) => ({
    name: t.exposeString("name"),
    user: t.field({ type: UserRef, resolve: (award, _a, ctx) => userById(ctx, award.userId) }),
  }),
});

export const AwardEmojiConnection = countedConnection(AwardEmojiRef, "AwardEmoji");

/** Issues, merge requests and notes: their row's id, the concrete type telling which one. */
export const AwardableRef = builder.interfaceRef<{ id: number }>("Awardable");

AwardableRef.implement({
  description: "An object that can be awarded emoji.",
  fields: (t) => ({
    awardEmoji: t.connection(
      {
        type: AwardEmojiRef,
        description: "Emoji reactions, oldest first.",
        resolve: (awardable, args, ctx, info) =>
          offsetConnection(args, (page) => listAwardEmoji(ctx, { type: info.parentType.name as AwardableType, id: awardable.id }, page)),
      },
      AwardEmojiConnection,
    ),
  }),
});
