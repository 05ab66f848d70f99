// Relay connections over the domain's offset pages: a cursor is a row offset (the relay plugin's
// offset cursors), turned into the domain's `offset`/`per_page` so that list functions keep one
// query, their filters and their permission rules for both surfaces.
import { offsetForArgs, offsetToCursor, resolveArrayConnection } from "@pothos/plugin-relay";
import { GraphQLError } from "graphql";
import type { Page, PageArgs } from "../../domain/shared/pagination.js";
import { MAX_PER_PAGE } from "../../domain/shared/pagination.js";

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

export interface Counted {
  /** rows matching the filters (null past the domain's count limit) */
  count: number | null;
}

const invalidCursor = () => new GraphQLError("Invalid cursor");

/** One domain page for a connection window; `last` without `before` needs the total first. */
export async function offsetConnection<T>(args: ConnectionArgs, list: (page: PageArgs) => Promise<Page<T>>) {
  let total: number | null | undefined;
  if (args.last != null && !args.before && args.first == null) {
    total = (await list({ offset: 0, per_page: 1 })).info.total;
    if (total == null) throw new GraphQLError("`last` without `before` is not available on lists this long");
  }
  const window = windowOf(args, total ?? undefined);
  // an empty window (first: 0) still reads one row: the domain's page size has no zero
  const page = await list({ offset: window.offset, per_page: Math.max(window.expectedSize, 1) });
  const rows = page.rows.slice(0, window.expectedSize);
  return {
    edges: rows.map((node, i) => ({ cursor: offsetToCursor(window.offset + i), node })),
    pageInfo: {
      startCursor: rows.length ? offsetToCursor(window.offset) : null,
      endCursor: rows.length ? offsetToCursor(window.offset + rows.length - 1) : null,
      hasPreviousPage: window.hasPreviousPage,
      hasNextPage: window.expectedSize === 0 ? page.rows.length > 0 : page.info.hasNext,
    },
    count: page.info.total,
  };
}

/** A connection over rows already loaded for the parent (batched by a DataLoader). */
export function arrayConnection<T>(args: ConnectionArgs, rows: readonly T[]) {
  try {
    return { ...resolveArrayConnection({ args, maxSize: MAX_PER_PAGE }, rows), count: rows.length };
  } catch (error) {
    throw refusal(error);
  }
}

function windowOf(args: ConnectionArgs, totalCount: number | undefined) {
  let window: ReturnType<typeof offsetForArgs>;
  try {
    window = offsetForArgs({ args, totalCount, maxSize: MAX_PER_PAGE });
  } catch (error) {
    throw refusal(error);
  }
  // a cursor of the right form around a non-number ("OffsetConnection:x")
  if (!Number.isSafeInteger(window.offset)) throw invalidCursor();
  return window;
}

/** The relay helpers' refusals: `first`/`last` out of range as they word it, else a cursor not issued here. */
const refusal = (error: unknown) =>
  error instanceof Error && error.message.startsWith("Argument ") ? new GraphQLError(error.message) : invalidCursor();
