// The caller's (and other users') access levels on groups and projects, inherited from ancestor
// groups and extended by shares, kept between requests in the memberships cache (shared/caches.ts).
// A share gives min(the member's level, the share's access): a project shared with a group counts
// the group's members and the members of its ancestors; a group shared with a group counts the
// direct members of that group only (GitLab's project_group_links and group_group_links).
import type { Namespace, Project } from "../../generated/prisma/client.js";
import { loadUnexpired, type MembershipLevels } from "./caches.js";
import type { DomainContext } from "./context.js";
import { AccessLevel, ancestorIds } from "./access-levels.js";

/** Highest group membership of the user in the namespace or any of its ancestors. */
export async function groupAccessLevel(ctx: DomainContext, ns: Namespace): Promise<number> {
  const user = ctx.actor?.user;
  if (!user) return 0;
  if (ns.kind === "user") return ns.ownerId === user.id ? AccessLevel.owner : 0;
  const levels = await cachedLevels(ctx, `${user.id}/g${ns.id}`, () => loadLevels(ctx, user.id, null, ns));
  return Math.max(levels.inherited, levels.shared);
}
export async function projectAccessLevel(ctx: DomainContext, project: Project & { namespace: Namespace }): Promise<number> {
  const { direct, inherited, shared } = await projectMemberships(ctx, project);
  return Math.max(direct, inherited, shared);
}
/**
 * `projectAccessLevel` of other users: each user's highest direct, inherited (ancestor group) or
 * shared level, Owner for the owner of a personal namespace. Users without any are left out.
 */
export async function projectMemberLevels(ctx: DomainContext, project: Project & { namespace: Namespace }, userIds: number[]): Promise<Map<number, number>> {
  const ns = project.namespace;
  const memberOf = { userId: { in: userIds }, ...notExpired(ctx) };
  const select = { userId: true, accessLevel: true } as const;
  const [direct, inherited, shares] = await Promise.all([
    ctx.db.projectMember.findMany({ where: { projectId: project.id, ...memberOf }, select }),
    ns.kind === "group" ? ctx.db.groupMember.findMany({ where: { groupId: { in: ancestorIds(ns) }, ...memberOf }, select }) : [],
    sharesOf(ctx, project.id, ns),
  ]);
  const levels = new Map<number, number>();
  const raise = (userId: number, level: number) => levels.set(userId, Math.max(levels.get(userId) ?? 0, level));
  for (const row of [...direct, ...inherited]) raise(row.userId, row.accessLevel);
  if (shares.length) {
    const rows = await ctx.db.groupMember.findMany({ where: { groupId: { in: sharingGroupIds(shares) }, ...memberOf }, select: { ...select, groupId: true } });
    for (const userId of new Set(rows.map((row) => row.userId))) raise(userId, sharedLevel(shares, rows.filter((row) => row.userId === userId)));
  }
  if (ns.kind === "user" && ns.ownerId != null && userIds.includes(ns.ownerId)) levels.set(ns.ownerId, AccessLevel.owner);
  return levels;
}
export interface ProjectMemberships {
  /** level of the caller's own project membership (0: none) */
  direct: number;
  /** highest level through the namespace (groups up the tree, or owning the personal namespace) */
  inherited: number;
  /** highest level through a group the project or one of its groups is shared with */
  shared: number;
}
/** The caller's memberships on a project (kept between requests: domain/shared/caches.ts). */
export async function projectMemberships(ctx: DomainContext, project: Project & { namespace: Namespace }): Promise<ProjectMemberships> {
  const user = ctx.actor?.user;
  if (!user) return { direct: 0, inherited: 0, shared: 0 };
  const ns = project.namespace;
  const owner = ns.kind === "user" && ns.ownerId === user.id ? AccessLevel.owner : 0;
  const levels = await cachedLevels(ctx, `${user.id}/p${project.id}`, () => loadLevels(ctx, user.id, project.id, ns.kind === "group" ? ns : null));
  return { direct: levels.direct, inherited: Math.max(levels.inherited, owner), shared: levels.shared };
}
/** GitLab's `permissions` of a project: the caller's project membership and group membership levels. */
export async function projectPermissions(ctx: DomainContext, project: Project & { namespace: Namespace }) {
  const { direct, inherited } = await projectMemberships(ctx, project);
  return { project: direct, group: project.namespace.kind === "group" ? inherited : 0 };
}
function cachedLevels(ctx: DomainContext, key: string, load: () => Promise<MembershipLevels>): Promise<MembershipLevels> {
  return loadUnexpired(ctx.caches.memberships, key, ctx.now().getTime(), load);
}
/**
 * The user's levels on the project (when given) and on the group: their project membership, their
 * memberships of the group and its ancestors, and the shares of the project and of those groups.
 * All of the user's group memberships are read at once (they also answer the shares' groups).
 */
