// Load for `npm run bench`: closed-loop runs (autocannon, N connections kept busy) and an
// open-loop run (requests offered at a fixed rate whatever the answers do).
import http from "node:http";
import { createRequire } from "node:module";
import type { Measured } from "./processes.js";

interface AutocannonResult {
  requests: { total: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  duration: number;
}
interface AutocannonInstance {
  on(event: "response", listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
}
type Autocannon = (options: Record<string, unknown>, done: (error: Error | null, result: AutocannonResult) => void) => AutocannonInstance;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

export interface Request {
  method?: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** every answer must be these bytes (GET routes with a captured answer) */
  expectBody?: string;
}

export interface RunResult {
  target: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** server CPU milliseconds per request (the whole process group) */
  cpuMsPerRequest: number;
  /** the database server's CPU milliseconds per request, where it is measured (PostgreSQL on this machine) */
  databaseCpuMsPerRequest?: number;
  /** the server's CPU use in cores (1.0 = one core busy) */
  cores: number;
  unclean: number;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** One closed-loop run of `seconds` with `connections` connections. */
export function closedLoop(target: Measured, request: Request, connections: number, seconds: number): Promise<RunResult> {
  const latencies: number[] = [];
  const cpuBefore = target.cpuSeconds();
  const databaseCpuBefore = target.databaseCpuSeconds?.();
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url + request.path,
        method: request.method ?? "GET",
        headers: request.headers,
        body: request.body,
        connections,
        duration: seconds,
        expectBody: request.expectBody,
      },
      (error, result) => {
        if (error) return reject(error);
        const elapsed = (performance.now() - started) / 1000;
        const cpu = target.cpuSeconds() - cpuBefore;
        const databaseCpu = databaseCpuBefore === undefined ? undefined : target.databaseCpuSeconds!() - databaseCpuBefore;
        latencies.sort((a, b) => a - b);
        const requests = latencies.length;
        resolve({
          target: target.name,
          requests,
          rps: requests / elapsed,
          p50: percentile(latencies, 0.5),
          p99: percentile(latencies, 0.99),
          cpuMsPerRequest: (cpu * 1000) / Math.max(requests, 1),
          ...(databaseCpu === undefined ? {} : { databaseCpuMsPerRequest: (databaseCpu * 1000) / Math.max(requests, 1) }),
          cores: cpu / elapsed,
          unclean: result.non2xx + result.errors + result.timeouts + result.mismatches,
        });
      },
    );
    instance.on("response", (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}

export interface OpenLoopResult {
  offered: number;
  answered2xx: number;
  within250ms: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * Offers `rate` requests per second for `seconds`, one every 1/rate s on its own schedule; each
 * latency runs from the moment the request was due (a late start counts against the server).
 */
export async function openLoop(url: string, headers: Record<string, string>, rate: number, seconds: number): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const total = rate * seconds;
  const latencies: number[] = [];
  let answered2xx = 0;
  let within250ms = 0;
  let failed = 0;
  const one = (due: number) =>
    new Promise<void>((resolve) => {
      const request = http.get(url, { agent, headers, timeout: 10_000 }, (response) => {
        response.resume();
        response.on("end", () => {
          const ms = performance.now() - due;
          latencies.push(ms);
          if (response.statusCode! >= 300) failed++;
          else {
            answered2xx++;
            if (ms <= 250) within250ms++;
          }
          resolve();
        });
      });
      request.on("timeout", () => request.destroy(new Error("timeout")));
      request.on("error", () => {
        failed++;
        latencies.push(performance.now() - due);
        resolve();
      });
    });
  const start = performance.now();
  const pending: Promise<void>[] = [];
  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    while (sent < total && start + (sent * 1000) / rate <= now) pending.push(one(start + (sent++ * 1000) / rate));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    offered: total,
    answered2xx,
    within250ms,
    failed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies[latencies.length - 1] ?? NaN,
  };
}
