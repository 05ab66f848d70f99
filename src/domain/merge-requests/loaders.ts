// Per-request batch loaders for list entities: one query per page for branch heads and for the
// projects with approval rules (note counts: notes.ts).
import DataLoader from "dataloader";
import type { LoaderFactory } from "../shared/loaders.js";
import type { Tx } from "../shared/events.js";

export const branchKey = (projectId: number, name: string) => `${projectId}:${name}`;

/** Head sha of a branch (`branchKey`), null when the branch does not exist. */
export const branchHeadLoader: LoaderFactory<DataLoader<string, string | null>> = (services) =>
  new DataLoader(async (keys) => {
    const wanted = keys.map((key) => {
      const at = key.indexOf(":");
      return { projectId: Number(key.slice(0, at)), name: key.slice(at + 1) };
    });
    const rows = await services.db.branch.findMany({ where: { OR: wanted }, select: { projectId: true, name: true, headSha: true } });
    const heads = new Map(rows.map((row) => [branchKey(row.projectId, row.name), row.headSha]));
    return keys.map((key) => heads.get(key) ?? null);
  });

/** Whether a project (by id) or any of its merge requests has an approval rule. */
export const hasApprovalRulesLoader: LoaderFactory<DataLoader<number, boolean>> = (services) =>
  new DataLoader(async (projectIds) => {
    const rows = await services.db.approvalRule.findMany({ where: { projectId: { in: [...projectIds] } }, select: { projectId: true }, distinct: ["projectId"] });
    const withRules = new Set(rows.map((row) => row.projectId));
    return projectIds.map((id) => withRules.has(id));
  });

/**
 * The merge requests among `ids` with a thread waiting to be resolved: a user note of a thread
 * (DiscussionNote or DiffNote) not resolved yet.
 */
export async function withUnresolvedThreads(db: Tx, ids: readonly number[]): Promise<Set<number>> {
  const rows = await db.note.findMany({
    where: { noteableType: "MergeRequest", noteableId: { in: [...ids] }, type: { in: ["DiscussionNote", "DiffNote"] }, system: false, resolvedAt: null },
    select: { noteableId: true },
    distinct: ["noteableId"],
  });
  return new Set(rows.map((row) => row.noteableId));
}

/** Whether a merge request (by id) has a thread waiting to be resolved. */
export const unresolvedThreadsLoader: LoaderFactory<DataLoader<number, boolean>> = (services) =>
  new DataLoader(async (ids) => {
    const unresolved = await withUnresolvedThreads(services.db, ids);
    return ids.map((id) => unresolved.has(id));
  });
