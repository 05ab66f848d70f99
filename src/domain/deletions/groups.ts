// Deleting a group with everything below it (GitLab's Groups::DestroyService, run at once as CE
// without delayed deletion) and listing a group's descendants. Transfers: groups/transfer.ts.
import type { Namespace } from "../../generated/prisma/client.js";
import { AccessLevel } from "../shared/access-levels.js";
import type { GroupAccess } from "../shared/parents.js";
import { requireLevel } from "../shared/guards.js";
import { removeAvatarFile } from "../shared/avatars.js";
import type { DomainContext } from "../shared/context.js";
import { publish, type Tx } from "../shared/events.js";
import { listGroupsBelow, type GroupFilters } from "../groups/lists.js";
import type { Page, PageArgs } from "../shared/pagination.js";
import { assertUnmodifiedSince } from "../shared/preconditions.js";
import { ACCEPTED, DELETION_TRANSACTION, deleteResourceBots, destroyProjects, ghostForBots } from "./projects.js";

/** remove_group: Owners of the group (or of an ancestor) and admins. */
export async function deleteGroup(ctx: DomainContext, { group, level }: GroupAccess, ifUnmodifiedSince?: string | null): Promise<typeof ACCEPTED> {
  requireLevel(ctx, level, AccessLevel.owner);
  assertUnmodifiedSince(group.updatedAt, ifUnmodifiedSince);
  const ghostId = await ghostForBots(ctx, await botOwnersBelow(ctx, group));
  const avatars = await ctx.db.$transaction((tx) => destroyGroupTree(tx, ctx, group, ghostId), DELETION_TRANSACTION);
  // the avatar rows went with the transaction; files kept from before StoredFile go now
  for (const avatar of avatars) await removeAvatarFile(ctx, avatar);
  return ACCEPTED;
}

/** The groups and projects of the subtree, whose access tokens' bots go with it. */
async function botOwnersBelow(ctx: DomainContext, group: Namespace): Promise<{ projectIds: number[]; groupIds: number[] }> {
  const below = { traversalIds: { startsWith: group.traversalIds } };
  const [groups, projects] = await Promise.all([
    ctx.db.namespace.findMany({ where: below, select: { id: true } }),
    ctx.db.project.findMany({ where: { namespace: below }, select: { id: true } }),
  ]);
  return { groupIds: groups.map((g) => g.id), projectIds: projects.map((p) => p.id) };
}

/**
 * The group, its subgroups (all levels) and their projects, in the caller's transaction; returns
 * the avatar paths they had. Bots' contributions move to `ghostId` (deleted when null).
 */
export async function destroyGroupTree(tx: Tx, ctx: DomainContext, group: Namespace, ghostId: number | null = null): Promise<string[]> {
  const tree = await tx.namespace.findMany({ where: { kind: "group", traversalIds: { startsWith: group.traversalIds } } });
  const deepestFirst = tree.sort((a, b) => depth(b) - depth(a) || b.id - a.id);
  const ids = deepestFirst.map((g) => g.id);
  const projects = await tx.project.findMany({ where: { namespaceId: { in: ids } }, include: { namespace: true }, orderBy: { id: "asc" } });
  await destroyProjects(tx, ctx, projects, ghostId);
  await announceSubgroupRemovals(tx, ctx, deepestFirst, group);
  await deleteResourceBots(tx, ctx, "group", ids, ghostId);
  await tx.approvalRule.deleteMany({ where: { kind: "group", containerId: { in: ids } } });
  await tx.approvalRuleGroup.deleteMany({ where: { groupId: { in: ids } } });
  await tx.protectedBranchAccessLevel.deleteMany({ where: { groupId: { in: ids } } });
  const avatars = deepestFirst.flatMap((g) => (g.avatarPath ? [g.avatarPath] : []));
  await tx.storedFile.deleteMany({ where: { path: { in: avatars } } });
  // children first: each row's parent is still there when it goes (members and hooks cascade)
  for (const g of deepestFirst) await tx.namespace.delete({ where: { id: g.id } });
  return avatars;
}

const depth = (g: Pick<Namespace, "traversalIds">) => g.traversalIds.split("/").filter(Boolean).length;

/** Each removed subgroup is a subgroup_destroy for its parent's hooks (and the ancestors'). */
async function announceSubgroupRemovals(tx: Tx, ctx: DomainContext, groups: Namespace[], top: Namespace): Promise<void> {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const topParent = top.parentId ? await tx.namespace.findUnique({ where: { id: top.parentId } }) : null;
  for (const subgroup of groups) {
    const parent = subgroup.id === top.id ? topParent : byId.get(subgroup.parentId ?? -1);
    if (parent) await publish(tx, ctx, "subgroup", { action: "destroy", subgroup, parent, actorId: ctx.actor?.user.id ?? null });
  }
}

/** GET /groups/:id/descendant_groups: the subgroups list over every level below the group. */
export function listDescendantGroups(ctx: DomainContext, parent: GroupAccess, filters: GroupFilters, page: PageArgs): Promise<Page<Namespace>> {
  return listGroupsBelow(ctx, parent, filters, page, "descendants");
}
