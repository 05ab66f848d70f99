// POST /groups/:id/transfer: a group (with its subgroups and projects) moves under another parent
// group, or becomes top-level, as GitLab's Groups::TransferService does: its checks in its order
// and messages, visibility lowered to the new parent's, paths and traversal ids of the subtree
// rewritten, and redirects left on the old project paths.
import type { Namespace } from "../../generated/prisma/client.js";
import { AppError } from "../../errors.js";
import { AccessLevel, VISIBILITY_LEVELS } from "../shared/access-levels.js";
import { findGroup, type GroupAccess } from "../shared/parents.js";
import { requireLevel } from "../shared/guards.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import type { Tx } from "../shared/events.js";
import { movePaths } from "./writes.js";
import { insertMember, publishMember } from "../members/writes.js";
import { recheckIfTaken } from "../shared/preconditions.js";
import { recountTopics } from "../topics/assignments.js";

/** Groups::TransferService errors: 400 "Transfer failed: <reason>". */
const transferFailed = (reason: string) => new AppError(400, { message: `Transfer failed: ${reason}` });

const REASONS = {
  alreadyRoot: "Group is already a root group.",
  sameParent: "Group is already associated to the parent group.",
  permissions: "You don't have enough permissions.",
  samePath: "The parent group already has a subgroup or a project with the same path.",
  intoSubgroup: "Cannot transfer group to one of its subgroup.",
} as const;

/**
 * Owners (admin_group) move a group; `groupId` (the new parent, found here after the Owner check)
 * null or absent makes it top-level.
 */
export async function transferGroup(ctx: DomainContext, { group, level }: GroupAccess, groupId: number | null | undefined): Promise<Namespace> {
  requireLevel(ctx, level, AccessLevel.owner);
  const target = groupId != null ? await findGroup(ctx, groupId) : null;
  await ensureAllowedTransfer(ctx, group, target);
  const newParent = target?.group ?? null;
  return recheckIfTaken(
    () => ctx.db.$transaction((tx) => moveGroup(tx, ctx, group, newParent)),
    async () => {
      if (await pathTakenIn(ctx, group, newParent)) throw transferFailed(REASONS.samePath);
    },
  );
}

async function ensureAllowedTransfer(ctx: DomainContext, group: Namespace, target: { group: Namespace; level: number } | null): Promise<void> {
  if (!target && group.parentId === null) throw transferFailed(REASONS.alreadyRoot);
  if (target && target.group.id === group.parentId) throw transferFailed(REASONS.sameParent);
  // create_subgroup on the new parent (Maintainer, GitLab's default subgroup_creation_level); any
  // user may create a top-level group
  if (target && !isAdmin(ctx.actor) && target.level < AccessLevel.maintainer) throw transferFailed(REASONS.permissions);
  if (await pathTakenIn(ctx, group, target?.group ?? null)) throw transferFailed(REASONS.samePath);
  if (target && target.group.traversalIds.startsWith(group.traversalIds)) throw transferFailed(REASONS.intoSubgroup);
}

/** A namespace (group or user) or, under a group, a project already has the group's path there. */
async function pathTakenIn(ctx: DomainContext, group: Namespace, parent: Namespace | null): Promise<boolean> {
  const fullPathLower = (parent ? `${parent.fullPath}/${group.path}` : group.path).toLowerCase();
  const [namespace, project] = await Promise.all([
    ctx.db.namespace.findUnique({ where: { fullPathLower }, select: { id: true } }),
    parent ? ctx.db.project.findFirst({ where: { namespaceId: parent.id, pathLower: group.path.toLowerCase() }, select: { id: true } }) : null,
  ]);
  return (!!namespace && namespace.id !== group.id) || !!project;
}

async function moveGroup(tx: Tx, ctx: DomainContext, group: Namespace, parent: Namespace | null): Promise<Namespace> {
  if (parent && VISIBILITY_LEVELS[parent.visibility]! < VISIBILITY_LEVELS[group.visibility]!) await lowerVisibility(tx, group, parent.visibility);
  await movePaths(tx, group, parent ? `${parent.fullPath}/${group.path}` : group.path);
  await rewriteTraversalIds(tx, group, `${parent ? parent.traversalIds : ""}${group.id}/`);
  const moved = await tx.namespace.update({ where: { id: group.id }, data: { parentId: parent?.id ?? null } });
  if (!parent) await ensureOwnership(tx, ctx, moved);
  return moved;
}

/** The group, its subgroups and their projects take the new parent's visibility when above it. */
async function lowerVisibility(tx: Tx, group: Namespace, visibility: string): Promise<void> {
  const above = Object.keys(VISIBILITY_LEVELS).filter((v) => VISIBILITY_LEVELS[v]! > VISIBILITY_LEVELS[visibility]!);
  const subtree = { traversalIds: { startsWith: group.traversalIds } };
  await tx.namespace.updateMany({ where: { ...subtree, visibility: { in: above } }, data: { visibility } });
  const projects = { namespace: subtree, visibility: { in: above } };
  const topics = await tx.projectTopic.findMany({ where: { project: projects }, select: { topicId: true } });
  await tx.project.updateMany({ where: projects, data: { visibility } });
  await recountTopics(tx, [...new Set(topics.map((t) => t.topicId))]);
}

async function rewriteTraversalIds(tx: Tx, group: Namespace, prefix: string): Promise<void> {
  const subtree = await tx.namespace.findMany({ where: { traversalIds: { startsWith: group.traversalIds } }, select: { id: true, traversalIds: true } });
  for (const node of subtree) {
    await tx.namespace.update({ where: { id: node.id }, data: { traversalIds: prefix + node.traversalIds.slice(group.traversalIds.length) } });
  }
}

/** A group becoming top-level without an Owner of its own gets the caller as Owner (ensure_ownership). */
async function ensureOwnership(tx: Tx, ctx: DomainContext, group: Namespace): Promise<void> {
  const user = ctx.actor!.user;
  if (await tx.groupMember.findFirst({ where: { groupId: group.id, accessLevel: AccessLevel.owner }, select: { id: true } })) return;
  const existing = await tx.groupMember.findUnique({ where: { groupId_userId: { groupId: group.id, userId: user.id } } });
  if (existing) {
    const updated = await tx.groupMember.update({ where: { id: existing.id }, data: { accessLevel: AccessLevel.owner }, include: { user: true } });
    await publishMember(tx, ctx, "update", "group", group.id, updated);
  } else {
    const created = await insertMember(tx, "group", group.id, user.id, AccessLevel.owner, null, user.id);
    await publishMember(tx, ctx, "create", "group", group.id, created);
  }
}
