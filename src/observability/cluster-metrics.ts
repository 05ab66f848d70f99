// One /-/metrics answer for a clustered server (WEB_CONCURRENCY > 1). A scrape reaches one web
// process; it asks the primary (`scrape`), which asks every web process that said it can report
// (`ready`) for its metrics as JSON (`collect` → `collected`), adds its own (the delivery worker,
// the outbox, its process), aggregates them with prom-client's AggregatorRegistry (counters and
// histograms summed, the default metrics by their own aggregators) and answers (`scraped`).
// Messages are `{ forgeline: "metrics:<kind>", id }` objects; any other message is left alone.
// A web process that dies or stays silent past COLLECT_TIMEOUT_MS is left out of that answer.
import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue } from "prom-client";
import { logger } from "./logger.js";
import { registry } from "./metrics.js";

const COLLECT_TIMEOUT_MS = 3_000;
const SCRAPE_TIMEOUT_MS = 8_000;

type Metrics = MetricObjectWithValues<MetricValue<string>>[];

type Message =
  | { forgeline: "metrics:ready" }
  | { forgeline: "metrics:collect"; id: number }
  | { forgeline: "metrics:collected"; id: number; metrics?: Metrics; error?: string }
  | { forgeline: "metrics:scrape"; id: number }
  | { forgeline: "metrics:scraped"; id: number; text?: string; error?: string };

function metricsMessage(message: unknown): Message | undefined {
  const kind = (message as { forgeline?: unknown } | null)?.forgeline;
  return typeof kind === "string" && kind.startsWith("metrics:") ? (message as Message) : undefined;
}

/** The primary: answers the web processes' scrapes for the whole server. */
export function aggregateClusterMetrics(): void {
  const ready = new Set<Worker>();
  const collecting = new Map<number, { worker: Worker; done: (metrics: Metrics | undefined) => void }>();
  let nextId = 0;

  function collectFrom(worker: Worker): Promise<Metrics | undefined> {
    const id = ++nextId;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        logger.warn(`web process ${worker.process.pid} did not report its metrics within ${COLLECT_TIMEOUT_MS} ms: left out of this scrape`);
        done(undefined);
      }, COLLECT_TIMEOUT_MS);
      const done = (metrics: Metrics | undefined) => {
        if (!collecting.delete(id)) return;
        clearTimeout(timer);
        resolve(metrics);
      };
      collecting.set(id, { worker, done });
      worker.send({ forgeline: "metrics:collect", id } satisfies Message, (error: Error | null) => error && done(undefined));
    });
  }

  async function serverMetrics(): Promise<string> {
    const reports = await Promise.all([...ready].map(collectFrom));
    const all = [await registry.getMetricsAsJSON(), ...reports.filter((report) => report !== undefined)];
    return AggregatorRegistry.aggregate(all).metrics();
  }

  cluster.on("message", (worker, raw) => {
    const message = metricsMessage(raw);
    if (!message) return;
    if (message.forgeline === "metrics:ready") ready.add(worker);
    else if (message.forgeline === "metrics:collected") {
      const pending = collecting.get(message.id);
      if (message.error) logger.warn(`web process ${worker.process.pid} could not report its metrics: ${message.error}`);
      if (pending?.worker === worker) pending.done(message.metrics);
    } else if (message.forgeline === "metrics:scrape") {
      const reply = (answer: Partial<Message>) => worker.isConnected() && worker.send({ forgeline: "metrics:scraped", id: message.id, ...answer });
      serverMetrics().then((text) => reply({ text }), (error) => reply({ error: String(error) }));
    }
  });
  cluster.on("exit", (worker) => {
    ready.delete(worker);
    for (const pending of [...collecting.values()]) if (pending.worker === worker) pending.done(undefined);
  });
}

/**
 * A web process: reports its metrics when the primary collects them, and returns the scrape that
 * asks the primary for the whole server's.
 */
export function reportToPrimary(): () => Promise<string> {
  const scrapes = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  const send = (message: Message) => process.send?.(message);
  process.on("message", (raw) => {
    const message = metricsMessage(raw);
    if (message?.forgeline === "metrics:collect") {
      registry.getMetricsAsJSON().then(
        (metrics) => send({ forgeline: "metrics:collected", id: message.id, metrics }),
        (error) => send({ forgeline: "metrics:collected", id: message.id, error: String(error) }),
      );
    } else if (message?.forgeline === "metrics:scraped") {
      const pending = scrapes.get(message.id);
      if (!pending) return; // answered after the timeout
      scrapes.delete(message.id);
      if (message.text !== undefined) pending.resolve(message.text);
      else pending.reject(new Error(`the primary could not gather the metrics: ${message.error}`));
    }
  });
  send({ forgeline: "metrics:ready" });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = ++nextId;
      const timer = setTimeout(() => {
        scrapes.delete(id);
        reject(new Error(`the primary did not answer the metrics scrape within ${SCRAPE_TIMEOUT_MS} ms`));
      }, SCRAPE_TIMEOUT_MS);
      scrapes.set(id, {
        resolve: (text) => (clearTimeout(timer), resolve(text)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      send({ forgeline: "metrics:scrape", id });
    });
}
