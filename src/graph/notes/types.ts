// Comments: the `Noteable` interface (issues, merge requests and snippets) and Note. Noteable.notes
// is the notes list REST answers (listNotes), oldest first: a page of noteables loads the same page
// of the notes of all of them in one statement.
import type { Context } from "../../context.js";
import { listNotes } from "../../domain/notes/lists.js";
import { notesOfShownNoteable } from "../../domain/notes/loaders.js";
import { shownNoteable, type NoteableType, type NoteView, type ShownNoteableRow } from "../../domain/notes/queries.js";
import { findNoteById } from "../../domain/notes/by-id.js";
import { AwardableRef } from "../award-emoji/types.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { offsetConnection } from "../shared/connections.js";
import { orNull } from "../shared/errors.js";
import { registerNodeLoader } from "../shared/node.js";
import { userById, UserRef } from "../users/types.js";

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

/** Issues and merge requests (by iid) and project snippets. */
export const NoteableRef = builder.interfaceRef<ShownNoteableRow>("Noteable");

/**
 * The notes of a noteable the caller was shown (null for anonymous callers), oldest first; the
 * concrete GraphQL type tells the noteable's type.
 */
export function notesOfNoteable(ctx: Context, type: string, noteable: ShownNoteableRow): Promise<NoteView[] | null> {
  return orNull(async () => notesOfShownNoteable(ctx, await shownNoteable(ctx, type as NoteableType, noteable)));
}

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
          orNull(async () => {
            const shown = await shownNoteable(ctx, info.parentType.name as NoteableType, noteable);
            const filters = { activity_filter: args.filter, order_by: "created_at", sort: "asc" } as const;
            return offsetConnection(args, (page) => listNotes(ctx, shown, filters, page));
          }),
      },
      NoteConnection,
    ),
  }),
});

registerNodeLoader("Note", NoteRef, async (ctx, id) => (await findNoteById(ctx, id)).note);
