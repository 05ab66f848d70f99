// Delivery reliability with an injected clock: retries with backoff and the same Idempotency-Key,
// timeouts, GitLab's auto-disabling and recovery, several workers racing for the same rows, and
// the URL guard applied again at send time (a private target refused when local hooks are off).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUrlGuard } from "../../src/net/url-guard.js";
import { createWorker } from "../../src/webhooks/worker.js";
import { addMember, createGroup, createUser, type TestUser } from "../helpers/factories.js";
import { createHook, deliveriesOf, startTestbed, type WebhookTestbed } from "./setup.js";

let bed: WebhookTestbed;
let owner: TestUser;
let group: any;
const MINUTE = 60_000;

beforeAll(async () => {
  bed = await startTestbed();
  owner = await createUser(bed.t);
  group = await createGroup(owner.api);
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.t.services.db.webHook.deleteMany({});
  bed.receiver.clear();
  bed.receiver.answer = { status: 200, body: "OK" };
  bed.clock.set(new Date());
});

async function memberEvent() {
  const user = await createUser(bed.t);
  await addMember(owner.api, "groups", group.id, user.id, 30);
}

const hookRow = (id: number) => bed.t.services.db.webHook.findUniqueOrThrow({ where: { id } });
const getHook = async (id: number) => (await bed.t.root.get(`/groups/${group.id}/hooks/${id}`)).body;

describe("retries", () => {
  it("reschedules failures with exponential backoff, keeps the Idempotency-Key, and finishes on success", async () => {
    const hook = await createHook(bed, group.id, { member_events: true });
    bed.receiver.answer = { status: 503, body: "down" };
    await memberEvent();
    const worker = bed.worker({ retryDelayMs: 30_000 });
    expect(await worker.runOnce()).toBe(1);
    let [row] = await deliveriesOf(bed, hook.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastError: "HTTP 503", leaseOwner: null });
    expect(row!.nextAttemptAt.getTime()).toBe(bed.clock.now().getTime() + 30_000);
    expect(await worker.runOnce()).toBe(0); // not due yet
    bed.clock.advance(30_000);
    expect(await worker.runOnce()).toBe(1);
    [row] = await deliveriesOf(bed, hook.id);
    expect(row!.nextAttemptAt.getTime()).toBe(bed.clock.now().getTime() + 60_000);
    bed.clock.advance(60_000);
    bed.receiver.answer = { status: 200 };
    expect(await worker.runOnce()).toBe(1);
    [row] = await deliveriesOf(bed, hook.id);
    expect(row).toMatchObject({ status: "done", attempts: 3 });
    const keys = new Set(bed.receiver.requests.map((r) => r.headers["idempotency-key"]));
    const eventUuids = new Set(bed.receiver.requests.map((r) => r.headers["x-service-event-uuid"]));
    expect(bed.receiver.requests).toHaveLength(3);
    expect(keys.size).toBe(1);
    expect(eventUuids.size).toBe(1);
    expect(await bed.t.services.db.webHookLog.count({ where: { hookId: hook.id } })).toBe(3);
  });

  it("gives up after the last attempt, and at once on a client error that will not pass", async () => {
    const hook = await createHook(bed, group.id, { member_events: true });
    bed.receiver.answer = { status: 500 };
    await memberEvent();
    const worker = bed.worker({ maxAttempts: 2, retryDelayMs: 1000 });
    await worker.runOnce();
    bed.clock.advance(1000);
    await worker.runOnce();
    expect((await deliveriesOf(bed, hook.id))[0]).toMatchObject({ status: "failed", attempts: 2 });
    bed.receiver.answer = { status: 404 };
    await memberEvent();
    await worker.runOnce();
    expect((await deliveriesOf(bed, hook.id))[1]).toMatchObject({ status: "failed", attempts: 1, lastError: "HTTP 404" });
  });

  it("times out a receiver that does not answer within WEBHOOK_TIMEOUT and records an internal error", async () => {
    const before = bed.t.services.config.webhookTimeoutSeconds;
    bed.t.services.config.webhookTimeoutSeconds = 1;
    try {
      const hook = await createHook(bed, group.id, { member_events: true });
      bed.receiver.answer = { status: 200, delayMs: 3000 };
      await memberEvent();
      await bed.worker().runOnce();
      const log = await bed.t.services.db.webHookLog.findFirstOrThrow({ where: { hookId: hook.id } });
      expect(log.responseStatus).toBe("internal error");
      expect(log.internalErrorMessage).toMatch(/execution expired/);
      // the recorded attempt ended at the 1 s timeout, not at the receiver's 3 s answer
      expect(log.executionDuration).toBeGreaterThanOrEqual(0.9);
      expect(log.executionDuration).toBeLessThan(2.5);
      expect((await deliveriesOf(bed, hook.id))[0]).toMatchObject({ status: "pending", attempts: 1 });
    } finally {
      bed.t.services.config.webhookTimeoutSeconds = before;
    }
  });
});

