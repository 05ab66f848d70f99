// Discussions: GitLab's Entities::Discussion and the discussions endpoints of issues, merge requests
// and project snippets, each root field through one domain function. The notes in a discussion are
// the notes' own entity (notes.ts).
import type { Context } from "../context.js";
import { deleteNote } from "../domain/notes/writes.js";
import { findNote, findNoteable } from "../domain/notes/queries.js";
import { findDiscussion, listDiscussionNotes, listDiscussions, type DiscussionView } from "../domain/notes/discussions.js";
import {
  checkDiscussionNoteUpdate, createDiscussion, replyToDiscussion, resolveDiscussion, updateDiscussionNote,
  type DiscussionCreateInput, type DiscussionNoteUpdateInput,
} from "../domain/notes/discussion-writes.js";
import { capitalStem, NOTEABLE_KINDS, noteablePath } from "../domain/notes/noteable-kinds.js";
import { builder } from "./builder.js";
import { NoteEntity } from "./notes.js";
import { pageArgs, rowsOf } from "./pagination.js";
import * as route from "../rest/route.js";

const DiscussionEntity = builder.objectRef<DiscussionView>("Discussion").implement({
  fields: (t) => ({
    id: t.exposeString("id"),
    individual_note: t.exposeBoolean("individual_note"),
    notes: t.field({ type: [NoteEntity], resolve: (discussion) => discussion.notes }),
  }),
});

const PositionType = builder.enumType("DiffPositionType", { values: ["text", "image"] as const });

/** The `position` hash a thread on a merge request's diff starts from (lib/api/discussions.rb). */
const PositionInput = builder.inputType("DiffPositionInput", {
  fields: (t) => ({
    base_sha: t.string({ required: true }),
    start_sha: t.string({ required: true }),
    head_sha: t.string({ required: true }),
    position_type: t.field({ type: PositionType, required: true }),
    new_path: t.string({ required: false }),
    new_line: t.int({ required: false }),
    old_path: t.string({ required: false }),
    old_line: t.int({ required: false }),
    width: t.int({ required: false }),
    height: t.int({ required: false }),
    x: t.int({ required: false }),
    y: t.int({ required: false }),
  }),
});

interface PathArgs {
  id: string;
  discussion_id: string;
  note_id: number;
}

// lib/api/discussions.rb starts with `before { authenticate! }`
const signedIn = { access: "authenticated" } as const;

