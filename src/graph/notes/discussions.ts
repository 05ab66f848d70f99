// Threads: `discussions` on every Noteable (issues, merge requests, snippets), the Discussion type
// and Note.discussion, read as the discussions API reads them (listDiscussions).
import { shownNoteable, type NoteableType } from "../../domain/notes/queries.js";
import { discussionsOfNotes, listDiscussions, threadResolution, type DiscussionView } from "../../domain/notes/discussions.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { arrayConnection, offsetConnection } from "../shared/connections.js";
import { NoteableRef, NoteConnection, notesOfNoteable, NoteRef } from "./types.js";
import { orNull } from "../shared/errors.js";
import { UserRef } from "../users/types.js";
import { userLoader } from "../../domain/shared/loaders.js";

export const DiscussionRef = builder.objectRef<DiscussionView>("Discussion");

/** GitLab's DiscussionID: the 40-hex discussion id in a global id. */
const discussionGid = (id: string) => `gid://forgeline/Discussion/${id}`;

builder.objectType(DiscussionRef, {
  description: "A thread of notes, or a single note that is not part of one.",
  fields: (t) => ({
    id: t.id({ resolve: (discussion) => discussionGid(discussion.id) }),
    replyId: t.id({ description: "The id to reply to (the discussion's own).", resolve: (discussion) => discussionGid(discussion.id) }),
    individualNote: t.exposeBoolean("individual_note", { description: "A single note, not a thread." }),
    createdAt: t.field({ type: "Time", resolve: (discussion) => discussion.notes[0]!.createdAt }),
    notes: t.connection({ type: NoteRef, description: "The notes, oldest first.", resolve: (discussion, args) => arrayConnection(args, discussion.notes) }, NoteConnection),
    resolvable: t.boolean({ resolve: (discussion) => threadResolution(discussion.notes).resolvable }),
    resolved: t.boolean({ resolve: (discussion) => threadResolution(discussion.notes).resolved }),
    resolvedAt: t.field({ type: "Time", nullable: true, resolve: (discussion) => threadResolution(discussion.notes).resolvedAt }),
    resolvedBy: t.field({
      type: UserRef,
      nullable: true,
      resolve: (discussion, _a, ctx) => {
        const { resolvedById } = threadResolution(discussion.notes);
        return resolvedById == null ? null : ctx.loaders.get(userLoader).load(resolvedById);
      },
    }),
  }),
});

export const DiscussionConnection = countedConnection(DiscussionRef, "Discussion");

builder.interfaceFields(NoteableRef, (t) => ({
  discussions: t.connection(
    {
      type: DiscussionRef,
      nullable: true,
      description: "Discussions in the order of their first notes; null for anonymous callers (as the discussions API).",
      resolve: (noteable, args, ctx, info) =>
        orNull(async () => {
          const shown = await shownNoteable(ctx, info.parentType.name as NoteableType, noteable);
          return offsetConnection(args, (page) => listDiscussions(ctx, shown, page));
        }),
    },
    DiscussionConnection,
  ),
}));

builder.objectFields(NoteRef, (t) => ({
  discussion: t.field({
    type: DiscussionRef,
    nullable: true,
    description: "The thread of the note.",
    resolve: async (note, _a, ctx) => {
      const notes = await notesOfNoteable(ctx, note.noteableType as NoteableType, {
        id: note.noteableId,
        projectId: note.projectId,
        iid: note.noteableIid ?? undefined,
      });
      return discussionsOfNotes(notes?.filter((other) => other.discussionId === note.discussionId) ?? [])[0] ?? null;
    },
  }),
}));
