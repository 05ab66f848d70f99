// The notes of many noteables in one statement, for pages of issues, merge requests and snippets
// on the public graph (the per-request loaders): the same page of each noteable's notes
// (ctx.loaders.notePages, for Noteable.notes), or every note of each (ctx.loaders.notes, for the
// threads they make up); oldest first, internal ones only in the batches of callers who may read them.
import { Prisma, type Note } from "../../generated/prisma/client.js";
import type { Db } from "../../db/client.js";
import { canReadInternalNotes, projectById, requireAuthenticated, shownProjectAccess } from "../shared/access.js";
import { childPages } from "../shared/child-pages.js";
import type { DomainContext } from "../shared/context.js";
import type { Loaders } from "../shared/loaders.js";
import type { Page, PageArgs } from "../shared/pagination.js";
import { SYSTEM_FILTER, type NoteableType, type NotesFilter, type NoteView } from "./queries.js";
import DataLoader from "dataloader";
import type { LoaderFactory } from "../shared/loaders.js";

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

/** A page of a noteable's notes, oldest first, with the notes filter (internal notes only when `internal`). */
export interface NotePageKey {
  type: NoteableType;
  id: number;
  internal: boolean;
  filter: NotesFilter;
  offset: number;
  perPage: number;
}

export const notePageCacheKey = (key: NotePageKey) => JSON.stringify(key);

/** The notes filter (SYSTEM_FILTER) in SQL. */
function systemCondition(filter: NotesFilter): Prisma.Sql {
  const { system } = SYSTEM_FILTER[filter];
  return system == null ? Prisma.empty : system ? Prisma.sql`AND "system"` : Prisma.sql`AND NOT "system"`;
}

/** One statement per kind of page asked for (a page of noteables asks for one): see childPages. */
export async function batchNotePages(db: Db, keys: readonly NotePageKey[]): Promise<Page<Note>[]> {
  const groups = new Map<string, NotePageKey[]>();
  for (const key of keys) {
    const group = notePageCacheKey({ ...key, id: 0 });
    groups.set(group, [...(groups.get(group) ?? []), key]);
  }
  const pages = new Map<string, Page<Note>>();
  for (const group of groups.values()) {
    const { type, internal, filter, offset, perPage } = group[0]!;
    const ids = group.map((key) => key.id);
    const where = Prisma.sql`"noteableType" = ${type} AND "noteableId" IN (${Prisma.join(ids)})
      ${internal ? Prisma.empty : Prisma.sql`AND NOT "internal"`} ${systemCondition(filter)}`;
    const byNoteable = await childPages<Note>(
      db, { table: "Note", parentColumn: "noteableId", where, orderBy: Prisma.sql`"createdAt" ASC, "id" ASC` }, ids, { offset, per_page: perPage },
    );
    for (const key of group) pages.set(notePageCacheKey(key), byNoteable.get(key.id)!);
  }
  return keys.map((key) => pages.get(notePageCacheKey(key))!);
}

/** An issue, merge request or snippet the caller has already been shown (read through its domain lookup or list). */
export interface ShownNoteable {
  type: NoteableType;
  id: number;
  projectId: number;
  /** iid of an issue or merge request, id of a snippet */
  ref: number;
}

/** listNotes' rules: signed-in callers only; internal notes for Reporters and above (the project's access is cached). */
async function internalNotesReadable(ctx: DomainContext, noteable: ShownNoteable): Promise<boolean> {
  requireAuthenticated(ctx);
  const project = await projectById(ctx, noteable.projectId);
  return project != null && canReadInternalNotes(ctx, await shownProjectAccess(ctx, project));
}

const viewOf = (noteable: ShownNoteable, note: Note): NoteView => ({ ...note, noteableIid: noteable.type === "Snippet" ? null : noteable.ref });

/**
 * The notes of a noteable the caller could read, oldest first, with listNotes' rules: signed-in
 * callers only, internal notes for Reporters and above. Reading the noteable itself was checked
 * where it was found; the project's access is cached, so a page of noteables costs one statement.
 */
export async function notesOfShownNoteable(ctx: DomainContext & { loaders: Loaders }, noteable: ShownNoteable): Promise<NoteView[]> {
  const notes = await ctx.loaders.get(notesLoader).load(notesKey(noteable.type, noteable.id, await internalNotesReadable(ctx, noteable)));
  return notes.map((note) => viewOf(noteable, note));
}

/**
 * A page of the notes of a noteable the caller was shown, oldest first, as notesOfShownNoteable
 * reads them, with the notes filter: the same page of every noteable of a page in one statement.
 */
export async function notePageOfShownNoteable(
  ctx: DomainContext & { loaders: Loaders }, noteable: ShownNoteable, filter: NotesFilter, args: PageArgs,
): Promise<Page<NoteView>> {
  const internal = await internalNotesReadable(ctx, noteable);
  const key = { type: noteable.type, id: noteable.id, internal, filter, offset: args.offset ?? 0, perPage: args.per_page ?? 0 };
  const page = await ctx.loaders.get(notePagesLoader).load(key);
  return { ...page, rows: page.rows.map((note) => viewOf(noteable, note)) };
}

/** Every note of a noteable (`notesKey(...)`), oldest first: threads are built from all of them. */
export const notesLoader: LoaderFactory<DataLoader<NotesKey, Note[]>> = (services) => new DataLoader((keys) => batchNotes(services.db, keys));

/** One page of a noteable's notes, the same page of every noteable asked for in one statement. */
export const notePagesLoader: LoaderFactory<DataLoader<NotePageKey, Page<Note>, string>> = (services) =>
  new DataLoader((keys) => batchNotePages(services.db, keys), { cacheKeyFn: notePageCacheKey });
