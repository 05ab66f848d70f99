// A user's state as administrators change it (users.rb block/unblock, ban/unban, deactivate/activate
// with Users::BlockService, UnblockService, BanService, UnbanService, DeactivateService and the
// User state machine), and what a state means for the user's tokens (API::APIGuard).
//
// States: active, blocked, ldap_blocked, banned, deactivated. GitLab's `blocked?` is true for
// blocked, ldap_blocked and banned. The answers are 201 with `true` / `false` (the state machine's
// result) or `null` where users.rb `break`s early (nothing to do).
import type { User } from "../../generated/prisma/client.js";
import { AppError, forbidden, notFound } from "../../errors.js";
import { requireAdmin } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { publish, type UserStateEvent } from "../shared/events.js";

export type StateAnswer = boolean | null;

const BLOCKED_STATES = ["blocked", "ldap_blocked", "banned"];
export const isBlocked = (user: Pick<User, "state">) => BLOCKED_STATES.includes(user.state);
export const isInternal = (user: Pick<User, "userType">) => user.userType === "ghost";

/** GitLab's deactivate_dormant_users_period default: users active more recently cannot be deactivated. */
const DORMANT_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

/** `render_api_error!(message, 403)`: the service's message as is (no "403 Forbidden - " prefix). */
const refused = (message: string) => new AppError(403, { message });

/** The user an administrator changes the state of: 401/403 for anyone else, then 404 User. */
export async function findUserToAdminister(ctx: DomainContext, id: number): Promise<User> {
  requireAdmin(ctx);
  const user = await ctx.db.user.findUnique({ where: { id } });
  if (!user) throw notFound("User");
  return user;
}

/**
 * The state machine's transition: true when `from` allowed it (the row changed), else false; a
 * change an audit event records (`audit`) publishes it in the same transaction.
 */
async function transition(ctx: DomainContext, user: User, from: string[], to: string, audit?: UserStateEvent["action"]): Promise<boolean> {
  return ctx.db.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ where: { id: user.id, state: { in: from } }, data: { state: to } });
    if (count > 0 && audit) await publish(tx, ctx, "user_state", { action: audit, user: { ...user, state: to }, actorId: ctx.actor!.user.id });
    return count > 0;
  });
}

export async function blockUser(ctx: DomainContext, user: User): Promise<StateAnswer> {
  if (user.state === "ldap_blocked") throw forbidden("LDAP blocked users cannot be modified by the API");
  if (user.id === ctx.actor!.user.id) throw forbidden("The API initiating user cannot be blocked by the API");
  if (isBlocked(user)) return null;
  if (isInternal(user)) throw refused("An internal user cannot be blocked");
  return transition(ctx, user, ["active", "deactivated"], "blocked", "block");
}

/** Unblocking is the state machine's `activate`: false for a user who is active already. */
export async function unblockUser(ctx: DomainContext, user: User): Promise<StateAnswer> {
  if (user.state === "ldap_blocked") throw forbidden("LDAP blocked users cannot be unblocked by the API");
  if (user.state === "deactivated") throw forbidden("Deactivated users cannot be unblocked by the API");
  return transition(ctx, user, ["blocked", "banned"], "active", "unblock");
}

/** Users::BanService: active users only ("You cannot ban blocked users."). */
export async function banUser(ctx: DomainContext, user: User): Promise<StateAnswer> {
  if (user.state !== "active") throw refused(`You cannot ban ${user.state} users.`);
  return transition(ctx, user, ["active"], "banned", "ban");
}

export async function unbanUser(ctx: DomainContext, user: User): Promise<StateAnswer> {
  if (user.state !== "banned") throw refused(`You cannot unban ${user.state} users.`);
  return transition(ctx, user, ["banned"], "active", "unban");
}

/** Users::DeactivateService: only dormant users (no token used for 90 days) may be deactivated. */
export async function deactivateUser(ctx: DomainContext, user: User): Promise<StateAnswer> {
  if (user.state === "deactivated") return null;
  if (isBlocked(user)) throw refused("Error occurred. A blocked user cannot be deactivated");
  if (isInternal(user)) throw refused("Internal users cannot be deactivated");
  if (await activeRecently(ctx, user)) {
    throw refused(`The user you are trying to deactivate has been active in the past ${DORMANT_DAYS} days and cannot be deactivated`);
  }
  return transition(ctx, user, ["active"], "deactivated");
}

/** The state machine's `activate` from deactivated; blocked users must be unblocked instead. */
export async function activateUser(ctx: DomainContext, user: User): Promise<StateAnswer> {
  if (isBlocked(user)) throw forbidden("A blocked user must be unblocked to be activated");
  return transition(ctx, user, ["deactivated"], "active");
}

/** GitLab's last_activity_on comes from authenticated API use: here, the user's tokens' last use. */
async function activeRecently(ctx: DomainContext, user: User): Promise<boolean> {
  const since = new Date(ctx.now().getTime() - DORMANT_DAYS * DAY_MS);
  const used = await ctx.db.accessToken.findFirst({ where: { userId: user.id, lastUsedAt: { gt: since } }, select: { id: true } });
  return !!used;
}

/**
 * Why a token's user may not use the API (Gitlab::Auth::UserAccessDeniedReason), or null: API::APIGuard
 * answers 403 with it. A deactivated user is reactivated only by signing in on the web, not by a token.
 */
export function apiAccessDeniedReason(ctx: Pick<DomainContext, "config">, user: Pick<User, "state" | "userType">): string | null {
  if (isInternal(user)) return "This action cannot be performed by internal users";
  if (user.state === "deactivated") {
    return "Your account has been deactivated by your administrator. " +
      `Please log back in from a web browser to reactivate your account at ${ctx.config.publicUrl}`;
  }
  if (user.state !== "active") return "Your account has been blocked.";
  return null;
}
