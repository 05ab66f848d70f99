// createNote (or a reply with discussionId), updateNote and destroyNote: comments on issues, merge
// requests and snippets, by global id
// (notes/writes.ts rules).
import { replyToDiscussion } from "../../domain/notes/discussion-writes.js";
import { findDiscussionIn } from "../../domain/notes/discussions.js";
import { findNoteById } from "../../domain/notes/by-id.js";
import { createNote, deleteNote, updateNote } from "../../domain/notes/writes.js";
import type { Context } from "../../context.js";
import { discussionIdOf, noteableOf, recordIdOf } from "../shared/mutation-inputs.js";
import { NoteRef } from "./types.js";
import { payloadMutation } from "../shared/payload-mutation.js";

const note = { field: "note", type: NoteRef };

payloadMutation("createNote", {
  inputFields: (t) => ({
    noteableId: t.id({ required: true, description: "Global id of the issue, merge request or snippet." }),
    body: t.string({ required: true }),
    internal: t.boolean({ description: "Visible to Reporters and above only." }),
    discussionId: t.id({ description: "Global id of the discussion of the noteable this note replies to (it takes the thread's internal flag)." }),
  }),
  write: async (input, ctx) => {
    const noteable = await noteableOf(ctx, input.noteableId);
    if (input.discussionId != null) {
      const discussion = await findDiscussionIn(ctx, noteable, discussionIdOf(input.discussionId));
      return replyToDiscussion(ctx, discussion, { body: input.body });
    }
    return createNote(ctx, noteable, { body: input.body, internal: input.internal });
  },
  returns: note,
});

/** The note a global id names, found for a change (the write refuses what the caller may not change). */
const noteToChange = (ctx: Context, gid: string | number) => findNoteById(ctx, recordIdOf(gid, "Note"), "change");

payloadMutation("updateNote", {
  inputFields: (t) => ({
    id: t.id({ required: true, description: "Global id of the note." }),
    body: t.string({ description: "The new body; without one the note stays as it is." }),
  }),
  write: async (input, ctx) => {
    return updateNote(ctx, await noteToChange(ctx, input.id), { body: input.body });
  },
  returns: note,
});

payloadMutation("destroyNote", {
  inputFields: (t) => ({ id: t.id({ required: true, description: "Global id of the note." }) }),
  write: async (input, ctx) => {
    await deleteNote(ctx, await noteToChange(ctx, input.id));
    return null;
  },
  returns: { ...note, description: "Always null: the note is gone." },
});
