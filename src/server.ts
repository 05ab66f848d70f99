// Starts Forgeline: settings, migrations, first-start bootstrap, HTTP server(s), graceful shutdown.
// With WEB_CONCURRENCY > 1 this process is the cluster's primary: it migrates, bootstraps and runs
// the delivery worker once, and forks the web processes that share the port (src/web-processes.ts).
import cluster from "node:cluster";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadConfigOrExit, type Config } from "./config.js";
import { applyMigrations } from "./db/migrate.js";
import type { Services } from "./domain/shared/context.js";
import { CANNOT_LISTEN_EXIT_CODE, isStopMessage, superviseWebProcesses } from "./web-processes.js";
import { isWakeMessage } from "./webhooks/wake.js";
import { configureLogging, logError, logger } from "./observability/logger.js";
import { observeRequests } from "./observability/request-log.js";
import { onStopSignal } from "./shutdown.js";

/** Bytes for the request line (besides the query string) and the headers: Node's default limit. */
const HEADER_ALLOWANCE = 16_384;

interface Listener {
  readonly listening: Promise<number>;
  /** stops accepting connections and resolves once the requests in flight are answered, or cut after `timeoutMs` */
  stop(timeoutMs: number): Promise<void>;
}

/**
 * The HTTP server; `scrape` answers /-/metrics (this process's metrics, or in a web process the
 * whole server's, gathered by the primary).
 */
async function serveHttp(services: Services, scrape: () => Promise<string>): Promise<Listener> {
  const [{ createServerAdapter }, { createApp }, { withOAuth }, { withGitHttp }, { withMetricsEndpoint }, { createMonitoringAccess }, metrics] = await Promise.all([
    import("@whatwg-node/server"), import("./app.js"), import("./oauth/index.js"), import("./git-http/handler.js"),
    import("./observability/metrics-endpoint.js"), import("./observability/monitoring-access.js"), import("./observability/metrics.js"),
  ]);
  metrics.enableDefaultMetrics();
  metrics.observeHttpRequests();
  const app = createApp(services);
  // Node refuses a request line and headers over 16 KiB with a bare 431 before the app sees it: leave
  // room for the longest query string the app accepts, so that a longer one gets its 414 answer.
  const maxHeaderSize = services.config.maxQueryStringLength + HEADER_ALLOWANCE;
  // git's smart HTTP and the OAuth provider (oidc-provider) take Node's request and response themselves
  const metricsEndpoint = { allowed: createMonitoringAccess(services.config.monitoringAllowCidrs), scrape };
  const listener = observeRequests(
    withMetricsEndpoint(metricsEndpoint, withGitHttp(services, withOAuth(services, createServerAdapter((request: Request) => app.fetch(request))))),
  );
  const server = createServer({ maxHeaderSize }, listener);
  const inFlight = countInFlight(server);
  server.on("clientError", answerClientError);
  const listening = new Promise<number>((resolve, reject) => {
    server.once("error", reject); // the port is taken, or not ours to bind
    server.listen(services.config.port, services.config.host, () => {
      server.off("error", reject);
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : services.config.port);
    });
  });
  const stop = (timeoutMs: number) =>
    new Promise<void>((resolve) => {
      if (inFlight.count) logger.info(`waiting for ${inFlight.count} request(s) in flight (at most ${timeoutMs / 1000} s)`);
      // keep-alive sockets would hold `close` open: closed as soon as their request in flight is answered
      const closeIdle = setInterval(() => server.closeIdleConnections(), 50);
      const cut = setTimeout(() => {
        logger.warn(`SHUTDOWN_TIMEOUT reached: cutting ${inFlight.count} request(s) still in flight`);
        server.closeAllConnections();
      }, timeoutMs);
      server.close(() => {
        clearInterval(closeIdle);
        clearTimeout(cut);
        resolve();
      });
      server.closeIdleConnections();
    });
  return { listening, stop };
}

/** Requests whose response is not over yet. */
function countInFlight(server: Server): { count: number } {
  const inFlight = { count: 0 };
  server.on("request", (_req, res: ServerResponse) => {
    inFlight.count++;
    res.once("close", () => inFlight.count--);
  });
  return inFlight;
}

