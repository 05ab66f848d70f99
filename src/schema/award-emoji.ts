// Emoji reactions: GitLab's Entities::AwardEmoji; list, get, create and delete on issues, merge
// requests and project snippets and on their notes (24 root fields, one per REST endpoint); and
// `award_emoji` on the awardable types, with GitLab's `upvotes`/`downvotes` on issues and MRs.
import type { Context } from "../context.js";
import { addAwardEmoji, removeAwardEmoji } from "../domain/award-emoji/writes.js";
import { findAwardEmoji, listAwardEmojiAt } from "../domain/award-emoji/queries.js";
import { findAwardable, type AwardablePath, type AwardableType } from "../domain/award-emoji/awardables.js";
import { awardEmojiLoader, awardableKey } from "../domain/award-emoji/loaders.js";
import { issuableFactsLoader, issuableKey, type IssuableType } from "../domain/shared/issuable-facts.js";
import { capitalStem, NOTEABLE_KINDS, noteablePath } from "../domain/notes/noteable-kinds.js";
import { builder } from "./builder.js";
import { IssueEntity } from "./issues.js";
import { MergeRequestDetail, MergeRequestEntity, MergeRequestWithoutSubscription } from "./merge-requests.js";
import { NoteEntity } from "./notes.js";
import { pageArgs, rowsOf } from "./pagination.js";
import { SnippetEntity } from "./snippets.js";
import { UserBasic } from "./users.js";
import { userLoader } from "../domain/shared/loaders.js";
import * as route from "../rest/route.js";

export const AwardEmojiEntity = builder.prismaObject("AwardEmoji", {
  name: "AwardEmoji",
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    user: t.field({ type: UserBasic, resolve: (award, _a, ctx) => userOf(ctx, award.userId) }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
    awardable_id: t.exposeInt("awardableId"),
    awardable_type: t.exposeString("awardableType"),
  }),
});

async function userOf(ctx: Context, id: number) {
  const user = await ctx.loaders.get(userLoader).load(id);
  if (!user) throw new Error(`user ${id} of an award emoji does not exist`);
  return user;
}

type PathArgs = { id: string | number; note_id?: number | null } & Record<string, unknown>;

const pathOf = (kind: (typeof NOTEABLE_KINDS)[number], args: PathArgs): AwardablePath => ({
  noteableType: kind.type,
  project: args.id,
  ref: args[kind.param] as number,
  noteId: args.note_id,
});

for (const kind of NOTEABLE_KINDS) {
  for (const onNote of [false, true]) {
    // the kind's own reactions, or its notes' (`issueAwardEmojis`, `createIssueNoteAwardEmoji`)
    const stem = `${capitalStem(kind)}${onNote ? "Note" : ""}`;
    const lowerStem = `${kind.stem}${onNote ? "Note" : ""}`;
    const awards = `/projects/:id/${noteablePath(kind)}${onNote ? "/notes/:note_id" : ""}/award_emoji`;
    // Grape's declaration order: project, awardable, note, then the endpoint's own params
    const pathArgs = builder.args((t) => ({
      id: t.id({ required: true }),
      [kind.param]: t.int({ required: true }),
      ...(onNote ? { note_id: t.int({ required: true }) } : {}),
    }));

    builder.queryFields((t) => ({
      [`${lowerStem}AwardEmojis`]: t.prismaField({
        extensions: { rest: route.get(awards) },
        type: [AwardEmojiEntity],
        args: { ...pathArgs, ...pageArgs },
        resolve: async (_q, _r, args, ctx) =>
          rowsOf(ctx, await listAwardEmojiAt(ctx, pathOf(kind, args as PathArgs), args)),
      }),
      [`${lowerStem}AwardEmoji`]: t.prismaField({
        extensions: { rest: route.get(`${awards}/:award_id`) },
        type: AwardEmojiEntity,
        args: { ...pathArgs, award_id: t.arg.int({ required: true }) },
        resolve: async (_q, _r, args, ctx) => (await findAwardEmoji(ctx, pathOf(kind, args as PathArgs), args.award_id as number)).award,
      }),
    }));

    builder.mutationFields((t) => ({
      [`create${stem}AwardEmoji`]: t.prismaField({
        extensions: { rest: route.post(awards) },
        type: AwardEmojiEntity,
        args: { ...pathArgs, name: t.arg.string({ required: true }) },
        resolve: async (_q, _r, args, ctx) => addAwardEmoji(ctx, await findAwardable(ctx, pathOf(kind, args as PathArgs)), args.name as string),
      }),
      [`delete${stem}AwardEmoji`]: t.boolean({
        extensions: { rest: route.del(`${awards}/:award_id`) },
        args: { ...pathArgs, award_id: t.arg.int({ required: true }) },
        resolve: async (_r, args, ctx) => {
          const found = await findAwardEmoji(ctx, pathOf(kind, args as PathArgs), args.award_id as number, "remove");
          return removeAwardEmoji(ctx, found, ctx.request.headers.get("if-unmodified-since"));
        },
      }),
    }));
  }
}

type Parent = { id: number };

/** GitLab's REST entities have no `award_emoji`: the REST facade leaves such fields out (adapter's restView). */
const graphqlOnly = { rest: false };

/** `award_emoji` of the parent (one query per page of parents, through the loader). */
const awardEmojiOf = (type: AwardableType) => (parent: Parent, _a: unknown, ctx: Context) =>
  ctx.loaders.get(awardEmojiLoader).load(awardableKey(type, parent.id));

/** GitLab's `upvotes` / `downvotes`: the parent's thumbsup and thumbsdown counts. */
const votesOf = (type: IssuableType, vote: "upvotes" | "downvotes") => async (parent: Parent, _a: unknown, ctx: Context) =>
  (await ctx.loaders.get(issuableFactsLoader).load(issuableKey(type, parent.id)))[vote];

builder.prismaObjectFields(IssueEntity, (t) => ({
  upvotes: t.int({ resolve: votesOf("Issue", "upvotes") }),
  downvotes: t.int({ resolve: votesOf("Issue", "downvotes") }),
  award_emoji: t.field({ type: [AwardEmojiEntity], extensions: graphqlOnly, resolve: awardEmojiOf("Issue") }),
}));

for (const ref of [MergeRequestEntity, MergeRequestDetail, MergeRequestWithoutSubscription]) {
  builder.prismaObjectFields(ref, (t) => ({
    upvotes: t.int({ resolve: votesOf("MergeRequest", "upvotes") }),
    downvotes: t.int({ resolve: votesOf("MergeRequest", "downvotes") }),
    award_emoji: t.field({ type: [AwardEmojiEntity], extensions: graphqlOnly, resolve: awardEmojiOf("MergeRequest") }),
  }));
}

builder.prismaObjectFields(SnippetEntity, (t) => ({
  award_emoji: t.field({ type: [AwardEmojiEntity], extensions: graphqlOnly, resolve: awardEmojiOf("Snippet") }),
}));

builder.prismaObjectFields(NoteEntity, (t) => ({
  award_emoji: t.field({ type: [AwardEmojiEntity], extensions: graphqlOnly, resolve: awardEmojiOf("Note") }),
}));
