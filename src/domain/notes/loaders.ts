// The notes of many noteables in one statement, for pages of issues, merge requests and snippets
// on the public graph (the per-request loader ctx.loaders.notes): every note of each noteable,
// oldest first, internal ones only in the batches of callers who may read them.
import type { Note, Prisma } from "../../generated/prisma/client.js";
import type { Db } from "../../db/client.js";
import { requireAuthenticated, findProject } from "../shared/access.js";
import type { DomainContext } from "../shared/context.js";
import type { Loaders } from "../shared/loaders.js";
import { type NoteableType, type NoteView } from "./queries.js";
import { canReadInternalNotes } from "../shared/access.js";

/** `${noteable_type}:${noteable_id}:${internal notes included ? 1 : 0}`, e.g. "Issue:12:0" */
export type NotesKey = `${NoteableType}:${number}:${0 | 1}`;

const notesKey = (type: NoteableType, id: number, internal: boolean): NotesKey => `${type}:${id}:${internal ? 1 : 0}`;

function notesWhere(keys: readonly NotesKey[]): Prisma.NoteWhereInput {
  const groups = new Map<string, { noteableType: string; internal: boolean; ids: number[] }>();
  for (const key of keys) {
    const [type, id, internal] = key.split(":") as [string, string, string];
    const group = groups.get(`${type}:${internal}`) ?? { noteableType: type, internal: internal === "1", ids: [] };
    group.ids.push(Number(id));
    groups.set(`${type}:${internal}`, group);
  }
  return {
    OR: [...groups.values()].map((group) => ({
      noteableType: group.noteableType,
      noteableId: { in: group.ids },
      ...(group.internal ? {} : { internal: false }),
    })),
  };
}

export async function batchNotes(db: Db, keys: readonly NotesKey[]): Promise<Note[][]> {
  const rows = await db.note.findMany({ where: notesWhere(keys), orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const internalIncluded = new Set(keys.filter((key) => key.endsWith(":1")));
  return keys.map((key) => {
    const [type, id] = key.split(":");
    return rows.filter((row) => row.noteableType === type && String(row.noteableId) === id && (!row.internal || internalIncluded.has(key)));
  });
}

/** An issue, merge request or snippet the caller has already been shown (read through its domain lookup or list). */
export interface ShownNoteable {
  type: NoteableType;
  id: number;
  projectId: number;
  /** iid of an issue or merge request, id of a snippet */
  ref: number;
}

/**
 * The notes of a noteable the caller could read, oldest first, with listNotes' rules: signed-in
 * callers only, internal notes for Reporters and above. Reading the noteable itself was checked
 * where it was found; the project's access is cached, so a page of noteables costs one statement.
 */
export async function notesOfShownNoteable(ctx: DomainContext & { loaders: Loaders }, noteable: ShownNoteable): Promise<NoteView[]> {
  requireAuthenticated(ctx);
  const access = await findProject(ctx, noteable.projectId);
  const notes = await ctx.loaders.notes.load(notesKey(noteable.type, noteable.id, canReadInternalNotes(ctx, access)));
  return notes.map((note) => ({ ...note, noteableIid: noteable.type === "Snippet" ? null : noteable.ref }));
}
