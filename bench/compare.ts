// Alternating closed-loop runs of two servers, their medians and ratios (`npm run bench`,
// `npm run bench:databases`).
import { closedLoop, percentile, type Request, type RunResult } from "./load.js";
import type { Measured } from "./processes.js";

export interface Comparison {
  route: string;
  product: RunResult;
  baseline: RunResult;
  ratios: { rps: number; p50: number; p99: number; cpuPerRequest: number };
  unclean: number;
}

export const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 0.5);
export const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");

/** `pairs` alternating runs of `seconds` (a, b, b, a, ...) after a warm-up; the medians of each side and their ratios (a / b). */
export async function compare(
  a: Measured, b: Measured, request: (target: Measured) => Request, connections: number, pairs: number, seconds: number,
) {
  await closedLoop(a, request(a), connections, 2);
  await closedLoop(b, request(b), connections, 2);
  const runs: Record<"a" | "b", RunResult[]> = { a: [], b: [] };
  for (let pair = 0; pair < pairs; pair++) {
    const order: ["a" | "b", Measured][] = pair % 2 === 0 ? [["a", a], ["b", b]] : [["b", b], ["a", a]];
    for (const [side, target] of order) runs[side].push(await closedLoop(target, request(target), connections, seconds));
  }
  const [sa, sb] = [summary(runs.a), summary(runs.b)];
  return {
    a: sa, b: sb,
    ratios: { rps: sa.rps / sb.rps, p50: sa.p50 / sb.p50, p99: sa.p99 / sb.p99, cpuPerRequest: sa.cpuMsPerRequest / sb.cpuMsPerRequest },
  };
}

function summary(results: RunResult[]): RunResult {
  const databaseCpu = results.map((r) => r.databaseCpuMsPerRequest).filter((ms): ms is number => ms !== undefined);
  return {
    target: results[0]!.target,
    requests: results.reduce((sum, r) => sum + r.requests, 0),
    rps: median(results.map((r) => r.rps)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    cpuMsPerRequest: median(results.map((r) => r.cpuMsPerRequest)),
    ...(databaseCpu.length ? { databaseCpuMsPerRequest: median(databaseCpu) } : {}),
    cores: median(results.map((r) => r.cores)),
    unclean: results.reduce((sum, r) => sum + r.unclean, 0),
  };
}

export function describeRun(r: RunResult) {
  const database = r.databaseCpuMsPerRequest === undefined ? "" : ` + database ${fixed(r.databaseCpuMsPerRequest, 3)} ms/req`;
  return `${r.target.padEnd(9)} ${fixed(r.rps, 0).padStart(6)} req/s  p50 ${fixed(r.p50)} ms  p99 ${fixed(r.p99)} ms  ` +
    `cpu ${fixed(r.cpuMsPerRequest, 3)} ms/req (${fixed(r.cores)} cores)${database}${r.unclean ? `  UNCLEAN ${r.unclean}` : ""}`;
}
