// Adding, changing and removing members. Group members are managed by Owners, project members by
// Maintainers (who may not grant or touch the Owner level). A top-level group keeps at least one
// Owner, and the owner of a personal namespace keeps their Owner membership of its projects.
import { AppError, forbidden, notFound, paramError, recordNotFound, validationError } from "../../errors.js";
import type { Prisma, User } from "../../generated/prisma/client.js";
import { AccessLevel, ROLE_NAMES, VALID_MEMBER_LEVELS } from "../shared/access-levels.js";
import type { GroupOrProjectAccess } from "../shared/parents.js";
import { requireAuthenticated, requireLevel } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { publish, type MemberEvent } from "../shared/events.js";
import { findDirect, targetOf, type Member, type MemberSource, type Target } from "./queries.js";

export interface MemberInput {
  user_id?: number | null;
  username?: string | null;
  access_level: number;
  expires_at?: Date | null;
}

/** admin_group_member (Owner) / admin_project_member (Maintainer); the Owner level itself needs Owner (manage_owners). */
function requireManage(ctx: DomainContext, t: Target, levels: number[]): void {
  requireLevel(ctx, t.level, t.source === "group" ? AccessLevel.owner : AccessLevel.maintainer);
  if (levels.some((level) => level >= AccessLevel.owner)) requireLevel(ctx, t.level, AccessLevel.owner);
}

/** Memberships no one may change: the last Owner of a top-level group, the holder of a personal namespace. */
async function requireChangeable(ctx: DomainContext, t: Target, member: Member): Promise<void> {
  if (t.holderId === member.user.id) throw forbidden();
  if (t.source !== "group" || t.inheritedFrom.length > 1 || member.accessLevel < AccessLevel.owner) return;
  const owners = await ctx.db.groupMember.count({ where: { groupId: t.id, accessLevel: AccessLevel.owner } });
  if (owners <= 1) throw forbidden();
}

function checkLevel(level: number): void {
  if (!VALID_MEMBER_LEVELS.includes(level)) throw paramError("access_level does not have a valid value");
}

/** Model validations: no expiry in the past, no level below the user's membership of an ancestor group. */
async function memberErrors(ctx: DomainContext, t: Target, userId: number, level: number, expiresAt: Date | null | undefined) {
  const errors: Record<string, string[]> = {};
  const ancestors = t.source === "group" ? t.inheritedFrom.filter((g) => g !== t.id) : t.inheritedFrom;
  const inherited = await ctx.db.groupMember.findFirst({
    where: { userId, groupId: { in: ancestors } }, orderBy: { accessLevel: "desc" }, include: { group: { select: { name: true } } },
  });
  if (inherited && inherited.accessLevel > level) {
    errors.access_level = [`should be greater than or equal to ${ROLE_NAMES[inherited.accessLevel]} inherited membership from group ${inherited.group.name}`];
  }
  if (expiresAt && expiresAt.toISOString().slice(0, 10) < ctx.now().toISOString().slice(0, 10)) {
    errors.expires_at = ["cannot be a date in the past"];
  }
  if (Object.keys(errors).length) throw validationError(errors);
}

async function userToAdd(ctx: DomainContext, input: MemberInput): Promise<User> {
  const user =
    input.user_id != null
      ? await ctx.db.user.findUnique({ where: { id: input.user_id } })
      : await ctx.db.user.findUnique({ where: { usernameLower: input.username!.toLowerCase() } });
  if (!user) throw notFound("User");
  return user;
}

/** The caller (401) and the params (400) of a new member, checked before its source is looked up. */
export function checkMemberInput(ctx: DomainContext, input: MemberInput): void {
  requireAuthenticated(ctx);
  if (input.user_id != null && input.username != null) throw paramError("user_id, username are mutually exclusive");
  if (input.user_id == null && input.username == null) throw paramError("user_id, username are missing, at least one parameter must be provided");
  checkLevel(input.access_level);
}

/**
 * Same order as GitLab: params (checkMemberInput), source (404), user (404), existing member (409),
 * permission (403), validations (400).
 */
export async function addMember(ctx: DomainContext, parent: GroupOrProjectAccess, input: MemberInput): Promise<Member> {
  const t = targetOf(parent);
  const user = await userToAdd(ctx, input);
  if (await findDirect(ctx, t, user.id)) throw new AppError(409, { message: "Member already exists" });
  requireManage(ctx, t, [input.access_level]);
  await memberErrors(ctx, t, user.id, input.access_level, input.expires_at);
  return ctx.db.$transaction(async (tx) => {
    const member = await insertMember(tx, t.source, t.id, user.id, input.access_level, input.expires_at ?? null, ctx.actor!.user.id);
    await publishMember(tx, ctx, "create", t.source, t.id, member);
    return member;
  });
}

