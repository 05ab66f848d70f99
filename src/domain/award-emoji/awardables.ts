// What an award_emoji path points at (an issue, merge request or project snippet, or one of its
// notes), with GitLab's answers when it is missing or hidden, and who may react to it.
import type { Note } from "../../generated/prisma/client.js";
import { AppError, notFound, recordNotFound } from "../../errors.js";
import { findProject } from "../access.js";
import type { DomainContext } from "../context.js";
import { canReadNote, findNoteable, findNoteRecord, passesLock, type Noteable, type NoteableType } from "../notes/notes.js";

export type AwardableType = NoteableType | "Note";

/** `/projects/:id/{issues/:issue_iid, merge_requests/:merge_request_iid, snippets/:snippet_id}[/notes/:note_id]` */
export interface AwardablePath {
  noteableType: NoteableType;
  /** the project's `:id` (numeric id or full path) */
  project: string | number;
  /** iid of an issue or merge request, id of a snippet */
  ref: number;
  noteId?: number | null;
}

export interface Awardable {
  type: AwardableType;
  id: number;
  /** the awardable itself, or the parent of the awarded note */
  noteable: Noteable;
  note: Note | null;
}

export const awardEmojiNotFound = (detail?: string) => notFound(detail ? `Award Emoji ${detail}` : "Award Emoji");

/**
 * The awardable the caller may read, in GitLab's order: the record is looked up first ("404 Not
 * found" when it or its note is not there, see findAwardableRecord), then the caller must be able
 * to read it ("404 Award Emoji Not Found").
 */
export async function findAwardable(ctx: DomainContext, path: AwardablePath): Promise<Awardable> {
  const { note } = await findAwardableRecord(ctx, path);
  const noteable = await findReadableNoteable(ctx, path);
  if (!note) return { type: noteable.type, id: noteable.id, noteable, note: null };
  if (!canReadNote(ctx, noteable, note)) throw awardEmojiNotFound();
  return { type: "Note", id: note.id, noteable, note };
}

/** The noteable through its area's finder, which answers 404 when the caller may not read it. */
async function findReadableNoteable(ctx: DomainContext, path: AwardablePath): Promise<Noteable> {
  try {
    return await findNoteable(ctx, path.noteableType, path.project, path.ref);
  } catch (error) {
    // the record exists (findAwardableRecord), so a 404 here means it is hidden from the caller
    if (error instanceof AppError && error.status === 404) throw awardEmojiNotFound();
    throw error;
  }
}

interface NoteableRecord {
  id: number;
  confidential?: boolean;
  discussionLocked?: boolean | null;
}

/** The issue or merge request (by iid) or project snippet (by id) in the project, readable or not. */
function noteableRecord(ctx: DomainContext, projectId: number, path: AwardablePath): Promise<NoteableRecord | null> {
  switch (path.noteableType) {
    case "Issue":
      return ctx.db.issue.findFirst({ where: { projectId, iid: path.ref }, select: { id: true, confidential: true, discussionLocked: true } });
    case "MergeRequest":
      return ctx.db.mergeRequest.findFirst({ where: { projectId, iid: path.ref }, select: { id: true, discussionLocked: true } });
    case "Snippet":
      return ctx.db.snippet.findFirst({ where: { projectId, id: path.ref }, select: { id: true } });
  }
}

/**
 * GitLab's `awardable` helper, which checks no more than that the caller may see the project
 * ("404 Project Not Found"): the record in it and the note in that record ("404 Not found").
 * DELETE uses it alone, so whoever may not delete a reaction gets 401 even where the awardable is
 * hidden from them; the other endpoints go on to check reading (findAwardable).
 */
export async function findAwardableRecord(ctx: DomainContext, path: AwardablePath): Promise<Awardable> {
  const access = await findProject(ctx, path.project);
  const record = await noteableRecord(ctx, access.project.id, path);
  if (!record) throw recordNotFound();
  const noteable: Noteable = {
    type: path.noteableType,
    id: record.id,
    ref: path.ref,
    access,
    confidential: !!record.confidential,
    locked: !!record.discussionLocked,
  };
  if (path.noteId == null) return { type: noteable.type, id: noteable.id, noteable, note: null };
  const note = await findNoteRecord(ctx, noteable, path.noteId);
  return { type: "Note", id: note.id, noteable, note };
}

/**
 * GitLab's `award_emoji` ability on an awardable the caller can read: signed in (Guests and
 * anyone who sees a public or internal project hold it), not in an archived project, and a
 * locked discussion only for project members.
 */
export function mayAward(ctx: DomainContext, awardable: Awardable): boolean {
  return !!ctx.actor && !awardable.noteable.access.project.archived && passesLock(awardable.noteable);
}
