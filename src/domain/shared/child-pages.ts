// The same page of many parents' children in one statement, for nested connections of the public
// graph (a page of noteables' notes, of hooks' deliveries): each parent's rows are numbered in the
// list's order (ROW_NUMBER() OVER (PARTITION BY parent)) and counted (COUNT(*) OVER), and only the
// window's rows come back, with each parent's first row for its count. Portable SQL (quoted
// identifiers, bound values, window functions) for SQLite and PostgreSQL.
import { Prisma } from "../../generated/prisma/client.js";
import type { Db } from "../../db/client.js";
import { pageOf, pageWindow, type Page, type PageArgs } from "./pagination.js";

export interface ChildrenQuery {
  /** the children's table, e.g. "Note" */
  table: string;
  /** its column naming the parent, e.g. "noteableId" */
  parentColumn: string;
  /** the children of the parents asked for (restricting `parentColumn` to them), with the list's filters */
  where: Prisma.Sql;
  /** the list's order, ending in a unique column, e.g. `"createdAt" ASC, "id" ASC` */
  orderBy: Prisma.Sql;
}

type Ranked<T> = T & { _rank: bigint | number; _counted: bigint | number };

/** The page `args` asks for of each parent's children (parents without any get an empty page). */
export async function childPages<T extends object>(
  db: Db, query: ChildrenQuery, parentIds: readonly number[], args: PageArgs,
): Promise<Map<number, Page<T>>> {
  const window = pageWindow(args);
  const table = Prisma.raw(`"${query.table}"`);
  const parent = Prisma.raw(`"${query.parentColumn}"`);
  // one row more than the page shows tells whether there is a next page
  const rows = await db.$queryRaw<Ranked<T>[]>`
    SELECT ${table}.*, "ranked"."_rank", "ranked"."_counted" FROM ${table}
    JOIN (
      SELECT "id", ROW_NUMBER() OVER (PARTITION BY ${parent} ORDER BY ${query.orderBy}) AS "_rank",
        COUNT(*) OVER (PARTITION BY ${parent}) AS "_counted"
      FROM ${table} WHERE ${query.where}
    ) AS "ranked" ON "ranked"."id" = ${table}."id"
    WHERE "ranked"."_rank" = 1 OR ("ranked"."_rank" > ${window.skip} AND "ranked"."_rank" <= ${window.skip + window.take + 1})
    ORDER BY ${table}.${parent}, "ranked"."_rank"`;
  const byParent = new Map<number, { rows: T[]; counted: number }>();
  for (const { _rank, _counted, ...row } of rows) {
    const parentId = Number((row as Record<string, unknown>)[query.parentColumn]);
    const children = byParent.get(parentId) ?? { rows: [], counted: Number(_counted) };
    if (Number(_rank) > window.skip) children.rows.push(row as unknown as T);
    byParent.set(parentId, children);
  }
  return new Map(parentIds.map((id) => {
    const children = byParent.get(id) ?? { rows: [], counted: 0 };
    return [id, pageOf(window, children.rows, children.counted)];
  }));
}
