// createDiscussion (a thread on an issue, merge request or snippet) and discussionToggleResolve,
// over the REST discussion writes (discussion-writes.ts rules); replies are createNote with a
// discussionId (note-mutations.ts).
import { createDiscussion, resolveDiscussion } from "../domain/notes/discussion-writes.js";
import { discussionPathById } from "../domain/shared/record-paths.js";
import { notFound } from "../errors.js";
import type { Context } from "../context.js";
import { DiscussionRef } from "./discussions.js";
import { discussionIdOf, noteablePathOf } from "./mutation-inputs.js";
import { NoteRef } from "./notes.js";
import { payloadMutation } from "./payload-mutation.js";

/** The discussion a global id names, with its noteable, as the domain's discussion paths take them. */
async function discussionPathOf(ctx: Context, gid: string | number) {
  const id = discussionIdOf(gid);
  const path = await discussionPathById(ctx, id);
  if (!path) throw notFound("Discussion");
  return { id, ...path };
}

payloadMutation("createDiscussion", {
  inputFields: (t) => ({
    noteableId: t.id({ required: true, description: "Global id of the issue, merge request or snippet." }),
    body: t.string({ required: true }),
  }),
  write: async (input, ctx) => {
    const noteable = await noteablePathOf(ctx, String(input.noteableId));
    const discussion = await createDiscussion(ctx, noteable.type, noteable.projectId, noteable.iid, { body: input.body });
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
    const discussion = await discussionPathOf(ctx, input.id);
    return resolveDiscussion(ctx, discussion.noteableType, discussion.projectId, discussion.ref, discussion.id, input.resolve);
  },
  returns: { field: "discussion", type: DiscussionRef },
});
