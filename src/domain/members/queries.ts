// Group and project memberships. Every route needs a signed-in caller. Inherited members come
// from the ancestor groups. Lists: lists.ts; adding, changing and removing members: writes.ts.
import { forbidden, recordNotFound } from "../../errors.js";
import type { Prisma, User } from "../../generated/prisma/client.js";
import { ancestorIds, canSee } from "../shared/access-levels.js";
import { liveShares, notExpired, sharedLevel, sharingGroupIds } from "../shared/memberships.js";
import { groupsShownAmong } from "../shared/visibility-filters.js";
import { findGroup, findProject, type GroupOrProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";

export interface Member {
  user: User;
  accessLevel: number;
  createdAt: Date;
  expiresAt: Date | null;
  createdById: number | null;
}

export type MemberSource = "group" | "project";

export interface Target {
  source: MemberSource;
  id: number;
  /** the caller's access level on the source */
  level: number;
  visibility: string;
  /** ancestor group ids whose members are inherited (for a group: itself included) */
  inheritedFrom: number[];
  /** the owner of a personal project's namespace */
  holderId: number | null;
}

/** `:id` of a group or project member route: a signed-in caller first (401), then the source (404). */
export async function findMemberParent(ctx: DomainContext, source: MemberSource, id: string): Promise<GroupOrProjectAccess> {
  requireAuthenticated(ctx);
  return source === "group" ? findGroup(ctx, id) : findProject(ctx, id);
}

export function targetOf(parent: GroupOrProjectAccess): Target {
  if ("group" in parent) {
    const { group, level } = parent;
    return { source: "group", id: group.id, level, visibility: group.visibility, inheritedFrom: ancestorIds(group), holderId: null };
  }
  const { project, level } = parent;
  const ns = project.namespace;
  const inheritedFrom = ns.kind === "group" ? ancestorIds(ns) : [];
  return { source: "project", id: project.id, level, visibility: project.visibility, inheritedFrom, holderId: ns.ownerId };
}

/** read_*_member: members and admins, or anyone the source is open to (not someone who only sees it through a subgroup). */
export function requireReadable(ctx: DomainContext, t: Target): Target {
  if (!canSee(ctx.actor, t.visibility, t.level)) throw forbidden();
  return t;
}

const readableTarget = (ctx: DomainContext, parent: GroupOrProjectAccess) => requireReadable(ctx, targetOf(parent));

/**
 * Direct, inherited and shared members; each user once, with their highest access level, by user
 * id. A share's members count at min(their level, the share's access), and only for shares with a
 * group that is public or that the caller is a member of (GitLab hides a private invited group's members).
 */
export async function allMembers(ctx: DomainContext, t: Target, user: Prisma.UserWhereInput): Promise<Member[]> {
  const active = notExpired(ctx);
  const [groupRows, projectRows, shared] = await Promise.all([
    ctx.db.groupMember.findMany({ where: { groupId: { in: t.inheritedFrom }, user, ...active }, include: { user: true } }),
    t.source === "project" ? ctx.db.projectMember.findMany({ where: { projectId: t.id, user, ...active }, include: { user: true } }) : [],
    sharedMembers(ctx, t, user),
  ]);
  const best = new Map<number, Member>();
  for (const row of [...groupRows, ...projectRows, ...shared]) {
    const seen = best.get(row.user.id);
    if (!seen || row.accessLevel > seen.accessLevel) best.set(row.user.id, row);
  }
  return [...best.values()].sort((a, b) => a.user.id - b.user.id);
}

/** The members a target's live shares count, at their shared level, from the groups the caller may see. */
async function sharedMembers(ctx: DomainContext, t: Target, user: Prisma.UserWhereInput): Promise<Member[]> {
  const live = await liveShares(ctx, t.source === "project" ? t.id : null, t.inheritedFrom);
  const shown = await groupsShownAmong(ctx, live.map((share) => share.groupId));
  const shares = live.filter((share) => shown.has(share.groupId));
  if (!shares.length) return [];
  const rows = await ctx.db.groupMember.findMany({ where: { groupId: { in: sharingGroupIds(shares) }, user, ...notExpired(ctx) }, include: { user: true } });
  const members: Member[] = [];
  for (const userId of new Set(rows.map((row) => row.userId))) {
    const own = rows.filter((row) => row.userId === userId);
    const accessLevel = sharedLevel(shares, own);
    if (accessLevel > 0) members.push({ ...own[0]!, accessLevel });
  }
  return members;
}

/** GET /:source/:id/members/:user_id: a direct member of a source the caller may read (401, 404, 403, then 404). */
export async function findMember(ctx: DomainContext, source: MemberSource, id: string, userId: number): Promise<Member> {
  const member = await findDirect(ctx, readableTarget(ctx, await findMemberParent(ctx, source, id)), userId);
  if (!member) throw recordNotFound();
  return member;
}

/** GET /:source/:id/members/all/:user_id: the member with their highest direct or inherited level. */
export async function findAnyMember(ctx: DomainContext, source: MemberSource, id: string, userId: number): Promise<Member> {
  const [member] = await allMembers(ctx, readableTarget(ctx, await findMemberParent(ctx, source, id)), { id: userId });
  if (!member) throw recordNotFound();
  return member;
}

export function findDirect(ctx: DomainContext, t: Target, userId: number): Promise<Member | null> {
  return t.source === "group"
    ? ctx.db.groupMember.findUnique({ where: { groupId_userId: { groupId: t.id, userId } }, include: { user: true } })
    : ctx.db.projectMember.findUnique({ where: { projectId_userId: { projectId: t.id, userId } }, include: { user: true } });
}
