// Group and project memberships. Group members are managed by Owners, project members by
// Maintainers (who may not grant or touch the Owner level). Inherited members come from
// the ancestor groups.
import type { Namespace, Prisma, User } from "../generated/prisma/client.js";
import { AppError, forbidden, notFound, paramError } from "../errors.js";
import { AccessLevel, ancestorIds, findGroup, findProject, requireLevel, VALID_MEMBER_LEVELS } from "./access.js";
import type { DomainContext } from "./context.js";
import { paginate, type Page, type PageArgs } from "./pagination.js";

export interface Member {
  user: User;
  accessLevel: number;
  createdAt: Date;
  expiresAt: Date | null;
  createdById: number | null;
}

export type MemberSource = "group" | "project";

export interface MemberInput {
  user_id: number;
  access_level: number;
  expires_at?: Date | null;
}

export interface MemberFilters extends PageArgs {
  query?: string | null;
  user_ids?: number[] | null;
}

interface Target {
  source: MemberSource;
  id: number;
  level: number;
  /** ancestor group ids whose members are inherited (including the group itself for groups) */
  inheritedFrom: number[];
}

async function target(ctx: DomainContext, source: MemberSource, id: string): Promise<Target> {
  if (source === "group") {
    const { group, level } = await findGroup(ctx, id);
    return { source, id: group.id, level, inheritedFrom: ancestorIds(group) };
  }
  const { project, level } = await findProject(ctx, id);
  const inheritedFrom = project.namespace.kind === "group" ? ancestorIds(project.namespace) : [];
  return { source, id: project.id, level, inheritedFrom };
}

function userFilter(filters: MemberFilters): Prisma.UserWhereInput {
  return {
    ...(filters.query ? { OR: [{ name: { contains: filters.query } }, { username: { contains: filters.query } }] } : {}),
    ...(filters.user_ids?.length ? { id: { in: filters.user_ids } } : {}),
  };
}

/** Direct members of a group or project. */
export async function listMembers(ctx: DomainContext, source: MemberSource, id: string, filters: MemberFilters): Promise<Page<Member>> {
  const t = await target(ctx, source, id);
  const user = userFilter(filters);
  if (source === "group") {
    const where = { groupId: t.id, user };
    return paginate(
      filters,
      (cap) => ctx.db.groupMember.count({ where, take: cap }),
      (skip, take) => ctx.db.groupMember.findMany({ where, include: { user: true }, orderBy: { id: "asc" }, skip, take }),
    );
  }
  const where = { projectId: t.id, user };
  return paginate(
    filters,
    (cap) => ctx.db.projectMember.count({ where, take: cap }),
    (skip, take) => ctx.db.projectMember.findMany({ where, include: { user: true }, orderBy: { id: "asc" }, skip, take }),
  );
}

/** Direct and inherited members; each user once, with their highest access level. */
export async function listAllMembers(ctx: DomainContext, source: MemberSource, id: string, filters: MemberFilters): Promise<Page<Member>> {
  const t = await target(ctx, source, id);
  const user = userFilter(filters);
  const [groupRows, projectRows] = await Promise.all([
    ctx.db.groupMember.findMany({ where: { groupId: { in: t.inheritedFrom }, user }, include: { user: true } }),
    source === "project" ? ctx.db.projectMember.findMany({ where: { projectId: t.id, user }, include: { user: true } }) : [],
  ]);
  const best = new Map<number, Member>();
  for (const row of [...groupRows, ...projectRows]) {
    const seen = best.get(row.userId);
    if (!seen || row.accessLevel > seen.accessLevel) best.set(row.userId, row);
  }
  const all = [...best.values()].sort((a, b) => a.user.id - b.user.id);
  return paginate(filters, async () => all.length, async (skip, take) => all.slice(skip, skip + take));
}

export async function getMember(ctx: DomainContext, source: MemberSource, id: string, userId: number): Promise<Member> {
  const t = await target(ctx, source, id);
  const member = await findDirect(ctx, t, userId);
  if (!member) throw notFound("Member");
  return member;
}

