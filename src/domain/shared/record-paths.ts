// Records by database id (GraphQL global ids) turned into the project/iid paths the domain's
// lookups take, so that those lookups apply their permission rules; null when there is no record.
import type { DomainContext } from "./context.js";
import type { NoteableType } from "../notes/queries.js";
import { fitsIdColumn } from "./record-ids.js";

export interface IssuablePath {
  projectId: number;
  iid: number;
}

export async function issuePathById(ctx: DomainContext, id: number): Promise<IssuablePath | null> {
  if (!fitsIdColumn(id)) return null;
  return ctx.db.issue.findUnique({ where: { id }, select: { projectId: true, iid: true } });
}

export async function mergeRequestPathById(ctx: DomainContext, id: number): Promise<IssuablePath | null> {
  if (!fitsIdColumn(id)) return null;
  return ctx.db.mergeRequest.findUnique({ where: { id }, select: { projectId: true, iid: true } });
}

export interface NotePath {
  noteableType: NoteableType;
  projectId: number;
  /** iid of an issue or merge request, id of a snippet */
  ref: number;
  noteId: number;
}

export async function notePathById(ctx: DomainContext, id: number): Promise<NotePath | null> {
  if (!fitsIdColumn(id)) return null;
  const note = await ctx.db.note.findUnique({ where: { id }, select: { noteableType: true, noteableId: true, projectId: true } });
  if (!note) return null;
  const noteableType = note.noteableType as NoteableType;
  const lookUp = noteableType === "Issue" ? issuePathById : noteableType === "MergeRequest" ? mergeRequestPathById : null;
  const ref = lookUp ? (await lookUp(ctx, note.noteableId))?.iid : note.noteableId;
  return ref == null ? null : { noteableType, projectId: note.projectId, ref, noteId: id };
}

/** The project of a project snippet (null for a missing or personal snippet). */
export async function snippetProjectById(ctx: DomainContext, id: number): Promise<number | null> {
  if (!fitsIdColumn(id)) return null;
  return (await ctx.db.snippet.findUnique({ where: { id }, select: { projectId: true } }))?.projectId ?? null;
}

export interface DiscussionPath {
  noteableType: NoteableType;
  projectId: number;
  /** iid of an issue or merge request, id of a snippet */
  ref: number;
}

/** The noteable of a discussion (GitLab's 40-hex discussion id), from the thread's first note. */
export async function discussionPathById(ctx: DomainContext, discussionId: string): Promise<DiscussionPath | null> {
  const note = await ctx.db.note.findFirst({ where: { discussionId }, orderBy: { id: "asc" }, select: { id: true } });
  const path = note && (await notePathById(ctx, note.id));
  return path && { noteableType: path.noteableType, projectId: path.projectId, ref: path.ref };
}
