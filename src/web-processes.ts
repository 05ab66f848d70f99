// The primary's side of a clustered server (node:cluster, WEB_CONCURRENCY > 1): it forks the web
// processes that share the port, replaces one that dies (waiting longer when they keep dying, so a
// process that cannot start does not spin), and on stop asks each to finish its in-flight requests.
import cluster, { type Worker } from "node:cluster";

const FIRST_RESTART_DELAY_MS = 100;
const MAX_RESTART_DELAY_MS = 10_000;
/** deaths further back than this no longer lengthen the restart delay */
const CRASH_MEMORY_MS = 60_000;
/** what a web process may take past the shutdown timeout (closing its database) before it is killed */
const DRAIN_MARGIN_MS = 3_000;

export interface WebProcesses {
  /** resolves with the port once the first web process listens */
  readonly listening: Promise<number>;
  /** asks every web process to stop (each drains within `timeoutMs`), SIGKILL to those still there after it */
  stop(timeoutMs: number): Promise<void>;
}

export function superviseWebProcesses(count: number, log: (message: string) => void): WebProcesses {
  let stopping = false;
  let deaths: number[] = [];
  /** the web processes that serve (a process still starting may not hear a message yet) */
  const serving = new Set<number>();
  const listening = new Promise<number>((resolve) => {
    cluster.on("listening", (worker, address) => {
      serving.add(worker.id);
      resolve(address.port);
    });
  });

  cluster.on("exit", (worker, code, signal) => {
    serving.delete(worker.id);
    if (stopping) return;
    if (code === CANNOT_LISTEN_EXIT_CODE) {
      // another would fail the same way: the server stops (the other web processes follow on disconnect)
      log(`web process ${worker.process.pid} could not listen; stopping`);
      process.exit(1);
    }
    const now = Date.now();
    deaths = [...deaths.filter((at) => now - at < CRASH_MEMORY_MS), now];
    const delay = Math.min(FIRST_RESTART_DELAY_MS * 2 ** (deaths.length - 1), MAX_RESTART_DELAY_MS);
    log(`web process ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another in ${delay} ms`);
    setTimeout(() => stopping || forkWebProcess(), delay).unref();
  });
  // Each web process accepts from the shared socket itself: with round-robin the primary hands every
  // connection over, and one handed to a process that has just died is never answered.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  for (let i = 0; i < count; i++) forkWebProcess();

  return {
    listening,
    async stop(timeoutMs) {
      stopping = true;
      await Promise.all(Object.values(cluster.workers ?? {}).map((worker) => drain(worker!, serving.has(worker!.id), timeoutMs + DRAIN_MARGIN_MS)));
    },
  };
}

function drain(worker: Worker, serving: boolean, killAfterMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (worker.isDead()) return resolve();
    const timer = setTimeout(() => worker.process.kill("SIGKILL"), killAfterMs);
    worker.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    // A serving process gets a message, not a signal: one that also got the terminal's SIGINT must not
    // take it for a second signal. One still starting has nothing in flight: SIGTERM ends it.
    if (serving) worker.send(STOP_MESSAGE, (error: Error | null) => error && worker.process.kill("SIGTERM"));
    else worker.process.kill("SIGTERM");
  });
}

const STOP_MESSAGE = { forgeline: "stop" };

/** A web process's exit code when its port is taken or not allowed. */
export const CANNOT_LISTEN_EXIT_CODE = 3;

export const isStopMessage = (message: unknown) => (message as { forgeline?: string } | null)?.forgeline === "stop";

/**
 * libuv accepts every pending connection at once, so with a shared socket the process that wakes
 * first takes a whole burst of connections while the others stay idle (most often when requests
 * wait on PostgreSQL and leave the processes free to accept). With UV_TCP_SINGLE_ACCEPT it
 * accepts one and yields the core, which spreads connections across the web processes.
 */
function forkWebProcess() {
  return cluster.fork({ UV_TCP_SINGLE_ACCEPT: "1" });
}
