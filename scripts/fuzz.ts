// `npm run fuzz -- [--requests 20000] [--seed N] [--timeout-ms 10000] [--url http://host:port --token ROOT_TOKEN]`
// The contract fuzz run of test/fuzz/contract.test.ts, larger and against a real server process:
// by default a fresh one started here on a temporary SQLite data directory (stopped afterwards),
// or the server at --url with an administrator's token. Prints the figures and every failure as a
// curl line; exits 1 on any failure.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Agent, fetch } from "undici";
import { createFixtures } from "../test/fuzz/fixtures.js";
import { formatReport, runFuzz, type Send } from "../test/fuzz/runner.js";

const { values: args } = parseArgs({
  options: {
    requests: { type: "string", default: "20000" },
    seed: { type: "string" },
    "timeout-ms": { type: "string", default: "10000" },
    url: { type: "string" },
    token: { type: "string" },
  },
});

/** Link headers repeat the query: a long one makes response headers past undici's default 16 KiB. */
const dispatcher = new Agent({ maxHeaderSize: 1024 * 1024 });

async function main(): Promise<number> {
  const requests = Number(args.requests);
  const seed = args.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(args.seed);
  const timeoutMs = Number(args["timeout-ms"]);
  if (!Number.isInteger(requests) || requests < 1 || !Number.isInteger(seed) || !(timeoutMs > 0)) {
    console.error("usage: npm run fuzz -- [--requests N] [--seed N] [--timeout-ms N] [--url URL --token TOKEN]");
    return 2;
  }
  if (args.url && !args.token) {
    console.error("--url needs --token (an administrator's token)");
    return 2;
  }
  const server = args.url ? { origin: args.url.replace(/\/+$/, ""), token: args.token!, stop: async () => {} } : await startServer();
  try {
    console.log(`fuzz seed ${seed} against ${server.origin} (replay: npm run fuzz -- --requests ${requests} --seed ${seed})`);
    const send: Send = async ({ method, url, headers, body }) => {
      const response = await fetch(`${server.origin}${url}`, { method, headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: "manual", dispatcher });
      return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
    };
    const documentAnswer = await send({ method: "GET", url: "/api/v4/openapi.json", headers: {} });
    if (documentAnswer.status !== 200) throw new Error(`GET /api/v4/openapi.json answered ${documentAnswer.status}`);
    const fixtures = await createFixtures(send, server.token);
    for (const problem of fixtures.problems) console.warn(`fixture not created: ${problem}`);
    const report = await runFuzz({
      send, origin: server.origin, document: JSON.parse(documentAnswer.text), ...fixtures, requests, seed, timeoutMs,
      onAnswer: (i) => { if ((i + 1) % 1000 === 0) process.stdout.write(`${i + 1} requests\n`); },
    });
    console.log(formatReport(report, Infinity));
    return report.failures.length || report.healthAfter !== 200 ? 1 : 0;
  } finally {
    await server.stop();
  }
}

/** A fresh server process (its own process group) on a temporary SQLite data directory. */
async function startServer() {
  const port = await freePort();
  const token = `fuzz-root-${randomBytes(16).toString("hex")}`;
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: `http://127.0.0.1:${port}` };
  Object.assign(env, { DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "forgeline-fuzz-")), INITIAL_ROOT_TOKEN: token, WEB_CONCURRENCY: "1" });
  delete env.DATABASE_URL;
  const root = path.resolve(import.meta.dirname, "..");
  const child = spawn(process.execPath, ["--import", "tsx", "src/server.ts"], { cwd: root, env, detached: true, stdio: ["ignore", "ignore", "inherit"] });
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilReady(origin, child);
  return { origin, token, stop: () => stop(child) };
}

async function waitUntilReady(origin: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ready = await fetch(`${origin}/-/readiness`).then((r) => r.ok, () => false);
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop(child);
  throw new Error("the server was not ready within 60 s");
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid!, "SIGTERM");
  const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
