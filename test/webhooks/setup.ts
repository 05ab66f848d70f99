// Shared set-up of the webhook tests: an app that allows loopback hooks, a receiver, a settable
// clock (the services' and the workers'), hooks made through the API, and workers to drain the outbox.
import { expect } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createWorker, type Worker, type WorkerOptions } from "../../src/webhooks/worker.js";
import { startReceiver, type Receiver } from "./receiver.js";

export interface Clock {
  now(): Date;
  set(date: Date): void;
  advance(ms: number): void;
}

/** A clock that starts at the real time and moves only when told. */
export function manualClock(start = new Date()): Clock {
  let current = start.getTime();
  return { now: () => new Date(current), set: (date) => (current = date.getTime()), advance: (ms) => (current += ms) };
}

export interface WebhookTestbed {
  t: TestApp;
  receiver: Receiver;
  clock: Clock;
  worker(options?: WorkerOptions): Worker;
  /** runs a worker until no delivery is due */
  drain(worker?: Worker): Promise<void>;
  close(): Promise<void>;
}

export async function startTestbed(env: Record<string, string> = {}): Promise<WebhookTestbed> {
  const t = await startTestApp({ ALLOW_LOCAL_WEBHOOKS: "true", ...env });
  const receiver = await startReceiver();
  const clock = manualClock();
  t.services.now = clock.now;
  const quiet = () => {};
  const worker = (options: WorkerOptions = {}) => createWorker(t.services, { now: () => t.services.now(), maintenanceIntervalMs: Number.MAX_SAFE_INTEGER, log: quiet, ...options });
  const drain = async (w = worker()) => {
    for (let i = 0; i < 100 && (await w.runOnce()) > 0; i++);
  };
  return { t, receiver, clock, worker, drain, close: () => receiver.close() };
}

const hooksPath = (groupId: number) => `/groups/${groupId}/hooks`;

/** A hook created by root; returns the API entity. */
export async function createHook(bed: WebhookTestbed, groupId: number, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await bed.t.root.post(hooksPath(groupId), { url: `${bed.receiver.url}/hook`, ...fields });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Between tests: no hooks (nor their history), no rate-limit counts or feature flags, a receiver answering 200, the clock at now. */
export async function resetHooks(bed: WebhookTestbed): Promise<void> {
  await bed.t.services.db.webHook.deleteMany({});
  await bed.t.services.db.rateLimitCounter.deleteMany({});
  await bed.t.services.db.featureFlag.deleteMany({});
  bed.receiver.clear();
  bed.receiver.answer = { status: 200, body: "OK" };
  bed.clock.set(new Date());
}

export async function deliveriesOf(bed: WebhookTestbed, hookId: number) {
  return bed.t.services.db.webHookDelivery.findMany({ where: { hookId }, orderBy: { id: "asc" } });
}
