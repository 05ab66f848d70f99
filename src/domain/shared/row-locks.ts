// Notes and reactions point at issues, merge requests, snippets and notes by type and id, with no
// foreign key to stop a child being written beside a parent's deletion. On PostgreSQL a deletion
// locks its parent rows first (FOR UPDATE) and a child's write holds its parent (FOR SHARE, or FOR
// NO KEY UPDATE when it updates the parent too) and checks it still exists: whichever comes second
// waits, then sees the other's outcome. SQLite runs
// one write transaction at a time, so there the check alone is enough.
import { Prisma } from "../../generated/prisma/client.js";
import type { DomainContext } from "./context.js";
import type { Tx } from "./events.js";

export type ParentTable = "Project" | "Issue" | "MergeRequest" | "Snippet" | "Note";

type Dialect = Pick<DomainContext, "dialect">;

/** Locks the rows about to be deleted with what hangs from them; call it first in the deletion's transaction. */
export async function lockForDeletion(tx: Tx, ctx: Dialect, table: ParentTable, ids: number[]): Promise<void> {
  if (ctx.dialect !== "postgresql" || !ids.length) return;
  await tx.$queryRaw`SELECT "id" FROM ${Prisma.raw(`"${table}"`)} WHERE "id" IN (${Prisma.join(ids)}) FOR UPDATE`;
}

/**
 * Whether the parent of a child about to be written still exists, held until the transaction ends.
 * `touches`: the transaction then updates the parent row too (a note bumps its noteable's
 * updated_at), so it takes that row lock now (FOR NO KEY UPDATE): two transactions that both held
 * the row FOR SHARE and then updated it would each wait for the other (a deadlock).
 */
export async function holdParent(tx: Tx, ctx: Dialect, table: ParentTable, id: number, options: { touches?: boolean } = {}): Promise<boolean> {
  const lock = ctx.dialect !== "postgresql" ? Prisma.empty : options.touches ? Prisma.sql`FOR NO KEY UPDATE` : Prisma.sql`FOR SHARE`;
  const rows = await tx.$queryRaw<unknown[]>`SELECT "id" FROM ${Prisma.raw(`"${table}"`)} WHERE "id" = ${id} ${lock}`;
  return rows.length > 0;
}
