// List fields: the page/per_page arguments and handing page info to the REST adapter.
import type { Context } from "../context.js";
import type { KeysetPage, Page } from "../domain/shared/pagination.js";
import { builder } from "./builder.js";

export const PaginationMode = builder.enumType("PaginationMode", { values: ["offset", "keyset"] as const });
export const SortDirectionEnum = builder.enumType("SortDirection", { values: ["asc", "desc"] as const });

export const pageArgs = builder.args((t) => ({
  page: t.int({ required: false }),
  per_page: t.int({ required: false }),
}));

export const keysetArgs = builder.args((t) => ({
  pagination: t.field({ type: PaginationMode, required: false }),
  sort: t.field({ type: SortDirectionEnum, required: false }),
}));

/** Returns the rows and leaves the page info for the REST adapter's headers. */
export function rowsOf<T>(ctx: Context, page: Page<T> | KeysetPage<T>): T[] {
  if ("info" in page) ctx.rest.page = page.info;
  else ctx.rest.keysetNext = page.next;
  return page.rows;
}
