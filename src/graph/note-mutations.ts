// createNote: a comment on an issue or merge request given by its global id (note-writes.ts rules).
import { createNote } from "../domain/notes/note-writes.js";
import { builder } from "./builder.js";
import { payload } from "./errors.js";
import { noteablePathOf } from "./mutation-inputs.js";
import { NoteRef } from "./notes.js";

builder.relayMutationField(
  "createNote",
  {
    inputFields: (t) => ({
      noteableId: t.id({ required: true, description: "Global id of the issue or merge request." }),
      body: t.string({ required: true }),
      internal: t.boolean({ description: "Visible to Reporters and above only." }),
    }),
  },
  {
    resolve: (_root, { input }, ctx) =>
      payload(ctx, "note", async () => {
        const noteable = await noteablePathOf(ctx, String(input.noteableId));
        return createNote(ctx, noteable.type, noteable.projectId, noteable.iid, { body: input.body, internal: input.internal });
      }),
  },
  {
    outputFields: (t) => ({
      note: t.field({ type: NoteRef, nullable: true, resolve: (result) => result.note }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);
