// At least once across a crash: a worker process (`npm run worker`'s command) is killed while its
// delivery waits for the receiver; once its lease expires, a second worker sends the row again
// with the same Idempotency-Key and completes it. Nothing is lost, nothing is sent twice at once.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BASE_URL } from "../helpers/app.js";
import { onPostgresql, TEST_ENCRYPTION_KEY } from "../helpers/test-database.js";
import { REPO_ROOT } from "../e2e/helpers/server.js";
import { addMember, createGroup, createUser } from "../helpers/factories.js";
import { createHook, deliveriesOf, startTestbed, type WebhookTestbed } from "./setup.js";

let bed: WebhookTestbed;
beforeAll(async () => {
  bed = await startTestbed();
});
afterAll(() => bed.close());

function spawnWorker() {
  const env: NodeJS.ProcessEnv = {
    ...process.env, DATA_DIR: bed.t.dataDir, DATABASE_URL: bed.t.services.config.databaseUrl,
    PUBLIC_URL: BASE_URL, ALLOW_LOCAL_WEBHOOKS: "true",
    ...(onPostgresql ? { WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY } : {}),
  };
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, ["--import", "tsx", "src/worker.ts"], { cwd: REPO_ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { child, exited, output: () => output };
}

it("a worker killed mid-delivery loses nothing: a second worker completes the row", async () => {
  const owner = await createUser(bed.t);
  const group = await createGroup(owner.api);
  const hook = await createHook(bed, group.id, { member_events: true });
  const user = await createUser(bed.t);
  await addMember(owner.api, "groups", group.id, user.id, 30);
  bed.receiver.answer = (request) => (bed.receiver.requests.length === 1 ? { hang: true } : { status: 200 });

  const worker = spawnWorker();
  try {
    await bed.receiver.waitFor(1, 45_000);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${worker.output()}`);
  } finally {
    if (worker.child.exitCode === null && worker.child.signalCode === null) process.kill(-worker.child.pid!, "SIGKILL");
    await worker.exited;
  }
  const [claimed] = await deliveriesOf(bed, hook.id);
  expect(claimed).toMatchObject({ status: "pending", attempts: 0 });
  expect(claimed!.leaseOwner).toEqual(expect.any(String));

  // while the dead worker's lease holds, nobody else takes the row
  expect(await bed.worker({ now: () => new Date() }).runOnce()).toBe(0);
  const afterLease = bed.worker({ now: () => new Date(claimed!.leaseExpiresAt!.getTime() + 1000) });
  expect(await afterLease.runOnce()).toBe(1);

  const [row] = await deliveriesOf(bed, hook.id);
  expect(row).toMatchObject({ status: "done", attempts: 1, leaseOwner: null });
  expect(bed.receiver.requests).toHaveLength(2);
  const [first, second] = bed.receiver.requests;
  expect(second!.headers["idempotency-key"]).toBe(first!.headers["idempotency-key"]);
  expect(second!.json).toEqual(first!.json);
}, 90_000);
