// The delivery worker: claims due outbox rows with a lease, delivers them, and marks them done or
// reschedules them with exponential backoff. A claim is a conditional update (the row is still
// pending and its lease is free or expired) whose row count says who won, so any number of
// workers, in one process or many, on SQLite or PostgreSQL, never send a row at the same time
// (PostgreSQL: rows locked FOR UPDATE SKIP LOCKED while they are claimed).
// A worker that dies mid-delivery leaves its lease to expire; another worker then sends the row
// again with the same Idempotency-Key (at least once).
// A started worker keeps up to `concurrency` rows in hand, at most `hostConcurrency` of them
// in flight to one host (rows of hooks whose host is full are left for later claims or other
// workers), and claims as soon as a commit wakes it (wake.ts), the poll being the safety net.
// What became of each row is written in small batches as the sends finish (claim.ts: the claim).
import { randomUUID } from "node:crypto";
import os from "node:os";
import { Prisma, type WebHook, type WebHookDelivery } from "../generated/prisma/client.js";
import type { Tx } from "../domain/shared/events.js";
import type { Services } from "../domain/shared/context.js";
import { alertStatus, stateOf } from "../domain/web-hooks/rows.js";
import { isSuccessStatus, recordHookHealth, sendHook } from "./deliver.js";
import { createHostLimiter, hostKey } from "./host-limit.js";
import { sendOverNetwork, type Transport } from "./http.js";
import { recordAttempts, type AttemptRecord } from "./log.js";
import { runMaintenance } from "./maintenance.js";
import { targetOf } from "./request.js";
import { claimRows } from "./claim.js";
import { listenOnChannel, type ChannelListener } from "../db/listen.js";
import { NOTIFY_CHANNEL, onOutboxCommit } from "./wake.js";
import { logError, logger } from "../observability/logger.js";
import { countDelivery, countLeases } from "../observability/metrics.js";

export interface WorkerOptions {
  /** the clock deliveries are scheduled by (services.now by default) */
  now?: () => Date;
  transport?: Transport;
  /** the safety net behind wake-ups (WEBHOOK_POLL_INTERVAL by default) */
  pollIntervalMs?: number;
  /** rows a started worker has in hand at most (WEBHOOK_CONCURRENCY) */
  concurrency?: number;
  /** deliveries in flight to one host at most (WEBHOOK_HOST_CONCURRENCY) */
  hostConcurrency?: number;
  /** PostgreSQL: LISTEN for other processes' commits (default true) */
  listen?: boolean;
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
  /** claims and delivers one batch of the rows due now; resolves to how many were delivered */
  runOnce(): Promise<number>;
  /** starts claiming; resolves once the first look at the outbox is over (what was due then is claimed) */
  start(): Promise<void>;
  /** a started worker claims at once (rows committed) */
  wake(): void;
  /**
   * Finishes the deliveries in hand, then stops; with `timeoutMs`, the rows still in hand after it
   * are released (another worker sends them at once rather than when their lease expires).
   */
  stop(timeoutMs?: number): Promise<void>;
}

/** how long a finished delivery may wait for others to be written with */
const SETTLE_DELAY_MS = 20;

const DEFAULTS = {
  batchSize: 20, maxAttempts: 10, retryDelayMs: 30_000, maxRetryDelayMs: 3_600_000,
  maintenanceIntervalMs: 3_600_000,
};

