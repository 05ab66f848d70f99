// A webhook delivery worker on its own (`npm run worker`): the same settings as the server, the
// outbox polled until SIGTERM/SIGINT. Any number may run beside servers. It does not migrate the
// database: the server does, and a worker may start while servers hold the database open.
import { loadConfigOrExit } from "./config.js";
import { configureLogging, logError, logger } from "./observability/logger.js";
import { onStopSignal } from "./shutdown.js";

async function main() {
  const config = loadConfigOrExit();
  configureLogging(config.logging);
  const [{ createServices, closeServices }, { createWorker }] = await Promise.all([import("./services.js"), import("./webhooks/worker.js")]);
  const services = await createServices(config);
  const worker = createWorker(services);
  void worker.start();
  logger.info(`Forgeline webhook worker ${worker.owner} started`);
  onStopSignal(config, async () => {
    await worker.stop(config.shutdownTimeoutMs);
    await closeServices(services);
  }, `webhook worker ${worker.owner}`);
}

main().catch((error) => {
  logError("Cannot start the webhook worker", error);
  process.exit(1);
});
