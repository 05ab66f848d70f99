// Fixed-window request limits kept in the database, so that every server process counts the same
// requests (GitLab's ApplicationRateLimiter: the counter of the current minute is incremented and
// the request refused once it passes the threshold).
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";

export const tooManyRequests = () =>
  new AppError(429, { message: { error: "This endpoint has been requested too many times. Try again later." } });

/** Counts one request for `key` in the current window; throws 429 past `limit`. */
export async function checkRateLimit(db: Db, now: Date, key: string, limit: number, windowMs = 60_000): Promise<void> {
  const window = Math.floor(now.getTime() / windowMs);
  const id = `${key}:${window}`;
  const expiresAt = new Date((window + 1) * windowMs);
  if ((await increment(db, id, expiresAt)) > limit) throw tooManyRequests();
}

async function increment(db: Db, key: string, expiresAt: Date): Promise<number> {
  const bump = () => db.rateLimitCounter.update({ where: { key }, data: { count: { increment: 1 } } });
  try {
    return (await bump()).count;
  } catch (error) {
    if ((error as { code?: string }).code !== "P2025") throw error;
  }
  try {
    return (await db.rateLimitCounter.create({ data: { key, count: 1, expiresAt } })).count;
  } catch (error) {
    if ((error as { code?: string }).code !== "P2002") throw error;
    return (await bump()).count; // another process created it first
  }
}
