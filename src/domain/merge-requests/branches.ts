// The branches a merge request joins, read from the repository model.
import type { Db } from "../../db/client.js";
import type { Tx } from "../shared/events.js";

type Reader = Db | Tx;

/** Head sha of a branch, or null when the project has no such branch. */
export async function branchHead(db: Reader, projectId: number, name: string): Promise<string | null> {
  const branch = await db.branch.findUnique({ where: { projectId_name: { projectId, name } }, select: { headSha: true } });
  return branch?.headSha ?? null;
}

/**
 * GitLab computes merge_status by trying the merge in the repository. Forgeline keeps no file
 * contents, so there is no conflict to find: a merge request can be merged while both of its
 * branches exist, and cannot once either is gone.
 */
export function mergeStatusOf(sourceExists: boolean, targetExists: boolean): "can_be_merged" | "cannot_be_merged" {
  return sourceExists && targetExists ? "can_be_merged" : "cannot_be_merged";
}

export async function currentMergeStatus(db: Reader, projectId: number, source: string, target: string) {
  const [sourceHead, targetHead] = await Promise.all([branchHead(db, projectId, source), branchHead(db, projectId, target)]);
  return mergeStatusOf(sourceHead != null, targetHead != null);
}
