// Per-request batch loaders for list entities: one query per page for branch heads and for the
// projects with approval rules (note counts: notes.ts).
import DataLoader from "dataloader";
import type { DomainContext } from "../shared/context.js";

interface MergeRequestLoaders {
  /** head sha of `${projectId}:${branch}`, null when the branch does not exist */
  branchHead: DataLoader<string, string | null>;
  /** project id -> whether the project or any of its merge requests has an approval rule */
  hasApprovalRules: DataLoader<number, boolean>;
}

const perRequest = new WeakMap<DomainContext, MergeRequestLoaders>();

export function mergeRequestLoaders(ctx: DomainContext): MergeRequestLoaders {
  let loaders = perRequest.get(ctx);
  if (!loaders) {
    loaders = { branchHead: branchHeadLoader(ctx), hasApprovalRules: hasApprovalRulesLoader(ctx) };
    perRequest.set(ctx, loaders);
  }
  return loaders;
}

export const branchKey = (projectId: number, name: string) => `${projectId}:${name}`;

function branchHeadLoader(ctx: DomainContext) {
  return new DataLoader<string, string | null>(async (keys) => {
    const wanted = keys.map((key) => {
      const at = key.indexOf(":");
      return { projectId: Number(key.slice(0, at)), name: key.slice(at + 1) };
    });
    const rows = await ctx.db.branch.findMany({ where: { OR: wanted }, select: { projectId: true, name: true, headSha: true } });
    const heads = new Map(rows.map((row) => [branchKey(row.projectId, row.name), row.headSha]));
    return keys.map((key) => heads.get(key) ?? null);
  });
}

function hasApprovalRulesLoader(ctx: DomainContext) {
  return new DataLoader<number, boolean>(async (projectIds) => {
    const rows = await ctx.db.approvalRule.findMany({ where: { projectId: { in: [...projectIds] } }, select: { projectId: true }, distinct: ["projectId"] });
    const withRules = new Set(rows.map((row) => row.projectId));
    return projectIds.map((id) => withRules.has(id));
  });
}
