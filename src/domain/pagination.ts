// Offset pagination as GitLab does it: page from 1, per_page default 20 clamped to 100, and
// counts only up to 10,000 rows (beyond that the total is unknown and not reported).
export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
export const COUNT_LIMIT = 10_000;

export interface PageArgs {
  page?: number | null;
  per_page?: number | null;
}

export interface PageInfo {
  page: number;
  perPage: number;
  /** null when more than COUNT_LIMIT rows match */
  total: number | null;
  hasNext: boolean;
}

export interface Page<T> {
  rows: T[];
  info: PageInfo;
}

export function pageWindow(args: PageArgs) {
  const page = args.page && args.page > 0 ? args.page : 1;
  const perPage = args.per_page && args.per_page > 0 ? Math.min(args.per_page, MAX_PER_PAGE) : DEFAULT_PER_PAGE;
  return { page, perPage, skip: (page - 1) * perPage, take: perPage };
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
  const { page, perPage, skip, take } = pageWindow(args);
  const [counted, rows] = await Promise.all([count(COUNT_LIMIT + 1), fetch(skip, take + 1)]);
  const total = counted > COUNT_LIMIT ? null : counted;
  return { rows: rows.slice(0, take), info: { page, perPage, total, hasNext: rows.length > take } };
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

export function decodeCursor(cursor: string): [unknown, number] | null {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && parsed.length === 2 && Number.isInteger(parsed[1])) return parsed as [unknown, number];
  } catch {
    /* fall through */
  }
  return null;
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
