// Token lookup by digest through the server's token cache (one database query less on most
// requests). The cache empties itself when tokens or users change in any process
// (domain/shared/caches.ts), so revocation takes effect at once everywhere.
import { LRUCache } from "lru-cache";
import type { AccessToken, Prisma, User } from "../../generated/prisma/client.js";
import type { Services } from "../shared/context.js";

export type TokenWithUser = AccessToken & { user: User };

export function findTokenByDigest(services: Services, digest: string): Promise<TokenWithUser | null> {
  return services.caches.tokens.load(digest, async () => {
    const token = await services.db.accessToken.findUnique({ where: { digest }, include: { user: true } });
    return token && { value: token };
  });
}

export async function revokeToken(services: { db: Prisma.TransactionClient }, token: AccessToken): Promise<void> {
  await services.db.accessToken.update({ where: { id: token.id }, data: { revoked: true } });
}

/**
 * When a token was last used: writing `lastUsedAt` does not empty the token cache (the column is
 * left out of the cache's trigger), so this process remembers what it wrote.
 */
export function lastUsedAt(services: Services, token: TokenWithUser): Date | null {
  const written = usesWritten.get(services)?.get(token.id);
  return written && (!token.lastUsedAt || written > token.lastUsedAt) ? written : token.lastUsedAt;
}

export async function markTokenUsed(services: Services, token: TokenWithUser, at: Date): Promise<void> {
  await services.db.accessToken.update({ where: { id: token.id }, data: { lastUsedAt: at } });
  let written = usesWritten.get(services);
  if (!written) usesWritten.set(services, (written = new LRUCache<number, Date>({ max: 10_000 })));
  written.set(token.id, at);
}

const usesWritten = new WeakMap<Services, LRUCache<number, Date>>();
