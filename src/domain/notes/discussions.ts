// Discussions (threads) of notes on issues, merge requests and project snippets (lib/api/discussions.rb,
// Discussion / IndividualNoteDiscussion and ResolvableNote / ResolvableDiscussion): every note
// belongs to one discussion by its 40-hex `discussionId`; a plain note (type null) is a discussion
// of its own, a thread's notes are "DiscussionNote"s. Reading rules are the notes' (notes.ts):
// the noteable must be readable and internal notes need Reporter. Writes: discussion-writes.ts.
import type { Note, Prisma } from "../../generated/prisma/client.js";
import { notFound } from "../../errors.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { paginateList, type Page, type PageArgs } from "../shared/pagination.js";
import { notesOfShownNoteable } from "./loaders.js";
import { findNoteable, readableNotesOf, withIid, type Noteable, type NoteableType, type NoteView } from "./queries.js";
import { isResolvableType } from "./noteable-kinds.js";

/** The STI type of thread notes (DiscussionNote); individual notes have none. */
export const THREAD_NOTE = "DiscussionNote";

/** Entities::Discussion: the id, whether it is an individual note, its notes oldest first. */
export interface DiscussionView {
  id: string;
  individual_note: boolean;
  notes: NoteView[];
}

/** A discussion with the noteable it was found on, which the caller may read. */
export interface DiscussionAccess {
  discussion: DiscussionView;
  noteable: Noteable;
}

/** The STI types of the notes of a thread: DiscussionNote, and DiffNote for a thread on a diff line. */
export const isThreadNote = (note: Pick<Note, "type">) => note.type === THREAD_NOTE || note.type === "DiffNote";

/** ResolvableNote#resolvable?: a user (non-system) note of a thread on a resolvable noteable (noteable-kinds.ts). */
export function isResolvable(note: Pick<Note, "type" | "system" | "noteableType">): boolean {
  return isThreadNote(note) && !note.system && isResolvableType(note.noteableType);
}

/** ResolvableDiscussion#resolved?: resolvable, and none of its resolvable notes waits to be resolved. */
export function isThreadResolved(notes: Note[]): boolean {
  const resolvable = notes.filter(isResolvable);
  return resolvable.length > 0 && resolvable.every((note) => note.resolvedAt != null);
}

/**
 * ResolvableDiscussion: resolvable when any note is; resolved_at and resolved_by are those of the
 * note resolved last, shown only while the whole thread is resolved.
 */
export function threadResolution(notes: Note[]): { resolvable: boolean; resolved: boolean; resolvedAt: Date | null; resolvedById: number | null } {
  const resolved = isThreadResolved(notes);
  const last = resolved
    ? notes.filter(isResolvable).reduce((a, b) => (b.resolvedAt!.getTime() >= a.resolvedAt!.getTime() ? b : a))
    : null;
  return { resolvable: notes.some(isResolvable), resolved, resolvedAt: last?.resolvedAt ?? null, resolvedById: last?.resolvedById ?? null };
}

/**
 * The discussions of a noteable's notes (oldest first): grouped by discussion id, ordered as
 * Noteable#discussion_ids_relation orders them, by their first note (MIN(created_at), then MIN(id)).
 */
export function discussionsOfNotes(notes: NoteView[]): DiscussionView[] {
  const byDiscussion = new Map<string, NoteView[]>();
  for (const note of notes) {
    const thread = byDiscussion.get(note.discussionId);
    if (thread) thread.push(note);
    else byDiscussion.set(note.discussionId, [note]);
  }
  const firstOf = (thread: NoteView[]) => ({ createdAt: thread[0]!.createdAt.getTime(), id: Math.min(...thread.map((note) => note.id)) });
  return [...byDiscussion]
    .map(([id, thread]) => ({ discussion: discussionOf(id, thread), first: firstOf(thread) }))
    .sort((a, b) => a.first.createdAt - b.first.createdAt || a.first.id - b.first.id)
    .map(({ discussion }) => discussion);
}

/** Note.fresh: oldest first, ties by id. */
const FRESH = [{ createdAt: "asc" }, { id: "asc" }] as const satisfies Prisma.NoteOrderByWithRelationInput[];

/** Discussion.build: the discussion's class comes from its first note (IndividualNoteDiscussion for a plain note). */
export function discussionOf(id: string, notes: NoteView[]): DiscussionView {
  return { id, individual_note: !notes[0] || !isThreadNote(notes[0]), notes };
}

/** One discussion's notes the caller may read, oldest first (none: no such discussion for them). */
export async function readableDiscussionNotes(ctx: DomainContext, noteable: Noteable, discussionId: string): Promise<NoteView[]> {
  const notes = await ctx.db.note.findMany({ where: { ...readableNotesOf(ctx, noteable), discussionId }, orderBy: [...FRESH] });
  return notes.map((note) => withIid(note, noteable));
}

/** GET .../discussions/:discussion_id (signed-in callers only): the noteable as findNoteable finds it, then findDiscussionIn. */
export async function findDiscussion(
  ctx: DomainContext,
  type: NoteableType,
  projectRef: string | number,
  ref: number,
  discussionId: string,
): Promise<DiscussionAccess> {
  requireAuthenticated(ctx);
  return findDiscussionIn(ctx, await findNoteable(ctx, type, projectRef, ref), discussionId);
}

/** A discussion of the noteable, or `404 Discussion Not Found` (also when none of its notes is readable). */
export async function findDiscussionIn(ctx: DomainContext, noteable: Noteable, discussionId: string): Promise<DiscussionAccess> {
  const notes = await readableDiscussionNotes(ctx, noteable, discussionId);
  if (!notes.length) throw notFound("Discussion");
  return { discussion: discussionOf(discussionId, notes), noteable };
}

/**
 * GET .../discussions of a noteable the caller may read (signed-in callers only), in the order of
 * their first notes. Internal notes are left out for callers below Reporter, so the page and its
 * counts hold only discussions they may read. Built from every readable note of the noteable (the
 * noteables of a request are read together: notesOfShownNoteable).
 */
export async function listDiscussions(ctx: DomainContext, noteable: Noteable, page: PageArgs): Promise<Page<DiscussionView>> {
  return paginateList(discussionsOfNotes(await notesOfShownNoteable(ctx, noteable)), page);
}

/** GET .../discussions/:discussion_id/notes of a noteable the caller may read: the discussion's notes, or `404 Notes Not Found`. */
export async function listDiscussionNotes(ctx: DomainContext, noteable: Noteable, discussionId: string): Promise<NoteView[]> {
  requireAuthenticated(ctx);
  const notes = await readableDiscussionNotes(ctx, noteable, discussionId);
  if (!notes.length) throw notFound("Notes");
  return notes;
}
