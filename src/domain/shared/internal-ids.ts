// Per-project iids (issues, merge requests): GitLab's InternalId, one atomic counter per project and usage.
import type { Tx } from "./events.js";

export type InternalIdUsage = "issues" | "merge_requests";

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
