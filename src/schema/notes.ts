// Notes: GitLab's Entities::Note and the notes endpoints of issues, merge requests and project
// snippets (five root fields per noteable kind), each through one domain function.
import type { Context } from "../context.js";
import type { User } from "../generated/prisma/client.js";
import { checkNoteUpdate, createNote, deleteNote, updateNote, type NoteCreateInput, type NoteUpdateInput } from "../domain/notes/writes.js";
import { findNote, findNoteable, type NoteView } from "../domain/notes/queries.js";
import { capitalStem, NOTEABLE_KINDS, noteablePath } from "../domain/notes/noteable-kinds.js";
import { listNotes, type NoteFilters } from "../domain/notes/lists.js";
import { isResolvable } from "../domain/notes/discussions.js";
import { positionShown, type DiffPosition } from "../domain/notes/diff-positions.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf, SortDirectionEnum } from "./pagination.js";
import { UserBasic } from "./users.js";
import { userLoader } from "../domain/shared/loaders.js";
import * as route from "../rest/route.js";

const onlyIfResolvable = { restIf: "resolvable" };

/** Position#to_h: the diff (three shas), the file and the line (or an image's box). */
const DiffPositionEntity = builder.objectRef<DiffPosition>("DiffPosition").implement({
  fields: (t) => ({
    base_sha: t.exposeString("base_sha", { nullable: true }),
    start_sha: t.exposeString("start_sha", { nullable: true }),
    head_sha: t.exposeString("head_sha", { nullable: true }),
    old_path: t.exposeString("old_path", { nullable: true }),
    new_path: t.exposeString("new_path", { nullable: true }),
    position_type: t.exposeString("position_type"),
    old_line: t.int({ nullable: true, resolve: (p) => p.old_line ?? null }),
    new_line: t.int({ nullable: true, resolve: (p) => p.new_line ?? null }),
    line_range: t.field({ type: "JSON", nullable: true, resolve: () => null }),
    // an image position's box (ImageFormatter#to_h), left out of text positions
    ...Object.fromEntries((["width", "height", "x", "y"] as const).map((key) =>
      [key, t.int({ nullable: true, extensions: { restIf: key }, resolve: (p) => p[key] ?? null })])),
  }),
});