export function createWorker(services: Services, options: WorkerOptions = {}): Worker {
  const { config } = services;
  const settings = {
    ...DEFAULTS, pollIntervalMs: config.webhookPollIntervalMs, concurrency: config.webhookConcurrency,
    hostConcurrency: config.webhookHostConcurrency, listen: true, ...options,
  };
  const now = options.now ?? (() => services.now());
  const transport = options.transport ?? sendOverNetwork;
  const leaseMs = options.leaseMs ?? services.config.webhookTimeoutSeconds * 1000 + 30_000;
  const log = options.log ?? logError;
  const owner = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const clocked: Services = { ...services, now };
  const limiter = createHostLimiter(settings.hostConcurrency);
  /** the host each hook seen delivers to, for leaving out the hooks of full hosts */
  const hostOfHook = new Map<number, string>();
  const hostOfRow = new WeakMap<WebHook, string>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let lastMaintenance = 0;
  let unsubscribe: (() => void) | undefined;
  let uncountLeases: (() => void) | undefined;
  let listener: ChannelListener | undefined;

  const claimDue = (take: number, skipHooks: number[] = []) => claimRows(services, { at: now(), owner, leaseMs, take, skipHooks });

  /**
   * The rows' hooks, from the hook cache (emptied when any WebHook row changes, in any process: the
   * claim loop refreshes it first), as the outbox reads them when it writes the rows.
   */
  async function hooksOf(rows: WebHookDelivery[]): Promise<Map<number, WebHook>> {
    const ids = [...new Set(rows.map((row) => row.hookId))].sort((a, b) => a - b);
    const hooks = (await services.caches.webHooks.load(`id:${ids.join(",")}`, async () => ({
      value: await services.db.webHook.findMany({ where: { id: { in: ids } } }),
    })))!;
    for (const hook of hooks) hostOfHook.set(hook.id, hostOf(hook));
    return new Map(hooks.map((hook) => [hook.id, hook]));
  }

  /** The host a hook row delivers to, worked out (its secrets decrypted) once per row read: the hook cache hands out the same rows. */
  function hostOf(hook: WebHook): string {
    let host = hostOfRow.get(hook);
    if (host === undefined) {
      try {
        host = hostKey(targetOf(stateOf(services, hook)).url);
      } catch {
        host = `hook:${hook.id}`; // its send fails and says why
      }
      hostOfRow.set(hook, host);
    }
    return host;
  }

  /** Sends through the hook's host's slots. */
  function sendLimited(row: WebHookDelivery, hook: WebHook | undefined): Promise<Outcome> {
    return hook ? limiter.run(hostOfHook.get(hook.id)!, () => send(row, hook)) : send(row, hook);
  }

  /** Sends one claimed row; what became of it is written with the rest of the batch (`settle`). */
  async function send(row: WebHookDelivery, hook: WebHook | undefined): Promise<Outcome> {
    // deleting a hook deletes its rows too; this one was claimed just before
    if (!hook) return { row, kind: "gone" };
    try {
      const attempt = await sendHook(
        clocked,
        {
          hook, trigger: row.trigger, data: JSON.parse(row.payload), idempotencyKey: row.idempotencyKey, eventUuid: row.eventUuid,
          correlationId: row.correlationId,
        },
        transport,
      );
      if (attempt) logDelivery(row, attempt);
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
      // raw portable SQL: every delivered row goes through here
      if (done.length) {
        await tx.$executeRaw`UPDATE "WebHookDelivery"
          SET "status" = 'done', "attempts" = "attempts" + 1, "lastError" = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${new Date()}
          WHERE "id" IN (${Prisma.join(done)}) AND "leaseOwner" = ${owner}`;
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
    const rows = await claimDue(settings.batchSize);
    if (!rows.length) return 0;
    const hooks = await hooksOf(rows);
    // a batch is sent at once: GitLab does not order deliveries either (one Sidekiq job each)
    await settle(await Promise.all(rows.map((row) => sendLimited(row, hooks.get(row.hookId)))));
    return rows.length;
  }

  // A started worker: rows in hand (claimed, not yet settled), what finished and awaits settling.
  let inHand = 0;
  let moreDue = false;
  let claiming: Promise<void> | undefined;
  let claimAgain = false;
  const finished: Outcome[] = [];
  let settling: Promise<void> | undefined;
  let settleTimer: NodeJS.Timeout | undefined;
  const sending = new Set<Promise<void>>();

  /** Claims while there is room and rows are due; one claim loop at a time, re-run when woken meanwhile. */
  function pump(): Promise<void> {
    if (claiming) {
      claimAgain = true;
      return claiming;
    }
    claiming = (async () => {
      do {
        claimAgain = false;
        await services.caches.registry.refresh();
        await maintain();
        while (!stopped && inHand < settings.concurrency) {
          const room = settings.concurrency - inHand;
          const skipped = fullHosts();
          const rows = await claimDue(room, skipped);
          // rows may be left: the room was filled, or those of full hosts were passed over
          moreDue = rows.length === room || skipped.length > 0;
          if (rows.length) dispatch(rows, await hooksOf(rows));
          if (rows.length < room) break;
        }
      } while (claimAgain && !stopped);
    })()
      .catch((error) => log("webhook worker claim failed", error))
      .finally(() => (claiming = undefined));
    return claiming;
  }

  /** Hooks whose host has all its slots taken: their rows stay for later (or for other workers). */
  function fullHosts(): number[] {
    return [...hostOfHook].filter(([, host]) => limiter.load(host) >= limiter.limit).map(([id]) => id);
  }

  function dispatch(rows: WebHookDelivery[], hooks: Map<number, WebHook>) {
    inHand += rows.length;
    for (const row of rows) {
      const delivery = sendLimited(row, hooks.get(row.hookId)).then((outcome) => {
        sending.delete(delivery);
        finish(outcome);
      });
      sending.add(delivery);
    }
  }

  /** A send is over: its outcome is written with those finishing about the same time (one transaction for several). */
  function finish(outcome: Outcome) {
    finished.push(outcome);
    if (settling) return; // the settle under way takes it too
    if (finished.length >= settings.batchSize) {
      clearTimeout(settleTimer);
      settleTimer = undefined;
      settling = settleFinished();
    } else {
      settleTimer ??= setTimeout(() => {
        settleTimer = undefined;
        settling ??= settleFinished();
      }, SETTLE_DELAY_MS);
    }
  }

  async function settleFinished(): Promise<void> {
    while (finished.length) {
      const batch = finished.splice(0);
      await settle(batch).catch((error) => log("webhook worker could not record deliveries (their leases will expire)", error));
      inHand -= batch.length;
    }
    settling = undefined;
    // room again: claim when rows were left behind and a good part of the room is free, or half of it is
    const room = settings.concurrency - inHand;
    if (!stopped && (room >= settings.concurrency / 2 || (moreDue && room >= settings.concurrency / 4))) void pump();
  }

  /** The rows this worker still holds go back to the outbox, due now. */
  async function releaseLeases(): Promise<void> {
    const { count } = await services.db.webHookDelivery.updateMany({
      where: { leaseOwner: owner, status: "pending" },
      data: { leaseOwner: null, leaseExpiresAt: null },
    });
    if (count) logger.warn(`webhook worker ${owner} stopping: released ${count} delivery(ies) still in hand`);
  }

  async function maintain(): Promise<void> {
    const at = now().getTime();
    if (at - lastMaintenance < settings.maintenanceIntervalMs) return;
    lastMaintenance = at;
    await runMaintenance(clocked).catch((error) => log("webhook maintenance failed", error));
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => void pump().finally(schedule), settings.pollIntervalMs);
  }

  function wake() {
    if (!stopped) void pump();
  }

  return {
    owner,
    runOnce,
    wake,
    async start() {
      if (!stopped) return;
      stopped = false;
      unsubscribe = onOutboxCommit(services.db, wake);
      uncountLeases = countLeases(() => inHand);
      if (settings.listen && services.dialect === "postgresql") listener = listenOnChannel(config.databaseUrl, NOTIFY_CHANNEL, wake, log);
      const firstLook = pump().finally(schedule);
      await firstLook;
    },
    async stop(timeoutMs) {
      stopped = true;
      clearTimeout(timer);
      unsubscribe?.();
      const finishing = (async () => {
        await listener?.close();
        await claiming;
        await Promise.all(sending);
        clearTimeout(settleTimer);
        if (finished.length) settling ??= settleFinished();
        await settling;
      })();
      if (timeoutMs === undefined) return finishing.finally(() => uncountLeases?.());
      let deadline: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        finishing.then(() => false),
        new Promise<boolean>((resolve) => (deadline = setTimeout(() => resolve(true), timeoutMs))),
      ]);
      clearTimeout(deadline);
      if (timedOut) await releaseLeases();
      uncountLeases?.();
    },
  };
}

