// Comments: the `Noteable` interface (issues and merge requests) and Note.
import type { NoteableType, NoteView } from "../domain/notes/notes.js";
import { getNote, listNotes } from "../domain/notes/notes.js";
import { notePathById } from "../domain/record-paths.js";
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

/** Issues and merge requests: what the domain's note lookups need. */
export const NoteableRef = builder.interfaceRef<{ id: number; projectId: number; iid: number }>("Noteable");

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
          orNull(() =>
            offsetConnection(args, (page) =>
              listNotes(ctx, info.parentType.name as NoteableType, noteable.projectId, noteable.iid, { sort: "asc", activity_filter: args.filter, ...page }))),
      },
      NoteConnection,
    ),
  }),
});

registerNodeLoader("Note", NoteRef, async (ctx, id) => {
  const path = await notePathById(ctx, id);
  return path && getNote(ctx, path.noteableType, path.projectId, path.ref, path.noteId);
});
