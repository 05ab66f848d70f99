// Users: the current user and lookups by id or username, and who may read a user's private fields.
// Lists: lists.ts; creation, update, states and deletion by administrators: create.ts, update.ts,
// states.ts, deletions/users.ts.
import { forbidden, notFound } from "../../errors.js";
import type { User } from "../../generated/prisma/client.js";
import { requireAuthenticated } from "../shared/guards.js";
import { type DomainContext } from "../shared/context.js";
import { fitsIdColumn } from "../shared/record-ids.js";
import { userLoader } from "../shared/loaders.js";

export function currentUser(ctx: DomainContext): User {
  return requireAuthenticated(ctx).user;
}

/** Anonymous callers may not look users up by id (GitLab answers 403, not 401). */
export async function findUser(ctx: DomainContext, id: number): Promise<User> {
  if (!ctx.actor) throw forbidden("Not authorized!");
  const user = await ctx.db.user.findUnique({ where: { id } });
  if (!user) throw notFound("User");
  return user;
}

/**
 * A user by id or username (any case), whoever asks: GitLab's find_user (UserFinder's
 * find_by_id_or_username), as the user events route takes it; 404 User when there is none. By id
 * through the users cache.
 */
export async function findUserByIdOrUsername(ctx: DomainContext, ref: string): Promise<User> {
  const user = /^\d+$/.test(ref)
    ? fitsIdColumn(Number(ref)) ? await ctx.loaders.get(userLoader).load(Number(ref)) : null
    : await ctx.db.user.findUnique({ where: { usernameLower: ref.toLowerCase() } });
  if (!user) throw notFound("User");
  return user;
}

/** The id of the user with that username (any case), or null: list filters by username match nobody then. */
export async function userIdByUsername(ctx: DomainContext, username: string): Promise<number | null> {
  const user = await ctx.db.user.findUnique({ where: { usernameLower: username.toLowerCase() }, select: { id: true } });
  return user?.id ?? null;
}

/** E-mail, admin flag and account settings are shown to the user themselves and to admins. */
export function mayReadPrivateFields(ctx: DomainContext, user: Pick<User, "id">): boolean {
  return !!ctx.actor && (ctx.actor.user.isAdmin || ctx.actor.user.id === user.id);
}
