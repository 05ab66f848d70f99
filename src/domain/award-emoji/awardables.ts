// What an award_emoji path points at (an issue, merge request or project snippet, or one of its
// notes), with GitLab's answers when it is missing or hidden, and who may react to it.
import type { Note } from "../../generated/prisma/client.js";
import { notFound, recordNotFound } from "../../errors.js";
import { findProject } from "../shared/parents.js";
import type { DomainContext } from "../shared/context.js";
import { fitsIdColumn } from "../shared/record-ids.js";
import { canReadNote, findNoteIn, noteableIn, passesLock, type Noteable, type NoteableType } from "../notes/queries.js";
import { findNoteableById } from "../notes/by-id.js";
import type { AwardableType } from "../notes/noteable-kinds.js";

export type { AwardableType };

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
  const { awardable, readable } = await lookUpAwardable(ctx, path);
  if (!readable) throw awardEmojiNotFound();
  if (awardable.note && !canReadNote(ctx, awardable.noteable, awardable.note)) throw awardEmojiNotFound();
  return awardable;
}

/**
 * GitLab's `awardable` helper, which checks no more than that the caller may see the project
 * ("404 Project Not Found"): the record in it and the note in that record ("404 Not found").
 * DELETE uses it alone, so whoever may not delete a reaction gets 401 even where the awardable is
 * hidden from them; the other endpoints go on to check reading (findAwardable).
 */
export async function findAwardableRecord(ctx: DomainContext, path: AwardablePath): Promise<Awardable> {
  return (await lookUpAwardable(ctx, path)).awardable;
}

/** The awardable (or its note) and whether the caller may read the noteable. */
async function lookUpAwardable(ctx: DomainContext, path: AwardablePath): Promise<{ awardable: Awardable; readable: boolean }> {
  const access = await findProject(ctx, path.project);
  const found = await noteableIn(ctx, path.noteableType, access, path.ref);
  if (!found) throw recordNotFound();
  const { noteable, readable } = found;
  if (path.noteId == null) return { awardable: { type: noteable.type, id: noteable.id, noteable, note: null }, readable };
  const { note } = await findNoteIn(ctx, noteable, path.noteId, "change");
  return { awardable: { type: "Note", id: note.id, noteable, note }, readable };
}

/**
 * The issue, merge request, project snippet or note with this id, under findAwardable's rules
 * (what the caller may not read answers 404 as there, though not always with the same message).
 */
export async function findAwardableById(ctx: DomainContext, type: string, id: number): Promise<Awardable> {
  if (type !== "Note") {
    const noteable = await findNoteableById(ctx, type, id);
    return { type: noteable.type, id: noteable.id, noteable, note: null };
  }
  const note = fitsIdColumn(id) ? await ctx.db.note.findUnique({ where: { id } }) : null;
  if (!note) throw recordNotFound();
  const noteable = await findNoteableById(ctx, note.noteableType, note.noteableId);
  if (!canReadNote(ctx, noteable, note)) throw awardEmojiNotFound();
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