describe("auto-disabling", () => {
  it("disables temporarily from the 4th failure with growing backoff, and a success resets it", async () => {
    const hook = await createHook(bed, group.id, { member_events: true });
    bed.receiver.answer = { status: 500 };
    const worker = bed.worker({ maxAttempts: 1 });
    for (let i = 1; i <= 3; i++) {
      await memberEvent();
      await worker.runOnce();
      expect((await hookRow(hook.id)).recentFailures).toBe(i);
      expect((await getHook(hook.id)).alert_status).toBe("executable");
    }
    await memberEvent();
    await worker.runOnce();
    let row = await hookRow(hook.id);
    expect(row.recentFailures).toBe(4);
    expect(row.disabledUntil!.getTime()).toBe(bed.clock.now().getTime() + MINUTE);
    const entity = await getHook(hook.id);
    expect(entity.alert_status).toBe("temporarily_disabled");
    expect(entity.disabled_until).toBe(row.disabledUntil!.toISOString());

    // while disabled, events do not reach the hook
    await memberEvent();
    expect(await deliveriesOf(bed, hook.id)).toHaveLength(4);

    bed.clock.advance(MINUTE + 1);
    expect((await getHook(hook.id)).alert_status).toBe("executable");
    await memberEvent();
    await worker.runOnce();
    row = await hookRow(hook.id);
    expect(row.recentFailures).toBe(5);
    expect(row.disabledUntil!.getTime()).toBe(bed.clock.now().getTime() + 2 * MINUTE);

    bed.clock.advance(2 * MINUTE + 1);
    bed.receiver.answer = { status: 200 };
    await memberEvent();
    await worker.runOnce();
    row = await hookRow(hook.id);
    expect(row).toMatchObject({ recentFailures: 0, disabledUntil: null });
    expect((await getHook(hook.id)).alert_status).toBe("executable");
  });

  it("caps the backoff at one day and disables permanently at the 40th failure; a successful test re-enables", async () => {
    const hook = await createHook(bed, group.id, { member_events: true });
    await bed.t.services.db.webHook.update({ where: { id: hook.id }, data: { recentFailures: 30 } });
    bed.receiver.answer = { status: 500 };
    const worker = bed.worker({ maxAttempts: 1 });
    await memberEvent();
    await worker.runOnce();
    let row = await hookRow(hook.id);
    expect(row.disabledUntil!.getTime()).toBe(bed.clock.now().getTime() + 86_400_000);
    await bed.t.services.db.webHook.update({ where: { id: hook.id }, data: { recentFailures: 39, disabledUntil: null } });
    await memberEvent();
    await worker.runOnce();
    row = await hookRow(hook.id);
    expect(row.recentFailures).toBe(40);
    bed.clock.advance(2 * 86_400_000);
    expect((await getHook(hook.id)).alert_status).toBe("disabled");
    await memberEvent();
    expect(await deliveriesOf(bed, hook.id)).toHaveLength(2);

    // a pending row of a hook disabled meanwhile is given up
    await bed.t.services.db.webHookDelivery.create({
      data: { hookId: hook.id, trigger: "member_hooks", payload: "{}", idempotencyKey: "k", eventUuid: "e", nextAttemptAt: bed.clock.now() },
    });
    await worker.runOnce();
    expect((await deliveriesOf(bed, hook.id)).at(-1)).toMatchObject({ status: "failed", lastError: "Hook disabled" });

    const project = await bed.t.root.post("/projects", { name: "p", path: `p-${Date.now()}`, namespace_id: group.id, initialize_with_readme: true });
    expect(project.status).toBe(201);
    bed.receiver.answer = { status: 200 };
    const test = await bed.t.root.post(`/groups/${group.id}/hooks/${hook.id}/test/push_events`);
    expect(test.status, test.text).toBe(201);
    expect(await hookRow(hook.id)).toMatchObject({ recentFailures: 0, disabledUntil: null });
  });

  it("keeps a row of a temporarily disabled hook until the hook is enabled again", async () => {
    const hook = await createHook(bed, group.id, { member_events: true });
    await memberEvent();
    const until = new Date(bed.clock.now().getTime() + 5 * MINUTE);
    await bed.t.services.db.webHook.update({ where: { id: hook.id }, data: { recentFailures: 4, disabledUntil: until } });
    const worker = bed.worker();
    await worker.runOnce();
    expect(bed.receiver.requests).toHaveLength(0);
    expect((await deliveriesOf(bed, hook.id))[0]).toMatchObject({ status: "pending", attempts: 0, nextAttemptAt: until });
    bed.clock.set(new Date(until.getTime() + 1));
    await worker.runOnce();
    expect(bed.receiver.requests).toHaveLength(1);
  });
});

