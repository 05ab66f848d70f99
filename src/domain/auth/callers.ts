// Who is calling: token lookup (by SHA-256 digest), expiry and revocation, the scopes a request
// admits, sudo, and last-use tracking. Errors are GitLab's (lib/api/api_guard.rb, helpers.rb).
import type { User } from "../../generated/prisma/client.js";
import { AppError, forbidden, notFound, unauthorized } from "../../errors.js";
import type { Actor, Services } from "../shared/context.js";
import { digest } from "../shared/secrets.js";
import { apiAccessDeniedReason } from "../users/states.js";
import { findTokenByDigest, lastUsedAt, markTokenUsed, type TokenWithUser } from "./token-store.js";
import { recordId } from "../shared/record-ids.js";

export interface Credentials {
  token?: string;
  sudo?: string;
}

export type Access = "read" | "write";

/** `last_used_at` is written at most this often per token, as GitLab does. */
const LAST_USED_INTERVAL_MS = 10 * 60 * 1000;

const insufficientScope = (scopes: readonly string[]) =>
  new AppError(403, {
    error: "insufficient_scope",
    error_description: "The request requires higher privileges than provided by the access token.",
    scope: scopes.join(" "),
  });

/** rack-oauth2's 401 for a token that exists but can no longer be used. */
const invalidToken = (description: string) =>
  new AppError(
    401,
    { error: "invalid_token", error_description: description },
    { "WWW-Authenticate": `Bearer realm="Protected by OAuth 2.0", error="invalid_token", error_description="${description}"` },
  );

/**
 * The scopes that admit a request (GitLab's `allow_access_with_scope`): `api` always,
 * `read_api` for reads, plus the scopes the endpoint itself admits.
 */
export function admittingScopes(access: Access, endpointScopes: readonly string[] = []): string[] {
  return [...new Set(["api", ...(access === "read" ? ["read_api"] : []), ...endpointScopes])];
}

/**
 * Resolves the acting user. No token: anonymous (null). Unknown token: 401. When `admitting` is
 * given, the token must hold one of those scopes (checked before sudo, as GitLab does).
 */
export async function authenticate(services: Services, credentials: Credentials, admitting?: readonly string[]): Promise<Actor | null> {
  if (!credentials.token) {
    if (credentials.sudo) throw unauthorized();
    return null;
  }
  const token = await usableToken(services, credentials.token);
  const scopes = new Set(token.scopes.split(" ").filter(Boolean));
  if (admitting) assertAdmitted(scopes, admitting);
  assertApiAccess(services, token.user);
  await recordUse(services, token);
  const actor: Actor = { user: token.user, scopes, tokenId: token.id };
  return credentials.sudo ? sudo(services, actor, credentials.sudo) : actor;
}

async function usableToken(services: Services, secret: string): Promise<TokenWithUser> {
  const token = await findTokenByDigest(services, digest(secret));
  if (!token) throw unauthorized();
  if (token.expiresAt && token.expiresAt <= services.now()) {
    throw invalidToken("Token is expired. You can either do re-authorization or token refresh.");
  }
  if (token.revoked) throw invalidToken("Token was revoked. You have to re-authorize from the user.");
  return token;
}

/** API::APIGuard#find_current_user!: blocked, banned, deactivated and internal users get 403. */
function assertApiAccess(services: Services, user: User): void {
  const reason = apiAccessDeniedReason(services, user);
  if (reason) throw forbidden(reason);
}

function assertAdmitted(scopes: ReadonlySet<string>, admitting: readonly string[]): void {
  if (!admitting.some((scope) => scopes.has(scope))) throw insufficientScope(admitting);
}

async function recordUse(services: Services, token: TokenWithUser): Promise<void> {
  const now = services.now();
  const last = lastUsedAt(services, token);
  if (last && now.getTime() - last.getTime() < LAST_USED_INTERVAL_MS) return;
  await markTokenUsed(services, token, now);
}

async function sudo(services: Services, actor: Actor, identifier: string): Promise<Actor> {
  if (!actor.user.isAdmin) throw forbidden("Must be admin to use sudo");
  assertAdmitted(actor.scopes, ["sudo"]);
  const where = /^\d+$/.test(identifier) ? { id: recordId(identifier) } : { usernameLower: identifier.toLowerCase() };
  const user = await services.db.user.findFirst({ where });
  if (!user) throw notFound(`User with ID or username '${identifier}'`);
  return { ...actor, user };
}

/** GraphQL: queries need `api` or `read_api`, mutations `api`. */
export function assertScopeAllows(actor: Actor | null, access: Access): void {
  if (actor) assertAdmitted(actor.scopes, admittingScopes(access));
}
