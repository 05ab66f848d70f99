// Users: the current user, listing and lookup, and creation by administrators.
import { createHash, randomBytes, scryptSync } from "node:crypto";
import type { Prisma, User } from "../generated/prisma/client.js";
import { AppError, notFound, paramError, validationError } from "../errors.js";
import { requireAdmin, requireAuthenticated } from "./access.js";
import type { DomainContext } from "./context.js";
import {
  afterCursor, decodeCursor, encodeCursor, paginate, pageWindow,
  type KeysetPage, type Page, type PageArgs, type SortDirection,
} from "./pagination.js";

export const USERNAME_PATTERN = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;

export function webUrlOfUser(ctx: DomainContext, user: Pick<User, "username">) {
  return `${ctx.config.publicUrl}/${user.username}`;
}

export function avatarUrlOfUser(user: Pick<User, "email">) {
  const hash = createHash("sha256").update(user.email.trim().toLowerCase()).digest("hex");
  return `https://www.gravatar.com/avatar/${hash}?s=80&d=identicon`;
}

export function currentUser(ctx: DomainContext): User {
  return requireAuthenticated(ctx).user;
}

export async function getUser(ctx: DomainContext, id: number): Promise<User> {
  const user = await ctx.db.user.findUnique({ where: { id } });
  if (!user) throw notFound("User");
  return user;
}

export const USER_ORDER_COLUMNS = ["id", "name", "username", "created_at", "updated_at"] as const;
export type UserOrder = (typeof USER_ORDER_COLUMNS)[number];
const columnOf: Record<UserOrder, string> = {
  id: "id", name: "name", username: "username", created_at: "createdAt", updated_at: "updatedAt",
};

export interface UserFilters extends PageArgs {
  username?: string | null;
  search?: string | null;
  active?: boolean | null;
  blocked?: boolean | null;
  humans?: boolean | null;
  order_by?: UserOrder | null;
  sort?: SortDirection | null;
}

function userWhere(filters: UserFilters): Prisma.UserWhereInput {
  const where: Prisma.UserWhereInput[] = [];
  if (filters.username) where.push({ usernameLower: filters.username.toLowerCase() });
  if (filters.search) {
    const term = filters.search;
    where.push({ OR: [{ name: { contains: term } }, { username: { contains: term } }, { email: { equals: term } }] });
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

export async function listUsers(ctx: DomainContext, filters: UserFilters): Promise<Page<User>> {
  const where = userWhere(filters);
  return paginate(
    filters,
    (cap) => ctx.db.user.count({ where, take: cap }),
    (skip, take) => ctx.db.user.findMany({ where, orderBy: userOrder(filters), skip, take }),
  );
}

export async function listUsersKeyset(ctx: DomainContext, filters: UserFilters & { cursor?: string | null }): Promise<KeysetPage<User>> {
  const order = filters.order_by ?? "id";
  const sort = filters.sort ?? "desc";
  const column = columnOf[order];
  const { take } = pageWindow(filters);
  const where: Prisma.UserWhereInput[] = [userWhere(filters)];
  if (filters.cursor) {
    const decoded = decodeCursor(filters.cursor);
    if (!decoded) throw paramError("cursor is invalid");
    where.push(afterCursor(column, sort, decoded[0], decoded[1], column.endsWith("At")) as Prisma.UserWhereInput);
  }
  const rows = await ctx.db.user.findMany({ where: { AND: where }, orderBy: userOrder(filters), take: take + 1 });
  const page = rows.slice(0, take);
  const last = page[page.length - 1];
  const next = rows.length > take && last ? { cursor: encodeCursor((last as any)[column], last.id) } : null;
  return { rows: page, next };
}

export interface CreateUserInput {
  email: string;
  name: string;
  username: string;
  password?: string | null;
  reset_password?: boolean | null;
  force_random_password?: boolean | null;
  admin?: boolean | null;
  bio?: string | null;
  skip_confirmation?: boolean | null;
}

export async function createUser(ctx: DomainContext, input: CreateUserInput): Promise<User> {
  requireAdmin(ctx);
  if (!input.password && !input.reset_password && !input.force_random_password) {
    throw paramError("password, reset_password, force_random_password are missing, exactly one parameter must be provided");
  }
  validateNewUser(input);
  const usernameLower = input.username.toLowerCase();
  const [byUsername, byEmail] = await Promise.all([
    ctx.db.user.findUnique({ where: { usernameLower } }),
    ctx.db.user.findUnique({ where: { email: input.email.toLowerCase() } }),
  ]);
  if (byEmail) throw new AppError(409, { message: "Email has already been taken" });
  if (byUsername || (await namespacePathTaken(ctx, usernameLower))) {
    throw new AppError(409, { message: "Username has already been taken" });
  }
  return insertUser(ctx, {
    username: input.username,
    name: input.name,
    email: input.email,
    isAdmin: !!input.admin,
    bio: input.bio ?? "",
    password: input.password ?? randomBytes(18).toString("base64url"),
  });
}

function validateNewUser(input: CreateUserInput): void {
  const errors: Record<string, string[]> = {};
  if (!USERNAME_PATTERN.test(input.username) || /\.(git|atom)$/.test(input.username) || /[._-]$/.test(input.username)) {
    errors.username = ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."];
  }
  if (input.username.length > 255) errors.username = ["is too long (maximum is 255 characters)"];
  if (!/^[^@\s]+@[^@\s]+$/.test(input.email)) errors.email = ["is invalid"];
  if (!input.name.trim()) errors.name = ["can't be blank"];
  if (input.password != null && input.password.length < 8) errors.password = ["is too short (minimum is 8 characters)"];
  if (Object.keys(errors).length) throw validationError(errors);
}

async function namespacePathTaken(ctx: DomainContext, pathLower: string) {
  return !!(await ctx.db.namespace.findUnique({ where: { fullPathLower: pathLower } }));
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
