// The processes a test started, read from /proc (Linux): children and descendants of a pid, the
// members of a process group, and whether one seen earlier still runs (a zombie waiting to be
// reaped has stopped; a pid used again by a new process is not the one seen).
import { readdirSync, readFileSync } from "node:fs";

export interface ProcessInfo {
  pid: number;
  parent: number;
  /** the process group */
  group: number;
  /** R, S, D, Z (zombie: exited, not yet reaped), ... */
  state: string;
  /** clock ticks after boot: with the pid, names one process */
  startTime: string;
  /** the command line, arguments separated by spaces */
  command: string;
}

export function processInfo(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the command name in parentheses may hold spaces: the fields start after its last ")"
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
    return { pid, state: fields[0]!, parent: Number(fields[1]), group: Number(fields[2]), startTime: fields[19]!, command };
  } catch {
    return undefined; // exited meanwhile
  }
}

export function allProcesses(): ProcessInfo[] {
  return readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).flatMap((pid) => processInfo(Number(pid)) ?? []);
}

export const childProcesses = (parent: number): ProcessInfo[] => allProcesses().filter((process) => process.parent === parent);

/** Children, their children, and so on. */
export function descendants(root: number): ProcessInfo[] {
  const all = allProcesses();
  const found: ProcessInfo[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const process of all) {
      if (parents.has(process.parent) && !parents.has(process.pid)) {
        parents.add(process.pid);
        found.push(process);
        grew = true;
      }
    }
  }
  return found;
}

/** The processes of a group that have not exited. */
export const groupMembers = (group: number): ProcessInfo[] => allProcesses().filter((process) => process.group === group && process.state !== "Z");

/** The process seen earlier runs still (not exited, not a zombie, its pid not taken by another). */
export function stillRunning(seen: ProcessInfo): boolean {
  const now = processInfo(seen.pid);
  return now !== undefined && now.startTime === seen.startTime && now.state !== "Z";
}

export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The forked web processes of a cluster's primary (its children running the server script). */
export const webProcesses = (primaryPid: number): number[] =>
  childProcesses(primaryPid).filter((child) => child.command.includes("src/server.ts")).map((child) => child.pid);

/** Polls `probe` until it returns something other than undefined. */
export async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
