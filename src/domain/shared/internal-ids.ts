// Per-project iids (issues, merge requests, milestones) and per-group ones (group milestones, the
// group id in projectId): GitLab's InternalId, one atomic counter per parent and usage.
import type { DomainContext } from "./context.js";
import type { Tx } from "./events.js";

export type InternalIdUsage = "issues" | "merge_requests" | "ci_pipelines" | "milestones" | "group_milestones";

/**
 * The next iid; the increment is a single statement (an upsert), so concurrent transactions never
 * share one. Raw SQL because it runs on every creation (portable: ON CONFLICT and RETURNING exist
 * on SQLite and PostgreSQL).
 */
export async function nextInternalId(tx: Tx, projectId: number, usage: InternalIdUsage): Promise<number> {
  const [row] = await tx.$queryRaw<{ lastValue: number | bigint }[]>`
    INSERT INTO "InternalId" ("projectId", "usage", "lastValue") VALUES (${projectId}, ${usage}, 1)
    ON CONFLICT ("projectId", "usage") DO UPDATE SET "lastValue" = "InternalId"."lastValue" + 1
    RETURNING "lastValue"`;
  return Number(row!.lastValue);
}

/**
 * Runs `create` in a transaction with the next iid. On PostgreSQL the iid is taken first, in a
 * statement of its own (autocommit): the project's counter row is locked while that statement
 * runs, not until the creating transaction commits, so creations in one project do not queue
 * behind each other's whole transactions. A creation that fails afterwards leaves a gap in the
 * iids, as GitLab's may have. On SQLite the iid is taken inside the transaction: the connection is
 * shared, so a statement outside the transaction would run inside whichever transaction is open
 * on it (and be undone with it), and the transaction holds the database's write lock from its
 * start anyway (BEGIN IMMEDIATE).
 */
export async function withNextInternalId<T>(
  ctx: Pick<DomainContext, "db" | "dialect">, projectId: number, usage: InternalIdUsage, create: (tx: Tx, iid: number) => Promise<T>,
): Promise<T> {
  if (ctx.dialect === "postgresql") {
    const iid = await nextInternalId(ctx.db, projectId, usage);
    return ctx.db.$transaction((tx) => create(tx, iid));
  }
  return ctx.db.$transaction(async (tx) => create(tx, await nextInternalId(tx, projectId, usage)));
}