/** The member event of a membership change (webhooks hear group ones), inside the change's transaction. */
export function publishMember(
  tx: Prisma.TransactionClient, ctx: DomainContext, action: MemberEvent["action"], source: MemberSource, sourceId: number, member: Member,
  previous?: Pick<Member, "accessLevel" | "expiresAt">,
): Promise<void> {
  return publish(tx, ctx, "member", {
    action, source, sourceId, userId: member.user.id, accessLevel: member.accessLevel, expiresAt: member.expiresAt,
    createdAt: member.createdAt, actorId: ctx.actor?.user.id ?? null,
    ...(previous ? { previous: { accessLevel: previous.accessLevel, expiresAt: previous.expiresAt } } : {}),
  });
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

export interface MemberUpdateInput {
  access_level: number;
  expires_at?: Date | null;
}

/** The caller (401) and the level (400) of a membership change, checked before its source is looked up. */
export function checkMemberUpdate(ctx: DomainContext, input: MemberUpdateInput): void {
  requireAuthenticated(ctx);
  checkLevel(input.access_level);
}

/** Changes the direct membership of user `userId` in the found source (after checkMemberUpdate). */
/** A direct member of the parent found, to change or remove. */
export interface DirectMember {
  target: Target;
  member: Member;
}

/** The user's direct membership of the parent: 404 when there is none. */
export async function findDirectMember(ctx: DomainContext, parent: GroupOrProjectAccess, userId: number): Promise<DirectMember> {
  const target = targetOf(parent);
  const member = await findDirect(ctx, target, userId);
  if (!member) throw recordNotFound();
  return { target, member };
}

export async function updateMember(ctx: DomainContext, { target: t, member }: DirectMember, input: MemberUpdateInput): Promise<Member> {
  const userId = member.user.id;
  requireManage(ctx, t, [input.access_level, member.accessLevel]);
  await requireChangeable(ctx, t, member);
  await memberErrors(ctx, t, userId, input.access_level, input.expires_at);
  const data = { accessLevel: input.access_level, expiresAt: input.expires_at };
  return ctx.db.$transaction(async (tx) => {
    const updated: Member = t.source === "group"
      ? await tx.groupMember.update({ where: { groupId_userId: { groupId: t.id, userId } }, data, include: { user: true } })
      : await tx.projectMember.update({ where: { projectId_userId: { projectId: t.id, userId } }, data, include: { user: true } });
    const changed = updated.accessLevel !== member.accessLevel || updated.expiresAt?.getTime() !== member.expiresAt?.getTime();
    if (changed) await publishMember(tx, ctx, "update", t.source, t.id, updated, member);
    return updated;
  });
}

/**
 * A member may leave on their own; otherwise the managing level is needed. Removing a group
 * member also removes their direct memberships below it unless `skip_subresources`.
 */
export async function removeMember(ctx: DomainContext, { target: t, member }: DirectMember, skipSubresources = false): Promise<boolean> {
  const userId = member.user.id;
  if (ctx.actor!.user.id !== userId) requireManage(ctx, t, [member.accessLevel]);
  await requireChangeable(ctx, t, member);
  if (t.source === "project") {
    await ctx.db.$transaction(async (tx) => {
      await tx.projectMember.delete({ where: { projectId_userId: { projectId: t.id, userId } } });
      await publishMember(tx, ctx, "destroy", t.source, t.id, member);
    });
    return true;
  }
  await ctx.db.$transaction(async (tx) => {
    await tx.groupMember.delete({ where: { groupId_userId: { groupId: t.id, userId } } });
    await publishMember(tx, ctx, "destroy", t.source, t.id, member);
    if (!skipSubresources) await removeBelow(tx, ctx, t.id, userId);
  });
  return true;
}

/** Each subgroup membership removed with it is a member removal of its own (GitLab destroys them one by one). */
async function removeBelow(tx: Prisma.TransactionClient, ctx: DomainContext, groupId: number, userId: number): Promise<void> {
  const group = await tx.namespace.findUniqueOrThrow({ where: { id: groupId }, select: { traversalIds: true } });
  const below = { traversalIds: { startsWith: group.traversalIds } };
  const groupMembers = await tx.groupMember.findMany({ where: { userId, group: below }, include: { user: true }, orderBy: { id: "asc" } });
  await tx.groupMember.deleteMany({ where: { userId, group: below } });
  await tx.projectMember.deleteMany({ where: { userId, project: { namespace: below } } });
  for (const removed of groupMembers) await publishMember(tx, ctx, "destroy", "group", removed.groupId, removed);
}
