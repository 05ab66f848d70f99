// Per-project iids (issues, merge requests): GitLab's InternalId, one atomic counter per project and usage.
import type { Tx } from "./events.js";

export type InternalIdUsage = "issues" | "merge_requests";

/** The next iid; the increment is a single UPDATE, so concurrent transactions never share one. */
export async function nextInternalId(tx: Tx, projectId: number, usage: InternalIdUsage): Promise<number> {
  const row = await tx.internalId.upsert({
    where: { projectId_usage: { projectId, usage } },
    create: { projectId, usage, lastValue: 1 },
    update: { lastValue: { increment: 1 } },
  });
  return row.lastValue;
}
