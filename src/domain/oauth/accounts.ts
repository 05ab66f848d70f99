// Who signs in on the authorization pages, and what the provider says about them (GitLab's
// doorkeeper_openid_connect claims). Failed sign-ins are counted per client address and login
// (and per address alone) in the database, so every server process shares the count; past the
// limit every attempt is refused for a while, right password or not, and the answer never says
// whether the login exists.
import { RateLimiterPrisma } from "rate-limiter-flexible";
import type { User } from "../../generated/prisma/client.js";
import type { Services } from "../shared/context.js";
import { avatarUrlOfUser, webUrlOfUser } from "../users/presenter.js";
import { hashPassword, passwordMatches } from "../users/records.js";
import { apiAccessDeniedReason } from "../users/states.js";
import { digest } from "../shared/secrets.js";
import { systemContext, type RequestClient } from "../shared/context.js";
import { publish } from "../shared/events.js";

/** Failed sign-ins allowed per address and login, and per address, in the window. */
export const SIGN_IN_LIMITS = { perLogin: 5, perAddress: 50, windowSeconds: 15 * 60 } as const;

export type SignInResult = { user: User } | { refused: "invalid" | "rate_limited" };

interface Limiters {
  perLogin: RateLimiterPrisma;
  perAddress: RateLimiterPrisma;
}

const limiters = new WeakMap<Services, Limiters>();

function limitersOf(services: Services): Limiters {
  let found = limiters.get(services);
  if (!found) {
    // expired rows are swept with the provider's other expired rows (domain/oauth/store.ts)
    const options = { storeClient: services.db, tableName: "oauthSignInAttempt", duration: SIGN_IN_LIMITS.windowSeconds, clearExpiredByTimeout: false };
    found = {
      perLogin: new RateLimiterPrisma({ ...options, points: SIGN_IN_LIMITS.perLogin }),
      perAddress: new RateLimiterPrisma({ ...options, points: SIGN_IN_LIMITS.perAddress }),
    };
    limiters.set(services, found);
  }
  return found;
}

/** Compared against when the login is unknown, so that both cases take the same time. */
let decoyDigest: string | undefined;

export async function signIn(services: Services, login: string, password: string, address: string): Promise<SignInResult> {
  const { perLogin, perAddress } = limitersOf(services);
  // digests: the table holds no address or login in clear
  const loginKey = digest(`login|${address}|${login.trim().toLowerCase()}`);
  const addressKey = digest(`address|${address}`);
  if (await exhausted(perLogin, loginKey, SIGN_IN_LIMITS.perLogin) || await exhausted(perAddress, addressKey, SIGN_IN_LIMITS.perAddress)) {
    return { refused: "rate_limited" };
  }
  const user = await findByLogin(services, login.trim());
  const matches = passwordMatches(user ?? { passwordDigest: (decoyDigest ??= hashPassword("decoy")) }, password);
  if (user && matches && mayUseOauth(services, user)) {
    await perLogin.delete(loginKey);
    return { user };
  }
  await perLogin.penalty(loginKey, 1);
  await perAddress.penalty(addressKey, 1);
  return { refused: "invalid" };
}

/** A web sign-in with a password succeeded: its audit event (AuditEventService#for_authentication), as the user, from the client's address. */
export async function recordSignIn(services: Services, user: User, client: RequestClient): Promise<void> {
  const ctx = { ...systemContext(services, { user, scopes: new Set(), tokenId: null }), client };
  await services.db.$transaction((tx) => publish(tx, ctx, "sign_in", { user, provider: "standard" }));
}

/** A web sign-in with a password was refused for a wrong login or password (not when rate limited): GitLab's failed login event. */
export async function recordFailedSignIn(services: Services, login: string, client: RequestClient): Promise<void> {
  const ctx = { ...systemContext(services), client };
  await services.db.$transaction((tx) => publish(tx, ctx, "sign_in_failed", { login: login.trim(), provider: "standard" }));
}

async function exhausted(limiter: RateLimiterPrisma, key: string, points: number): Promise<boolean> {
  const state = await limiter.get(key);
  return !!state && state.consumedPoints >= points;
}

function findByLogin(services: Services, login: string): Promise<User | null> {
  if (!login) return Promise.resolve(null);
  const where = login.includes("@") ? { OR: [{ email: login }, { email: login.toLowerCase() }] } : { usernameLower: login.toLowerCase() };
  return services.db.user.findFirst({ where });
}

/** Blocked, banned, deactivated and internal users cannot sign in (nor use the API). */
export function mayUseOauth(services: Services, user: User): boolean {
  return user.userType === "human" && apiAccessDeniedReason(services, user) === null;
}

export async function findActiveUser(services: Services, accountId: string): Promise<User | null> {
  if (!/^\d+$/.test(accountId)) return null;
  const user = await services.db.user.findUnique({ where: { id: Number(accountId) } });
  return user && mayUseOauth(services, user) ? user : null;
}

const OWNER = 50;
const MAINTAINER = 40;
const DEVELOPER = 30;
const GROUP_CLAIM = "https://gitlab.org/claims/groups/";

/** The claims GitLab's OpenID Connect configuration defines (the provider filters them by scope). */
export async function claimsOf(services: Services, user: User): Promise<Record<string, unknown>> {
  const groups = await groupClaims(services, user);
  return {
    sub: String(user.id),
    name: user.name,
    nickname: user.username,
    preferred_username: user.username,
    email: user.email,
    email_verified: true,
    profile: webUrlOfUser(services, user),
    picture: avatarUrlOfUser(services, user),
    ...groups,
  };
}

async function groupClaims(services: Services, user: User) {
  const now = services.now();
  const memberships = await services.db.groupMember.findMany({
    where: { userId: user.id, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    include: { group: { select: { fullPath: true, traversalIds: true } } },
    orderBy: { groupId: "asc" },
  });
  const direct = memberships.map((member) => member.group.fullPath);
  const descendants = memberships.length
    ? await services.db.namespace.findMany({
        where: { kind: "group", OR: memberships.map((member) => ({ traversalIds: { startsWith: member.group.traversalIds } })) },
        select: { fullPath: true },
      })
    : [];
  const atLeast = (level: number) => {
    const paths = memberships.filter((member) => member.accessLevel === level).map((member) => member.group.fullPath);
    return paths.length ? paths : undefined;
  };
  return {
    groups: [...new Set([...direct, ...descendants.map((group) => group.fullPath)])],
    groups_direct: direct,
    [`${GROUP_CLAIM}owner`]: atLeast(OWNER),
    [`${GROUP_CLAIM}maintainer`]: atLeast(MAINTAINER),
    [`${GROUP_CLAIM}developer`]: atLeast(DEVELOPER),
  };
}
