// Notes (comments) on issues, merge requests and project snippets (lib/api/notes.rb with
// Helpers::NotesHelpers and NotePolicy): finding the noteable and its notes by their REST paths,
// and who may read, write and change them. findNoteable and findNote are what emoji reactions
// and webhooks build on. By database id: notes/by-id.ts; the notes list: notes/lists.ts; writes:
// notes/writes.ts.
import type { Note, Prisma } from "../../generated/prisma/client.js";
import { mergeRequestByIid } from "../../db/hot-reads.js";
import { notFound, recordNotFound } from "../../errors.js";
import { AccessLevel, canReadInternalNotes } from "../shared/access-levels.js";
import { findProject, projectById, shownProjectAccess, type ProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { issueWithReadRule } from "../issues/queries.js";
import { canReadMergeRequests } from "../merge-requests/queries.js";
import { canReadSnippet } from "../snippets/queries.js";
import type { NoteableType } from "./noteable-kinds.js";

export type { NoteableType } from "./noteable-kinds.js";

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
  /** an issue or merge request whose discussion is locked: only project members may comment */
  locked: boolean;
}

/** A note as rendered: `noteable_iid` comes from the noteable it was found through. */
export type NoteView = Note & { noteableIid: number | null };

/** A note with the noteable it was found through, which the caller may read. */
export interface NoteAccess {
  note: NoteView;
  noteable: Noteable;
}

/**
 * What a note lookup checks besides the noteable: `read` (GET) hides an internal note from callers
 * below Reporter ("404 Note Not Found"); `change` (PUT, DELETE, resolving) finds it whatever it is,
 * and the write refuses it (403).
 */
export type NotePurpose = "read" | "change";

/**
 * The noteable behind `/projects/:id/{issues/:iid, merge_requests/:iid, snippets/:id}`: the
 * finders' lookup, so one the caller may not read answers 404 "Not found".
 */
export async function findNoteable(ctx: DomainContext, type: NoteableType, projectRef: string | number, ref: number): Promise<Noteable> {
  const found = await noteableIn(ctx, type, await findProject(ctx, projectRef), ref);
  if (!found?.readable) throw recordNotFound();
  return found.noteable;
}

/**
 * The noteable in a project the caller can see, readable or not (null: no such record), with
 * only the columns the read rules need: one statement in the usual case.
 */
export async function noteableIn(ctx: DomainContext, type: NoteableType, access: ProjectAccess, ref: number): Promise<{ noteable: Noteable; readable: boolean } | null> {
  const projectId = access.project.id;
  const noteable = (id: number, confidential: boolean, locked: boolean | null) => noteableOf(type, { id, ref, confidential, locked }, access);
  switch (type) {
    case "Issue": {
      const found = await issueWithReadRule(ctx, access, ref);
      return found && { noteable: noteable(found.issue.id, found.issue.confidential, found.issue.discussionLocked), readable: found.readable };
    }
    case "MergeRequest": {
      const mr = await mergeRequestByIid(ctx.db, projectId, ref);
      return mr && { noteable: noteable(mr.id, false, mr.discussionLocked), readable: canReadMergeRequests(ctx, access) };
    }
    case "Snippet": {
      const snippet = await ctx.db.snippet.findFirst({ where: { id: ref, projectId }, select: { id: true, visibility: true } });
      return snippet && { noteable: noteable(snippet.id, false, false), readable: canReadSnippet(ctx, access, snippet) };
    }
  }
}

/** The Noteable of a record found in `access`'s project: `ref` is an iid, or a snippet's id. */
export function noteableOf(
  type: NoteableType,
  record: { id: number; ref: number; confidential: boolean; locked: boolean | null },
  access: ProjectAccess,
): Noteable {
  return { type, id: record.id, ref: record.ref, access, confidential: record.confidential, locked: !!record.locked };
}

/** An issue, merge request or project snippet row the caller was shown (read through its domain lookup or list). */
export interface ShownNoteableRow {
  id: number;
  projectId: number;
  /** issues and merge requests */
  iid?: number;
  confidential?: boolean;
  discussionLocked?: boolean | null;
}

/**
 * The Noteable of a row the caller was shown, for the lists of its notes: its project's access
 * level only, the project's visibility and the row's read rule not checked again (the project
 * and its access are cached, so a page of rows costs no statement per row).
 */
export async function shownNoteable(ctx: DomainContext, type: NoteableType, row: ShownNoteableRow): Promise<Noteable> {
  const project = await projectById(ctx, row.projectId);
  if (!project) throw recordNotFound();
  const record = { id: row.id, ref: row.iid ?? row.id, confidential: row.confidential ?? false, locked: row.discussionLocked ?? false };
  return noteableOf(type, record, await shownProjectAccess(ctx, project));
}

/**
 * The note at `/projects/:id/{issues/:issue_iid, merge_requests/:merge_request_iid,
 * snippets/:snippet_id}/notes/:note_id` (signed-in callers only): the noteable as findNoteable
 * finds it, then the note among its notes (findNoteIn).
 */
export async function findNote(
  ctx: DomainContext,
  type: NoteableType,
  projectRef: string | number,
  ref: number,
  noteId: number,
  purpose: NotePurpose = "read",
): Promise<NoteAccess> {
  requireAuthenticated(ctx);
  return findNoteIn(ctx, await findNoteable(ctx, type, projectRef, ref), noteId, purpose);
}

/**
 * `noteable.notes.find(id)`: a note of another noteable (or none) is "404 Not found"; to read it,
 * an internal note needs Reporter ("404 Note Not Found").
 */
export async function findNoteIn(ctx: DomainContext, noteable: Noteable, noteId: number, purpose: NotePurpose = "read"): Promise<NoteAccess> {
  const note = await ctx.db.note.findFirst({ where: { id: noteId, ...notesOf(noteable) } });
  if (!note) throw recordNotFound();
  return readableFor(ctx, { note: withIid(note, noteable), noteable }, purpose);
}

/** The note, unless `purpose` is reading and the caller may not read it ("404 Note Not Found"). */
export function readableFor(ctx: DomainContext, found: NoteAccess, purpose: NotePurpose): NoteAccess {
  if (purpose === "read" && !canReadNote(ctx, found.noteable, found.note)) throw notFound("Note");
  return found;
}

export function canReadNote(ctx: DomainContext, noteable: Noteable, note: Note): boolean {
  return !note.internal || canReadInternalNotes(ctx, noteable.access);
}

/** A locked discussion takes comments (and their edits) from project members only. */
export function passesLock(noteable: Noteable): boolean {
  return !noteable.locked || noteable.access.level >= AccessLevel.guest;
}

export const notesOf = (noteable: Noteable) => ({ noteableType: noteable.type, noteableId: noteable.id });

export const withIid = (note: Note, noteable: Noteable): NoteView => ({
  ...note,
  noteableIid: noteable.type === "Snippet" ? null : noteable.ref,
});

export type NoteOrderBy = "created_at" | "updated_at";
/** UserPreference::NOTES_FILTERS: everything, comments only, or system notes only. */
export type NotesFilter = "all_notes" | "only_comments" | "only_activity";

/** The notes a caller may read: internal notes only for Reporters and above (Note#readable_by?). */
export function readableNotesOf(ctx: DomainContext, noteable: Noteable): Prisma.NoteWhereInput {
  return { ...notesOf(noteable), ...(canReadInternalNotes(ctx, noteable.access) ? {} : { internal: false }) };
}
