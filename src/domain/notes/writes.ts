// Writing notes (Notes::CreateService / UpdateService / DestroyService behind lib/api/notes.rb):
// who may comment and who may change a comment (NotePolicy), internal notes, GitLab's answers to
// invalid notes, and the `note` domain event published inside the transaction.
import { deleteNoteEvents, deleteReactionsOf } from "../shared/dependent-rows.js";
import { AccessLevel, canReadInternalNotes } from "../shared/access-levels.js";
import { requireAuthenticated } from "../shared/guards.js";
import { badRequest, forbidden, paramError, recordNotFound } from "../../errors.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { publish, type Tx } from "../shared/events.js";
import { rubyErrorHash } from "../shared/paths.js";
import { assertUnmodifiedSince } from "../shared/preconditions.js";
import { holdParent, lockForDeletion } from "../shared/row-locks.js";
import { passesLock, withIid, type Noteable, type NoteAccess, type NoteView } from "./queries.js";
import type { DiffNoteFields } from "./diff-note-rules.js";

const MAX_BODY = 1_000_000;

export interface NoteCreateInput {
  body: string;
  internal?: boolean | null;
  /** the name of `internal` before GitLab 15.3 */
  confidential?: boolean | null;
  created_at?: string | null;
  merge_request_diff_head_sha?: string | null;
}

export interface NoteUpdateInput {
  body?: string | null;
  /** accepted and ignored: a note's confidentiality can no longer be changed */
  confidential?: boolean | null;
}

/** `process_note_creation_result`: a note that did not save is `400 Bad request - Note {...}`. */
const invalidNote = (errors: Record<string, string[]>) => badRequest(`Note ${rubyErrorHash(errors)}`);

const EPOCH = Date.UTC(1970, 0, 1);

/** Note's validations, in the order the model declares them (the body first, then the dates). */
function noteErrors(body: string, createdAt?: Date): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (body.trim() === "") errors.note = ["can't be blank"];
  else if ([...body].length > MAX_BODY) errors.note = [`is too long (maximum is ${MAX_BODY} characters)`];
  if (createdAt && createdAt.getTime() < EPOCH) errors.created_at = ["The created date provided is too far in the past."];
  return errors;
}

/**
 * `create_note` on a noteable the caller can read: Guests and above, and any signed-in user of a
 * public or internal project; not in archived projects; a locked discussion for members only.
 */
function canCreateNote(noteable: Noteable): boolean {
  return !noteable.access.project.archived && passesLock(noteable);
}

/**
 * `admin_note`: the author or a Maintainer and above (administrators too), on a note they may
 * read; never a system note, nor in an archived project or a locked discussion for non-members.
 */
function canChangeNote(ctx: DomainContext, noteable: Noteable, note: NoteView): boolean {
  const { access } = noteable;
  if (note.system || access.project.archived || !passesLock(noteable)) return false;
  if (note.internal && !canReadInternalNotes(ctx, access)) return false;
  return isAdmin(ctx.actor) || access.level >= AccessLevel.maintainer || note.authorId === ctx.actor?.user.id;
}

