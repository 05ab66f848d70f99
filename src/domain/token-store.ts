// Token lookup by digest with a short in-process cache (one database query less on most
// requests), and revocation that clears the cache. Other server processes may keep accepting a
// revoked token for at most CACHE_TTL_MS.
import { LRUCache } from "lru-cache";
import type { AccessToken, User } from "../generated/prisma/client.js";
import type { Services } from "./context.js";

export type TokenWithUser = AccessToken & { user: User };

const CACHE_TTL_MS = 5_000;

export type TokenCache = LRUCache<string, TokenWithUser>;

export function createTokenCache(): TokenCache {
  return new LRUCache<string, TokenWithUser>({ max: 10_000, ttl: CACHE_TTL_MS });
}

export async function findTokenByDigest(services: Services, digest: string): Promise<TokenWithUser | null> {
  const cached = services.tokenCache.get(digest);
  if (cached) return cached;
  const token = await services.db.accessToken.findUnique({ where: { digest }, include: { user: true } });
  if (token) services.tokenCache.set(digest, token);
  return token;
}

export async function revokeToken(services: Services, token: AccessToken): Promise<void> {
  await services.db.accessToken.update({ where: { id: token.id }, data: { revoked: true } });
  services.tokenCache.delete(token.digest);
}

export async function markTokenUsed(services: Services, token: TokenWithUser, at: Date): Promise<void> {
  await services.db.accessToken.update({ where: { id: token.id }, data: { lastUsedAt: at } });
  token.lastUsedAt = at;
}
