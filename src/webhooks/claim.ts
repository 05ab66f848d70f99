// Claiming due outbox rows for a worker: a conditional update (the row is still pending and its
// lease is free or expired) whose result says which rows this worker won; on PostgreSQL the due
// rows are locked as they are read, skipping rows another worker is claiming at that moment, so
// concurrent workers take disjoint batches instead of racing for one.
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

export async function claimRows(services: Services, claim: Claim): Promise<WebHookDelivery[]> {
  const { at, owner, take, skipHooks } = claim;
  const leaseExpiresAt = new Date(at.getTime() + claim.leaseMs);
  if (services.dialect === "postgresql") return claimSkippingLocked(services, claim, leaseExpiresAt);
  const free = { OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: at } }] };
  const due = await services.db.webHookDelivery.findMany({
    where: { status: "pending", nextAttemptAt: { lte: at }, ...free, ...(skipHooks.length && { hookId: { notIn: skipHooks } }) },
    orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }],
    take,
  });
  if (!due.length) return [];
  // the rows another worker claimed since the read above are not returned
  return services.db.webHookDelivery.updateManyAndReturn({
    where: { id: { in: due.map((row) => row.id) }, status: "pending", ...free },
    data: { leaseOwner: owner, leaseExpiresAt },
  });
}

async function claimSkippingLocked(services: Services, claim: Claim, leaseExpiresAt: Date): Promise<WebHookDelivery[]> {
  const skip = claim.skipHooks.length ? Sql.sql`AND "hookId" NOT IN (${Sql.join(claim.skipHooks)})` : Sql.empty;
  const claimed = await services.db.$queryRaw<{ id: number }[]>`
    UPDATE "WebHookDelivery" SET "leaseOwner" = ${claim.owner}, "leaseExpiresAt" = ${leaseExpiresAt}
    WHERE "id" IN (
      SELECT "id" FROM "WebHookDelivery"
      WHERE "status" = 'pending' AND "nextAttemptAt" <= ${claim.at}
        AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ${claim.at}) ${skip}
      ORDER BY "nextAttemptAt", "id" LIMIT ${claim.take}
      FOR UPDATE SKIP LOCKED)
    RETURNING "id"`;
  if (!claimed.length) return [];
  return services.db.webHookDelivery.findMany({
    where: { id: { in: claimed.map((row) => Number(row.id)) }, leaseOwner: claim.owner },
    orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }],
  });
}
