// Noteables, notes and discussions by database id (what the graph's global ids name), found under
// the same rules as by their REST paths (queries.ts, discussions.ts): one lookup of the record,
// then its read rule. What the caller may not read is refused with a 404 or 403, as by its path.
import { recordNotFound, notFound } from "../../errors.js";
import { findProject } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { fitsIdColumn } from "../shared/record-ids.js";
import { findIssueById } from "../issues/queries.js";
import { findMergeRequestById } from "../merge-requests/queries.js";
import { canReadSnippet } from "../snippets/queries.js";
import { findDiscussionIn, type DiscussionAccess } from "./discussions.js";
import { isNoteableType, type NoteableType } from "./noteable-kinds.js";
import { noteableOf, readableFor, withIid, type Noteable, type NoteAccess, type NotePurpose } from "./queries.js";

/** A project snippet as a noteable: the notes' read rule of a snippet (canReadSnippet), a miss "404 Not found". */
async function findSnippetNoteableById(ctx: DomainContext, id: number): Promise<Noteable> {
  const snippet = fitsIdColumn(id) ? await ctx.db.snippet.findUnique({ where: { id }, select: { id: true, projectId: true, visibility: true } }) : null;
  if (snippet?.projectId == null) throw recordNotFound();
  const access = await findProject(ctx, snippet.projectId);
  if (!canReadSnippet(ctx, access, snippet)) throw recordNotFound();
  return noteableOf("Snippet", { id, ref: id, confidential: false, locked: false }, access);
}

const FIND_BY_ID: Record<NoteableType, (ctx: DomainContext, id: number) => Promise<Noteable>> = {
  Issue: async (ctx, id) => {
    const { issue, access } = await findIssueById(ctx, id);
    return noteableOf("Issue", { id, ref: issue.iid, confidential: issue.confidential, locked: issue.discussionLocked }, access);
  },
  MergeRequest: async (ctx, id) => {
    const { mergeRequest, access } = await findMergeRequestById(ctx, id);
    return noteableOf("MergeRequest", { id, ref: mergeRequest.iid, confidential: false, locked: mergeRequest.discussionLocked }, access);
  },
  Snippet: findSnippetNoteableById,
};

/** The issue, merge request or project snippet with this id, as findNoteable finds it by its path; another type is "404 Not found". */
export async function findNoteableById(ctx: DomainContext, type: string, id: number): Promise<Noteable> {
  if (!isNoteableType(type)) throw recordNotFound();
  return FIND_BY_ID[type](ctx, id);
}

/** The note with this id on the noteable it belongs to, as findNote finds it by its path. */
export async function findNoteById(ctx: DomainContext, id: number, purpose: NotePurpose = "read"): Promise<NoteAccess> {
  requireAuthenticated(ctx);
  const note = fitsIdColumn(id) ? await ctx.db.note.findUnique({ where: { id } }) : null;
  if (!note) throw recordNotFound();
  const noteable = await findNoteableById(ctx, note.noteableType, note.noteableId);
  return readableFor(ctx, { note: withIid(note, noteable), noteable }, purpose);
}

/** The discussion (GitLab's 40-hex id) on the noteable of its first note, as findDiscussion finds it by its path. */
export async function findDiscussionById(ctx: DomainContext, discussionId: string): Promise<DiscussionAccess> {
  requireAuthenticated(ctx);
  const first = await ctx.db.note.findFirst({ where: { discussionId }, orderBy: { id: "asc" }, select: { noteableType: true, noteableId: true } });
  if (!first) throw notFound("Discussion");
  return findDiscussionIn(ctx, await findNoteableById(ctx, first.noteableType, first.noteableId), discussionId);
}
