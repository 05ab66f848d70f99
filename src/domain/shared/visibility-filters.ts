// Prisma filters for the projects and groups a caller may see or holds a level on (lists).
import type { Prisma } from "../../generated/prisma/client.js";
import type { DomainContext } from "./context.js";
import { AccessLevel, ancestorIds, openVisibilities } from "./access-levels.js";
import { groupAccessLevel, notExpired } from "./memberships.js";
import { isAdmin } from "./context.js";

/** Prisma filter for the projects an actor can see (lists). */
export async function visibleProjectsWhere(ctx: DomainContext): Promise<Prisma.ProjectWhereInput> {
  const actor = ctx.actor;
  if (actor?.user.isAdmin) return {};
  if (!actor) return { visibility: "public" };
  return { OR: [{ visibility: { in: openVisibilities(actor) } }, await authorizedProjectsWhere(ctx, AccessLevel.guest)] };
}
/**
 * Projects where the caller's highest access level (direct, inherited from a group, or as the
 * owner of the personal namespace) is at least `min`: GitLab's `authorized_projects(min)`.
 */
export async function authorizedProjectsWhere(ctx: DomainContext, min: number): Promise<Prisma.ProjectWhereInput> {
  const userId = ctx.actor?.user.id;
  if (!userId) return { id: -1 };
  const groups = await memberGroupTraversals(ctx, min);
  const sharedGroups = await groupsSharedWith(ctx, groups, min);
  const inGroups = groups.map((t) => ({ traversalIds: { startsWith: t } }));
  return {
    OR: [
      { members: { some: { userId, accessLevel: { gte: min }, ...notExpired(ctx) } } },
      { namespace: { ownerId: userId } },
      ...[...groups, ...sharedGroups].map((t) => ({ namespace: { traversalIds: { startsWith: t } } })),
      // shared with a group the caller is a member of, or with one of its subgroups
      ...(inGroups.length ? [{ groupLinks: { some: { groupAccess: { gte: min }, ...notExpired(ctx), group: { OR: inGroups } } } }] : []),
    ],
  };
}
/**
 * Traversal ids of the groups shared (at `min` or above) with a group the caller is a direct
 * member of: a group share counts its direct members only.
 */
async function groupsSharedWith(ctx: DomainContext, memberTraversals: string[], min: number): Promise<string[]> {
  if (!memberTraversals.length) return [];
  const groupIds = memberTraversals.map((t) => ancestorIds({ traversalIds: t }).at(-1)!);
  const links = await ctx.db.groupGroupLink.findMany({
    where: { sharedWithGroupId: { in: groupIds }, groupAccess: { gte: min }, ...notExpired(ctx) },
    select: { sharedGroup: { select: { traversalIds: true } } },
  });
  return links.map((link) => link.sharedGroup.traversalIds);
}
/** Prisma filter for the groups an actor can see (lists). */
export async function visibleGroupsWhere(ctx: DomainContext): Promise<Prisma.NamespaceWhereInput> {
  const actor = ctx.actor;
  if (actor?.user.isAdmin) return { kind: "group" };
  if (!actor) return { kind: "group", visibility: "public" };
  return { kind: "group", OR: [{ visibility: { in: openVisibilities(actor) } }, await hierarchyGroupsWhere(ctx)] };
}
/**
 * The groups of the caller's own hierarchy (GitLab's GroupsFinder without `all_available`):
 * groups they are a member of, with their descendants, plus the ancestors of those groups
 * and of the groups holding projects they are a member of.
 */
export async function hierarchyGroupsWhere(ctx: DomainContext): Promise<Prisma.NamespaceWhereInput> {
  const userId = ctx.actor?.user.id;
  if (!userId) return { id: -1 };
  const [memberGroups, projectNamespaces] = await Promise.all([
    memberGroupTraversals(ctx),
    ctx.db.namespace.findMany({
      where: { kind: "group", projects: { some: { members: { some: { userId, ...notExpired(ctx) } } } } },
      select: { traversalIds: true },
    }),
  ]);
  const groups = [...memberGroups, ...(await groupsSharedWith(ctx, memberGroups, AccessLevel.minimal))];
  const ancestors = [...groups, ...projectNamespaces.map((n) => n.traversalIds)].flatMap((t) => ancestorIds({ traversalIds: t }));
  return {
    kind: "group",
    OR: [{ id: { in: [...new Set(ancestors)] } }, ...groups.map((t) => ({ traversalIds: { startsWith: t } }))],
  };
}
/** Traversal ids of the groups the caller is a direct member of (at least `min`). */
export async function memberGroupTraversals(ctx: DomainContext, min: number = AccessLevel.minimal): Promise<string[]> {
  const userId = ctx.actor?.user.id;
  if (!userId) return [];
  const rows = await ctx.db.groupMember.findMany({
    where: { userId, accessLevel: { gte: min }, ...notExpired(ctx) },
    select: { group: { select: { traversalIds: true } } },
  });
  return rows.map((r) => r.group.traversalIds);
}
/**
 * The groups among `groupIds` the caller sees named in a share: public ones (internal ones when
 * signed in) and those they are a member of (GitLab's visible_group_links); all for administrators.
 */
export async function groupsShownAmong(ctx: DomainContext, groupIds: number[]): Promise<Set<number>> {
  if (isAdmin(ctx.actor)) return new Set(groupIds);
  const groups = groupIds.length ? await ctx.db.namespace.findMany({ where: { id: { in: groupIds } } }) : [];
  const open = openVisibilities(ctx.actor);
  const shown = new Set<number>();
  for (const group of groups) if (open.includes(group.visibility) || (await groupAccessLevel(ctx, group)) > 0) shown.add(group.id);
  return shown;
}
