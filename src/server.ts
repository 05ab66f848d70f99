// Starts Forgeline: settings, migrations, first-start bootstrap, HTTP server(s), graceful shutdown.
// With WEB_CONCURRENCY > 1 this process is the cluster's primary: it migrates, bootstraps and runs
// the delivery worker once, and forks the web processes that share the port (src/web-processes.ts).
import cluster from "node:cluster";
import { createServer } from "node:http";
import type { Duplex } from "node:stream";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadConfigOrExit, type Config } from "./config.js";
import { applyMigrations } from "./db/migrate.js";
import type { Services } from "./domain/shared/context.js";
import { superviseWebProcesses } from "./web-processes.js";
import { isWakeMessage } from "./webhooks/wake.js";

const HARD_EXIT_AFTER_MS = 15_000;
/** Bytes for the request line (besides the query string) and the headers: Node's default limit. */
const HEADER_ALLOWANCE = 16_384;

interface Listener {
  readonly listening: Promise<number>;
  /** stops accepting connections and resolves once the requests in flight are answered */
  stop(): Promise<void>;
}

async function serveHttp(services: Services): Promise<Listener> {
  const [{ createServerAdapter }, { createApp }, { withOAuth }, { withGitHttp }] = await Promise.all([
    import("@whatwg-node/server"), import("./app.js"), import("./oauth/index.js"), import("./git-http/handler.js"),
  ]);
  const app = createApp(services);
  // Node refuses a request line and headers over 16 KiB with a bare 431 before the app sees it: leave
  // room for the longest query string the app accepts, so that a longer one gets its 414 answer.
  const maxHeaderSize = services.config.maxQueryStringLength + HEADER_ALLOWANCE;
  // git's smart HTTP and the OAuth provider (oidc-provider) take Node's request and response themselves
  const listener = withGitHttp(services, withOAuth(services, createServerAdapter((request: Request) => app.fetch(request))));
  const server = createServer({ maxHeaderSize }, listener);
  server.on("clientError", answerClientError);
  const listening = new Promise<number>((resolve) => {
    server.listen(services.config.port, services.config.host, () => {
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : services.config.port);
    });
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      // keep-alive sockets would hold `close` open: closed as soon as their request in flight is answered
      const closeIdle = setInterval(() => server.closeIdleConnections(), 50);
      server.close(() => {
        clearInterval(closeIdle);
        resolve();
      });
      server.closeIdleConnections();
    });
  return { listening, stop };
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

function onStopSignal(stop: () => Promise<unknown>) {
  let stopping = false;
  const handler = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), HARD_EXIT_AFTER_MS).unref();
    void stop().finally(() => process.exit(0));
  };
  process.on("SIGTERM", handler);
  process.on("SIGINT", handler);
}

/** A forked web process: the database is migrated and bootstrapped by the primary already. */
async function runWebProcess(config: Config) {
  const { createServices } = await import("./services.js");
  const services = await createServices(config);
  const http = await serveHttp(services);
  onStopSignal(() => http.stop().finally(() => services.db.$disconnect()));
}

/** The server drives the `git` program: without a recent enough one it stops at once, saying why. */
async function requireGit(): Promise<void> {
  const { checkGitVersion, GitMissingError } = await import("./git/version.js");
  try {
    await checkGitVersion();
  } catch (error) {
    if (!(error instanceof GitMissingError)) throw error;
    console.error(`Cannot start: ${error.message}`);
    process.exit(2);
  }
}

async function runPrimary(config: Config) {
  await requireGit();
  mkdirSync(config.dataDir, { recursive: true });
  // The migration runs in a child process (Prisma CLI) while this one loads the application.
  const [[{ createServices }, { bootstrap }, { createWorker }, { startRepositoryRepair }, { convertLegacyRepositories }]] = await Promise.all([
    Promise.all([
      import("./services.js"), import("./domain/instance/bootstrap.js"), import("./webhooks/worker.js"), import("./domain/repository/reconcile.js"),
      import("./domain/repository/conversion.js"),
    ]),
    applyMigrations(config.databaseUrl),
  ]);
  const services: Services = await createServices(config);
  await announceRoot(services, bootstrap);
  // before the repair compares refs with rows: a database from before real git gets its repositories
  await convertLegacyRepositories(services, (message, error) => (error ? console.error(message, error) : console.log(message)));
  const stopRepair = startRepositoryRepair(services, (message, error) => console.error(message, error ?? ""));
  const clustered = config.webConcurrency > 1;
  const web: Listener = clustered ? superviseWebProcesses(config.webConcurrency, console.error) : await serveHttp(services);
  // the webhook delivery worker (WEBHOOK_WORKER=false when workers run apart: `npm run worker`)
  const worker = config.webhookWorker ? createWorker(services) : null;
  void worker?.start();
  // the web processes' commits wake it (a web process runs no worker)
  if (clustered) cluster.on("message", (_from, message) => isWakeMessage(message) && worker?.wake());
  onStopSignal(async () => {
    stopRepair();
    await web.stop();
    await worker?.stop();
    await services.db.$disconnect();
  });
  const port = await web.listening;
  const processes = clustered ? `, ${config.webConcurrency} web processes` : "";
  console.log(`Forgeline listening on http://${config.host}:${port} (REST /api/v4, GraphQL /graphql${processes})`);
}

async function announceRoot(services: Services, bootstrap: typeof import("./domain/instance/bootstrap.js").bootstrap) {
  const result = await bootstrap(services);
  if (!result.created) return;
  if (!result.generatedToken) {
    console.log("Created administrator 'root' with the token from INITIAL_ROOT_TOKEN.");
    return;
  }
  const file = path.join(services.config.dataDir, "root-token.txt");
  writeFileSync(file, `${result.generatedToken}\n`, { mode: 0o600 });
  console.log(`Created administrator 'root'. Its personal access token (shown once, also in ${file}):`);
  console.log(result.generatedToken);
}

const config = loadConfigOrExit();
(cluster.isWorker ? runWebProcess(config) : runPrimary(config)).catch((error) => {
  console.error(error);
  process.exit(1);
});
