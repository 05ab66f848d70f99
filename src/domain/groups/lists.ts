// Group lists: GET /groups (offset and keyset pages), a group's subgroups and descendant groups,
// limited to groups the caller may see; and GET /namespaces, the caller's own namespaces.
import { AppError, paramError } from "../../errors.js";
import type { Namespace, Prisma } from "../../generated/prisma/client.js";
import { AccessLevel, openVisibilities } from "../shared/access-levels.js";
import { notExpired } from "../shared/memberships.js";
import type { GroupAccess } from "../shared/parents.js";
import { hierarchyGroupsWhere, memberGroupTraversals } from "../shared/visibility-filters.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { requireAuthenticated } from "../shared/guards.js";
import {
  afterCursor, decodeCursor, encodeCursor, pageWindow, paginate, type KeysetPage, type KeysetPageArgs,
  type Page, type PageArgs, type SortDirection,
} from "../shared/pagination.js";
import { fuzzySearch, type Visibility } from "../shared/paths.js";

export const GROUP_ORDER_COLUMNS = ["name", "path", "id", "similarity"] as const;

export interface GroupFilters {
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

/**
 * GroupsFinder's starting set: owned groups, groups with a minimum access level, everything
 * (admins), or the caller's own hierarchy plus (with `all_available`) the groups open to them.
 * `all_available` defaults to true for admins only.
 */
async function startingGroups(ctx: DomainContext, filters: GroupFilters): Promise<Prisma.NamespaceWhereInput> {
  const user = ctx.actor?.user;
  if (filters.owned) {
    return user ? { kind: "group", members: { some: { userId: user.id, accessLevel: AccessLevel.owner, ...notExpired(ctx) } } } : { id: -1 };
  }
  if (user && filters.min_access_level) {
    const traversals = await memberGroupTraversals(ctx, filters.min_access_level);
    return { kind: "group", OR: traversals.length ? traversals.map((t) => ({ traversalIds: { startsWith: t } })) : [{ id: -1 }] };
  }
  const allAvailable = filters.all_available ?? isAdmin(ctx.actor);
  if (!user) return { kind: "group", visibility: "public" };
  if (user.isAdmin && allAvailable) return { kind: "group" };
  const mine = await hierarchyGroupsWhere(ctx);
  return allAvailable ? { kind: "group", OR: [{ visibility: { in: openVisibilities(ctx.actor) } }, mine] } : mine;
}

/** Below a group: its children (subgroups) or every level under it (descendants). */
export type Below = "children" | "descendants";

async function groupsWhere(ctx: DomainContext, filters: GroupFilters, parent?: Namespace, below: Below = "children"): Promise<Prisma.NamespaceWhereInput> {
  const and: Prisma.NamespaceWhereInput[] = [await startingGroups(ctx, filters)];
  if (parent && below === "children") and.push({ parentId: parent.id });
  if (parent && below === "descendants") and.push({ traversalIds: { startsWith: parent.traversalIds }, id: { not: parent.id } });
  // The top-level list also matches full paths ("parent/child"); subgroup lists do not.
  if (filters.search) and.push(fuzzySearch<Prisma.NamespaceWhereInput>(ctx.dialect, parent ? ["name", "path"] : ["name", "path", "fullPath"], filters.search));
  if (filters.top_level_only) and.push({ parentId: null });
  if (filters.skip_groups?.length) and.push({ id: { notIn: filters.skip_groups } });
  if (filters.visibility) and.push({ visibility: filters.visibility });
  return { AND: and };
}

/** `{order_by => sort}` with id ascending as the tie-breaker ("similarity" without ranking: name). */
function groupOrder(filters: GroupFilters): Prisma.NamespaceOrderByWithRelationInput[] {
  const sort = filters.sort ?? "asc";
  const column = filters.order_by === "path" ? "path" : filters.order_by === "id" ? "id" : "name";
  return column === "id" ? [{ id: sort }] : [{ [column]: sort }, { id: "asc" }];
}

function pageOfGroups(ctx: DomainContext, filters: GroupFilters, page: PageArgs, where: Prisma.NamespaceWhereInput) {
  const orderBy = groupOrder(filters);
  return paginate(
    page,
    (cap) => ctx.db.namespace.count({ where, orderBy, take: cap }),
    (skip, take) => ctx.db.namespace.findMany({ where, orderBy, skip, take }),
  );
}

/** GET /groups */
export async function listGroups(ctx: DomainContext, filters: GroupFilters, page: PageArgs): Promise<Page<Namespace>> {
  return pageOfGroups(ctx, filters, page, await groupsWhere(ctx, filters));
}

/** GET /groups/:id/subgroups */
export function listSubgroups(ctx: DomainContext, parent: GroupAccess, filters: GroupFilters, page: PageArgs): Promise<Page<Namespace>> {
  return listGroupsBelow(ctx, parent, filters, page, "children");
}

export async function listGroupsBelow(
  ctx: DomainContext, parent: GroupAccess, filters: GroupFilters, page: PageArgs, below: Below,
): Promise<Page<Namespace>> {
  return pageOfGroups(ctx, filters, page, await groupsWhere(ctx, filters, parent.group, below));
}

export const keysetUnavailable = () => new AppError(405, { error: "Keyset pagination is not yet available for this type of request" });

/** Keyset pagination of GET /groups: order_by=name, sort=asc, continued by `cursor`. */
export async function listGroupsKeyset(ctx: DomainContext, filters: GroupFilters, page: KeysetPageArgs): Promise<KeysetPage<Namespace>> {
  if ((filters.order_by ?? "name") !== "name" || (filters.sort ?? "asc") !== "asc") throw keysetUnavailable();
  const { take } = pageWindow(page);
  const and: Prisma.NamespaceWhereInput[] = [await groupsWhere(ctx, filters)];
  if (page.cursor) {
    const decoded = decodeCursor(page.cursor);
    if (!decoded) throw paramError("cursor is invalid");
    and.push(afterCursor("name", "asc", decoded[0], decoded[1]) as Prisma.NamespaceWhereInput);
  }
  const rows = await ctx.db.namespace.findMany({ where: { AND: and }, orderBy: [{ name: "asc" }, { id: "asc" }], take: take + 1 });
  const shown = rows.slice(0, take);
  const last = shown[shown.length - 1];
  return { rows: shown, next: rows.length > take && last ? { cursor: encodeCursor(last.name, last.id) } : null };
}

export interface NamespaceFilters {
  search?: string | null;
  owned_only?: boolean | null;
  top_level_only?: boolean | null;
}

/**
 * GET /namespaces: administrators every namespace (`owned_only` does not narrow theirs); anyone
 * else their personal namespace and the groups they are a direct member of, as Guest or above
 * (only as Owner with `owned_only`). Neither the groups below those nor the ones above come with
 * them, and neither do Minimal Access memberships. Ordered by id.
 */
export async function listNamespaces(ctx: DomainContext, filters: NamespaceFilters, page: PageArgs): Promise<Page<Namespace>> {
  const { user } = requireAuthenticated(ctx);
  const and: Prisma.NamespaceWhereInput[] = [];
  if (!user.isAdmin) {
    const accessLevel = filters.owned_only ? AccessLevel.owner : { gte: AccessLevel.guest };
    and.push({ OR: [{ ownerId: user.id }, { kind: "group", members: { some: { userId: user.id, accessLevel, ...notExpired(ctx) } } }] });
  }
  if (filters.top_level_only) and.push({ parentId: null });
  const search = filters.search?.trim();
  if (search) and.push(fuzzySearch<Prisma.NamespaceWhereInput>(ctx.dialect, ["path", "name"], search));
  const where: Prisma.NamespaceWhereInput = { AND: and };
  return paginate(
    page,
    (cap) => ctx.db.namespace.count({ where, take: cap }),
    (skip, take) => ctx.db.namespace.findMany({ where, orderBy: { id: "asc" }, skip, take }),
  );
}
