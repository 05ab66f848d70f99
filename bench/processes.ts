// The processes a benchmark measures: each started in its own process group, so that its CPU time
// and memory are those of every process in the group (the cluster's primary and web processes) and
// of their descendants (git), with the CPU of the children they have reaped.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";

// the e2e tests' helper: a free loopback port
export { freePort } from "../test/e2e/helpers/server.js";

const CLOCK_TICKS_PER_SECOND = 100; // Linux USER_HZ

/** `npm start`'s command (its node flags included), run without npm in between ("exec node ..." in package.json). */
export function startCommand(): string[] {
  const start: string = JSON.parse(readFileSync("package.json", "utf8")).scripts.start;
  const [node, ...args] = start.replace(/^exec\s+/, "").split(/\s+/);
  if (node !== "node") throw new Error(`npm start does not run node: ${start}`);
  return [process.execPath, ...args];
}

export interface Measured {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  /** user + system CPU seconds so far of the group's live processes, their descendants and the children they reaped */
  cpuSeconds(): number;
  /** user + system CPU seconds of the database server so far, where it runs on this machine (PostgreSQL) */
  databaseCpuSeconds?(): number;
  /** resident memory (MiB) of each live process in the group and below it */
  rssMiB(): number[];
  output(): string;
  stop(): Promise<void>;
}

function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null; // exited meanwhile
  }
}

/**
 * The processes of the group `pgid` and all their descendants. The server starts its git
 * processes in groups of their own (so that a terminal's Ctrl-C does not cut a clone short):
 * reading the group alone would leave git's CPU and memory out.
 */
export function processTree(pgid: number): number[] {
  const parentOf = new Map<number, number>();
  const members = new Set<number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (!fields) continue;
    parentOf.set(Number(entry), Number(fields[1]));
    if (Number(fields[2]) === pgid) members.add(Number(entry));
  }
  const inTree = (pid: number): boolean => {
    const seen = new Set<number>();
    for (let at: number | undefined = pid; at !== undefined && at > 1 && !seen.has(at); at = parentOf.get(at)) {
      if (members.has(at)) return true;
      seen.add(at);
    }
    return false;
  };
  return [...parentOf.keys()].filter(inTree);
}

/** user + system CPU ticks of a live process and of the children it has reaped (utime, stime, cutime, cstime) */
function cpuTicks(pid: number): number {
  const f = statFields(pid);
  return f ? Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) : 0;
}

/** CPU seconds so far of the group's live processes, their descendants and the children they have reaped. */
export function treeCpuSeconds(pgid: number): number {
  return processTree(pgid).reduce((sum, pid) => sum + cpuTicks(pid), 0) / CLOCK_TICKS_PER_SECOND;
}

function rssMiB(pid: number): number {
  try {
    const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kib ? Number(kib) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Starts a process in its own group and waits until `ready(url)` answers true. */
export async function startMeasured(
  name: string, command: string[], env: NodeJS.ProcessEnv, port: number, ready: (url: string) => Promise<boolean>,
): Promise<Measured> {
  const child: ChildProcess = spawn(command[0]!, command.slice(1), { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  child.stdout!.on("data", (chunk) => (text += chunk));
  child.stderr!.on("data", (chunk) => (text += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited before it was ready:\n${text}`);
    if (await ready(url).catch(() => false)) break;
    if (Date.now() > deadline) throw new Error(`${name} not ready after 90 s:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const pgid = child.pid!;
  return {
    name, url, pid: pgid,
    cpuSeconds: () => treeCpuSeconds(pgid),
    rssMiB: () => processTree(pgid).map(rssMiB).filter((mib) => mib > 0),
    output: () => text,
    async stop() {
      if (child.exitCode !== null) return;
      try {
        process.kill(-pgid, "SIGTERM");
      } catch {
        return;
      }
      const timer = setTimeout(() => process.kill(-pgid, "SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * CPU seconds of the PostgreSQL server on this machine: every live `postgres` process (the
 * postmaster, its backends and background workers) plus what its exited children used (the
 * postmaster's reaped children). Counts every database of the server: keep the others idle.
 */
export function postgresqlCpuSeconds(): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) !== "postgres") continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
      if (!isPostgres(Number(fields[1]))) ticks += Number(fields[13]) + Number(fields[14]); // the postmaster: cutime, cstime
    } catch {
      // exited meanwhile
    }
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}

function isPostgres(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres";
  } catch {
    return false;
  }
}
