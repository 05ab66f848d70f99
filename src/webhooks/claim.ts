// Claiming due outbox rows for a worker: one conditional update (the row is still pending and its
// lease is free or expired) that returns the rows this worker won; on PostgreSQL the due rows are
// locked as they are read, skipping rows another worker is claiming at that moment, so concurrent
// workers take disjoint batches instead of racing for one (SQLite runs one write at a time).
// Raw portable SQL, one statement on both databases: it runs for every batch the worker sends,
// and Prisma's model queries cost several times the statement's own CPU.
import { Prisma as Sql, type WebHookDelivery } from "../generated/prisma/client.js";
import type { Services } from "../domain/shared/context.js";

export interface Claim {
  at: Date;
  owner: string;
  leaseMs: number;
  take: number;
  /** hooks whose rows are not taken now (their host is busy) */
  skipHooks: number[];
}

/** The model's columns, in its order (the rows read as Prisma's). */
const COLUMNS = Sql.raw(
  ["id", "hookId", "trigger", "payload", "idempotencyKey", "eventUuid", "correlationId", "status", "attempts", "nextAttemptAt",
    "leaseOwner", "leaseExpiresAt", "lastError", "createdAt", "updatedAt"].map((column) => `"${column}"`).join(", "),
);

/** The rows claimed, oldest due first. */
export async function claimRows(services: Services, claim: Claim): Promise<WebHookDelivery[]> {
  const { at, owner, take, skipHooks } = claim;
  const leaseExpiresAt = new Date(at.getTime() + claim.leaseMs);
  const skip = skipHooks.length ? Sql.sql`AND "hookId" NOT IN (${Sql.join(skipHooks)})` : Sql.empty;
  const lock = services.dialect === "postgresql" ? Sql.sql`FOR UPDATE SKIP LOCKED` : Sql.empty;
  const claimed = await services.db.$queryRaw<WebHookDelivery[]>`
    UPDATE "WebHookDelivery" SET "leaseOwner" = ${owner}, "leaseExpiresAt" = ${leaseExpiresAt}, "updatedAt" = ${new Date()}
    WHERE "id" IN (
      SELECT "id" FROM "WebHookDelivery"
      WHERE "status" = 'pending' AND "nextAttemptAt" <= ${at}
        AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ${at}) ${skip}
      ORDER BY "nextAttemptAt", "id" LIMIT ${take}
      ${lock})
    RETURNING ${COLUMNS}`;
  return claimed.sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.id - b.id);
}
