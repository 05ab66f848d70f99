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

/** The awardable the caller may read; GitLab's 404 texts otherwise. */
export async function findAwardable(ctx: DomainContext, path: AwardablePath): Promise<Awardable> {
  const noteable = await findReadableNoteable(ctx, path);
  if (path.noteId == null) return { type: noteable.type, id: noteable.id, noteable, note: null };
  const note = await findNoteRecord(ctx, noteable, path.noteId);
  if (!canReadNote(ctx, noteable, note)) throw awardEmojiNotFound();
  return { type: "Note", id: note.id, noteable, note };
}

/**
 * GitLab first finds the record in the project ("404 Not found" when it is not there), then
 * checks that the caller may read it ("404 Award Emoji Not Found"). The noteable lookup does both
 * at once, so which of the two it was is asked only when it fails.
 */
async function findReadableNoteable(ctx: DomainContext, path: AwardablePath): Promise<Noteable> {
  try {
    return await findNoteable(ctx, path.noteableType, path.project, path.ref);
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 404 || isProjectNotFound(error)) throw error;
    throw (await noteableExists(ctx, path)) ? awardEmojiNotFound() : recordNotFound();
  }
}

const isProjectNotFound = (error: AppError) => (error.body as { message?: unknown }).message === "404 Project Not Found";

async function noteableExists(ctx: DomainContext, path: AwardablePath): Promise<boolean> {
  const { project } = await findProject(ctx, path.project);
  const inProject = { projectId: project.id };
  switch (path.noteableType) {
    case "Issue":
      return (await ctx.db.issue.count({ where: { ...inProject, iid: path.ref } })) > 0;
    case "MergeRequest":
      return (await ctx.db.mergeRequest.count({ where: { ...inProject, iid: path.ref } })) > 0;
    case "Snippet":
      return (await ctx.db.snippet.count({ where: { ...inProject, id: path.ref } })) > 0;
  }
}

/**
 * GitLab's `award_emoji` ability on an awardable the caller can read: signed in (Guests and
 * anyone who sees a public or internal project hold it), not in an archived project, and a
 * locked discussion only for project members.
 */
export function mayAward(ctx: DomainContext, awardable: Awardable): boolean {
  return !!ctx.actor && !awardable.noteable.access.project.archived && passesLock(awardable.noteable);
}
