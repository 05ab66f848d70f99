// createNote (or a reply with discussionId), updateNote and destroyNote: comments on issues, merge
// requests and snippets, by global id
// (notes/writes.ts rules).
import { replyToDiscussion } from "../domain/notes/discussion-writes.js";
import { createNote, deleteNote, updateNote } from "../domain/notes/writes.js";
import { notePathById } from "../domain/shared/record-paths.js";
import type { Context } from "../context.js";
import { discussionIdOf, noteablePathOf, ownedRecordOf } from "./mutation-inputs.js";
import { NoteRef } from "./notes.js";
import { payloadMutation } from "./payload-mutation.js";

const note = { field: "note", type: NoteRef };

payloadMutation("createNote", {
  inputFields: (t) => ({
    noteableId: t.id({ required: true, description: "Global id of the issue, merge request or snippet." }),
    body: t.string({ required: true }),
    internal: t.boolean({ description: "Visible to Reporters and above only." }),
    discussionId: t.id({ description: "Global id of the discussion of the noteable this note replies to (it takes the thread's internal flag)." }),
  }),
  write: async (input, ctx) => {
    const noteable = await noteablePathOf(ctx, String(input.noteableId));
    if (input.discussionId != null) {
      const discussionId = discussionIdOf(input.discussionId);
      return replyToDiscussion(ctx, noteable.type, noteable.projectId, noteable.iid, discussionId, { body: input.body });
    }
    return createNote(ctx, noteable.type, noteable.projectId, noteable.iid, { body: input.body, internal: input.internal });
  },
  returns: note,
});

/** The note a global id names, as the path the domain's note lookups take. */
const notePathOf = async (ctx: Context, gid: string) => (await ownedRecordOf(ctx, gid, "Note", notePathById)).owner;

payloadMutation("updateNote", {
  inputFields: (t) => ({
    id: t.id({ required: true, description: "Global id of the note." }),
    body: t.string({ description: "The new body; without one the note stays as it is." }),
  }),
  write: async (input, ctx) => {
    const path = await notePathOf(ctx, String(input.id));
    return updateNote(ctx, path.noteableType, path.projectId, path.ref, path.noteId, { body: input.body });
  },
  returns: note,
});

payloadMutation("destroyNote", {
  inputFields: (t) => ({ id: t.id({ required: true, description: "Global id of the note." }) }),
  write: async (input, ctx) => {
    const path = await notePathOf(ctx, String(input.id));
    await deleteNote(ctx, path.noteableType, path.projectId, path.ref, path.noteId);
    return null;
  },
  returns: { ...note, description: "Always null: the note is gone." },
});
