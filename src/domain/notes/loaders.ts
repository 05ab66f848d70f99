// The notes of many noteables in one statement (the per-request loaders): the same page of each
// noteable's notes (notePagesLoader, read by listNotes for REST and for the graph's Noteable.notes),
// or every note of each, oldest first (notesLoader, for the threads the graph builds from them);
// internal ones only in the batches of callers who may read them.
import { Prisma, type Note } from "../../generated/prisma/client.js";
import type { Db } from "../../db/client.js";
import { canReadInternalNotes } from "../shared/access-levels.js";
import { requireAuthenticated } from "../shared/guards.js";
import { childPages } from "../shared/child-pages.js";
import type { DomainContext } from "../shared/context.js";
import type { Page, PageArgs, SortDirection } from "../shared/pagination.js";
import { withIid, type Noteable, type NoteableType, type NoteOrderBy, type NotesFilter, type NoteView } from "./queries.js";
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

/**
 * A page of a noteable's notes in an order (ties by id) with the notes filter, internal notes only
 * when `internal`.
 */
interface NotePageKey {
  type: NoteableType;
  id: number;
  internal: boolean;
  filter: NotesFilter;
  orderBy: NoteOrderBy;
  sort: SortDirection;
  page: PageArgs;
}

const notePageCacheKey = (key: NotePageKey) => JSON.stringify(key);

/** The notes filter in SQL (UserPreference::NOTES_FILTERS). */
const SYSTEM_CONDITION: Record<NotesFilter, Prisma.Sql> = {
  all_notes: Prisma.empty,
  only_comments: Prisma.sql`AND NOT "system"`,
  only_activity: Prisma.sql`AND "system"`,
};

const ORDER_COLUMN = { created_at: `"createdAt"`, updated_at: `"updatedAt"` } as const;
const DIRECTION = { asc: "ASC", desc: "DESC" } as const;

function orderSql(orderBy: NoteOrderBy, sort: SortDirection): Prisma.Sql {
  return Prisma.raw(`${ORDER_COLUMN[orderBy]} ${DIRECTION[sort]}, "id" ${DIRECTION[sort]}`);
}

/** One statement per kind of page asked for (a page of noteables asks for one): see childPages. */
async function batchNotePages(db: Db, keys: readonly NotePageKey[]): Promise<Page<Note>[]> {
  const groups = new Map<string, NotePageKey[]>();
  for (const key of keys) {
    const group = notePageCacheKey({ ...key, id: 0 });
    groups.set(group, [...(groups.get(group) ?? []), key]);
  }
  const pages = new Map<string, Page<Note>>();
  for (const group of groups.values()) {
    const { type, internal, filter, orderBy, sort, page } = group[0]!;
    const ids = group.map((key) => key.id);
    const where = Prisma.sql`"noteableType" = ${type} AND "noteableId" IN (${Prisma.join(ids)})
      ${internal ? Prisma.empty : Prisma.sql`AND NOT "internal"`} ${SYSTEM_CONDITION[filter]}`;
    const byNoteable = await childPages<Note>(
      db, { table: "Note", parentColumn: "noteableId", where, orderBy: orderSql(orderBy, sort) }, ids, page,
    );
    for (const key of group) pages.set(notePageCacheKey(key), byNoteable.get(key.id)!);
  }
  return keys.map((key) => pages.get(notePageCacheKey(key))!);
}

/**
 * Every note of a noteable the caller may read, oldest first, with listNotes' rules: signed-in
 * callers only, internal notes for Reporters and above; the same noteables' notes in one statement.
 */
export async function notesOfShownNoteable(ctx: DomainContext, noteable: Noteable): Promise<NoteView[]> {
  requireAuthenticated(ctx);
  const notes = await ctx.loaders.get(notesLoader).load(notesKey(noteable.type, noteable.id, canReadInternalNotes(ctx, noteable.access)));
  return notes.map((note) => withIid(note, noteable));
}

/** Every note of a noteable (`notesKey(...)`), oldest first: threads are built from all of them. */
export const notesLoader: LoaderFactory<DataLoader<NotesKey, Note[]>> = (services) => new DataLoader((keys) => batchNotes(services.db, keys));

/** One page of a noteable's notes, the same page of every noteable asked for in one statement. */
export const notePagesLoader: LoaderFactory<DataLoader<NotePageKey, Page<Note>, string>> = (services) =>
  new DataLoader((keys) => batchNotePages(services.db, keys), { cacheKeyFn: notePageCacheKey });
