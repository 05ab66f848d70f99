// Discussions: GitLab's Entities::Discussion and the discussions endpoints of issues, merge requests
// and project snippets, each root field through one domain function. The notes in a discussion are
// the notes' own entity (notes.ts).
import { deleteNote } from "../domain/notes/writes.js";
import { findNoteable, getNote, type NoteableType } from "../domain/notes/queries.js";
import { getDiscussion, listDiscussionNotes, listDiscussions, type DiscussionView } from "../domain/notes/discussions.js";
import {
  createDiscussion, replyToDiscussion, resolveDiscussion, updateDiscussionNote, type DiscussionCreateInput, type DiscussionNoteUpdateInput,
} from "../domain/notes/discussion-writes.js";
import { builder } from "./builder.js";
import { NoteEntity } from "./notes.js";
import { pageArgs, rowsOf } from "./pagination.js";

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

/** The noteable kinds: root field stem, the parent's path param, and whether threads resolve. */
const KINDS = [
  { type: "Issue", stem: "issue", parent: "issue_iid", resolvable: true },
  { type: "MergeRequest", stem: "mergeRequest", parent: "merge_request_iid", resolvable: true },
  { type: "Snippet", stem: "snippet", parent: "snippet_id", resolvable: false },
] as const satisfies readonly { type: NoteableType; stem: string; parent: string; resolvable: boolean }[];

interface PathArgs {
  id: string;
  discussion_id: string;
  note_id: number;
}

const capitalized = (stem: string) => stem[0]!.toUpperCase() + stem.slice(1);
// lib/api/discussions.rb starts with `before { authenticate! }`
const signedIn = { access: "authenticated" } as const;

for (const { type, stem, parent, resolvable } of KINDS) {
  const Stem = capitalized(stem);
  const ref = (args: object) => (args as Record<string, number>)[parent]!;
  const path = <T>(args: object) => args as PathArgs & T;

  builder.queryFields((t) => {
    const discussionArgs = () => ({
      id: t.arg.id({ required: true }),
      [parent]: t.arg.int({ required: true }),
      discussion_id: t.arg.string({ required: true }),
    });
    return {
      [`${stem}Discussions`]: t.field({
        type: [DiscussionEntity],
        extensions: signedIn,
        args: { id: t.arg.id({ required: true }), [parent]: t.arg.int({ required: true }), ...pageArgs },
        resolve: async (_r, args, ctx) =>
          rowsOf(ctx, await listDiscussions(ctx, await findNoteable(ctx, type, path(args).id, ref(args)), args)),
      }),
      [`${stem}Discussion`]: t.field({
        type: DiscussionEntity,
        extensions: signedIn,
        args: discussionArgs(),
        resolve: (_r, args, ctx) => getDiscussion(ctx, type, path(args).id, ref(args), path(args).discussion_id),
      }),
      [`${stem}DiscussionNotes`]: t.field({
        type: [NoteEntity],
        extensions: signedIn,
        args: discussionArgs(),
        resolve: async (_r, args, ctx) =>
          listDiscussionNotes(ctx, await findNoteable(ctx, type, path(args).id, ref(args)), path(args).discussion_id),
      }),
      // as GitLab (NotesHelpers#get_note), the note is looked up among the noteable's notes
      [`${stem}DiscussionNote`]: t.field({
        type: NoteEntity,
        extensions: signedIn,
        args: { ...discussionArgs(), note_id: t.arg.int({ required: true }) },
        resolve: (_r, args, ctx) => getNote(ctx, type, path(args).id, ref(args), path(args).note_id),
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
        extensions: signedIn,
        args: {
          id: t.arg.id({ required: true }),
          [parent]: t.arg.int({ required: true }),
          body: t.arg.string({ required: true }),
          created_at: t.arg.string({ required: false }),
          ...(type === "MergeRequest" && { position: t.arg({ type: PositionInput, required: false }) }),
        },
        resolve: (_r, args, ctx) => createDiscussion(ctx, type, path(args).id, ref(args), path<DiscussionCreateInput>(args)),
      }),
      [`create${Stem}DiscussionNote`]: t.field({
        type: NoteEntity,
        extensions: signedIn,
        args: { ...discussionArgs(), body: t.arg.string({ required: true }), created_at: t.arg.string({ required: false }) },
        resolve: (_r, args, ctx) => replyToDiscussion(ctx, type, path(args).id, ref(args), path(args).discussion_id, path<DiscussionCreateInput>(args)),
      }),
      [`update${Stem}DiscussionNote`]: t.field({
        type: NoteEntity,
        extensions: signedIn,
        args: { ...discussionArgs(), note_id: t.arg.int({ required: true }), body: t.arg.string({ required: false }), resolved: t.arg.boolean({ required: false }) },
        resolve: (_r, args, ctx) => updateDiscussionNote(ctx, type, path(args).id, ref(args), path(args).note_id, path<DiscussionNoteUpdateInput>(args)),
      }),
      [`delete${Stem}DiscussionNote`]: t.boolean({
        extensions: signedIn,
        args: { ...discussionArgs(), note_id: t.arg.int({ required: true }) },
        resolve: (_r, args, ctx) =>
          deleteNote(ctx, type, path(args).id, ref(args), path(args).note_id, ctx.request.headers.get("if-unmodified-since")),
      }),
      ...(resolvable && {
        [`resolve${Stem}Discussion`]: t.field({
          type: DiscussionEntity,
          extensions: signedIn,
          args: { ...discussionArgs(), resolved: t.arg.boolean({ required: true }) },
          resolve: (_r, args, ctx) =>
            resolveDiscussion(ctx, type, path(args).id, ref(args), path(args).discussion_id, (args as { resolved: boolean }).resolved),
        }),
      }),
    };
  });
}
