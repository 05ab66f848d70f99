// A webhook delivery worker on its own (`npm run worker`): the same settings as the server, the
// outbox polled until SIGTERM/SIGINT. Any number may run beside servers. It does not migrate the
// database: the server does, and a worker may start while servers hold the database open.
import { loadConfigOrExit } from "./config.js";

async function main() {
  const config = loadConfigOrExit();
  const [{ createServices }, { createWorker }] = await Promise.all([import("./services.js"), import("./webhooks/worker.js")]);
  const services = await createServices(config);
  const worker = createWorker(services);
  void worker.start();
  console.log(`Forgeline webhook worker ${worker.owner} started`);
  const stop = () => {
    void worker.stop().finally(() => void services.db.$disconnect().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 15_000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
