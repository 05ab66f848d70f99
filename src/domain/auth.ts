// Who is calling: token lookup (by SHA-256 digest), expiry and revocation, sudo, and token scopes.
import { AppError, forbidden, notFound, unauthorized } from "../errors.js";
import type { Actor, Services } from "./context.js";
import { digest } from "./secrets.js";

export interface Credentials {
  token?: string;
  sudo?: string;
}

const insufficientScope = (scope: string) =>
  new AppError(403, {
    error: "insufficient_scope",
    error_description: "The request requires higher privileges than provided by the access token.",
    scope,
  } as any);

/** Resolves the acting user. No token: anonymous (null). A bad token: 401. */
export async function authenticate(services: Services, credentials: Credentials): Promise<Actor | null> {
  if (!credentials.token) {
    if (credentials.sudo) throw unauthorized();
    return null;
  }
  const token = await services.db.accessToken.findUnique({
    where: { digest: digest(credentials.token) },
    include: { user: true },
  });
  const now = services.now();
  if (!token || token.revoked || (token.expiresAt && token.expiresAt <= now) || token.user.state !== "active") {
    throw unauthorized();
  }
  const scopes = new Set(token.scopes.split(" ").filter(Boolean));
  if (!scopes.has("api") && !scopes.has("read_api")) throw insufficientScope("api");
  const actor: Actor = { user: token.user, scopes, tokenId: token.id };
  return credentials.sudo ? sudo(services, actor, credentials.sudo) : actor;
}

async function sudo(services: Services, actor: Actor, identifier: string): Promise<Actor> {
  if (!actor.user.isAdmin) throw forbidden("Must be admin to use sudo");
  if (!actor.scopes.has("sudo")) throw insufficientScope("sudo");
  const where = /^\d+$/.test(identifier) ? { id: Number(identifier) } : { usernameLower: identifier.toLowerCase() };
  const user = await services.db.user.findFirst({ where });
  if (!user) throw notFound(`User with ID or username '${identifier}'`);
  return { ...actor, user };
}

/** `read_api` tokens may only read: GET requests and GraphQL queries. */
export function assertScopeAllows(actor: Actor | null, access: "read" | "write"): void {
  if (!actor || access === "read") return;
  if (!actor.scopes.has("api")) throw insufficientScope("api");
}
