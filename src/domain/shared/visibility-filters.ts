// Prisma filters for the projects and groups a caller may see or holds a level on (lists).
import type { Prisma } from "../../generated/prisma/client.js";
import type { DomainContext } from "./context.js";
import { AccessLevel, ancestorIds, openVisibilities } from "./access-levels.js";
import { groupAccessLevel, notExpired } from "./memberships.js";
import { isAdmin } from "./context.js";
import type { LoaderFactory } from "./loaders.js";

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
 * member of: a group share counts its direct members only. The shares into the caller's groups
 * are read once per request.
 */
async function groupsSharedWith(ctx: DomainContext, memberTraversals: string[], min: number): Promise<string[]> {
  if (!memberTraversals.length) return [];
  const groupIds = new Set(memberTraversals.map((t) => ancestorIds({ traversalIds: t }).at(-1)!));
  const links = await sharesIntoCallerGroups(ctx);
  return links.filter((link) => link.groupAccess >= min && groupIds.has(link.sharedWithGroupId)).map((link) => link.traversalIds);
}
type ShareIn = { sharedWithGroupId: number; groupAccess: number; traversalIds: string };
const sharesMemo: LoaderFactory<Map<number, Promise<ShareIn[]>>> = () => new Map();
function sharesIntoCallerGroups(ctx: DomainContext): Promise<ShareIn[]> {
  const userId = ctx.actor!.user.id;
  const memo = ctx.loaders.get(sharesMemo);
  let found = memo.get(userId);
  if (!found) {
    found = (async () => {
      const groupIds = [...new Set((await callerGroups(ctx)).map((group) => ancestorIds(group).at(-1)!))];
      const rows = await ctx.db.groupGroupLink.findMany({
        where: { sharedWithGroupId: { in: groupIds }, ...notExpired(ctx) },
        select: { sharedWithGroupId: true, groupAccess: true, sharedGroup: { select: { traversalIds: true } } },
      });
      return rows.map((row) => ({ sharedWithGroupId: row.sharedWithGroupId, groupAccess: row.groupAccess, traversalIds: row.sharedGroup.traversalIds }));
    })();
    memo.set(userId, found);
  }
  return found;
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
  return (await callerGroups(ctx)).filter((group) => group.accessLevel >= min).map((group) => group.traversalIds);
}
type CallerGroup = { traversalIds: string; accessLevel: number };
/** The caller's direct group memberships, read once per request (lists may build several visibility filters). */
const callerGroupsMemo: LoaderFactory<Map<number, Promise<CallerGroup[]>>> = () => new Map();
function callerGroups(ctx: DomainContext): Promise<CallerGroup[]> {
  const userId = ctx.actor?.user.id;
  if (!userId) return Promise.resolve([]);
  const memo = ctx.loaders.get(callerGroupsMemo);
  let found = memo.get(userId);
  if (!found) {
    found = ctx.db.groupMember
      .findMany({ where: { userId, ...notExpired(ctx) }, select: { accessLevel: true, group: { select: { traversalIds: true } } } })
      .then((rows) => rows.map((row) => ({ traversalIds: row.group.traversalIds, accessLevel: row.accessLevel })));
    memo.set(userId, found);
  }
  return found;
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
