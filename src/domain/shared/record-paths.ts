// Records by database id (GraphQL global ids) turned into the project/iid paths the domain's
// lookups take, so that those lookups apply their permission rules; null when there is no record.
import type { DomainContext } from "./context.js";
import { fitsIdColumn } from "./record-ids.js";

export interface IssuablePath {
  projectId: number;
  iid: number;
}

export async function issuePathById(ctx: DomainContext, id: number): Promise<IssuablePath | null> {
  if (!fitsIdColumn(id)) return null;
  return ctx.db.issue.findUnique({ where: { id }, select: { projectId: true, iid: true } });
}

export async function mergeRequestPathById(ctx: DomainContext, id: number): Promise<IssuablePath | null> {
  if (!fitsIdColumn(id)) return null;
  return ctx.db.mergeRequest.findUnique({ where: { id }, select: { projectId: true, iid: true } });
}