/**
 * A request Node's parser refuses. Past even that limit the request line is what overflows (the
 * headers of GitLab's clients are small): 414 as GitLab's nginx answers, in the app's JSON; other
 * unparseable requests 400, as Node would.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, body] = error.code === "HPE_HEADER_OVERFLOW"
    ? ["414 URI Too Long", JSON.stringify({ message: "414 Request-URI Too Large" })]
    : ["400 Bad Request", JSON.stringify({ error: "Bad Request" })];
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** A forked web process: the database is migrated and bootstrapped by the primary already. */
async function runWebProcess(config: Config) {
  let serving: { http: Listener; services: Services; closeServices(services: Services): Promise<void> } | undefined;
  // from the start: a terminal's Ctrl-C also reaches a process still starting, which has nothing in flight yet
  const stop = onStopSignal(config, async () => {
    if (serving) await serving.http.stop(config.shutdownTimeoutMs).finally(() => serving!.closeServices(serving!.services));
  }, `web process ${process.pid}`);
  process.on("message", (message) => isStopMessage(message) && stop("asked by the primary"));
  const [{ createServices, closeServices }, { reportToPrimary }] = await Promise.all([import("./services.js"), import("./observability/cluster-metrics.js")]);
  const scrapeServer = reportToPrimary();
  const services = await createServices(config);
  const http = await serveHttp(services, scrapeServer);
  await http.listening.catch((error: NodeJS.ErrnoException) => {
    logger.fatal(`Cannot listen on ${config.host}:${config.port}: ${error.code ?? error.message}`);
    process.exit(CANNOT_LISTEN_EXIT_CODE);
  });
  serving = { http, services, closeServices };
  // the primary is gone (killed, or exited at a second signal): no web process outlives it
  process.on("disconnect", () => {
    logger.warn(`web process ${process.pid}: the primary is gone, exiting`);
    process.exit(1);
  });
}

/** The server drives the `git` program: without a recent enough one it stops at once, saying why. */
async function requireGit(): Promise<void> {
  const { checkGitVersion, GitMissingError } = await import("./git/version.js");
  try {
    await checkGitVersion();
  } catch (error) {
    if (!(error instanceof GitMissingError)) throw error;
    logger.fatal(`Cannot start: ${error.message}`);
    process.exit(2);
  }
}

async function runPrimary(config: Config) {
  await requireGit();
  mkdirSync(config.dataDir, { recursive: true });
  // The migration runs in a child process (Prisma CLI) while this one loads the application.
  const [[{ createServices, closeServices }, { bootstrap }, { createWorker }, { startRepositoryRepair }, { convertLegacyRepositories }, metrics, { outboxState }, { aggregateClusterMetrics }]] = await Promise.all([
    Promise.all([
      import("./services.js"), import("./domain/instance/bootstrap.js"), import("./webhooks/worker.js"), import("./domain/repository/reconcile.js"),
      import("./domain/repository/conversion.js"), import("./observability/metrics.js"), import("./webhooks/outbox.js"),
      import("./observability/cluster-metrics.js"),
    ]),
    applyMigrations(config.databaseUrl),
  ]);
  const services: Services = await createServices(config);
  await announceRoot(services, bootstrap);
  // before the repair compares refs with rows: a database from before real git gets its repositories
  await convertLegacyRepositories(services, (message, error) => (error ? logError(message, error) : logger.info(message)));
  const stopRepair = startRepositoryRepair(services, logError);
  const clustered = config.webConcurrency > 1;
  // the outbox is measured here only: in a cluster the web processes' reports are added to this one
  metrics.enableDefaultMetrics();
  metrics.watchOutbox(() => outboxState(services.db));
  if (clustered) aggregateClusterMetrics();
  const web: Listener = clustered
    ? superviseWebProcesses(config.webConcurrency, (message) => logger.warn(message))
    : await serveHttp(services, metrics.localMetrics);
  // the webhook delivery worker (WEBHOOK_WORKER=false when workers run apart: `npm run worker`)
  const worker = config.webhookWorker ? createWorker(services) : null;
  void worker?.start();
  // the web processes' commits wake it (a web process runs no worker)
  if (clustered) cluster.on("message", (_from, message) => isWakeMessage(message) && worker?.wake());
  onStopSignal(config, async () => {
    stopRepair();
    // the web side and the worker finish at the same time, each within SHUTDOWN_TIMEOUT
    await Promise.all([web.stop(config.shutdownTimeoutMs), worker?.stop(config.shutdownTimeoutMs)]);
    await closeServices(services);
  });
  const port = await web.listening;
  const processes = clustered ? `, ${config.webConcurrency} web processes` : "";
  logger.info(`Forgeline listening on http://${config.host}:${port} (REST /api/v4, GraphQL /graphql${processes})`);
}

async function announceRoot(services: Services, bootstrap: typeof import("./domain/instance/bootstrap.js").bootstrap) {
  const result = await bootstrap(services);
  if (!result.created) return;
  if (!result.generatedToken) {
    logger.info("Created administrator 'root' with the token from INITIAL_ROOT_TOKEN.");
    return;
  }
  // the token goes to a file only the server's user reads, never into the log (GitLab's initial_root_password)
  const file = path.join(services.config.dataDir, "root-token.txt");
  writeFileSync(file, `${result.generatedToken}\n`, { mode: 0o600 });
  logger.info(`Created administrator 'root'. Its personal access token is in ${file}`);
}

const config = loadConfigOrExit();
configureLogging(config.logging);
(cluster.isWorker ? runWebProcess(config) : runPrimary(config)).catch((error) => {
  logError("Cannot start", error);
  process.exit(1);
});