/** What became of a claimed row when it was sent. */
type Outcome =
  | { row: WebHookDelivery; kind: "gone" }
  | { row: WebHookDelivery; kind: "disabled" }
  | { row: WebHookDelivery; kind: "sent"; hook: WebHook; attempt: AttemptRecord }
  /** the send itself threw (a bug, not an HTTP failure): retried like a network error */
  | { row: WebHookDelivery; kind: "error"; message: string };

/** One line per attempt, with the correlation id of the request that fired the event; counted in the metrics. */
function logDelivery(row: WebHookDelivery, attempt: AttemptRecord): void {
  const status = attempt.response?.status ?? null;
  countDelivery(status === null ? "error" : isSuccessStatus(status) ? "success" : "failure", row.createdAt);
  logger.info({
    correlation_id: row.correlationId,
    delivery_id: row.id,
    hook_id: row.hookId,
    event: row.trigger,
    attempt: row.attempts + 1,
    status,
    duration_s: attempt.executionDuration,
    error: attempt.internalErrorMessage ?? undefined,
  }, isSuccessStatus(status) ? "webhook delivered" : "webhook delivery failed");
}

/** No answer, a server error, 408 and 429 may pass on a later try; other client errors will not. */
function retryable(status: number | null): boolean {
  return status === null || status >= 500 || status === 408 || status === 429;
}
