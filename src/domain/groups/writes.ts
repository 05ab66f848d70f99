// Creating and updating groups: names, paths and visibility checked as GitLab does; a new path
// moves the paths below it and leaves redirects behind.
import { AppError, validationError } from "../../errors.js";
import type { Namespace, Prisma } from "../../generated/prisma/client.js";
import { publishMember } from "../members/writes.js";
import { AccessLevel, traversalOf, VISIBILITY_LEVELS } from "../shared/access-levels.js";
import { findGroup, type GroupAccess } from "../shared/parents.js";
import { requireAuthenticated, requireLevel } from "../shared/guards.js";
import { changeAvatar, readAvatarArg, type CheckedAvatar, type FileUpload } from "../shared/avatars.js";
import { type Actor, type DomainContext } from "../shared/context.js";
import { publish } from "../shared/events.js";
import { nameProblems, pathProblems, rubyErrorHash, type Visibility } from "../shared/paths.js";
import { recheckIfTaken } from "../shared/preconditions.js";

export interface GroupInput {
  name?: string | null;
  path?: string | null;
  description?: string | null;
  visibility?: Visibility | null;
  request_access_enabled?: boolean | null;
  /** an upload sets the avatar, null removes it */
  avatar?: Promise<FileUpload> | null;
}

type Errors = Record<string, string[]>;

/** POST /groups renders model errors inside a message text: "Failed to save group {:path=>[...]}". */
const saveFailed = (errors: Errors) => new AppError(400, { message: `Failed to save group ${rubyErrorHash(errors)}` });

export async function createGroup(ctx: DomainContext, input: GroupInput & { name: string; path: string; parent_id?: number | null }) {
  const actor = requireAuthenticated(ctx);
  const parent = input.parent_id != null ? await parentForSubgroup(ctx, input.parent_id) : null;
  const visibility = input.visibility ?? "private";
  const fullPath = parent ? `${parent.fullPath}/${input.path}` : input.path;
  const avatar = await readAvatarArg(input.avatar);
  const errors = {
    ...attributeErrors(input), ...(await pathTaken(ctx, fullPath)), ...visibilityErrors(visibility, parent), ...avatar.errors,
  };
  if (Object.keys(errors).length) throw saveFailed(errors);
  const recheck = async () => {
    const taken = await pathTaken(ctx, fullPath);
    if (Object.keys(taken).length) throw saveFailed(taken);
  };
  return recheckIfTaken(() => insertGroup(ctx, actor, input, { parent, visibility, fullPath, avatar: avatar.next }), recheck);
}

interface NewGroup {
  parent: Namespace | null;
  visibility: Visibility;
  fullPath: string;
  avatar: CheckedAvatar | null | undefined;
}

function insertGroup(ctx: DomainContext, actor: Actor, input: GroupInput & { name: string; path: string }, { parent, visibility, fullPath, avatar }: NewGroup) {
  return changeAvatar(ctx, "group", null, avatar, (storeAvatar) => ctx.db.$transaction(async (tx) => {
    const created = await tx.namespace.create({
      data: {
        kind: "group", name: input.name, path: input.path, fullPath, fullPathLower: fullPath.toLowerCase(),
        description: input.description ?? "", visibility, parentId: parent?.id ?? null,
        requestAccessEnabled: input.request_access_enabled ?? true,
      },
    });
    const ownership = await tx.groupMember.create({
      data: { groupId: created.id, userId: actor.user.id, accessLevel: AccessLevel.owner, createdById: actor.user.id }, include: { user: true },
    });
    const avatarPath = await storeAvatar(tx, created.id);
    const group = await tx.namespace.update({ where: { id: created.id }, data: { traversalIds: traversalOf(parent, created.id), avatarPath } });
    if (parent) await publish(tx, ctx, "subgroup", { action: "create", subgroup: group, parent, actorId: actor.user.id });
    await publishMember(tx, ctx, "create", "group", group.id, ownership);
    return group;
  }));
}

/** Creating a subgroup needs Maintainer on the parent (GitLab's default subgroup_creation_level). */
async function parentForSubgroup(ctx: DomainContext, parentId: number): Promise<Namespace> {
  const { group, level } = await findGroup(ctx, parentId);
  requireLevel(ctx, level, AccessLevel.maintainer);
  return group;
}

function attributeErrors(input: GroupInput): Errors {
  const errors: Errors = {};
  const name = input.name != null ? nameProblems(input.name, "namespace") : [];
  const path = input.path != null ? pathProblems(input.path, "namespace") : [];
  if (name.length) errors.name = name;
  if (path.length) errors.path = path;
  return errors;
}

