// A started worker is woken by commits instead of waiting for its poll: in its own process at
// once, and on PostgreSQL in another process through LISTEN/NOTIFY (the polls here are minutes
// apart, so only the wake-up can explain a delivery within seconds). Several deliveries are in
// flight at once, a slow receiver holds at most its host's slots and never the other hosts', and
// every attempt is in the hook's history with its duration.
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addMember, createGroup, createUser, type TestUser } from "../helpers/factories.js";
import { onPostgresql, queryDatabase, TEST_ENCRYPTION_KEY } from "../helpers/test-database.js";
import { startReceiver, type Receiver } from "./receiver.js";
import { createHook, deliveriesOf, resetHooks, startTestbed, type WebhookTestbed } from "./setup.js";

const POLL_MS = 600_000;
let bed: WebhookTestbed;
let owner: TestUser;
let group: any;
let slow: Receiver;

beforeAll(async () => {
  bed = await startTestbed();
  owner = await createUser(bed.t);
  group = await createGroup(owner.api);
  slow = await startReceiver();
});
afterAll(async () => {
  await slow.close();
  await bed.close();
});
beforeEach(async () => {
  await resetHooks(bed);
  slow.clear();
  slow.answer = { status: 200 };
});

/** A member event of the group (a user added), written by the API in its own transaction. */
async function memberEvent() {
  const user = await createUser(bed.t);
  await addMember(owner.api, "groups", group.id, user.id, 30);
}

describe("in one process", () => {
  it("a commit wakes the started worker: the delivery arrives long before the next poll", async () => {
    await createHook(bed, group.id, { member_events: true });
    const worker = bed.worker({ pollIntervalMs: POLL_MS });
    await worker.start(); // its first look at the outbox (empty) is over: what comes now, a wake-up brings
    try {
      for (let i = 1; i <= 3; i++) {
        await memberEvent();
        await bed.receiver.waitFor(i, 20_000);
      }
    } finally {
      await worker.stop();
    }
  });

  it("a slow receiver holds only its host's slots: the other host's deliveries go by meanwhile", async () => {
    const fastHook = await createHook(bed, group.id, { member_events: true });
    const slowHook = await createHook(bed, group.id, { url: `${slow.url}/slow`, member_events: true });
    slow.answer = { status: 200, delayMs: 3000 };
    for (let i = 0; i < 4; i++) await memberEvent();
    const worker = bed.worker({ pollIntervalMs: POLL_MS, concurrency: 8, hostConcurrency: 2 });
    worker.start();
    try {
      await bed.receiver.waitFor(4, 20_000);
      // the four fast deliveries are in while the slow receiver has two requests (its host's limit), none answered
      expect(slow.requests.length).toBeLessThanOrEqual(2);
      expect(await bed.t.services.db.webHookLog.count({ where: { hookId: slowHook.id } })).toBe(0);
      await slow.waitFor(4, 30_000);
      await waitUntil(async () => (await deliveriesOf(bed, slowHook.id)).every((row) => row.status === "done"));
    } finally {
      await worker.stop();
    }
    // the history has every attempt, with its time
    for (const [hook, minimum] of [[fastHook, 0], [slowHook, 3]] as const) {
      const logs = await bed.t.services.db.webHookLog.findMany({ where: { hookId: hook.id } });
      expect(logs).toHaveLength(4);
      expect(logs.every((log) => log.responseStatus === "200" && log.executionDuration >= minimum)).toBe(true);
    }
  });

  it("failed attempts are recorded and rescheduled as before, woken or polled", async () => {
    const hook = await createHook(bed, group.id, { member_events: true });
    bed.receiver.answer = { status: 500 };
    const worker = bed.worker({ pollIntervalMs: POLL_MS });
    worker.start();
    try {
      await memberEvent();
      await bed.receiver.waitFor(1, 20_000);
      await waitUntil(async () => (await deliveriesOf(bed, hook.id))[0]?.attempts === 1);
    } finally {
      await worker.stop();
    }
    const [row] = await deliveriesOf(bed, hook.id);
    expect(row).toMatchObject({ status: "pending", lastError: "HTTP 500", leaseOwner: null });
    expect(await bed.t.services.db.webHookLog.count({ where: { hookId: hook.id, responseStatus: "500" } })).toBe(1);
  });
});

describe.runIf(onPostgresql)("across processes (PostgreSQL LISTEN/NOTIFY)", () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.exitCode === null) child.kill("SIGKILL");
  });

  it("a worker process with a 10-minute poll delivers a row another process committed", async () => {
    await createHook(bed, group.id, { member_events: true });
    const env: NodeJS.ProcessEnv = {
      ...process.env, DATABASE_URL: bed.t.services.config.databaseUrl, WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      ALLOW_LOCAL_WEBHOOKS: "true", WEBHOOK_POLL_INTERVAL: String(POLL_MS), DATA_DIR: bed.t.dataDir,
    };
    delete env.NODE_OPTIONS;
    const listenersBefore = await listeners();
    child = spawn(process.execPath, ["--import", "tsx", "src/worker.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    await waitUntil(async () => output.includes("started"), 60_000);
    // its LISTEN connection is up: one more session of the database is listening
    await waitUntil(async () => (await listeners()) > listenersBefore, 20_000);
    bed.t.services.now = () => new Date(); // the other process's clock
    try {
      for (let i = 1; i <= 2; i++) {
        await memberEvent();
        await bed.receiver.waitFor(i, 20_000).catch((error) => {
          throw new Error(`${error.message}\n${output}`);
        });
      }
    } finally {
      bed.t.services.now = bed.clock.now;
      child.kill("SIGTERM");
      await new Promise((resolve) => child!.once("exit", resolve));
    }
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sessions of the test's PostgreSQL database whose last statement was a LISTEN (they wait for NOTIFY). */
async function listeners(): Promise<number> {
  const [row] = await queryDatabase<{ n: unknown }>(bed.t.services.config.databaseUrl,
    "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN %'");
  return Number(row!.n);
}
