// Waking delivery workers as soon as an outbox row commits, instead of at their next poll. A
// transaction that wrote delivery rows is marked (`markEnqueued`); once it commits, the process's
// own workers are signalled, a clustered web process tells its primary (which runs the worker),
// and on PostgreSQL a NOTIFY (one at a time per process) reaches the workers of every other
// process, which LISTEN on one connection of their own. A lost signal costs only latency: the poll stays the safety net.
import cluster from "node:cluster";
import { afterCommit, type TransactionClient } from "../db/after-commit.js";

export const NOTIFY_CHANNEL = "forgeline_webhooks";
const WAKE_MESSAGE = "forgeline:webhooks-wake";

const enqueuedIn = new WeakSet<object>();
const listeners = new WeakMap<object, Set<() => void>>();

/** The transaction `tx` wrote delivery rows: wake the workers once it commits. */
export function markEnqueued(tx: object): void {
  enqueuedIn.add(tx);
}

/**
 * Signals after each interactive transaction of `db` that wrote delivery rows, once it committed;
 * `notify` (PostgreSQL) tells the other processes.
 */
export function wakeOnCommit(db: TransactionClient, notify?: () => void): void {
  afterCommit(db, (tx) => {
    if (!enqueuedIn.has(tx)) return;
    for (const listener of listeners.get(db) ?? []) listener();
    if (cluster.isWorker) process.send?.(WAKE_MESSAGE);
    notify?.();
  });
}

/**
 * `send` at most once at a time: commits while one is in flight ride on one more sent after it,
 * so a burst of writes takes one pooled connection for its NOTIFYs, not one per write. A failed
 * send costs only latency (the poll delivers).
 */
export function coalesced(send: () => Promise<unknown>): () => void {
  let inFlight = false;
  let again = false;
  const run = () => {
    inFlight = true;
    again = false;
    void send()
      .catch(() => {})
      .finally(() => {
        inFlight = false;
        if (again) run();
      });
  };
  return () => (inFlight ? (again = true) : run());
}

/** Calls `listener` after each commit of `db` that wrote delivery rows; returns the unsubscribe. */
export function onOutboxCommit(db: object, listener: () => void): () => void {
  const set = listeners.get(db) ?? new Set();
  listeners.set(db, set);
  set.add(listener);
  return () => set.delete(listener);
}

/** A clustered web process's message to the primary: rows committed. */
export const isWakeMessage = (message: unknown) => message === WAKE_MESSAGE;
