// The delivery worker: claims due outbox rows with a lease, delivers them, and marks them done or
// reschedules them with exponential backoff. A claim is a conditional update (the row is still
// pending and its lease is free or expired) whose row count says who won, so any number of
// workers, in one process or many, on SQLite or PostgreSQL, never send a row at the same time
// (PostgreSQL: rows locked FOR UPDATE SKIP LOCKED while they are claimed).
// A worker that dies mid-delivery leaves its lease to expire; another worker then sends the row
// again with the same Idempotency-Key (at least once).
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { Prisma, WebHook, WebHookDelivery } from "../generated/prisma/client.js";
import type { Tx } from "../domain/events.js";
import type { Services } from "../domain/context.js";
import { alertStatus } from "../domain/web-hook-rows.js";
import { isSuccessStatus, recordHookHealth, sendHook } from "./deliver.js";
import { sendOverNetwork, type Transport } from "./http.js";
import { recordAttempts, type AttemptRecord } from "./log.js";
import { runMaintenance } from "./maintenance.js";

export interface WorkerOptions {
  /** the clock deliveries are scheduled by (services.now by default) */
  now?: () => Date;
  transport?: Transport;
  pollIntervalMs?: number;
  /** how long a claim holds; must outlast the delivery timeout */
  leaseMs?: number;
  batchSize?: number;
  /** attempts before a delivery is given up */
  maxAttempts?: number;
  /** first retry delay; doubled per attempt up to maxRetryDelayMs */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** how often the maintenance sweep (token expiry notices, clean-ups) runs */
  maintenanceIntervalMs?: number;
  log?: (message: string, error?: unknown) => void;
}

export interface Worker {
  readonly owner: string;
  /** claims and delivers the rows due now; resolves to how many were delivered */
  runOnce(): Promise<number>;
  start(): void;
  /** finishes the batch in hand, then stops polling */
  stop(): Promise<void>;
}

const DEFAULTS = {
  pollIntervalMs: 1000, batchSize: 20, maxAttempts: 10, retryDelayMs: 30_000, maxRetryDelayMs: 3_600_000,
  maintenanceIntervalMs: 3_600_000,
};

