// Comments: the `Noteable` interface (issues, merge requests and snippets) and Note. A page of
// noteables loads the same page of the notes of all of them in one statement (ctx.loaders.notePages).
import type { Context } from "../context.js";
import { notePageOfShownNoteable, notesOfShownNoteable, type ShownNoteable } from "../domain/notes/loaders.js";
import type { NoteableType, NoteView } from "../domain/notes/queries.js";
import { getNote } from "../domain/notes/queries.js";
import { notePathById } from "../domain/shared/record-paths.js";
import { AwardableRef } from "./award-emoji.js";
import { builder } from "./builder.js";
import { countedConnection } from "./connection-types.js";
import { offsetConnection } from "./connections.js";
import { orNull } from "./errors.js";
import { registerNodeLoader } from "./node.js";
import { userById, UserRef } from "./users.js";

export const NoteRef = builder.objectRef<NoteView>("Note");

builder.node(NoteRef, {
  description: "A comment or a system note.",
  interfaces: [AwardableRef],
  id: { resolve: (note) => note.id },
  fields: (t) => ({
    body: t.exposeString("body"),
    system: t.exposeBoolean("system"),
    internal: t.exposeBoolean("internal"),
    author: t.field({ type: UserRef, resolve: (note, _a, ctx) => userById(ctx, note.authorId) }),
    discussionId: t.exposeString("discussionId", { description: "The thread the note belongs to (40 hex digits)." }),
    createdAt: t.expose("createdAt", { type: "Time" }),
    updatedAt: t.expose("updatedAt", { type: "Time" }),
  }),
});

export const NoteConnection = countedConnection(NoteRef, "Note");

/** Issues and merge requests (by iid) and project snippets: what the domain's note lookups need. */
export interface NoteableParent {
  id: number;
  projectId: number | null;
  iid?: number;
}

export const NoteableRef = builder.interfaceRef<NoteableParent>("Noteable");

/**
 * The notes of a noteable the caller was shown (null for anonymous callers), oldest first; the
 * concrete GraphQL type tells the noteable's type.
 */
export function notesOfNoteable(ctx: Context, type: string, noteable: NoteableParent): Promise<NoteView[] | null> {
  return orNull(() => notesOfShownNoteable(ctx, shown(type, noteable)));
}

const shown = (type: string, noteable: NoteableParent): ShownNoteable =>
  ({ type: type as NoteableType, id: noteable.id, projectId: noteable.projectId!, ref: noteable.iid ?? noteable.id });

const NotesFilterEnum = builder.enumType("NotesFilterType", {
  values: { ALL_NOTES: { value: "all_notes" }, ONLY_COMMENTS: { value: "only_comments" }, ONLY_ACTIVITY: { value: "only_activity" } } as const,
});

NoteableRef.implement({
  description: "An object that can have notes.",
  fields: (t) => ({
    notes: t.connection(
      {
        type: NoteRef,
        nullable: true,
        description: "Notes, oldest first; null for anonymous callers (the notes API wants a signed-in caller).",
        args: { filter: t.arg({ type: NotesFilterEnum, defaultValue: "all_notes" }) },
        resolve: (noteable, args, ctx, info) =>
          orNull(() => offsetConnection(args, (page) => notePageOfShownNoteable(ctx, shown(info.parentType.name, noteable), args.filter!, page))),
      },
      NoteConnection,
    ),
  }),
});

registerNodeLoader("Note", NoteRef, async (ctx, id) => {
  const path = await notePathById(ctx, id);
  return path && getNote(ctx, path.noteableType, path.projectId, path.ref, path.noteId);
});
