// GET /users: offset and keyset pages, filtered and ordered as GitLab's UsersFinder; blocked and
// banned users only for administrators.
import { forbidden, paramError } from "../../errors.js";
import type { Prisma, User } from "../../generated/prisma/client.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import {
  afterCursor, assertOffsetWithin, decodeCursor, encodeCursor, pageWindow, paginate, type KeysetPage,
  type KeysetPageArgs, type Page, type PageArgs, type SortDirection,
} from "../shared/pagination.js";
import { containsText } from "../shared/paths.js";

export const USER_ORDER_COLUMNS = ["id", "name", "username", "created_at", "updated_at"] as const;

export type UserOrder = (typeof USER_ORDER_COLUMNS)[number];

const columnOf: Record<UserOrder, string> = {
  id: "id", name: "name", username: "username", created_at: "createdAt", updated_at: "updatedAt",
};

export interface UserFilters {
  username?: string | null;
  search?: string | null;
  active?: boolean | null;
  blocked?: boolean | null;
  humans?: boolean | null;
  order_by?: UserOrder | null;
  sort?: SortDirection | null;
}

/** States hidden from non-administrators' user lists. */
const FORBIDDEN_SEARCH_STATES = ["blocked", "banned", "ldap_blocked"];

/**
 * The filters a caller may use: anonymous callers must name one user (`username`); only
 * administrators may choose the order, see blocked users and match private e-mail addresses.
 */
function listingFilters<F extends UserFilters>(ctx: DomainContext, filters: F): F & { admin: boolean } {
  if (!ctx.actor && !filters.username) throw forbidden("Not authorized to access /api/v4/users");
  const admin = isAdmin(ctx.actor);
  return admin ? { ...filters, admin } : { ...filters, admin, order_by: null, sort: null };
}

function userWhere(ctx: DomainContext, filters: UserFilters & { admin: boolean }): Prisma.UserWhereInput {
  const where: Prisma.UserWhereInput[] = [];
  if (!filters.admin) where.push({ state: { notIn: FORBIDDEN_SEARCH_STATES } });
  if (filters.username) where.push({ usernameLower: filters.username.toLowerCase() });
  if (filters.search) {
    const term = filters.search;
    const email = filters.admin ? [{ email: { equals: term.toLowerCase() } }] : [];
    const match = containsText(ctx.dialect, term);
    where.push({ OR: [{ name: match }, { username: match }, ...email] });
  }
  if (filters.active) where.push({ state: "active" });
  if (filters.blocked) where.push({ state: "blocked" });
  if (filters.humans) where.push({ userType: "human" });
  return { AND: where };
}

function userOrder(filters: UserFilters): Prisma.UserOrderByWithRelationInput[] {
  const column = columnOf[filters.order_by ?? "id"];
  const sort = filters.sort ?? "desc";
  return column === "id" ? [{ id: sort }] : [{ [column]: sort }, { id: sort }];
}

/** Offset pagination on users stops at 50,000 rows; beyond that keyset pagination is required. */
const USERS_OFFSET_LIMIT = 50_000;

export async function listUsers(ctx: DomainContext, requested: UserFilters, page: PageArgs): Promise<Page<User>> {
  const filters = listingFilters(ctx, requested);
  assertOffsetWithin(page, USERS_OFFSET_LIMIT, "User");
  const where = userWhere(ctx, filters);
  const orderBy = userOrder(filters);
  return paginate(
    page,
    (cap) => ctx.db.user.count({ where, orderBy, take: cap }),
    (skip, take) => ctx.db.user.findMany({ where, orderBy, skip, take }),
  );
}

export async function listUsersKeyset(ctx: DomainContext, requested: UserFilters, page: KeysetPageArgs): Promise<KeysetPage<User>> {
  const filters = listingFilters(ctx, requested);
  const order = filters.order_by ?? "id";
  const sort = filters.sort ?? "desc";
  const column = columnOf[order];
  const isDate = column.endsWith("At");
  const { take } = pageWindow(page);
  const where: Prisma.UserWhereInput[] = [userWhere(ctx, filters)];
  if (page.cursor) {
    const decoded = decodeCursor(page.cursor, isDate);
    if (!decoded) throw paramError("cursor is invalid");
    where.push(afterCursor(column, sort, decoded[0], decoded[1], isDate) as Prisma.UserWhereInput);
  }
  const rows = await ctx.db.user.findMany({ where: { AND: where }, orderBy: userOrder(filters), take: take + 1 });
  const shown = rows.slice(0, take);
  const last = shown[shown.length - 1];
  const next = rows.length > take && last ? { cursor: encodeCursor((last as any)[column], last.id) } : null;
  return { rows: shown, next };
}