async function pathTaken(ctx: DomainContext, fullPath: string, current?: Namespace): Promise<Errors> {
  const lower = fullPath.toLowerCase();
  if (current?.fullPathLower === lower) return {};
  const clash = await ctx.db.namespace.findUnique({ where: { fullPathLower: lower }, select: { id: true } });
  return clash ? { path: ["has already been taken"] } : {};
}

const above = (a: string, b: string) => VISIBILITY_LEVELS[a]! > VISIBILITY_LEVELS[b]!;

const levelsAbove = (visibility: string) => Object.keys(VISIBILITY_LEVELS).filter((v) => above(v, visibility));

function visibilityErrors(visibility: Visibility, parent: Namespace | null): Errors {
  if (!parent || !above(visibility, parent.visibility)) return {};
  return { visibility_level: [`${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`] };
}

/** A group may not be less visible than its own subgroups and projects. */
async function contentVisibilityErrors(ctx: DomainContext, group: Namespace, visibility: Visibility): Promise<Errors> {
  const higher = { in: levelsAbove(visibility) };
  const [subgroup, project] = await Promise.all([
    ctx.db.namespace.findFirst({ where: { parentId: group.id, visibility: higher }, select: { id: true } }),
    ctx.db.project.findFirst({ where: { namespaceId: group.id, visibility: higher }, select: { id: true } }),
  ]);
  const messages = [
    ...(project ? [`${visibility} is not allowed since this group contains projects with higher visibility.`] : []),
    ...(subgroup ? [`${visibility} is not allowed since there are sub-groups with higher visibility.`] : []),
  ];
  return messages.length ? { visibility_level: messages } : {};
}

/**
 * Owner (admin_group) may change a group (found after requireAuthenticated: 401 before 404); a
 * new path moves the whole subtree.
 */
export async function updateGroup(ctx: DomainContext, access: GroupAccess, input: GroupInput): Promise<Namespace> {
  requireLevel(ctx, access.level, AccessLevel.owner);
  const { group } = access;
  const parent = group.parentId ? await ctx.db.namespace.findUnique({ where: { id: group.parentId } }) : null;
  const path = input.path ?? group.path;
  const fullPath = parent ? `${parent.fullPath}/${path}` : path;
  const visibility = input.visibility ?? (group.visibility as Visibility);
  const changesVisibility = visibility !== group.visibility;
  const avatar = await readAvatarArg(input.avatar);
  const errors = {
    ...attributeErrors(input),
    ...(await pathTaken(ctx, fullPath, group)),
    ...(changesVisibility ? { ...visibilityErrors(visibility, parent), ...(await contentVisibilityErrors(ctx, group, visibility)) } : {}),
    ...avatar.errors,
  };
  if (Object.keys(errors).length) throw validationError(errors);
  return changeAvatar(ctx, "group", group.avatarPath, avatar.next, (storeAvatar) =>
    ctx.db.$transaction(async (tx) => {
      const avatarPath = await storeAvatar(tx, group.id);
      if (fullPath !== group.fullPath) await movePaths(tx, group, fullPath);
      const updated = await tx.namespace.update({
        where: { id: group.id },
        data: {
          name: input.name ?? undefined, path, description: input.description ?? undefined,
          visibility, requestAccessEnabled: input.request_access_enabled ?? undefined, avatarPath,
        },
      });
      if (changesVisibility) {
        await publish(tx, ctx, "visibility", { source: "group", sourceId: group.id, previous: group.visibility, current: visibility, actorId: ctx.actor!.user.id });
      }
      return updated;
    }),
  );
}

/**
 * Renames the full path of a namespace and everything below it; the projects inside keep
 * answering on their old paths through redirect routes.
 */
export async function movePaths(tx: Prisma.TransactionClient, ns: Namespace, newFullPath: string): Promise<void> {
  const subtree = await tx.namespace.findMany({
    where: ns.kind === "group" ? { traversalIds: { startsWith: ns.traversalIds } } : { id: ns.id },
    include: { projects: { select: { id: true, path: true } } },
  });
  for (const node of subtree) {
    const moved = newFullPath + node.fullPath.slice(ns.fullPath.length);
    for (const project of node.projects) {
      await addRedirect(tx, `${node.fullPath}/${project.path}`, project.id);
      await tx.redirectRoute.deleteMany({ where: { pathLower: `${moved}/${project.path}`.toLowerCase() } });
    }
    await tx.namespace.update({ where: { id: node.id }, data: { fullPath: moved, fullPathLower: moved.toLowerCase() } });
  }
}

export async function addRedirect(tx: Prisma.TransactionClient, oldFullPath: string, projectId: number) {
  const pathLower = oldFullPath.toLowerCase();
  await tx.redirectRoute.upsert({ where: { pathLower }, create: { pathLower, projectId }, update: { projectId } });
}
