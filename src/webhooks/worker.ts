// The delivery worker: claims due outbox rows with a lease, delivers them, and marks them done or
// reschedules them with exponential backoff. A claim is a conditional update (the row is still
// pending and its lease is free or expired) whose row count says who won, so any number of
// workers, in one process or many, on SQLite or PostgreSQL, never send a row at the same time.
// A worker that dies mid-delivery leaves its lease to expire; another worker then sends the row
// again with the same Idempotency-Key (at least once).
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { WebHookDelivery } from "../generated/prisma/client.js";
import type { Services } from "../domain/context.js";
import { alertStatus } from "../domain/group-hooks.js";
import { executeHook, isSuccessStatus, type ExecutionResult } from "./deliver.js";
import { sendOverNetwork, type Transport } from "./http.js";
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
  pollIntervalMs: 1000, batchSize: 10, maxAttempts: 10, retryDelayMs: 30_000, maxRetryDelayMs: 3_600_000,
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
    const free = { OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: at } }] };
    const due = await services.db.webHookDelivery.findMany({
      where: { status: "pending", nextAttemptAt: { lte: at }, ...free },
      orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }],
      take: settings.batchSize,
    });
    const claimed: WebHookDelivery[] = [];
    for (const row of due) {
      const lease = { leaseOwner: owner, leaseExpiresAt: new Date(at.getTime() + leaseMs) };
      const { count } = await services.db.webHookDelivery.updateMany({ where: { id: row.id, status: "pending", ...free }, data: lease });
      if (count === 1) claimed.push({ ...row, ...lease });
    }
    return claimed;
  }

  async function deliver(row: WebHookDelivery): Promise<void> {
    const hook = await services.db.groupHook.findUnique({ where: { id: row.hookId } });
    if (!hook) {
      // deleting a hook deletes its rows too; this one was claimed just before
      await services.db.webHookDelivery.updateMany({ where: { id: row.id }, data: { status: "failed", lastError: "Hook deleted", leaseOwner: null, leaseExpiresAt: null } });
      return;
    }
    let result: ExecutionResult;
    try {
      result = await executeHook(
        clocked,
        { hook, trigger: row.trigger, data: JSON.parse(row.payload), idempotencyKey: row.idempotencyKey, eventUuid: row.eventUuid },
        transport,
      );
    } catch (error) {
      log(`webhook delivery ${row.id} failed unexpectedly`, error);
      result = { sent: true, status: null, message: String(error), logId: 0 };
    }
    await settle(row, result);
  }

  /** Done, given up, or rescheduled; only while this worker still holds the lease. */
  async function settle(row: WebHookDelivery, result: ExecutionResult): Promise<void> {
    const mine = { id: row.id, leaseOwner: owner };
    const release = { leaseOwner: null, leaseExpiresAt: null };
    if (!result.sent) {
      // a temporarily disabled hook gets the row when it is enabled again; a disabled one never
      const hook = await services.db.groupHook.findUnique({ where: { id: row.hookId } });
      const until = hook && alertStatus(hook, now()) === "temporarily_disabled" ? hook.disabledUntil : null;
      const data = until ? { nextAttemptAt: until, ...release } : { status: "failed", lastError: result.message, ...release };
      await services.db.webHookDelivery.updateMany({ where: mine, data });
      return;
    }
    const attempts = row.attempts + 1;
    if (isSuccessStatus(result.status)) {
      await services.db.webHookDelivery.updateMany({ where: mine, data: { status: "done", attempts, lastError: null, ...release } });
      return;
    }
    const lastError = result.status === null ? result.message.slice(0, 1000) : `HTTP ${result.status}`;
    const retry = attempts < settings.maxAttempts && retryable(result.status);
    const delay = Math.min(settings.retryDelayMs * 2 ** (attempts - 1), settings.maxRetryDelayMs);
    await services.db.webHookDelivery.updateMany({
      where: mine,
      data: retry
        ? { attempts, lastError, nextAttemptAt: new Date(now().getTime() + delay), ...release }
        : { attempts, lastError, status: "failed", ...release },
    });
  }

  async function runOnce(): Promise<number> {
    services.caches.registry.refresh(); // other processes' changes, as at the start of a request
    await maintain();
    const rows = await claimDue();
    for (const row of rows) await deliver(row);
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

/** No answer, a server error, 408 and 429 may pass on a later try; other client errors will not. */
function retryable(status: number | null): boolean {
  return status === null || status >= 500 || status === 408 || status === 429;
}
