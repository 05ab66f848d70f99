// The caller's (and other users') access levels on groups and projects, inherited from ancestor
// groups, kept between requests in the memberships cache (shared/caches.ts).
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
  return levels.inherited;
}
export async function projectAccessLevel(ctx: DomainContext, project: Project & { namespace: Namespace }): Promise<number> {
  const { direct, inherited } = await projectMemberships(ctx, project);
  return Math.max(direct, inherited);
}
/**
 * `projectAccessLevel` of other users, in one pair of queries: each user's highest direct or
 * inherited (ancestor group) membership, Owner for the owner of a personal namespace. Users
 * without any are left out.
 */
export async function projectMemberLevels(ctx: DomainContext, project: Project & { namespace: Namespace }, userIds: number[]): Promise<Map<number, number>> {
  const ns = project.namespace;
  const memberOf = { userId: { in: userIds }, ...notExpired(ctx) };
  const select = { userId: true, accessLevel: true } as const;
  const [direct, inherited] = await Promise.all([
    ctx.db.projectMember.findMany({ where: { projectId: project.id, ...memberOf }, select }),
    ns.kind === "group" ? ctx.db.groupMember.findMany({ where: { groupId: { in: ancestorIds(ns) }, ...memberOf }, select }) : [],
  ]);
  const levels = new Map<number, number>();
  for (const row of [...direct, ...inherited]) levels.set(row.userId, Math.max(levels.get(row.userId) ?? 0, row.accessLevel));
  if (ns.kind === "user" && ns.ownerId != null && userIds.includes(ns.ownerId)) levels.set(ns.ownerId, AccessLevel.owner);
  return levels;
}
export interface ProjectMemberships {
  /** level of the caller's own project membership (0: none) */
  direct: number;
  /** highest level through the namespace (groups up the tree, or owning the personal namespace) */
  inherited: number;
}
/** The caller's memberships on a project (kept between requests: domain/shared/caches.ts). */
export async function projectMemberships(ctx: DomainContext, project: Project & { namespace: Namespace }): Promise<ProjectMemberships> {
  const user = ctx.actor?.user;
  if (!user) return { direct: 0, inherited: 0 };
  const ns = project.namespace;
  const owner = ns.kind === "user" && ns.ownerId === user.id ? AccessLevel.owner : 0;
  const levels = await cachedLevels(ctx, `${user.id}/p${project.id}`, () => loadLevels(ctx, user.id, project.id, ns.kind === "group" ? ns : null));
  return { direct: levels.direct, inherited: Math.max(levels.inherited, owner) };
}
/** GitLab's `permissions` of a project: the caller's project membership and group membership levels. */
export async function projectPermissions(ctx: DomainContext, project: Project & { namespace: Namespace }) {
  const { direct, inherited } = await projectMemberships(ctx, project);
  return { project: direct, group: project.namespace.kind === "group" ? inherited : 0 };
}
function cachedLevels(ctx: DomainContext, key: string, load: () => Promise<MembershipLevels>): Promise<MembershipLevels> {
  return loadUnexpired(ctx.caches.memberships, key, ctx.now().getTime(), load);
}
/** The user's membership rows in the project (when given) and in the group and its ancestors. */
async function loadLevels(ctx: DomainContext, userId: number, projectId: number | null, group: Namespace | null): Promise<MembershipLevels> {
  const select = { accessLevel: true, expiresAt: true } as const;
  const [direct, inherited] = await Promise.all([
    projectId === null ? [] : ctx.db.projectMember.findMany({ where: { userId, projectId, ...notExpired(ctx) }, select }),
    group ? ctx.db.groupMember.findMany({ where: { userId, groupId: { in: ancestorIds(group) }, ...notExpired(ctx) }, select }) : [],
  ]);
  const expiries = [...direct, ...inherited].flatMap((row) => (row.expiresAt ? [row.expiresAt.getTime()] : []));
  return {
    direct: Math.max(0, ...direct.map((row) => row.accessLevel)),
    inherited: Math.max(0, ...inherited.map((row) => row.accessLevel)),
    validUntil: expiries.length ? Math.min(...expiries) : null,
  };
}
/** Memberships past their `expires_at` no longer count. */
export const notExpired = (ctx: DomainContext) => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: ctx.now() } }] });
