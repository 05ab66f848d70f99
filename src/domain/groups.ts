// Groups (nested through parent_id): create, list, read, update, subgroups.
import type { Namespace, Prisma } from "../generated/prisma/client.js";
import { AppError, forbidden, notFound } from "../errors.js";
import {
  AccessLevel, ancestorIds, findGroup, requireAuthenticated, requireLevel, traversalOf,
  VISIBILITY_LEVELS, visibleGroupsWhere, type GroupAccess,
} from "./access.js";
import type { DomainContext } from "./context.js";
import { paginate, pageWindow, decodeCursor, encodeCursor, afterCursor, type KeysetPage, type Page, type PageArgs, type SortDirection } from "./pagination.js";
import { pathProblems, rubyErrorHash, type Visibility } from "./paths.js";
import { paramError } from "../errors.js";
import type { RelationQuery } from "./prisma-query.js";

export function groupWebUrl(ctx: DomainContext, group: Pick<Namespace, "fullPath">) {
  return `${ctx.config.publicUrl}/groups/${group.fullPath}`;
}

export interface GroupInput {
  name?: string | null;
  path?: string | null;
  description?: string | null;
  visibility?: Visibility | null;
  request_access_enabled?: boolean | null;
}

function saveFailed(errors: Record<string, string[]>): AppError {
  return new AppError(400, { message: `Failed to save group ${rubyErrorHash(errors)}` });
}

export async function createGroup(ctx: DomainContext, input: GroupInput & { name: string; path: string; parent_id?: number | null }) {
  const actor = requireAuthenticated(ctx);
  const parent = input.parent_id ? await parentForSubgroup(ctx, input.parent_id) : null;
  const visibility = input.visibility ?? "private";
  validateGroup(input, parent, visibility);
  const fullPath = parent ? `${parent.fullPath}/${input.path}` : input.path;
  if (await ctx.db.namespace.findUnique({ where: { fullPathLower: fullPath.toLowerCase() } })) {
    throw saveFailed({ path: ["has already been taken"] });
  }
  return ctx.db.$transaction(async (tx) => {
    const created = await tx.namespace.create({
      data: {
        kind: "group", name: input.name!, path: input.path!, fullPath, fullPathLower: fullPath.toLowerCase(),
        description: input.description ?? "", visibility, parentId: parent?.id ?? null,
        requestAccessEnabled: input.request_access_enabled ?? true,
      },
    });
    await tx.groupMember.create({ data: { groupId: created.id, userId: actor.user.id, accessLevel: AccessLevel.owner, createdById: actor.user.id } });
    return tx.namespace.update({ where: { id: created.id }, data: { traversalIds: traversalOf(parent, created.id) } });
  });
}

/** Creating a subgroup needs Maintainer on the parent (GitLab's default subgroup_creation_level). */
async function parentForSubgroup(ctx: DomainContext, parentId: number): Promise<Namespace> {
  const { group, level } = await findGroup(ctx, parentId);
  if (!ctx.actor!.user.isAdmin && level < AccessLevel.maintainer) throw forbidden();
  return group;
}

function validateGroup(input: GroupInput, parent: Namespace | null, visibility: Visibility) {
  const errors: Record<string, string[]> = {};
  if (input.name !== undefined && input.name !== null && !input.name.trim()) errors.name = ["can't be blank"];
  if (input.path !== undefined && input.path !== null) {
    const problems = pathProblems(input.path);
    if (problems.length) errors.path = problems;
  }
  if (parent && VISIBILITY_LEVELS[visibility]! > VISIBILITY_LEVELS[parent.visibility]!) {
    errors.visibility_level = [`${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`];
  }
  if (Object.keys(errors).length) throw saveFailed(errors);
}

export async function getGroup(ctx: DomainContext, id: string): Promise<Namespace> {
  return (await findGroup(ctx, id)).group;
}

export const GROUP_ORDER_COLUMNS = ["name", "path", "id", "similarity"] as const;

export interface GroupFilters extends PageArgs {
  search?: string | null;
  owned?: boolean | null;
  min_access_level?: number | null;
  top_level_only?: boolean | null;
  all_available?: boolean | null;
  skip_groups?: number[] | null;
  order_by?: (typeof GROUP_ORDER_COLUMNS)[number] | null;
  sort?: SortDirection | null;
  visibility?: Visibility | null;
}

async function groupsWhere(ctx: DomainContext, filters: GroupFilters): Promise<Prisma.NamespaceWhereInput> {
  const and: Prisma.NamespaceWhereInput[] = [await visibleGroupsWhere(ctx)];
  const user = ctx.actor?.user;
  const onlyMine = user && !user.isAdmin && !filters.all_available;
  if (user && (onlyMine || filters.owned || filters.min_access_level)) {
    const minimum = filters.owned ? AccessLevel.owner : filters.min_access_level ?? AccessLevel.minimal;
    const mine = await ctx.db.groupMember.findMany({
      where: { userId: user.id, accessLevel: { gte: minimum } },
      select: { group: { select: { traversalIds: true } } },
    });
    and.push({ OR: mine.length ? mine.map((m) => ({ traversalIds: { startsWith: m.group.traversalIds } })) : [{ id: -1 }] });
  }
  if (filters.search) and.push({ OR: [{ name: { contains: filters.search } }, { path: { contains: filters.search } }] });
  if (filters.top_level_only) and.push({ parentId: null });
  if (filters.skip_groups?.length) and.push({ id: { notIn: filters.skip_groups } });
  if (filters.visibility) and.push({ visibility: filters.visibility });
  return { AND: and };
}

