// Fixed-window request limits kept in the database, so that every server process counts the same
// requests (GitLab's ApplicationRateLimiter: the counter of the current minute is incremented and
// the request refused once it passes the threshold).
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors.js";

export const tooManyRequests = () =>
  new AppError(429, { message: { error: "This endpoint has been requested too many times. Try again later." } });

/** Counts one request for `key` in the current window; throws 429 past `limit`. */
export async function checkRateLimit(db: Db, now: Date, key: string, limit: number, windowMs = 60_000): Promise<void> {
  const window = Math.floor(now.getTime() / windowMs);
  const id = `${key}:${window}`;
  const expiresAt = new Date((window + 1) * windowMs);
  // one atomic statement (Prisma's native upsert: INSERT ... ON CONFLICT DO UPDATE), so
  // concurrent requests from any process never lose a count
  const counter = await db.rateLimitCounter.upsert({
    where: { key: id },
    create: { key: id, count: 1, expiresAt },
    update: { count: { increment: 1 } },
  });
  if (counter.count > limit) throw tooManyRequests();
}
