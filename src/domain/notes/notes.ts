// Notes (comments) on issues, merge requests and project snippets (lib/api/notes.rb with
// Helpers::NotesHelpers and NotePolicy): finding the noteable and its notes, who may read, write
// and change them, and the read endpoints. findNoteable and findNote are what emoji reactions and
// webhooks build on. Writes: note-writes.ts.
import DataLoader from "dataloader";
import type { Note, Prisma } from "../../generated/prisma/client.js";
import { notFound, recordNotFound } from "../../errors.js";
import { AccessLevel, requireAuthenticated, type ProjectAccess } from "../access.js";
import { isAdmin, type DomainContext } from "../context.js";
import { findIssue } from "../issues/issues.js";
import { findMergeRequest } from "../merge-requests/merge-requests.js";
import { paginate, type Page, type PageArgs, type SortDirection } from "../pagination.js";
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
  /** an issue or merge request whose discussion is locked: only project members may comment */
  locked: boolean;
}

/** A note as rendered: `noteable_iid` comes from the noteable it was found through. */
export type NoteView = Note & { noteableIid: number | null };

/**
 * The noteable behind `/projects/:id/{issues/:iid, merge_requests/:iid, snippets/:id}`: the
 * finders' lookup, so one the caller may not read answers 404 "Not found".
 */
export async function findNoteable(ctx: DomainContext, type: NoteableType, projectRef: string | number, ref: number): Promise<Noteable> {
  switch (type) {
    case "Issue": {
      const { issue, access } = await findIssue(ctx, projectRef, ref);
      return { type, id: issue.id, ref, access, confidential: issue.confidential, locked: !!issue.discussionLocked };
    }
    case "MergeRequest": {
      const { mergeRequest, access } = await findMergeRequest(ctx, projectRef, ref);
      return { type, id: mergeRequest.id, ref, access, confidential: false, locked: !!mergeRequest.discussionLocked };
    }
    case "Snippet": {
      const { snippet, access } = await findProjectSnippet(ctx, projectRef, ref);
      return { type, id: snippet.id, ref, access, confidential: false, locked: false };
    }
  }
}

/** `noteable.notes.find(id)`: a note of another noteable (or none) is "404 Not found". */
export async function findNoteRecord(ctx: DomainContext, noteable: Noteable, noteId: number): Promise<NoteView> {
  const note = await ctx.db.note.findFirst({ where: { id: noteId, ...notesOf(noteable) } });
  if (!note) throw recordNotFound();
  return withIid(note, noteable);
}

/** A note of the noteable the caller may read: internal notes need Reporter ("404 Note Not Found"). */
export async function findNote(ctx: DomainContext, noteable: Noteable, noteId: number): Promise<NoteView> {
  const note = await findNoteRecord(ctx, noteable, noteId);
  if (!canReadNote(ctx, noteable, note)) throw notFound("Note");
  return note;
}

export function canReadNote(ctx: DomainContext, noteable: Noteable, note: Note): boolean {
  return !note.internal || canReadInternalNotes(ctx, noteable.access);
}

/** `read_internal_note` / `mark_note_as_internal`: Reporters and above, administrators. */
export function canReadInternalNotes(ctx: DomainContext, access: ProjectAccess): boolean {
  return isAdmin(ctx.actor) || access.level >= AccessLevel.reporter;
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

export interface NoteListArgs extends PageArgs {
  order_by?: NoteOrderBy | null;
  sort?: SortDirection | null;
  activity_filter?: NotesFilter | null;
}

const ORDER_COLUMN = { created_at: "createdAt", updated_at: "updatedAt" } as const;
const SYSTEM_FILTER = { all_notes: {}, only_comments: { system: false }, only_activity: { system: true } } as const;

/**
 * GET .../notes: signed-in callers only; newest first unless asked otherwise, ties by id.
 * Internal notes are left out of the query for callers below Reporter, so the page and its
 * counts hold only notes they may read.
 */
export async function listNotes(
  ctx: DomainContext,
  type: NoteableType,
  projectRef: string | number,
  ref: number,
  args: NoteListArgs,
): Promise<Page<NoteView>> {
  requireAuthenticated(ctx);
  const noteable = await findNoteable(ctx, type, projectRef, ref);
  const where: Prisma.NoteWhereInput = {
    ...notesOf(noteable),
    ...SYSTEM_FILTER[args.activity_filter ?? "all_notes"],
    ...(canReadInternalNotes(ctx, noteable.access) ? {} : { internal: false }),
  };
  const sort = args.sort ?? "desc";
  const orderBy = [{ [ORDER_COLUMN[args.order_by ?? "created_at"]]: sort }, { id: sort }];
  const page = await paginate(
    args,
    (cap) => ctx.db.note.count({ where, take: cap }),
    (skip, take) => ctx.db.note.findMany({ where, orderBy, skip, take }),
  );
  return { ...page, rows: page.rows.map((note) => withIid(note, noteable)) };
}

/** GET .../notes/:note_id */
export async function getNote(ctx: DomainContext, type: NoteableType, projectRef: string | number, ref: number, noteId: number): Promise<NoteView> {
  requireAuthenticated(ctx);
  const noteable = await findNoteable(ctx, type, projectRef, ref);
  return findNote(ctx, noteable, noteId);
}

const countLoaders = new WeakMap<DomainContext, Map<NoteableType, DataLoader<number, number>>>();

/** `user_notes_count` of an issue, merge request or snippet: its comments (non-system notes), one query per page of them. */
export function userNotesCount(ctx: DomainContext, type: NoteableType, noteableId: number): Promise<number> {
  const loaders = countLoaders.get(ctx) ?? new Map<NoteableType, DataLoader<number, number>>();
  countLoaders.set(ctx, loaders);
  let loader = loaders.get(type);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const rows = await ctx.db.note.groupBy({
        by: ["noteableId"],
        where: { noteableType: type, noteableId: { in: [...ids] }, system: false },
        _count: { _all: true },
      });
      const counts = new Map(rows.map((row) => [row.noteableId, row._count._all]));
      return ids.map((id) => counts.get(id) ?? 0);
    });
    loaders.set(type, loader);
  }
  return loader.load(noteableId);
}
