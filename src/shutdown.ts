// How a process (server, web process, worker) stops: gracefully on the first SIGTERM or SIGINT,
// at once on the second.
import type { Config } from "./config.js";
import { logError, logger } from "./observability/logger.js";

/** what a stop may take beyond SHUTDOWN_TIMEOUT (closing the database, the worker's last writes) before the process exits anyway */
const HARD_EXIT_MARGIN_MS = 5_000;
/**
 * Signals this soon after the first are the same stop, not a second one: one stop often arrives
 * twice. A terminal's Ctrl-C reaches every process of the foreground group, `npm start` among them,
 * and npm passes it on to the server as well; `timeout` and systemd signal the process and then its
 * whole group (or cgroup).
 */
export const SAME_STOP_WINDOW_MS = 1_000;

/**
 * SIGTERM or SIGINT stops the process gracefully (`stop` has SHUTDOWN_TIMEOUT for what is in
 * flight) and it exits 0; a second signal, more than SAME_STOP_WINDOW_MS after the first, exits at
 * once, with 1. The function returned starts the same graceful stop without counting as a signal
 * (a web process asked by its primary).
 */
export function onStopSignal(config: Config, stop: () => Promise<unknown>, name = "server"): (reason: string) => void {
  let stopping = false;
  const begin = (reason: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${reason}: ${name} stopping`);
    setTimeout(() => {
      logger.error(`${name} did not stop within SHUTDOWN_TIMEOUT (+${HARD_EXIT_MARGIN_MS / 1000} s): exiting`);
      process.exit(1);
    }, config.shutdownTimeoutMs + HARD_EXIT_MARGIN_MS).unref();
    void stop().then(
      () => {
        logger.info(`${name} stopped`);
        process.exit(0);
      },
      (error) => {
        logError(`${name} stopped with an error`, error);
        process.exit(1);
      },
    );
  };
  let firstSignalAt: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (firstSignalAt === undefined) {
      firstSignalAt = Date.now();
      return begin(signal);
    }
    if (Date.now() - firstSignalAt <= SAME_STOP_WINDOW_MS) {
      logger.info(`${signal} again within ${SAME_STOP_WINDOW_MS / 1000} s: the same stop (passed on by npm, timeout or the terminal); another signal later exits at once`);
      return;
    }
    logger.warn(`${signal} again: ${name} exiting at once`);
    process.exit(1);
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  return begin;
}
