// createDiscussion (a thread on an issue, merge request or snippet) and discussionToggleResolve,
// over the REST discussion writes (discussion-writes.ts rules); replies are createNote with a
// discussionId (note-mutations.ts).
import { createDiscussion, resolveDiscussion } from "../../domain/notes/discussion-writes.js";
import { findDiscussionById } from "../../domain/notes/by-id.js";
import { DiscussionRef } from "./discussions.js";
import { discussionIdOf, noteableOf } from "../shared/mutation-inputs.js";
import { NoteRef } from "./types.js";
import { payloadMutation } from "../shared/payload-mutation.js";

payloadMutation("createDiscussion", {
  inputFields: (t) => ({
    noteableId: t.id({ required: true, description: "Global id of the issue, merge request or snippet." }),
    body: t.string({ required: true }),
  }),
  write: async (input, ctx) => {
    const discussion = await createDiscussion(ctx, await noteableOf(ctx, input.noteableId), { body: input.body });
    return discussion.notes[0]!;
  },
  returns: { field: "note", type: NoteRef, description: "The thread's first note." },
});

payloadMutation("discussionToggleResolve", {
  inputFields: (t) => ({
    id: t.id({ required: true, description: "Global id of the discussion." }),
    resolve: t.boolean({ required: true, description: "Resolve (true) or unresolve (false) the thread." }),
  }),
  write: async (input, ctx) => {
    return resolveDiscussion(ctx, await findDiscussionById(ctx, discussionIdOf(input.id)), input.resolve);
  },
  returns: { field: "discussion", type: DiscussionRef },
});
