// A second server process on a database another server already migrated and bootstrapped: the
// application and its caches as src/server.ts builds them, without `prisma migrate deploy` (which
// cannot yet run while another process has the SQLite file open; the scale-out work adds that).
import { createServer } from "node:http";
import { createServerAdapter } from "@whatwg-node/server";
import { createApp } from "../../../src/app.js";
import { loadConfigOrExit } from "../../../src/config.js";
import { createServices } from "../../../src/services.js";
import { withMetricsEndpoint } from "../../../src/observability/metrics-endpoint.js";
import { localMetrics } from "../../../src/observability/metrics.js";

const config = loadConfigOrExit();
const services = await createServices(config);
const app = createApp(services);
// its /-/metrics (loopback only) shows how its caches fared
const metricsEndpoint = { allowed: (address: string | undefined) => address === "127.0.0.1" || address === "::1" || address === "::ffff:127.0.0.1", scrape: localMetrics };
const server = createServer(withMetricsEndpoint(metricsEndpoint, createServerAdapter((request: Request) => app.fetch(request))));
server.listen(config.port, config.host, () => console.log(`second server listening on ${config.port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