/** `set_note_created_at`: Owners and administrators may backdate a note. */
function backdate(ctx: DomainContext, noteable: Noteable, createdAt: string | null | undefined): Date | undefined {
  if (!createdAt || !(isAdmin(ctx.actor) || noteable.access.level >= AccessLevel.owner)) return undefined;
  // a time as Rails casts one (date first); V8 alone would read "x-201448" as the year 201448
  const date = /^\s*\d{4}-\d{1,2}-\d{1,2}/.test(createdAt) ? new Date(createdAt) : new Date(NaN);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A new or changed note bumps its noteable's `updated_at` (Note#touch_noteable). */
async function touchNoteable(tx: Tx, noteable: Noteable, now: Date): Promise<void> {
  const data = { updatedAt: now };
  if (noteable.type === "Issue") await tx.issue.update({ where: { id: noteable.id }, data });
  else if (noteable.type === "MergeRequest") await tx.mergeRequest.update({ where: { id: noteable.id }, data });
  else await tx.snippet.update({ where: { id: noteable.id }, data });
}

/**
 * What a note of a thread carries besides a plain note's fields (discussion-writes.ts): its type,
 * the discussion it replies to with that discussion's internal flag and resolution, and the
 * individual note the reply turns into a thread (IndividualNoteDiscussion#convert_to_discussion!).
 */
export interface ThreadNote {
  type: "DiscussionNote" | "DiffNote";
  discussionId?: string;
  internal?: boolean;
  resolved?: boolean;
  converts?: number;
  /** a diff note's position (diff-positions.ts) */
  diff?: DiffNoteFields;
  /** the thread note's own validation errors (DiffNote's), reported after the note's */
  errors?: Record<string, string[]>;
}

/**
 * POST .../notes (Notes::CreateService) on a noteable the caller can read; a plain note unless
 * `thread` says otherwise. `internal` (or the older `confidential`) is kept only for callers who
 * may mark notes internal, and is refused on snippets, as Note's validation does.
 */
export async function createNote(ctx: DomainContext, noteable: Noteable, input: NoteCreateInput, thread?: ThreadNote): Promise<NoteView> {
  const actor = requireAuthenticated(ctx);
  if (!canCreateNote(noteable)) throw forbidden();
  const internal = thread?.internal ?? (!!(input.internal || input.confidential) && canReadInternalNotes(ctx, noteable.access));
  const createdAt = backdate(ctx, noteable, input.created_at);
  const errors = noteErrors(input.body, createdAt);
  if (internal && noteable.type === "Snippet") errors.confidential = ["can not be set for this resource"];
  Object.assign(errors, thread?.errors);
  if (Object.keys(errors).length) throw invalidNote(errors);
  const note = await ctx.db.$transaction(async (tx) => {
    if (!(await holdParent(tx, ctx, noteable.type, noteable.id, { touches: true }))) throw recordNotFound();
    // read once the noteable is ours: notes written at once bump its updated_at in commit order
    const now = ctx.now();
    if (thread?.converts) await tx.note.update({ where: { id: thread.converts }, data: { type: thread.type } });
    const created = await tx.note.create({
      data: {
        projectId: noteable.access.project.id,
        noteableType: noteable.type,
        noteableId: noteable.id,
        authorId: actor.user.id,
        body: input.body,
        internal,
        createdAt: createdAt ?? now,
        updatedAt: createdAt ?? now,
        ...(thread && { type: thread.type, discussionId: thread.discussionId }),
        ...thread?.diff,
        ...(thread?.resolved && { resolvedAt: now, resolvedById: actor.user.id }),
      },
    });
    await touchNoteable(tx, noteable, now);
    await publish(tx, ctx, "note", { action: "create", projectId: created.projectId, noteId: created.id, actorId: actor.user.id });
    return created;
  });
  return withIid(note, noteable);
}

/** The param rule of PUT .../notes/:note_id (`allow_blank: false`), which Grape checks before the endpoint looks anything up. */
export function checkNoteUpdate(input: NoteUpdateInput): void {
  if (input.body != null && input.body.trim() === "") throw paramError("body is empty");
}

/** PUT .../notes/:note_id on a note found for change: a new body; without one the note stays as it is. */
export async function updateNote(ctx: DomainContext, found: NoteAccess, input: NoteUpdateInput): Promise<NoteView> {
  requireAuthenticated(ctx);
  checkNoteUpdate(input);
  return changeNote(ctx, found, input.body);
}

/**
 * `update_note` on a note found for change: `admin_note` (403), then the note's validations (a
 * blank body is `Note {:note=>["can't be blank"]}` where no param rule caught it first, as on
 * discussions).
 */
export async function changeNote(ctx: DomainContext, found: NoteAccess, body: string | null | undefined): Promise<NoteView> {
  const actor = requireAuthenticated(ctx);
  const { note, noteable } = found;
  if (!canChangeNote(ctx, noteable, note)) throw forbidden();
  if (body == null || body === note.body) return note;
  const errors = noteErrors(body);
  if (Object.keys(errors).length) throw invalidNote(errors);
  const updated = await ctx.db.$transaction(async (tx) => {
    const now = ctx.now();
    const saved = await tx.note.update({ where: { id: note.id }, data: { body, updatedAt: now } });
    await touchNoteable(tx, noteable, now);
    await publish(tx, ctx, "note", { action: "update", projectId: saved.projectId, noteId: saved.id, actorId: actor.user.id });
    return saved;
  });
  return withIid(updated, noteable);
}

/** DELETE .../notes/:note_id on a note found for change: `destroy_conditionally!` (412 on a stale If-Unmodified-Since). */
export async function deleteNote(ctx: DomainContext, found: NoteAccess, unmodifiedSince?: string | null): Promise<boolean> {
  requireAuthenticated(ctx);
  const { note, noteable } = found;
  if (!canChangeNote(ctx, noteable, note)) throw forbidden();
  assertUnmodifiedSince(note.updatedAt, unmodifiedSince);
  await ctx.db.$transaction(async (tx) => {
    await lockForDeletion(tx, ctx, "Note", [note.id]);
    await deleteReactionsOf(tx, "Note", [note.id]);
    await deleteNoteEvents(tx, note.id);
    await tx.note.delete({ where: { id: note.id } });
  });
  return true;
}