function groupOrder(filters: GroupFilters): Prisma.NamespaceOrderByWithRelationInput[] {
  const sort = filters.sort ?? "asc";
  const column = filters.order_by === "path" ? "path" : filters.order_by === "id" ? "id" : "name";
  return column === "id" ? [{ id: sort }] : [{ [column]: sort }, { id: sort }];
}

export async function listGroups(ctx: DomainContext, filters: GroupFilters, query: RelationQuery = {}): Promise<Page<Namespace>> {
  const where = await groupsWhere(ctx, filters);
  return paginate(
    filters,
    (cap) => ctx.db.namespace.count({ where, take: cap }),
    (skip, take) => ctx.db.namespace.findMany({ ...query, where, orderBy: groupOrder(filters), skip, take }),
  );
}

/** Keyset pagination of GET /groups: order_by=name, sort=asc, continued by `cursor`. */
export async function listGroupsKeyset(ctx: DomainContext, filters: GroupFilters & { cursor?: string | null }, query: RelationQuery = {}): Promise<KeysetPage<Namespace>> {
  if ((filters.order_by ?? "name") !== "name" || (filters.sort ?? "asc") !== "asc") {
    throw new AppError(405, { message: "405 Method Not Allowed - Keyset pagination is only available for order_by=name and sort=asc" });
  }
  const { take } = pageWindow(filters);
  const and: Prisma.NamespaceWhereInput[] = [await groupsWhere(ctx, filters)];
  if (filters.cursor) {
    const decoded = decodeCursor(filters.cursor);
    if (!decoded) throw paramError("cursor is invalid");
    and.push(afterCursor("name", "asc", decoded[0], decoded[1]) as Prisma.NamespaceWhereInput);
  }
  const rows = await ctx.db.namespace.findMany({ ...query, where: { AND: and }, orderBy: [{ name: "asc" }, { id: "asc" }], take: take + 1 });
  const page = rows.slice(0, take);
  const last = page[page.length - 1];
  return { rows: page, next: rows.length > take && last ? { cursor: encodeCursor(last.name, last.id) } : null };
}

export async function listSubgroups(ctx: DomainContext, id: string, filters: GroupFilters, query: RelationQuery = {}): Promise<Page<Namespace>> {
  const { group } = await findGroup(ctx, id);
  const visible = await groupsWhere(ctx, { ...filters, all_available: true });
  const where = { AND: [visible, { parentId: group.id }] };
  return paginate(
    filters,
    (cap) => ctx.db.namespace.count({ where, take: cap }),
    (skip, take) => ctx.db.namespace.findMany({ ...query, where, orderBy: groupOrder(filters), skip, take }),
  );
}

/** Owner (admin_group) may change a group; a new path moves the whole subtree. */
export async function updateGroup(ctx: DomainContext, id: string, input: GroupInput): Promise<Namespace> {
  const access = await findGroup(ctx, id);
  requireLevel(ctx, access.level, AccessLevel.owner);
  const { group } = access;
  const parent = group.parentId ? await ctx.db.namespace.findUnique({ where: { id: group.parentId } }) : null;
  validateGroup(input, parent, input.visibility ?? (group.visibility as Visibility));
  const path = input.path ?? group.path;
  const fullPath = parent ? `${parent.fullPath}/${path}` : path;
  if (fullPath.toLowerCase() !== group.fullPathLower && (await ctx.db.namespace.findUnique({ where: { fullPathLower: fullPath.toLowerCase() } }))) {
    throw saveFailed({ path: ["has already been taken"] });
  }
  return ctx.db.$transaction(async (tx) => {
    if (fullPath !== group.fullPath) await movePaths(tx, group, fullPath);
    return tx.namespace.update({
      where: { id: group.id },
      data: {
        name: input.name ?? undefined, path, description: input.description ?? undefined,
        visibility: input.visibility ?? undefined, requestAccessEnabled: input.request_access_enabled ?? undefined,
      },
    });
  });
}

/**
 * Renames the full path of a namespace and everything below it; the projects inside keep
 * answering on their old paths through redirect routes.
 */
export async function movePaths(tx: Prisma.TransactionClient, ns: Namespace, newFullPath: string): Promise<void> {
  const subtree = await tx.namespace.findMany({
    where: ns.kind === "group" ? { traversalIds: { startsWith: ns.traversalIds } } : { id: ns.id },
    include: { projects: true },
  });
  for (const node of subtree) {
    const moved = newFullPath + node.fullPath.slice(ns.fullPath.length);
    for (const project of node.projects) {
      await addRedirect(tx, `${node.fullPath}/${project.path}`, project.id);
    }
    await tx.namespace.update({ where: { id: node.id }, data: { fullPath: moved, fullPathLower: moved.toLowerCase() } });
  }
}

export async function addRedirect(tx: Prisma.TransactionClient, oldFullPath: string, projectId: number) {
  const pathLower = oldFullPath.toLowerCase();
  await tx.redirectRoute.upsert({ where: { pathLower }, create: { pathLower, projectId }, update: { projectId } });
}

export function groupFullName(ctx: DomainContext, group: Namespace, ancestors: Namespace[]): string {
  return [...ancestors, group].map((g) => g.name).join(" / ");
}

export { ancestorIds, type GroupAccess };
