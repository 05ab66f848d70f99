// DELETE /users/:id (administrators): users.rb with Users::DestroyService, run at once in one
// transaction instead of GitLab's background worker. The user's memberships end, their personal
// namespace and projects go, their tokens go with the user row; contributions move to the ghost
// user, or are deleted with hard_delete (which also deletes the groups the user solely owns).
import type { Namespace, User } from "../../generated/prisma/client.js";
import { conflict, forbidden } from "../../errors.js";
import { AccessLevel } from "../shared/access-levels.js";
import { removeAvatarFile } from "../shared/avatars.js";
import type { DomainContext } from "../shared/context.js";
import type { Tx } from "../shared/events.js";
import { destroyGroupTree } from "./groups.js";
import { publishMember } from "../members/writes.js";
import { assertUnmodifiedSince } from "../shared/preconditions.js";
import { destroyProjects } from "./projects.js";
import { deleteContributions, detachUser, moveContributionsToGhost } from "../users/contributions.js";
import { ghostUser } from "../users/ghost.js";
import { isInternal } from "../users/states.js";
import { publish } from "../shared/events.js";

/** Deletes the user found by findUserToAdminister. */
export async function deleteUser(ctx: DomainContext, user: User, hardDelete: boolean, ifUnmodifiedSince?: string | null): Promise<boolean> {
  if (isInternal(user)) throw forbidden(); // UserPolicy: the ghost user cannot be destroyed
  const soloOwned = await soloOwnedGroups(ctx, user.id);
  if (soloOwned.length && !hardDelete) throw conflict("User cannot be removed while is the sole-owner of a group");
  assertUnmodifiedSince(user.updatedAt, ifUnmodifiedSince);
  const ghost = hardDelete ? null : await ghostUser(ctx);
  const avatars = await ctx.db.$transaction(async (tx) => {
    const groupAvatars: string[] = [];
    for (const group of soloOwned) groupAvatars.push(...(await destroyGroupTree(tx, ctx, group)));
    await endMemberships(tx, ctx, user);
    await destroyPersonalProjects(tx, ctx, user);
    if (ghost) await moveContributionsToGhost(tx, user.id, ghost.id);
    else await deleteContributions(tx, user.id);
    await detachUser(tx, user.id);
    if (user.avatarPath) await tx.storedFile.deleteMany({ where: { path: user.avatarPath } });
    // the personal namespace, tokens and memberships cascade with the user row
    await tx.user.delete({ where: { id: user.id } });
    if (ctx.actor) await publish(tx, ctx, "user_state", { action: "destroy", user, actorId: ctx.actor.user.id });
    return [...groupAvatars, ...(user.avatarPath ? [user.avatarPath] : [])];
  }, { timeout: 60_000 });
  // files kept from before StoredFile go once the rows are gone
  for (const avatar of avatars) await removeAvatarFile(ctx, avatar);
  return true;
}

/**
 * User#solo_owned_groups: groups the user owns directly where no other Owner exists in the group
 * or its ancestors.
 */
async function soloOwnedGroups(ctx: DomainContext, userId: number): Promise<Namespace[]> {
  const owned = await ctx.db.groupMember.findMany({
    where: { userId, accessLevel: AccessLevel.owner },
    include: { group: true },
  });
  const solo: Namespace[] = [];
  for (const { group } of owned) {
    const ancestorIds = group.traversalIds.split("/").filter(Boolean).map(Number);
    const owners = await ctx.db.groupMember.count({ where: { groupId: { in: ancestorIds }, accessLevel: AccessLevel.owner } });
    if (owners === 1) solo.push(group);
  }
  // a group inside another solo-owned group goes with it
  // (traversal ids end with "/", so a prefix is an ancestor)
  return solo.filter((g) => !solo.some((other) => other.id !== g.id && g.traversalIds.startsWith(other.traversalIds)));
}

/** Users::DestroyService#destroy_memberships: each removal is a member event (hooks see `destroy`). */
async function endMemberships(tx: Tx, ctx: DomainContext, user: User): Promise<void> {
  const [groups, projects] = await Promise.all([
    tx.groupMember.findMany({ where: { userId: user.id } }),
    tx.projectMember.findMany({ where: { userId: user.id } }),
  ]);
  for (const m of groups) await publishMember(tx, ctx, "destroy", "group", m.groupId, { ...m, user });
  for (const m of projects) await publishMember(tx, ctx, "destroy", "project", m.projectId, { ...m, user });
  await tx.groupMember.deleteMany({ where: { userId: user.id } });
  await tx.projectMember.deleteMany({ where: { userId: user.id } });
}

async function destroyPersonalProjects(tx: Tx, ctx: DomainContext, user: User): Promise<void> {
  const projects = await tx.project.findMany({ where: { namespace: { ownerId: user.id } }, include: { namespace: true }, orderBy: { id: "asc" } });
  await destroyProjects(tx, ctx, projects);
}
