// Writing discussions (lib/api/discussions.rb with Helpers::NotesHelpers): starting a thread,
// replying to one (which turns an individual note into a thread where GitLab allows it),
// changing a thread note's body or resolution, and resolving a whole thread. Creating and editing
// notes go through the notes' own rules and events (notes/writes.ts): a reply is a note like any
// other, so note webhooks fire for it as for notes.
import { badRequest, forbidden, paramError } from "../../errors.js";
import { AccessLevel } from "../shared/access-levels.js";
import { requireAuthenticated } from "../shared/guards.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { changeNote, createNote } from "./writes.js";
import { canReadNote, passesLock, withIid, type Noteable, type NoteAccess, type NoteView } from "./queries.js";
import { discussionOf, isResolvable, isThreadNote, isThreadResolved, readableDiscussionNotes, THREAD_NOTE, type DiscussionAccess, type DiscussionView } from "./discussions.js";
import { isReplyableType } from "./noteable-kinds.js";
import { DIFF_NOTE, type PositionInput } from "./diff-positions.js";
import { placeDiffNote } from "./diff-note-rules.js";

export interface DiscussionCreateInput {
  body: string;
  created_at?: string | null;
  /** on merge requests: a line of the diff, which makes the thread a diff thread (DiffNote) */
  position?: PositionInput | null;
}

/**
 * POST .../discussions: a thread of one DiscussionNote. GitLab's endpoint takes only `body`,
 * `created_at` (Owners and administrators) and, on merge requests, a diff `position`; a thread
 * started here is never internal.
 */
export async function createDiscussion(ctx: DomainContext, noteable: Noteable, input: DiscussionCreateInput): Promise<DiscussionView> {
  requireAuthenticated(ctx);
  if (input.position && noteable.type === "MergeRequest") {
    const { fields, errors } = await placeDiffNote(ctx, noteable.id, input.position);
    const note = await createNote(ctx, noteable, input, { type: DIFF_NOTE, internal: false, diff: fields, errors });
    return discussionOf(note.discussionId, [note]);
  }
  const note = await createNote(ctx, noteable, input, { type: THREAD_NOTE, internal: false });
  return discussionOf(note.discussionId, [note]);
}

/**
 * POST .../discussions/:discussion_id/notes: a reply takes the thread's internal flag, and is
 * resolved at once when the thread is. Replying to an individual note converts it into a thread on
 * issues and merge requests; on snippets GitLab refuses ("Discussion can not be replied to.").
 */
export async function replyToDiscussion(ctx: DomainContext, found: DiscussionAccess, input: DiscussionCreateInput): Promise<NoteView> {
  requireAuthenticated(ctx);
  const { discussion, noteable } = found;
  const first = discussion.notes[0]!;
  const individual = !isThreadNote(first);
  if (individual && !isReplyableType(noteable.type)) throw badRequest("Discussion can not be replied to.");
  // Discussion#reply_attributes: a reply to a diff thread is a DiffNote on the same position
  const diff = first.type === DIFF_NOTE ? { position: first.position!, originalPosition: first.originalPosition!, changePosition: first.changePosition, lineCode: first.lineCode } : undefined;
  return createNote(ctx, noteable, input, {
    type: diff ? DIFF_NOTE : THREAD_NOTE,
    diff,
    discussionId: discussion.id,
    internal: first.internal,
    resolved: isThreadResolved(discussion.notes),
    converts: individual ? first.id : undefined,
  });
}

export interface DiscussionNoteUpdateInput {
  body?: string | null;
  resolved?: boolean | null;
}

/** The param rules of PUT .../discussions/:discussion_id/notes/:note_id, which Grape checks before the endpoint looks anything up. */
export function checkDiscussionNoteUpdate(input: DiscussionNoteUpdateInput): void {
  const given = (["body", "resolved"] as const).filter((key) => input[key] != null);
  if (given.length === 0) throw paramError("body, resolved are missing, exactly one parameter must be provided");
  if (given.length > 1) throw paramError("body, resolved are mutually exclusive");
}