function findDirect(ctx: DomainContext, t: Target, userId: number): Promise<Member | null> {
  return t.source === "group"
    ? ctx.db.groupMember.findUnique({ where: { groupId_userId: { groupId: t.id, userId } }, include: { user: true } })
    : ctx.db.projectMember.findUnique({ where: { projectId_userId: { projectId: t.id, userId } }, include: { user: true } });
}

/** Owners manage group members; Maintainers manage project members but not the Owner level. */
function requireManage(ctx: DomainContext, t: Target, levels: number[]): void {
  requireLevel(ctx, t.level, t.source === "group" ? AccessLevel.owner : AccessLevel.maintainer);
  const mayGrantOwner = ctx.actor!.user.isAdmin || t.level >= AccessLevel.owner;
  if (levels.some((level) => level >= AccessLevel.owner) && !mayGrantOwner) throw forbidden();
}

function checkLevel(level: number): void {
  if (!VALID_MEMBER_LEVELS.includes(level)) throw paramError("access_level does not have a valid value");
}

export async function addMember(ctx: DomainContext, source: MemberSource, id: string, input: MemberInput): Promise<Member> {
  checkLevel(input.access_level);
  const t = await target(ctx, source, id);
  requireManage(ctx, t, [input.access_level]);
  const user = await ctx.db.user.findUnique({ where: { id: input.user_id } });
  if (!user) throw notFound("User");
  if (await findDirect(ctx, t, user.id)) throw new AppError(409, { message: "Member already exists" });
  return insertMember(ctx.db, t.source, t.id, user.id, input.access_level, input.expires_at ?? null, ctx.actor!.user.id);
}

export function insertMember(
  tx: Prisma.TransactionClient, source: MemberSource, sourceId: number, userId: number,
  accessLevel: number, expiresAt: Date | null, createdById: number | null,
): Promise<Member> {
  const data = { userId, accessLevel, expiresAt, createdById };
  return source === "group"
    ? tx.groupMember.create({ data: { ...data, groupId: sourceId }, include: { user: true } })
    : tx.projectMember.create({ data: { ...data, projectId: sourceId }, include: { user: true } });
}

export async function updateMember(
  ctx: DomainContext, source: MemberSource, id: string, userId: number, input: { access_level: number; expires_at?: Date | null },
): Promise<Member> {
  checkLevel(input.access_level);
  const t = await target(ctx, source, id);
  const member = await findDirect(ctx, t, userId);
  if (!member) throw notFound("Member");
  requireManage(ctx, t, [input.access_level, member.accessLevel]);
  if (member.accessLevel === AccessLevel.owner && input.access_level < AccessLevel.owner) await keepAnOwner(ctx, t);
  const data = { accessLevel: input.access_level, expiresAt: input.expires_at === undefined ? undefined : input.expires_at };
  return t.source === "group"
    ? ctx.db.groupMember.update({ where: { groupId_userId: { groupId: t.id, userId } }, data, include: { user: true } })
    : ctx.db.projectMember.update({ where: { projectId_userId: { projectId: t.id, userId } }, data, include: { user: true } });
}

export async function removeMember(ctx: DomainContext, source: MemberSource, id: string, userId: number): Promise<boolean> {
  const t = await target(ctx, source, id);
  const member = await findDirect(ctx, t, userId);
  if (!member) throw notFound("Member");
  const leavingThemselves = ctx.actor?.user.id === userId;
  if (!leavingThemselves) requireManage(ctx, t, [member.accessLevel]);
  if (member.accessLevel === AccessLevel.owner) await keepAnOwner(ctx, t);
  if (t.source === "group") await ctx.db.groupMember.delete({ where: { groupId_userId: { groupId: t.id, userId } } });
  else await ctx.db.projectMember.delete({ where: { projectId_userId: { projectId: t.id, userId } } });
  return true;
}

/** A top-level group always keeps at least one Owner. */
async function keepAnOwner(ctx: DomainContext, t: Target): Promise<void> {
  if (t.source !== "group" || t.inheritedFrom.length > 1) return;
  const owners = await ctx.db.groupMember.count({ where: { groupId: t.id, accessLevel: AccessLevel.owner } });
  if (owners <= 1) throw forbidden();
}

export type { Namespace };
