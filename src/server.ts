// Starts Forgeline: settings, migrations, first-start bootstrap, HTTP server, graceful shutdown.
import { createServer } from "node:http";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadConfigOrExit } from "./config.js";
import { applyMigrations } from "./db/migrate.js";
import type { Services } from "./domain/context.js";

/** The application modules, loaded after the settings are validated (a bad setting fails fast). */
async function loadApplication() {
  const [{ createServerAdapter }, { createApp }, { createServices }, { bootstrap }, { createWorker }] = await Promise.all([
    import("@whatwg-node/server"),
    import("./app.js"),
    import("./services.js"),
    import("./domain/bootstrap.js"),
    import("./webhooks/worker.js"),
  ]);
  return { createServerAdapter, createApp, createServices, bootstrap, createWorker };
}

async function main() {
  const config = loadConfigOrExit();
  mkdirSync(config.dataDir, { recursive: true });
  // The migration runs in a child process (Prisma CLI) while this one loads the application.
  const [{ createServerAdapter, createApp, createServices, bootstrap, createWorker }] = await Promise.all([
    loadApplication(),
    applyMigrations(config.databaseUrl),
  ]);
  const services: Services = await createServices(config);
  const db = services.db;
  await announceRoot(services, bootstrap);
  const app = createApp(services);
  const server = createServer(createServerAdapter((request: Request) => app.fetch(request)));
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    console.log(`Forgeline listening on http://${config.host}:${port} (REST /api/v4, GraphQL /graphql)`);
  });
  // the webhook delivery worker (WEBHOOK_WORKER=false when workers run apart: `npm run worker`)
  const worker = config.webhookWorker ? createWorker(services) : null;
  worker?.start();
  const stop = () => {
    const workerStopped = worker?.stop() ?? Promise.resolve();
    server.close(() => void workerStopped.finally(() => db.$disconnect()).finally(() => process.exit(0)));
    server.closeIdleConnections(); // keep-alive sockets would otherwise hold `close` open
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}


async function announceRoot(services: Services, bootstrap: typeof import("./domain/bootstrap.js").bootstrap) {
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

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
