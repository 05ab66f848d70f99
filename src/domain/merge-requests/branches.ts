// The branches a merge request joins, read from the repository model.
import type { Db } from "../../db/client.js";
import type { Tx } from "../shared/events.js";

type Reader = Db | Tx;

/** Head sha of a branch, or null when the project has no such branch. */
export async function branchHead(db: Reader, projectId: number, name: string): Promise<string | null> {
  const branch = await db.branch.findUnique({ where: { projectId_name: { projectId, name } }, select: { headSha: true } });
  return branch?.headSha ?? null;
}
