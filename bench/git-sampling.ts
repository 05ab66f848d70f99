// What `npm run bench:git` reads of a server's process group and its descendants: CPU including the git processes it
// started and already reaped, and resident memory split into node and git processes, anonymous
// and file-backed (git maps pack files: their pages count in RSS but are the page cache's). Also
// the timing of one git command.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { GIT_ENV } from "./git-repos.js";
import { processTree } from "./processes.js";
import { percentile as sortedPercentile } from "./load.js";

export { treeCpuSeconds as groupCpuSeconds } from "./processes.js";

export interface MemorySample {
  /** MiB, the whole group */
  total: number;
  /** MiB, anonymous memory of the whole group */
  anon: number;
  /** MiB, the node processes alone */
  node: number;
  /** MiB, git processes (upload-pack, pack-objects, ...) */
  git: number;
}

function kib(status: string, field: string): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
}

export function sampleMemory(pgid: number): MemorySample {
  const sample: MemorySample = { total: 0, anon: 0, node: 0, git: 0 };
  for (const pid of processTree(pgid)) {
    let status: string;
    try {
      status = readFileSync(`/proc/${pid}/status`, "utf8");
    } catch {
      continue;
    }
    const rss = kib(status, "VmRSS") / 1024;
    const name = /^Name:\s+(\S+)/m.exec(status)?.[1] ?? "";
    sample.total += rss;
    sample.anon += kib(status, "RssAnon") / 1024;
    if (name.startsWith("git")) sample.git += rss;
    else sample.node += rss;
  }
  return sample;
}

export interface MemoryPeaks {
  samples: number;
  peak: MemorySample;
}

/** Samples every `intervalMs` until `until` settles; the largest value of each field. */
export async function samplePeaks<T>(pgid: number, intervalMs: number, until: Promise<T>): Promise<MemoryPeaks & { result: T }> {
  const peak: MemorySample = { total: 0, anon: 0, node: 0, git: 0 };
  let samples = 0;
  let done = false;
  const settled = until.finally(() => (done = true));
  while (!done) {
    const s = sampleMemory(pgid);
    samples++;
    for (const key of Object.keys(peak) as (keyof MemorySample)[]) peak[key] = Math.max(peak[key], s[key]);
    await Promise.race([settled.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, intervalMs))]);
  }
  return { samples, peak, result: await settled };
}

/** A git command's wall time in milliseconds and what it printed on standard error (it must succeed). */
export function runTimed(args: string[], cwd?: string): Promise<{ ms: number; stderr: string }> {
  const started = performance.now();
  const child = spawn("git", args, { cwd, env: GIT_ENV, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - started;
      if (code === 0) resolve({ ms, stderr });
      else reject(new Error(`git ${args.join(" ")} exited ${code} after ${ms.toFixed(0)} ms: ${stderr.trim()}`));
    });
  });
}

export const timeGit = async (args: string[], cwd?: string) => (await runTimed(args, cwd)).ms;

export const percentile = (values: number[], p: number) => sortedPercentile([...values].sort((a, b) => a - b), p);

export const median = (values: number[]) => percentile(values, 0.5);