export const NoteEntity = builder.prismaObject("Note", {
  name: "Note",
  fields: (t) => ({
    id: t.exposeInt("id"),
    // DiscussionNote for thread notes (DiffNote for diff comments); plain comments have none
    type: t.exposeString("type", { nullable: true }),
    body: t.exposeString("body"),
    attachment: t.string({ nullable: true, resolve: () => null }),
    author: t.field({ type: UserBasic, resolve: async (note, _a, ctx) => (await ctx.loaders.get(userLoader).load(note.authorId)) as User }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
    system: t.exposeBoolean("system"),
    noteable_id: t.exposeInt("noteableId"),
    noteable_type: t.exposeString("noteableType"),
    // Entities::Note shows these for diff notes only (`if: note.is_a?(DiffNote)`): see rest/exposure.ts
    commit_id: t.string({ nullable: true, extensions: { restIf: "position" }, resolve: () => null }),
    position: t.field({ type: DiffPositionEntity, nullable: true, extensions: { restIf: "position" }, resolve: (note) => positionShown(note) }),
    project_id: t.exposeInt("projectId"),
    resolvable: t.boolean({ resolve: (note) => isResolvable(note) }),
    // Entities::Note exposes these only for resolvable notes (`if: resolvable?`): see rest/exposure.ts
    resolved: t.boolean({ extensions: onlyIfResolvable, resolve: (note) => isResolvable(note) && note.resolvedAt != null }),
    resolved_by: t.field({
      type: UserBasic,
      nullable: true,
      extensions: onlyIfResolvable,
      resolve: async (note, _a, ctx) => (note.resolvedById == null ? null : ((await ctx.loaders.get(userLoader).load(note.resolvedById)) as User | null)),
    }),
    resolved_at: t.expose("resolvedAt", { type: "DateTime", nullable: true, extensions: onlyIfResolvable }),
    confidential: t.exposeBoolean("internal"),
    internal: t.exposeBoolean("internal"),
    imported: t.boolean({ resolve: () => false }),
    imported_from: t.string({ resolve: () => "none" }),
    // every notes root field answers with the domain's NoteView, which knows the noteable it was found through
    noteable_iid: t.int({ nullable: true, resolve: (note) => (note as NoteView).noteableIid }),
    commands_changes: t.field({ type: "JSON", resolve: () => ({}) }),
  }),
});

const NoteOrderBy = builder.enumType("NoteOrderBy", { values: ["created_at", "updated_at"] as const });
const NotesFilter = builder.enumType("NotesFilter", { values: ["all_notes", "only_comments", "only_activity"] as const });

/** The args every notes field has; the parent's param name differs per kind (`ref` reads it). */
interface PathArgs {
  id: string;
  note_id: number;
}

// Every notes endpoint starts with `authenticate!` (a before filter, ahead of the params).
const signedIn = { access: "authenticated" } as const;

for (const kind of NOTEABLE_KINDS) {
  const { type, stem, param: parent } = kind;
  const Stem = capitalStem(kind);
  const notes = `/projects/:id/${noteablePath(kind)}/notes`;
  const ref = (args: object) => (args as Record<string, number>)[parent]!;
  const path = <T>(args: object) => args as PathArgs & T;
  const noteOf = (args: object, ctx: Context, purpose?: "change") =>
    findNote(ctx, type, path(args).id, ref(args), path(args).note_id, purpose);

  builder.queryFields((t) => ({
    [`${stem}Notes`]: t.field({
      type: [NoteEntity],
      extensions: { rest: route.get(notes), ...signedIn },
      args: {
        id: t.arg.id({ required: true }),
        [parent]: t.arg.int({ required: true }),
        order_by: t.arg({ type: NoteOrderBy, required: false }),
        sort: t.arg({ type: SortDirectionEnum, required: false }),
        activity_filter: t.arg({ type: NotesFilter, required: false }),
        ...pageArgs,
      },
      resolve: async (_r, args, ctx) =>
        rowsOf(ctx, await listNotes(ctx, await findNoteable(ctx, type, path(args).id, ref(args)), path<NoteFilters>(args), args)),
    }),
    [`${stem}Note`]: t.field({
      type: NoteEntity,
      extensions: { rest: route.get(`${notes}/:note_id`), ...signedIn },
      args: { id: t.arg.id({ required: true }), [parent]: t.arg.int({ required: true }), note_id: t.arg.int({ required: true }) },
      resolve: async (_r, args, ctx) => (await noteOf(args, ctx)).note,
    }),
  }));

  builder.mutationFields((t) => ({
    [`create${Stem}Note`]: t.field({
      type: NoteEntity,
      extensions: { rest: route.post(notes), ...signedIn },
      args: {
        id: t.arg.id({ required: true }),
        [parent]: t.arg.int({ required: true }),
        body: t.arg.string({ required: true }),
        confidential: t.arg.boolean({ required: false }),
        internal: t.arg.boolean({ required: false }),
        created_at: t.arg.string({ required: false }),
        merge_request_diff_head_sha: t.arg.string({ required: false }),
      },
      resolve: async (_r, args, ctx) => createNote(ctx, await findNoteable(ctx, type, path(args).id, ref(args)), path<NoteCreateInput>(args)),
    }),
    [`update${Stem}Note`]: t.field({
      type: NoteEntity,
      extensions: { rest: route.put(`${notes}/:note_id`), ...signedIn },
      args: {
        id: t.arg.id({ required: true }),
        [parent]: t.arg.int({ required: true }),
        note_id: t.arg.int({ required: true }),
        body: t.arg.string({ required: false }),
        confidential: t.arg.boolean({ required: false }),
      },
      resolve: async (_r, args, ctx) => {
        // Grape checks the params before the endpoint looks anything up
        checkNoteUpdate(path<NoteUpdateInput>(args));
        return updateNote(ctx, await noteOf(args, ctx, "change"), path<NoteUpdateInput>(args));
      },
    }),
    [`delete${Stem}Note`]: t.boolean({
      extensions: { rest: route.del(`${notes}/:note_id`), ...signedIn },
      args: { id: t.arg.id({ required: true }), [parent]: t.arg.int({ required: true }), note_id: t.arg.int({ required: true }) },
      resolve: async (_r, args, ctx) => deleteNote(ctx, await noteOf(args, ctx, "change"), ctx.request.headers.get("if-unmodified-since")),
    }),
  }));
}
