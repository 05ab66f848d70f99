// A webhook delivery worker on its own (`npm run worker`): the same settings as the server, the
// outbox polled until SIGTERM/SIGINT. Any number may run beside servers. It does not migrate the
// database: the server does, and a worker may start while servers hold the database open.
// With WORKER_METRICS_PORT it serves its own /-/metrics (deliveries, leases, the outbox, the process).
import { loadConfigOrExit } from "./config.js";
import { configureLogging, logError, logger } from "./observability/logger.js";
import { onStopSignal } from "./shutdown.js";

async function main() {
  const config = loadConfigOrExit();
  configureLogging(config.logging);
  const [{ createServices, closeServices }, { createWorker }, metrics, { outboxState }, { serveMetrics }, { createMonitoringAccess }] = await Promise.all([
    import("./services.js"), import("./webhooks/worker.js"), import("./observability/metrics.js"), import("./webhooks/outbox.js"),
    import("./observability/metrics-endpoint.js"), import("./observability/monitoring-access.js"),
  ]);
  const services = await createServices(config);
  const worker = createWorker(services);
  void worker.start();
  logger.info(`Forgeline webhook worker ${worker.owner} started`);
  let metricsServer: Awaited<ReturnType<typeof serveMetrics>> | undefined;
  if (config.workerMetricsPort !== undefined) {
    metrics.enableDefaultMetrics();
    metrics.watchOutbox(() => outboxState(services.db));
    const allowed = createMonitoringAccess(config.monitoringAllowCidrs);
    metricsServer = await serveMetrics(config.host, config.workerMetricsPort, { allowed, scrape: metrics.localMetrics });
  }
  onStopSignal(config, async () => {
    await Promise.all([worker.stop(config.shutdownTimeoutMs), metricsServer?.close()]);
    await closeServices(services);
  }, `webhook worker ${worker.owner}`);
}

main().catch((error) => {
  logError("Cannot start the webhook worker", error);
  process.exit(1);
});