export function createWorker(services: Services, options: WorkerOptions = {}): Worker {
  const settings = { ...DEFAULTS, ...options };
  const now = options.now ?? (() => services.now());
  const transport = options.transport ?? sendOverNetwork;
  const leaseMs = options.leaseMs ?? services.config.webhookTimeoutSeconds * 1000 + 30_000;
  const log = options.log ?? ((message, error) => console.error(message, error ?? ""));
  const owner = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const clocked: Services = { ...services, now };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;
  let lastMaintenance = 0;

  async function claimDue(): Promise<WebHookDelivery[]> {
    const at = now();
    const leaseExpiresAt = new Date(at.getTime() + leaseMs);
    if (services.dialect === "postgresql") return claimSkippingLocked(services, { at, owner, leaseExpiresAt, take: settings.batchSize });
    const free = { OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: at } }] };
    const due = await services.db.webHookDelivery.findMany({
      where: { status: "pending", nextAttemptAt: { lte: at }, ...free },
      orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }],
      take: settings.batchSize,
    });
    if (!due.length) return [];
    // the rows another worker claimed since the read above are not returned
    return services.db.webHookDelivery.updateManyAndReturn({
      where: { id: { in: due.map((row) => row.id) }, status: "pending", ...free },
      data: { leaseOwner: owner, leaseExpiresAt },
    });
  }

  async function hooksOf(rows: WebHookDelivery[]): Promise<Map<number, WebHook>> {
    const hooks = await services.db.webHook.findMany({ where: { id: { in: [...new Set(rows.map((row) => row.hookId))] } } });
    return new Map(hooks.map((hook) => [hook.id, hook]));
  }

  /** Sends one claimed row; what became of it is written with the rest of the batch (`settle`). */
  async function send(row: WebHookDelivery, hook: WebHook | undefined): Promise<Outcome> {
    // deleting a hook deletes its rows too; this one was claimed just before
    if (!hook) return { row, kind: "gone" };
    try {
      const attempt = await sendHook(
        clocked,
        { hook, trigger: row.trigger, data: JSON.parse(row.payload), idempotencyKey: row.idempotencyKey, eventUuid: row.eventUuid },
        transport,
      );
      return attempt ? { row, hook, kind: "sent", attempt } : { row, kind: "disabled" };
    } catch (error) {
      log(`webhook delivery ${row.id} failed unexpectedly`, error);
      return { row, kind: "error", message: String(error) };
    }
  }

  /**
   * The batch's history rows, hook health and row states in one transaction (one wait for the
   * SQLite write lock per batch, not several per row); rows change only while this worker still
   * holds their lease.
   */
  async function settle(outcomes: Outcome[]): Promise<void> {
    const release = { leaseOwner: null, leaseExpiresAt: null };
    await services.db.$transaction(async (tx) => {
      const sent = outcomes.filter((outcome) => outcome.kind === "sent");
      await recordAttempts(tx, sent.map((outcome) => outcome.attempt));
      for (const outcome of sent) await recordHookHealth(tx, now, outcome.hook, outcome.attempt);
      const done = sent.filter((outcome) => isSuccessStatus(outcome.attempt.response?.status ?? null)).map((outcome) => outcome.row.id);
      if (done.length) {
        await tx.webHookDelivery.updateMany({
          where: { id: { in: done }, leaseOwner: owner },
          data: { status: "done", attempts: { increment: 1 }, lastError: null, ...release },
        });
      }
      for (const outcome of outcomes) {
        if (outcome.kind === "sent" && done.includes(outcome.row.id)) continue;
        await tx.webHookDelivery.updateMany({ where: { id: outcome.row.id, leaseOwner: owner }, data: { ...(await nextState(tx, outcome)), ...release } });
      }
    });
  }

  /** A row not delivered: rescheduled (backoff, or until its hook is enabled again) or given up. */
  async function nextState(tx: Tx, outcome: Outcome): Promise<Prisma.WebHookDeliveryUpdateManyMutationInput> {
    if (outcome.kind === "gone") return { status: "failed", lastError: "Hook deleted" };
    if (outcome.kind === "disabled") {
      // a temporarily disabled hook gets the row when it is enabled again; a disabled one never
      const hook = await tx.webHook.findUnique({ where: { id: outcome.row.hookId } });
      const until = hook && alertStatus(hook, now()) === "temporarily_disabled" ? hook.disabledUntil : null;
      return until ? { nextAttemptAt: until } : { status: "failed", lastError: "Hook disabled" };
    }
    const status = outcome.kind === "sent" ? outcome.attempt.response?.status ?? null : null;
    const message = outcome.kind === "sent" ? outcome.attempt.internalErrorMessage ?? "" : outcome.message;
    const attempts = outcome.row.attempts + 1;
    const lastError = status === null ? message.slice(0, 1000) : `HTTP ${status}`;
    const retry = attempts < settings.maxAttempts && retryable(status);
    const delay = Math.min(settings.retryDelayMs * 2 ** (attempts - 1), settings.maxRetryDelayMs);
    return retry ? { attempts, lastError, nextAttemptAt: new Date(now().getTime() + delay) } : { attempts, lastError, status: "failed" };
  }

  async function runOnce(): Promise<number> {
    await services.caches.registry.refresh(); // other processes' changes, as at the start of a request
    await maintain();
    const rows = await claimDue();
    if (!rows.length) return 0;
    const hooks = await hooksOf(rows);
    // a batch is sent at once: GitLab does not order deliveries either (one Sidekiq job each)
    await settle(await Promise.all(rows.map((row) => send(row, hooks.get(row.hookId)))));
    return rows.length;
  }

  async function maintain(): Promise<void> {
    const at = now().getTime();
    if (at - lastMaintenance < settings.maintenanceIntervalMs) return;
    lastMaintenance = at;
    await runMaintenance(clocked).catch((error) => log("webhook maintenance failed", error));
  }

  function schedule(delay: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runOnce()
        .catch((error) => log("webhook worker poll failed", error))
        .then((count) => schedule(count === settings.batchSize ? 0 : settings.pollIntervalMs));
    }, delay);
  }

  return {
    owner,
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

interface Claim {
  at: Date;
  owner: string;
  leaseExpiresAt: Date;
  take: number;
}

/**
 * PostgreSQL: the due rows are locked as they are read, skipping rows another worker is claiming
 * at that moment, so concurrent workers take disjoint batches instead of racing for one.
 */
async function claimSkippingLocked(services: Services, claim: Claim): Promise<WebHookDelivery[]> {
  const claimed = await services.db.$queryRaw<{ id: number }[]>`
    UPDATE "WebHookDelivery" SET "leaseOwner" = ${claim.owner}, "leaseExpiresAt" = ${claim.leaseExpiresAt}
    WHERE "id" IN (
      SELECT "id" FROM "WebHookDelivery"
      WHERE "status" = 'pending' AND "nextAttemptAt" <= ${claim.at}
        AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ${claim.at})
      ORDER BY "nextAttemptAt", "id" LIMIT ${claim.take}
      FOR UPDATE SKIP LOCKED)
    RETURNING "id"`;
  if (!claimed.length) return [];
  return services.db.webHookDelivery.findMany({
    where: { id: { in: claimed.map((row) => Number(row.id)) }, leaseOwner: claim.owner },
    orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }],
  });
}

/** What became of a claimed row when it was sent. */
type Outcome =
  | { row: WebHookDelivery; kind: "gone" }
  | { row: WebHookDelivery; kind: "disabled" }
  | { row: WebHookDelivery; kind: "sent"; hook: WebHook; attempt: AttemptRecord }
  /** the send itself threw (a bug, not an HTTP failure): retried like a network error */
  | { row: WebHookDelivery; kind: "error"; message: string };

/** No answer, a server error, 408 and 429 may pass on a later try; other client errors will not. */
function retryable(status: number | null): boolean {
  return status === null || status >= 500 || status === 408 || status === 429;
}
