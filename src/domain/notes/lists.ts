// GET .../notes of issues, merge requests and project snippets, and the graph's Noteable.notes:
// one list, read through the batched page loader (notePagesLoader), so a page of noteables on the
// graph reads the same page of all their notes in one statement.
import { canReadInternalNotes } from "../shared/access-levels.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import type { Page, PageArgs, SortDirection } from "../shared/pagination.js";
import { notePagesLoader } from "./loaders.js";
import { withIid, type Noteable, type NoteOrderBy, type NotesFilter, type NoteView } from "./queries.js";

/** How a noteable's notes are ordered and narrowed. */
export interface NoteFilters {
  order_by?: NoteOrderBy | null;
  sort?: SortDirection | null;
  activity_filter?: NotesFilter | null;
}

/**
 * The notes of a noteable the caller may read: signed-in callers only; newest first unless asked
 * otherwise, ties by id. Internal notes are left out of the query for callers below Reporter, so
 * the page and its counts hold only notes they may read.
 */
export async function listNotes(ctx: DomainContext, noteable: Noteable, filters: NoteFilters, page: PageArgs): Promise<Page<NoteView>> {
  requireAuthenticated(ctx);
  const notes = await ctx.loaders.get(notePagesLoader).load({
    type: noteable.type,
    id: noteable.id,
    internal: canReadInternalNotes(ctx, noteable.access),
    filter: filters.activity_filter ?? "all_notes",
    orderBy: filters.order_by ?? "created_at",
    sort: filters.sort ?? "desc",
    page: { page: page.page ?? null, per_page: page.per_page ?? null, offset: page.offset ?? null },
  });
  return { ...notes, rows: notes.rows.map((note) => withIid(note, noteable)) };
}