/**
 * PUT .../discussions/:discussion_id/notes/:note_id on a note found for change: exactly one of
 * `body` (as PUT .../notes/:id) or `resolved` (this note alone). As GitLab, the note is found
 * among the noteable's notes, whatever its discussion.
 */
export async function updateDiscussionNote(ctx: DomainContext, found: NoteAccess, input: DiscussionNoteUpdateInput): Promise<NoteView> {
  requireAuthenticated(ctx);
  checkDiscussionNoteUpdate(input);
  if (input.resolved == null) return changeNote(ctx, found, input.body);
  return resolveNote(ctx, found, input.resolved);
}

/** NotesHelpers#resolve_note: `resolve_note` on the note (403), then `400 Note is not resolvable`. */
async function resolveNote(ctx: DomainContext, found: NoteAccess, resolved: boolean): Promise<NoteView> {
  const { note, noteable } = found;
  const noteableAuthor = await noteableAuthorId(ctx, noteable);
  const allowed = canReadNote(ctx, noteable, note) && mayResolve(ctx, noteable, noteableAuthor, note.authorId);
  if (!allowed) throw forbidden();
  if (!isResolvable(note)) throw badRequest("Note is not resolvable");
  if (resolved === (note.resolvedAt != null)) return note;
  const saved = await ctx.db.note.update({ where: { id: note.id }, data: resolution(ctx, resolved) });
  return withIid(saved, noteable);
}

/**
 * PUT .../discussions/:discussion_id with `resolved`: every resolvable note of the thread.
 * ResolvableDiscussion#can_resolve?: a resolvable thread, and the caller is the noteable's author
 * or may `resolve_note` in the project (Developer and above); otherwise 403. (For an unknown
 * discussion GitLab answers a 500, nil; findDiscussion's 404 says what happened.)
 */
export async function resolveDiscussion(ctx: DomainContext, found: DiscussionAccess, resolved: boolean): Promise<DiscussionView> {
  requireAuthenticated(ctx);
  const { discussion, noteable } = found;
  const resolvable = discussion.notes.filter(isResolvable);
  if (!resolvable.length || !mayResolve(ctx, noteable, await noteableAuthorId(ctx, noteable))) throw forbidden();
  const changing = resolvable.filter((note) => (note.resolvedAt != null) !== resolved).map((note) => note.id);
  if (changing.length) await ctx.db.note.updateMany({ where: { id: { in: changing } }, data: resolution(ctx, resolved) });
  return discussionOf(discussion.id, await readableDiscussionNotes(ctx, noteable, discussion.id));
}

/**
 * `resolve_note` (IssuablePolicy / NotePolicy): Developers and above, administrators, the
 * noteable's author, and for a single note its author too; never in an archived project nor, for
 * non-members, in a locked discussion.
 */
function mayResolve(ctx: DomainContext, noteable: Noteable, noteableAuthor: number | null, noteAuthor?: number): boolean {
  const userId = ctx.actor?.user.id;
  if (noteable.access.project.archived || !passesLock(noteable)) return false;
  if (isAdmin(ctx.actor) || noteable.access.level >= AccessLevel.developer) return true;
  return userId != null && (userId === noteableAuthor || userId === noteAuthor);
}

const resolution = (ctx: DomainContext, resolved: boolean) =>
  resolved ? { resolvedAt: ctx.now(), resolvedById: ctx.actor!.user.id } : { resolvedAt: null, resolvedById: null };

async function noteableAuthorId(ctx: DomainContext, noteable: Noteable): Promise<number | null> {
  const where = { where: { id: noteable.id }, select: { authorId: true } };
  if (noteable.type === "Issue") return (await ctx.db.issue.findUnique(where))?.authorId ?? null;
  if (noteable.type === "MergeRequest") return (await ctx.db.mergeRequest.findUnique(where))?.authorId ?? null;
  return (await ctx.db.snippet.findUnique(where))?.authorId ?? null;
}
