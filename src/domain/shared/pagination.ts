// Offset pagination as GitLab does it: page from 1, per_page default 20 clamped to 100, and
// counts only up to 10,000 rows (beyond that the total is unknown and not reported).
import { AppError } from "../../errors.js";

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
export const COUNT_LIMIT = 10_000;

/**
 * The page a list function is asked for, always its own argument after the filters: REST's
 * page/per_page, or a row offset (the graph's connection cursors). Lists that GitLab also pages
 * by keyset take a KeysetPageArgs instead.
 */
export interface PageArgs {
  page?: number | null;
  per_page?: number | null;
  /** rows to skip instead of whole pages (GraphQL connections: src/graph/shared/connections.ts) */
  offset?: number | null;
}

export interface PageInfo {
  page: number;
  perPage: number;
  /** null when more than COUNT_LIMIT rows match */
  total: number | null;
  hasNext: boolean;
  /** false on page 1 and on pages past the end (Kaminari's prev_page) */
  hasPrev: boolean;
}

export interface Page<T> {
  rows: T[];
  info: PageInfo;
}

/** The page as part of a loader's key: every field present, so that equal pages serialise alike. */
export const pageKey = (page: PageArgs): PageArgs => ({ page: page.page ?? null, per_page: page.per_page ?? null, offset: page.offset ?? null });

export function pageWindow(args: PageArgs) {
  const page = args.page && args.page > 0 ? args.page : 1;
  const perPage = args.per_page && args.per_page > 0 ? Math.min(args.per_page, MAX_PER_PAGE) : DEFAULT_PER_PAGE;
  const skip = args.offset != null && args.offset >= 0 ? args.offset : (page - 1) * perPage;
  return { page, perPage, skip, take: perPage };
}

/**
 * GitLab's maximum offset for types that have keyset pagination: `page * per_page` (as requested,
 * before clamping) above `limit` answers 405.
 */
export function assertOffsetWithin(args: PageArgs, limit: number, type: string): void {
  if ((args.page ?? 1) * (args.per_page ?? DEFAULT_PER_PAGE) <= limit) return;
  throw new AppError(405, {
    error: `Offset pagination has a maximum allowed offset of ${limit} for requests that return objects of type ${type}. ` +
      "Remaining records can be retrieved using keyset pagination.",
  });
}

/**
 * One count (capped) and one page query. `count` receives the cap so it can stop early
 * (Prisma's `count({ take })`).
 */
export async function paginate<T>(
  args: PageArgs,
  count: (cap: number) => Promise<number>,
  fetch: (skip: number, take: number) => Promise<T[]>,
): Promise<Page<T>> {
  const window = pageWindow(args);
  const [counted, rows] = await Promise.all([count(COUNT_LIMIT + 1), fetch(window.skip, window.take + 1)]);
  return pageOf(window, rows, counted);
}

/**
 * `paginate` for a page read together with its capped count (one statement): the count comes with
 * each row, so only a page past the end needs `count` on its own.
 */
export async function paginateCounted<T>(
  args: PageArgs,
  count: (cap: number) => Promise<number>,
  fetchCounted: (skip: number, take: number, cap: number) => Promise<{ rows: T[]; counted: number | null }>,
): Promise<Page<T>> {
  const window = pageWindow(args);
  const fetched = await fetchCounted(window.skip, window.take + 1, COUNT_LIMIT + 1);
  return pageOf(window, fetched.rows, fetched.counted ?? (await count(COUNT_LIMIT + 1)));
}

/** The page from one row more than it shows (`hasNext`) and the capped count (no total above the limit). */
export function pageOf<T>({ page, perPage, take }: ReturnType<typeof pageWindow>, rows: T[], counted: number): Page<T> {
  const total = counted > COUNT_LIMIT ? null : counted;
  return { rows: rows.slice(0, take), info: { page, perPage, total, hasNext: rows.length > take, hasPrev: page > 1 && rows.length > 0 } };
}

/** A page of a list already in memory (GitLab paginates arrays the same way it paginates relations). */
export function paginateList<T>(all: readonly T[], args: PageArgs): Promise<Page<T>> {
  return paginate(args, async () => all.length, async (skip, take) => all.slice(skip, skip + take));
}

export interface KeysetPageArgs {
  per_page?: number | null;
  /** the opaque cursor of the previous page's `next` link (absent: the first page) */
  cursor?: string | null;
}

export interface KeysetPage<T> {
  rows: T[];
  /** query params that select the next page, or null at the end */
  next: Record<string, string> | null;
}

export type SortDirection = "asc" | "desc";

/** Opaque keyset cursor: the last row's order value and id. */
export function encodeCursor(value: unknown, id: number): string {
  return Buffer.from(JSON.stringify([value instanceof Date ? value.toISOString() : value, id])).toString("base64url");
}

/** The cursor's [value, id], or null when it is not one we issued (`isDate`: the value is a timestamp). */
export function decodeCursor(cursor: string, isDate = false): [unknown, number] | null {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && parsed.length === 2 && Number.isInteger(parsed[1]) && validCursorValue(parsed[0], isDate)) {
      return parsed as [unknown, number];
    }
  } catch {
    /* fall through */
  }
  return null;
}

function validCursorValue(value: unknown, isDate: boolean): boolean {
  if (isDate) return typeof value === "string" && !Number.isNaN(Date.parse(value));
  return typeof value === "string" || typeof value === "number";
}

/**
 * Prisma filter for "rows after the cursor" in (column, id) order; the same shape works on
 * SQLite and PostgreSQL.
 */
export function afterCursor(column: string, sort: SortDirection, value: unknown, id: number, isDate = false) {
  const op = sort === "asc" ? "gt" : "lt";
  const v = isDate && typeof value === "string" ? new Date(value) : value;
  if (column === "id") return { id: { [op]: id } };
  return { OR: [{ [column]: { [op]: v } }, { [column]: v, id: { [op]: id } }] };
}
