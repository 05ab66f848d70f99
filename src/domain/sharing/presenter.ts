// What the project and group entities show of shares: `shared_with_groups` (the groups a project
// or group is shared with that the caller may see) and a group's `shared_projects`.
import DataLoader from "dataloader";
import type { Namespace, Project } from "../../generated/prisma/client.js";
import type { GroupShare } from "../shared/caches.js";
import type { DomainContext } from "../shared/context.js";
import type { LoaderFactory } from "../shared/loaders.js";
import { notExpired } from "../shared/memberships.js";
import { groupsShownAmong, visibleProjectsWhere } from "../shared/visibility-filters.js";

/** The shares of projects, expired ones too (filtered when shown), by project id (kept in the projectShares cache). */
export const projectSharesLoader: LoaderFactory<DataLoader<number, readonly GroupShare[]>> = (services) =>
  new DataLoader(async (projectIds) => {
    const cache = services.caches.projectShares;
    const known = new Map(projectIds.map((id) => [id, cache.get(id)]));
    const missing = projectIds.filter((id) => known.get(id) === undefined);
    if (missing.length) {
      const stamp = cache.stamp();
      const links = await services.db.projectGroupLink.findMany({
        where: { projectId: { in: missing } },
        include: { group: { select: { name: true, fullPath: true } } },
        orderBy: { id: "asc" },
      });
      for (const id of missing) {
        const shares = links.filter((link) => link.projectId === id).map((link) => shareOf(link.groupId, link.group, link.groupAccess, link.expiresAt));
        known.set(id, shares);
        cache.keep(id, shares, stamp);
      }
    }
    return projectIds.map((id) => known.get(id)!);
  });

const shareOf = (groupId: number, group: { name: string; fullPath: string }, groupAccess: number, expiresAt: Date | null): GroupShare => ({
  groupId, groupName: group.name, groupFullPath: group.fullPath, groupAccess, expiresAt,
});

/** A project's `shared_with_groups`: its live shares with groups the caller may see. */
export async function projectSharedWithGroups(ctx: DomainContext, project: Project): Promise<GroupShare[]> {
  const shares = await ctx.loaders.get(projectSharesLoader).load(project.id);
  const now = ctx.now().getTime();
  return visibleShares(ctx, shares.filter((share) => !share.expiresAt || share.expiresAt.getTime() > now));
}

/** A group's `shared_with_groups`: the groups it is shared with that the caller may see. */
export async function groupSharedWithGroups(ctx: DomainContext, group: Namespace): Promise<GroupShare[]> {
  const links = await ctx.db.groupGroupLink.findMany({
    where: { sharedGroupId: group.id, ...notExpired(ctx) },
    include: { sharedWithGroup: { select: { name: true, fullPath: true } } },
    orderBy: { id: "asc" },
  });
  return visibleShares(ctx, links.map((link) => shareOf(link.sharedWithGroupId, link.sharedWithGroup, link.groupAccess, link.expiresAt)));
}

/** GitLab's visible_group_links: the shares with groups the caller may see named. */
async function visibleShares(ctx: DomainContext, shares: readonly GroupShare[]): Promise<GroupShare[]> {
  if (!shares.length) return [];
  const shown = await groupsShownAmong(ctx, shares.map((share) => share.groupId));
  return shares.filter((share) => shown.has(share.groupId));
}

/** GroupDetail's `shared_projects`: the projects shared with the group that the caller may see (at most `limit`). */
export async function groupSharedProjects(ctx: DomainContext, group: Namespace, limit: number) {
  return ctx.db.project.findMany({
    where: { AND: [{ groupLinks: { some: { groupId: group.id, ...notExpired(ctx) } } }, await visibleProjectsWhere(ctx)] },
    include: { namespace: true },
    orderBy: { id: "asc" },
    take: limit,
  });
}
