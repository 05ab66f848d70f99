// Users: the current user, listing and lookup, the personal namespace of a new user. Creation,
// update, states (block, ban, deactivate) and deletion by administrators: users/.
import { hash, randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import type { Prisma, User } from "../../generated/prisma/client.js";
import { forbidden, notFound, paramError } from "../../errors.js";
import { requireAuthenticated } from "../shared/access.js";
import { avatarUrl } from "../shared/avatars.js";
import { isAdmin, type DomainContext, type Services } from "../shared/context.js";
import {
  afterCursor, assertOffsetWithin, decodeCursor, encodeCursor, paginate, pageWindow,
  type KeysetPage, type KeysetPageArgs, type Page, type PageArgs, type SortDirection,
} from "../shared/pagination.js";
import { containsText } from "../shared/paths.js";


export function webUrlOfUser(ctx: Pick<DomainContext, "config">, user: Pick<User, "username">) {
  return `${ctx.config.publicUrl}/${user.username}`;
}

/**
 * The uploaded avatar's URL, else Gravatar's URL for the e-mail (remembered per user row: lists
 * render the same cached users again and again).
 */
export function avatarUrlOfUser(services: Pick<Services, "config">, user: Pick<User, "email" | "avatarPath">) {
  return user.avatarPath ? avatarUrl(services, user.avatarPath)! : gravatarUrlOfUser(user);
}

/** Gravatar's URL for the user's e-mail. */
export function gravatarUrlOfUser(user: Pick<User, "email">) {
  let url = gravatarUrls.get(user);
  if (url === undefined) {
    url = `https://www.gravatar.com/avatar/${hash("sha256", user.email.trim().toLowerCase())}?s=80&d=identicon`;
    gravatarUrls.set(user, url);
  }
  return url;
}

const gravatarUrls = new WeakMap<Pick<User, "email">, string>();

export function currentUser(ctx: DomainContext): User {
  return requireAuthenticated(ctx).user;
}

/** Anonymous callers may not look users up by id (GitLab answers 403, not 401). */
export async function getUser(ctx: DomainContext, id: number): Promise<User> {
  if (!ctx.actor) throw forbidden("Not authorized!");
  const user = await ctx.db.user.findUnique({ where: { id } });
  if (!user) throw notFound("User");
  return user;
}

/** The id of the user with that username (any case), or null: list filters by username match nobody then. */
export async function userIdByUsername(ctx: DomainContext, username: string): Promise<number | null> {
  const user = await ctx.db.user.findUnique({ where: { usernameLower: username.toLowerCase() }, select: { id: true } });
  return user?.id ?? null;
}

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

export interface NewUser {
  username: string;
  name: string;
  email: string;
  isAdmin?: boolean;
  bio?: string;
  password: string;
  userType?: string;
}

/** Inserts a user with their personal namespace (no permission checks: callers do them). */
export async function insertUser(ctx: Pick<DomainContext, "db">, user: NewUser, tx: Prisma.TransactionClient = ctx.db): Promise<User> {
  return tx.user.create({
    data: {
      username: user.username,
      usernameLower: user.username.toLowerCase(),
      name: user.name,
      email: user.email.toLowerCase(),
      isAdmin: !!user.isAdmin,
      bio: user.bio ?? "",
      userType: user.userType ?? "human",
      passwordDigest: hashPassword(user.password),
      namespace: {
        create: {
          kind: "user",
          name: user.name,
          path: user.username,
          fullPath: user.username,
          fullPathLower: user.username.toLowerCase(),
        },
      },
    },
  });
}

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString("hex")}$${scryptSync(password, salt, 32).toString("hex")}`;
}

/** Whether `password` is the user's account password (re-authentication, e.g. to approve). */
export function passwordMatches(user: Pick<User, "passwordDigest">, password: string | null | undefined): boolean {
  const [scheme, salt, hash] = (user.passwordDigest ?? "").split("$");
  if (scheme !== "scrypt" || !salt || !hash || !password) return false;
  const stored = Buffer.from(hash, "hex");
  return timingSafeEqual(scryptSync(password, Buffer.from(salt, "hex"), stored.length), stored);
}

/** E-mail, admin flag and account settings are shown to the user themselves and to admins. */
export function mayReadPrivateFields(ctx: DomainContext, user: Pick<User, "id">): boolean {
  return !!ctx.actor && (ctx.actor.user.isAdmin || ctx.actor.user.id === user.id);
}