describe("several workers", () => {
  it("never send the same row twice when they race for it", async () => {
    const hook = await createHook(bed, group.id, { member_events: true });
    for (let i = 0; i < 8; i++) await memberEvent();
    bed.receiver.answer = { status: 200, delayMs: 20 };
    const workers = [bed.worker({ batchSize: 3 }), bed.worker({ batchSize: 3 }), bed.worker({ batchSize: 3 })];
    for (let round = 0; round < 6; round++) await Promise.all(workers.map((w) => w.runOnce()));
    const keys = bed.receiver.requests.map((r) => r.headers["idempotency-key"]);
    expect(keys).toHaveLength(8);
    expect(new Set(keys).size).toBe(8);
    expect((await deliveriesOf(bed, hook.id)).every((d) => d.status === "done" && d.attempts === 1)).toBe(true);
  });

  it("a started worker delivers by itself and stops cleanly: nothing left in flight, nothing claimed after", async () => {
    const hook = await createHook(bed, group.id, { member_events: true });
    const worker = bed.worker({ pollIntervalMs: 20 });
    await worker.start();
    await memberEvent();
    await bed.receiver.waitFor(1);
    await worker.stop();
    // stop() resolved after the delivery was recorded
    expect((await deliveriesOf(bed, hook.id)).map((row) => row.status)).toEqual(["done"]);
    expect(await bed.t.services.db.webHookLog.count({ where: { hookId: hook.id } })).toBe(1);
    // ten of its poll intervals later the stopped worker has not claimed the next event
    await memberEvent();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await deliveriesOf(bed, hook.id)).map((row) => [row.status, row.attempts])).toEqual([["done", 1], ["pending", 0]]);
    expect(bed.receiver.requests).toHaveLength(1);
  });
});

describe("the URL guard at delivery time", () => {
  it("refuses a loopback target once local requests are not allowed, and a host resolving to a private address", async () => {
    const hook = await createHook(bed, group.id, { member_events: true });
    const original = bed.t.services.urlGuard;
    // when the hook is saved the name resolves to loopback (allowed here); at send time to a private address
    bed.t.services.urlGuard = createUrlGuard({ allowLocal: true, lookup: async () => ["127.0.0.1"] });
    const rebound = await createHook(bed, group.id, { url: `http://rebind.test:${bed.receiver.port}/x`, member_events: true });
    bed.t.services.urlGuard = createUrlGuard({ allowLocal: false, lookup: async () => ["10.0.0.7"] });
    try {
      await memberEvent();
      await createWorker(bed.t.services, { now: bed.clock.now }).runOnce();
    } finally {
      bed.t.services.urlGuard = original;
    }
    expect(bed.receiver.requests).toHaveLength(0);
    const log = await bed.t.services.db.webHookLog.findFirstOrThrow({ where: { hookId: hook.id } });
    expect(log).toMatchObject({ responseStatus: "internal error", internalErrorMessage: "URL is blocked: Requests to localhost are not allowed" });
    const reboundLog = await bed.t.services.db.webHookLog.findFirstOrThrow({ where: { hookId: rebound.id } });
    expect(reboundLog.internalErrorMessage).toBe("URL is blocked: Requests to the local network are not allowed");
  });

  it("refuses to create a hook on a private target when ALLOW_LOCAL_WEBHOOKS is off", async () => {
    const strict = await startTestbed({ ALLOW_LOCAL_WEBHOOKS: "false" });
    try {
      const g = await createGroup(strict.t.root);
      const res = await strict.t.root.post(`/groups/${g.id}/hooks`, { url: `${strict.receiver.url}/hook` });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: "Invalid url given" });
    } finally {
      await strict.close();
    }
  });
});
