// Notes (comments) on issues, merge requests and project snippets. (Interface first: findNoteable
// and findNote are what emoji reactions and webhooks build on; the notes area fills in the rest.)
import type { Note } from "../../generated/prisma/client.js";
import { notFound } from "../../errors.js";
import { AccessLevel, type ProjectAccess } from "../access.js";
import { isAdmin, type DomainContext } from "../context.js";
import { findIssue } from "../issues/issues.js";
import { findMergeRequest } from "../merge-requests/merge-requests.js";
import { findProjectSnippet } from "../snippets/snippets.js";

export type NoteableType = "Issue" | "MergeRequest" | "Snippet";

/** The parent of notes (and of emoji reactions): what the caller may read, with its project access. */
export interface Noteable {
  type: NoteableType;
  /** global id of the issue, merge request or snippet */
  id: number;
  /** iid for issues and merge requests, id for snippets (the :parent path param) */
  ref: number;
  access: ProjectAccess;
  /** a confidential issue: its notes are confidential notes */
  confidential: boolean;
}

/** The noteable behind `/projects/:id/{issues/:iid, merge_requests/:iid, snippets/:id}`, 404 if unreadable. */
export async function findNoteable(ctx: DomainContext, type: NoteableType, projectRef: string | number, ref: number): Promise<Noteable> {
  switch (type) {
    case "Issue": {
      const { issue, access } = await findIssue(ctx, projectRef, ref);
      return { type, id: issue.id, ref, access, confidential: issue.confidential };
    }
    case "MergeRequest": {
      const { mergeRequest, access } = await findMergeRequest(ctx, projectRef, ref);
      return { type, id: mergeRequest.id, ref, access, confidential: false };
    }
    case "Snippet": {
      const { snippet, access } = await findProjectSnippet(ctx, projectRef, ref);
      return { type, id: snippet.id, ref, access, confidential: false };
    }
  }
}

/** A note of the noteable the caller may read (internal notes: Reporters and above). */
export async function findNote(ctx: DomainContext, noteable: Noteable, noteId: number): Promise<Note> {
  const note = await ctx.db.note.findFirst({ where: { id: noteId, noteableType: noteable.type, noteableId: noteable.id } });
  if (!note || !canReadNote(ctx, noteable, note)) throw notFound("Note");
  return note;
}

export function canReadNote(ctx: DomainContext, noteable: Noteable, note: Note): boolean {
  if (!note.internal || isAdmin(ctx.actor)) return true;
  return noteable.access.level >= AccessLevel.reporter;
}