async function loadLevels(ctx: DomainContext, userId: number, projectId: number | null, group: Namespace | null): Promise<MembershipLevels> {
  const select = { accessLevel: true, expiresAt: true } as const;
  const [direct, memberships, shares] = await Promise.all([
    projectId === null ? [] : ctx.db.projectMember.findMany({ where: { userId, projectId, ...notExpired(ctx) }, select }),
    ctx.db.groupMember.findMany({ where: { userId, ...notExpired(ctx) }, select: { ...select, groupId: true } }),
    sharesOf(ctx, projectId, group),
  ]);
  const ancestors = new Set(group ? ancestorIds(group) : []);
  const inherited = memberships.filter((row) => ancestors.has(row.groupId));
  const expiries = [...direct, ...memberships, ...shares].flatMap((row) => (row.expiresAt ? [row.expiresAt.getTime()] : []));
  return {
    direct: Math.max(0, ...direct.map((row) => row.accessLevel)),
    inherited: Math.max(0, ...inherited.map((row) => row.accessLevel)),
    shared: sharedLevel(shares, memberships),
    validUntil: expiries.length ? Math.min(...expiries) : null,
  };
}

/** A live share: the group shared with, the access it gives, and the groups whose members it counts. */
export interface Share {
  groupId: number;
  groupAccess: number;
  /** the group shared with, then (for a project's share) its ancestors */
  memberGroupIds: number[];
  expiresAt: Date | null;
}

/** The live shares of the project (when given) and of the group and its ancestors. */
async function sharesOf(ctx: DomainContext, projectId: number | null, group: Namespace | null): Promise<Share[]> {
  return liveShares(ctx, projectId, group?.kind === "group" ? ancestorIds(group) : []);
}

/** The live shares of the project (when given) and of the groups `groupIds` (a group and its ancestors). */
export async function liveShares(ctx: DomainContext, projectId: number | null, groupIds: number[]): Promise<Share[]> {
  const live = notExpired(ctx);
  const [projectShares, groupShares] = await Promise.all([
    projectId === null ? [] : ctx.db.projectGroupLink.findMany({
      where: { projectId, ...live }, select: { groupId: true, groupAccess: true, expiresAt: true, group: { select: { traversalIds: true } } },
    }),
    !groupIds.length ? [] : ctx.db.groupGroupLink.findMany({
      where: { sharedGroupId: { in: groupIds }, ...live }, select: { groupAccess: true, expiresAt: true, sharedWithGroupId: true },
    }),
  ]);
  return [
    ...projectShares.map((share) => ({ groupId: share.groupId, groupAccess: share.groupAccess, expiresAt: share.expiresAt, memberGroupIds: ancestorIds(share.group) })),
    ...groupShares.map((share) => ({ groupId: share.sharedWithGroupId, groupAccess: share.groupAccess, expiresAt: share.expiresAt, memberGroupIds: [share.sharedWithGroupId] })),
  ];
}

/** Every group whose members the shares count. */
export const sharingGroupIds = (shares: Share[]) => [...new Set(shares.flatMap((share) => share.memberGroupIds))];

/** The highest min(level, share's access) over the shares, from one user's group memberships. */
export function sharedLevel(shares: Share[], memberships: { groupId: number; accessLevel: number }[]): number {
  let level = 0;
  for (const share of shares) {
    const member = Math.max(0, ...memberships.filter((row) => share.memberGroupIds.includes(row.groupId)).map((row) => row.accessLevel));
    level = Math.max(level, Math.min(member, share.groupAccess));
  }
  return level;
}

/** Memberships past their `expires_at` no longer count. */
export const notExpired = (ctx: Pick<DomainContext, "now">) => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: ctx.now() } }] });
