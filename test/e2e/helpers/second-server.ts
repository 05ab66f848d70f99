// A second server process on a database another server already migrated and bootstrapped: the
// application and its caches as src/server.ts builds them, without `prisma migrate deploy` (which
// cannot yet run while another process has the SQLite file open; the scale-out work adds that).
import { createServer } from "node:http";
import { createServerAdapter } from "@whatwg-node/server";
import { createApp } from "../../../src/app.js";
import { loadConfigOrExit } from "../../../src/config.js";
import { createServices } from "../../../src/services.js";

const config = loadConfigOrExit();
const services = await createServices(config);
const app = createApp(services);
const server = createServer(createServerAdapter((request: Request) => app.fetch(request)));
server.listen(config.port, config.host, () => console.log(`second server listening on ${config.port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
