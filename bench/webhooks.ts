// `npm run bench:webhooks`: the webhook delivery worker measured on a fresh database.
//
//   npm run bench:webhooks [-- --events 3000 --rate 200 --seconds 10 --workers 1,2 --only throughput,idle,load]
//   npm run bench:webhooks -- --database-url postgresql://postgres@127.0.0.1:5432/bench   (an empty database)
//
// A group with two hooks: one to a loopback receiver answering 200 at once, one to a receiver
// answering after 1 s (bench/webhook-receivers.mjs, a process of its own); one event in 20 goes
// to the slow one as well. This process plays the server: it writes the outbox rows through the
// outbox's own code in its own transactions and runs one worker (as `npm start` does); the second
// worker is a `npm run worker` process. For 1 and 2 workers:
// - throughput: N events already in the outbox, deliveries/s to the fast receiver (first to last
//   arrival) per worker, enqueue -> received percentiles (from when the rows became due);
// - idle: one event every 150 ms, enqueue -> received percentiles;
// - load: events written at `rate` per second for `seconds` (a transaction every 20 ms), enqueue ->
//   received percentiles.
import { fork, spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.js";
import type { Services } from "../src/domain/shared/context.js";
import { createServices } from "../src/services.js";
import { enqueueHookDeliveries } from "../src/webhooks/outbox.js";
import { createWorker } from "../src/webhooks/worker.js";
import { percentile } from "./load.js";
import { freePort, startCommand, startMeasured } from "./processes.js";

const ROOT_TOKEN = "bench-root-token-0123456789abcdef";
const { values: args } = parseArgs({
  options: {
    events: { type: "string", default: "3000" },
    rate: { type: "string", default: "200" },
    seconds: { type: "string", default: "10" },
    workers: { type: "string", default: "1,2" },
    only: { type: "string", default: "throughput,idle,load" },
    "database-url": { type: "string", default: "" },
  },
});
const SLOW_EVERY = 20;
// a payload of the size of an issue event
const FILLER = { object_kind: "bench", description: "x".repeat(1500), labels: Array.from({ length: 5 }, (_, i) => ({ id: i, title: `label ${i}` })) };

interface Receivers {
  fastUrl: string;
  slowUrl: string;
  reset(): Promise<void>;
  stats(): Promise<{ fast: [number, number][]; slow: number }>;
  stop(): void;
}

async function startReceivers(): Promise<Receivers> {
  const child = fork(path.join(import.meta.dirname, "webhook-receivers.mjs"), ["1000"], { stdio: "inherit" });
  const next = () => new Promise<any>((resolve) => child.once("message", resolve));
  const ports = await next();
  return {
    fastUrl: `http://127.0.0.1:${ports.fastPort}/fast`,
    slowUrl: `http://127.0.0.1:${ports.slowPort}/slow`,
    reset: async () => {
      const answer = next();
      child.send("reset");
      await answer;
    },
    stats: async () => {
      const answer = next();
      child.send("stats");
      return answer;
    },
    stop: () => child.kill(),
  };
}

/** The database made by the real server (migrations, root, the group and its hooks), then stopped. */
async function prepare(env: NodeJS.ProcessEnv, receivers: Receivers): Promise<number> {
  const port = await freePort();
  const server = await startMeasured("forgeline", startCommand(), { ...env, PORT: String(port), WEBHOOK_WORKER: "false" }, port,
    async (url) => (await fetch(`${url}/api/v4/version`)).status < 500);
  const call = async (method: string, route: string, body: unknown) => {
    const response = await fetch(`${server.url}/api/v4${route}`, {
      method, headers: { "PRIVATE-TOKEN": ROOT_TOKEN, "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<any>;
  };
  const group = await call("POST", "/groups", { name: "Hooks", path: "hooks" });
  await call("POST", `/groups/${group.id}/hooks`, { url: receivers.fastUrl, member_events: true });
  await call("POST", `/groups/${group.id}/hooks`, { url: receivers.slowUrl, subgroup_events: true });
  await server.stop();
  return group.id;
}

/** Events as the server writes them: their rows in a transaction (one per request; a tick of the load phase writes several). */
async function enqueue(services: Services, groupId: number, events: { slowToo: boolean }[]): Promise<void> {
  await services.db.$transaction(async (tx) => {
    for (const { slowToo } of events) {
      const payload = { ...FILLER, bench_enqueued_at: Date.now() };
      await enqueueHookDeliveries(tx, services, { groupId, trigger: "member_hooks", payload });
      if (slowToo) await enqueueHookDeliveries(tx, services, { groupId, trigger: "subgroup_hooks", payload });
    }
  }, { maxWait: 30_000, timeout: 30_000 }); // ticks may queue for a connection when the machine is busy
}

async function waitForFast(receivers: Receivers, count: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stats = await receivers.stats();
    if (stats.fast.length >= count || Date.now() > deadline) return stats;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function summary(latencies: number[]) {
  const sorted = latencies.filter(Number.isFinite).sort((a, b) => a - b);
  const ms = (p: number) => `${Math.round(percentile(sorted, p))}`;
  return `p50 ${ms(0.5)} ms, p95 ${ms(0.95)} ms, p99 ${ms(0.99)} ms (${sorted.length} deliveries)`;
}

async function clearOutbox(services: Services) {
  await services.db.webHookDelivery.deleteMany({});
  await services.db.webHookLog.deleteMany({});
}

async function throughput(services: Services, receivers: Receivers, _groupId: number, workers: number) {
  const events = Number(args.events);
  const hooks = await services.db.webHook.findMany({ orderBy: { id: "asc" } });
  const due = Date.now() + 1500;
  const payload = (i: number) => JSON.stringify({ ...FILLER, i, bench_enqueued_at: due });
  const row = (hookId: number, trigger: string, i: number) => ({
    hookId, trigger, payload: payload(i), idempotencyKey: randomUUID(), eventUuid: randomUUID(), nextAttemptAt: new Date(due),
  });
  const rows = Array.from({ length: events }, (_, i) => [row(hooks[0]!.id, "member_hooks", i), ...(i % SLOW_EVERY ? [] : [row(hooks[1]!.id, "subgroup_hooks", i)])]).flat();
  for (let i = 0; i < rows.length; i += 500) await services.db.webHookDelivery.createMany({ data: rows.slice(i, i + 500) });
  const statements = services.sqlStats.statements;
  const cpu = process.cpuUsage();
  const stats = await waitForFast(receivers, events, 300_000);
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000 / stats.fast.length;
  const perDelivery = (services.sqlStats.statements - statements) / stats.fast.length;
  const times = stats.fast.map(([at]) => at).sort((a, b) => a - b);
  const seconds = (times.at(-1)! - times[0]!) / 1000;
  const rate = (stats.fast.length - 1) / seconds;
  console.log(`  throughput: ${stats.fast.length}/${events} fast deliveries in ${seconds.toFixed(2)} s = ${rate.toFixed(0)}/s, ` +
    `${(rate / workers).toFixed(0)}/s per worker (slow receiver meanwhile: ${stats.slow})`);
  console.log(`    this process's worker: ${perDelivery.toFixed(2)} SQL statements and ${cpuMs.toFixed(2)} ms CPU per fast delivery ` +
    `(a ceiling of ${(1000 / cpuMs).toFixed(0)}/s on a core of its own)`);
  console.log(`    due -> received: ${summary(stats.fast.map(([, latency]) => latency))}`);
}

async function idle(services: Services, receivers: Receivers, groupId: number, _workers: number) {
  const count = 40;
  for (let i = 0; i < count; i++) {
    await enqueue(services, groupId, [{ slowToo: i % SLOW_EVERY === 0 }]);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  const stats = await waitForFast(receivers, count, 30_000);
  console.log(`  idle (an event every 150 ms): enqueue -> received ${summary(stats.fast.map(([, latency]) => latency))}`);
}

async function load(services: Services, receivers: Receivers, groupId: number, _workers: number) {
  const rate = Number(args.rate);
  const total = rate * Number(args.seconds);
  // one transaction per 20 ms tick, as the web processes' requests commit side by side
  const perTick = Math.max(1, Math.round(rate / 50));
  const started = performance.now();
  const writes: Promise<void>[] = [];
  for (let i = 0; i < total; i += perTick) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const events = Array.from({ length: Math.min(perTick, total - i) }, (_, j) => ({ slowToo: (i + j) % SLOW_EVERY === 0 }));
    writes.push(enqueue(services, groupId, events));
  }
  await Promise.all(writes);
  const written = total / ((performance.now() - started) / 1000);
  const stats = await waitForFast(receivers, total, 180_000);
  console.log(`  load (${rate} events/s offered, ${written.toFixed(0)}/s written, ${perTick} per transaction): ` +
    `enqueue -> received ${summary(stats.fast.map(([, latency]) => latency))}`);
}

function startWorkerProcess(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/worker.ts"], { env, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("started") && resolve(child));
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "forgeline-bench-hooks-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env, DATA_DIR: path.join(dir, "data"), DATABASE_URL: args["database-url"], HOST: "127.0.0.1", ALLOW_LOCAL_WEBHOOKS: "true",
    INITIAL_ROOT_TOKEN: ROOT_TOKEN, WEB_CONCURRENCY: "1",
    ...(args["database-url"] ? { WEBHOOK_ENCRYPTION_KEY: process.env.WEBHOOK_ENCRYPTION_KEY || "b7".repeat(32) } : {}),
  };
  const receivers = await startReceivers();
  try {
    const groupId = await prepare(env, receivers);
    const services = await createServices(loadConfig(env));
    console.log(`Webhook delivery on ${services.dialect}, ${os.availableParallelism()} cores (shared with whatever else runs)`);
    for (const workers of args.workers.split(",").map(Number)) {
      console.log(`\n${workers} worker${workers > 1 ? "s" : ""} (this process's own${workers > 1 ? ` + ${workers - 1} npm run worker` : ""})`);
      const others = await Promise.all(Array.from({ length: workers - 1 }, () => startWorkerProcess(env)));
      const worker = createWorker(services, { log: () => {} });
      worker.start();
      const phases = { throughput, idle, load };
      for (const phase of args.only.split(",").map((name) => phases[name as keyof typeof phases])) {
        await receivers.reset();
        await phase(services, receivers, groupId, workers);
        await clearOutbox(services);
      }
      await worker.stop();
      for (const other of others) other.kill("SIGTERM");
      await clearOutbox(services);
    }
    await services.db.$disconnect();
  } finally {
    receivers.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