for (const kind of NOTEABLE_KINDS) {
  const { type, stem, param: parent, resolvable } = kind;
  const Stem = capitalStem(kind);
  const discussions = `/projects/:id/${noteablePath(kind)}/discussions`;
  const ref = (args: object) => (args as Record<string, number>)[parent]!;
  const path = <T>(args: object) => args as PathArgs & T;
  const noteableOf = (args: object, ctx: Context) => findNoteable(ctx, type, path(args).id, ref(args));
  const discussionOf = (args: object, ctx: Context) => findDiscussion(ctx, type, path(args).id, ref(args), path(args).discussion_id);
  const noteOf = (args: object, ctx: Context, purpose?: "change") => findNote(ctx, type, path(args).id, ref(args), path(args).note_id, purpose);

  builder.queryFields((t) => {
    const discussionArgs = () => ({
      id: t.arg.id({ required: true }),
      [parent]: t.arg.int({ required: true }),
      discussion_id: t.arg.string({ required: true }),
    });
    return {
      [`${stem}Discussions`]: t.field({
        type: [DiscussionEntity],
        extensions: { rest: route.get(discussions), ...signedIn },
        args: { id: t.arg.id({ required: true }), [parent]: t.arg.int({ required: true }), ...pageArgs },
        resolve: async (_r, args, ctx) =>
          rowsOf(ctx, await listDiscussions(ctx, await noteableOf(args, ctx), args)),
      }),
      [`${stem}Discussion`]: t.field({
        type: DiscussionEntity,
        extensions: { rest: route.get(`${discussions}/:discussion_id`), ...signedIn },
        args: discussionArgs(),
        resolve: async (_r, args, ctx) => (await discussionOf(args, ctx)).discussion,
      }),
      [`${stem}DiscussionNotes`]: t.field({
        type: [NoteEntity],
        extensions: { rest: route.get(`${discussions}/:discussion_id/notes`), ...signedIn },
        args: discussionArgs(),
        resolve: async (_r, args, ctx) =>
          listDiscussionNotes(ctx, await noteableOf(args, ctx), path(args).discussion_id),
      }),
      // as GitLab (NotesHelpers#get_note), the note is looked up among the noteable's notes
      [`${stem}DiscussionNote`]: t.field({
        type: NoteEntity,
        extensions: { rest: route.get(`${discussions}/:discussion_id/notes/:note_id`), ...signedIn },
        args: { ...discussionArgs(), note_id: t.arg.int({ required: true }) },
        resolve: async (_r, args, ctx) => (await noteOf(args, ctx)).note,
      }),
    };
  });

  builder.mutationFields((t) => {
    const discussionArgs = () => ({
      id: t.arg.id({ required: true }),
      [parent]: t.arg.int({ required: true }),
      discussion_id: t.arg.string({ required: true }),
    });
    return {
      [`create${Stem}Discussion`]: t.field({
        type: DiscussionEntity,
        extensions: { rest: route.post(discussions), ...signedIn },
        args: {
          id: t.arg.id({ required: true }),
          [parent]: t.arg.int({ required: true }),
          body: t.arg.string({ required: true }),
          created_at: t.arg.string({ required: false }),
          ...(type === "MergeRequest" && { position: t.arg({ type: PositionInput, required: false }) }),
        },
        resolve: async (_r, args, ctx) => createDiscussion(ctx, await noteableOf(args, ctx), path<DiscussionCreateInput>(args)),
      }),
      [`create${Stem}DiscussionNote`]: t.field({
        type: NoteEntity,
        extensions: { rest: route.post(`${discussions}/:discussion_id/notes`), ...signedIn },
        args: { ...discussionArgs(), body: t.arg.string({ required: true }), created_at: t.arg.string({ required: false }) },
        resolve: async (_r, args, ctx) => replyToDiscussion(ctx, await discussionOf(args, ctx), path<DiscussionCreateInput>(args)),
      }),
      [`update${Stem}DiscussionNote`]: t.field({
        type: NoteEntity,
        extensions: { rest: route.put(`${discussions}/:discussion_id/notes/:note_id`), ...signedIn },
        args: { ...discussionArgs(), note_id: t.arg.int({ required: true }), body: t.arg.string({ required: false }), resolved: t.arg.boolean({ required: false }) },
        resolve: async (_r, args, ctx) => {
          // Grape checks the params before the endpoint looks anything up
          checkDiscussionNoteUpdate(path<DiscussionNoteUpdateInput>(args));
          return updateDiscussionNote(ctx, await noteOf(args, ctx, "change"), path<DiscussionNoteUpdateInput>(args));
        },
      }),
      [`delete${Stem}DiscussionNote`]: t.boolean({
        extensions: { rest: route.del(`${discussions}/:discussion_id/notes/:note_id`), ...signedIn },
        args: { ...discussionArgs(), note_id: t.arg.int({ required: true }) },
        resolve: async (_r, args, ctx) => deleteNote(ctx, await noteOf(args, ctx, "change"), ctx.request.headers.get("if-unmodified-since")),
      }),
      ...(resolvable && {
        [`resolve${Stem}Discussion`]: t.field({
          type: DiscussionEntity,
          extensions: { rest: route.put(`${discussions}/:discussion_id`), ...signedIn },
          args: { ...discussionArgs(), resolved: t.arg.boolean({ required: true }) },
          resolve: async (_r, args, ctx) => resolveDiscussion(ctx, await discussionOf(args, ctx), (args as { resolved: boolean }).resolved),
        }),
      }),
    };
  });
}
