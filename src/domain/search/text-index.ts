// Index-backed text matching for search (GitLab's Issuable.full_search): the one place that knows
// the search indexes of the migrations `search_indexes`. SQLite: FTS5 tables with the trigram
// tokenizer ("IssueSearch", "MergeRequestSearch", external content kept by triggers), asked with
// MATCH through $queryRaw; PostgreSQL: pg_trgm GIN indexes, which serve Prisma's case-insensitive
// `contains` (ILIKE '%term%') as it is. Terms shorter than 3 characters have no trigram: they match
// a whole title or description, in any case (Gitlab::SQL::Pattern without partial matching).
import { Prisma } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { containsText, fuzzySearch, MIN_CHARS_FOR_PARTIAL_MATCHING } from "../shared/paths.js";

export type TextColumn = "title" | "description";

const INDEXES = { issue: "IssueSearch", mergeRequest: "MergeRequestSearch" } as const;
export type IndexedKind = keyof typeof INDEXES;

/**
 * More matches than this and the filter falls back to the table's own LIKE. The ids travel as
 * bound values, and Prisma refuses a SQLite statement of more than 999 of them (P2029: a search
 * matching a thousand issues answered 500); a term this common finds a page's worth of rows
 * early in the list's own index order, so the LIKE stops soon.
 */
export const MOST_INDEXED_IDS = 500;

/** FTS5 query for a substring of the given columns: one quoted phrase, its quotes doubled. */
export function ftsPhrase(term: string, columns: readonly TextColumn[]): string {
  return `{${columns.join(" ")}}: "${term.replace(/"/g, '""')}"`;
}

/**
 * The rows of `kind` whose columns hold `term` (case-insensitive), as a Prisma filter on the
 * table. SQLite asks the FTS5 index for the ids (one statement); PostgreSQL leaves ILIKE to the
 * trigram indexes.
 */
export async function textMatchWhere(
  ctx: DomainContext, kind: IndexedKind, term: string, columns: readonly TextColumn[],
): Promise<{ OR: Record<string, unknown>[] } | { id: { in: number[] } }> {
  if (term.length < MIN_CHARS_FOR_PARTIAL_MATCHING) return fuzzySearch(ctx.dialect, [...columns], term);
  const likes = { OR: columns.map((column) => ({ [column]: literalContains(ctx, term) })) };
  if (ctx.dialect === "postgresql") return likes;
  const table = Prisma.raw(`"${INDEXES[kind]}"`);
  const rows = await ctx.db.$queryRaw<{ id: number | bigint }[]>`
    SELECT rowid AS "id" FROM ${table} WHERE ${table} MATCH ${ftsPhrase(term, columns)} LIMIT ${MOST_INDEXED_IDS + 1}`;
  if (rows.length > MOST_INDEXED_IDS) return likes;
  return { id: { in: rows.map((row) => Number(row.id)) } };
}

/**
 * A case-insensitive substring filter that takes the term literally. Prisma leaves `%` and `_`
 * of a `contains` value as wildcards; on PostgreSQL they are escaped (ILIKE's escape character
 * is the backslash). SQLite's LIKE has no escape character unless told, which Prisma does not
 * say: there a term holding them still matches them as wildcards.
 */
export function literalContains(ctx: Pick<DomainContext, "dialect">, term: string) {
  return containsText(ctx.dialect, ctx.dialect === "postgresql" ? term.replace(/[\\%_]/g, (c) => `\\${c}`) : term);
}

/**
 * A list's `search` filter as search finds it: the match of `textMatchWhere` (the lists'
 * `matching`), so a graph list searched and the Search API's scope find the same rows through the
 * same index, short terms included (a whole title or description, as Issuable.full_search).
 */
export async function indexedSearchFilter(
  ctx: DomainContext, kind: IndexedKind, term: string | null | undefined,
): Promise<{ matching?: { OR: Record<string, unknown>[] } | { id: { in: number[] } } }> {
  return term ? { matching: await textMatchWhere(ctx, kind, term, ["title", "description"]) } : {};
}
