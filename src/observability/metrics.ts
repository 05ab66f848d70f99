// The process's Prometheus metrics (prom-client), served at /-/metrics (metrics-endpoint.ts; a
// clustered server's web processes answer for the whole server: cluster-metrics.ts).
// On the request path a finished request costs a few map lookups and the updates of label children
// bound once per (method, route, status): no label object, no string built per request. Every label
// takes its values from a bounded set: route templates (never raw paths), known methods, capped
// GraphQL operation names.
import type { ChildProcess } from "node:child_process";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { logError } from "./logger.js";
import { onRequestFinished, type FinishedRequest } from "./request-log.js";

export const registry = new Registry();
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** The route label of a request nothing matched. */
export const UNMATCHED_ROUTE = "unmatched";
/** The label value standing for the values past a cap (and for unknown methods). */
const OTHER = "other";
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** Route templates are a fixed set; the cap is a guard against a template that is not one. */
const MAX_ROUTES = 2000;
const MAX_GRAPHQL_OPERATIONS = 200;
const MAX_GRAPHQL_NAME_LENGTH = 100;

const requestsTotal = new Counter({
  name: "http_requests_total",
  help: "HTTP requests answered, by method, route template and status (499: the client went away first).",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});
const requestDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "Time from a request's arrival to the end of its response, by method, route template and status.",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [registry],
});
const requestDbStatements = new Histogram({
  name: "http_request_db_statements",
  help: "Database statements one request sent, by method and route template.",
  labelNames: ["method", "route"] as const,
  buckets: [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
  registers: [registry],
});
const requestDbRoundTrips = new Histogram({
  name: "http_request_db_round_trips",
  help: "Times one request waited for the database server (statements, and on PostgreSQL the cache-version read), by method and route template.",
  labelNames: ["method", "route"] as const,
  buckets: [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
  registers: [registry],
});
const requestDbDuration = new Histogram({
  name: "http_request_db_duration_seconds",
  help: "Time one request spent waiting for its database statements, by method and route template.",
  labelNames: ["method", "route"] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});
const graphqlOperations = new Counter({
  name: "forgeline_graphql_operations_total",
  help: `GraphQL operations executed (REST requests not included), by operation name ("anonymous" without one, "${OTHER}" past ${MAX_GRAPHQL_OPERATIONS} names) and type.`,
  labelNames: ["operation_name", "operation_type"] as const,
  registers: [registry],
});
const deliveries = new Counter({
  name: "forgeline_webhook_deliveries_total",
  help: "Webhook delivery attempts by result: success (an answer below 400), failure (another answer), error (no answer: refused, timed out, blocked).",
  labelNames: ["result"] as const,
  registers: [registry],
});
const deliveryLatency = new Histogram({
  name: "forgeline_webhook_delivery_latency_seconds",
  help: "Time from an event written to the outbox to the receiver's successful answer (retries included).",
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 14400, 86400],
  registers: [registry],
});
const gitRunning = new Gauge({
  name: "forgeline_git_processes",
  help: "git processes running, by git command.",
  labelNames: ["command"] as const,
  registers: [registry],
});
const gitStarted = new Counter({
  name: "forgeline_git_processes_started_total",
  help: "git processes started, by git command.",
  labelNames: ["command"] as const,
  registers: [registry],
});

let defaultsOn = false;

/** Process, heap, GC and event-loop-lag metrics (a process that serves metrics turns them on). */
export function enableDefaultMetrics(): void {
  if (defaultsOn) return;
  defaultsOn = true;
  collectDefaultMetrics({ register: registry });
}

/** This process's metrics in Prometheus text format. */
export const localMetrics = (): Promise<string> => registry.metrics();

// --- HTTP requests ---------------------------------------------------------------------------

interface StatusChildren {
  count: Counter.Internal;
  duration: Histogram.Internal<string>;
}

interface RouteChildren {
  statements: Histogram.Internal<string>;
  roundTrips: Histogram.Internal<string>;
  dbDuration: Histogram.Internal<string>;
  byStatus: Map<number, StatusChildren>;
}

const childrenByMethod = new Map<string, Map<string, RouteChildren>>();
let routesBound = 0;

function routeChildren(method: string, route: string): RouteChildren {
  let routes = childrenByMethod.get(method);
  if (!routes) childrenByMethod.set(method, (routes = new Map()));
  let children = routes.get(route);
  if (children) return children;
  if (routesBound >= MAX_ROUTES && route !== OTHER) return routeChildren(method, OTHER);
  routesBound++;
  children = {
    statements: requestDbStatements.labels(method, route), roundTrips: requestDbRoundTrips.labels(method, route), dbDuration: requestDbDuration.labels(method, route), byStatus: new Map() };
  routes.set(route, children);
  return children;
}

function statusChildren(method: string, route: string, children: RouteChildren, status: number): StatusChildren {
  let bound = children.byStatus.get(status);
  if (!bound) {
    const label = String(status);
    bound = { count: requestsTotal.labels(method, route, label), duration: requestDuration.labels(method, route, label) };
    children.byStatus.set(status, bound);
  }
  return bound;
}

function observeRequest({ record, status, seconds }: FinishedRequest): void {
  const method = METHODS.has(record.method) ? record.method : OTHER;
  const route = record.route ?? UNMATCHED_ROUTE;
  const children = routeChildren(method, route);
  const bound = statusChildren(method, route, children, status);
  bound.count.inc();
  bound.duration.observe(seconds);
  children.statements.observe(record.dbStatements);
  children.roundTrips.observe(record.dbRoundTrips);
  children.dbDuration.observe(record.dbMilliseconds / 1000);
}

let observing = false;

/** Counts every request the server answers (those going through request-log.ts's observeRequests). */
export function observeHttpRequests(): void {
  if (observing) return;
  observing = true;
  onRequestFinished(observeRequest);
}

// --- GraphQL ---------------------------------------------------------------------------------

const operationChildren = new Map<string, Map<string, Counter.Internal>>();

/** An operation of the public graph ran (a name from the request: bounded in number and length). */
export function countGraphqlOperation(name: string | undefined, type: string): void {
  let label = name || "anonymous";
  if (label.length > MAX_GRAPHQL_NAME_LENGTH || (!operationChildren.has(label) && operationChildren.size >= MAX_GRAPHQL_OPERATIONS)) label = OTHER;
  let byType = operationChildren.get(label);
  if (!byType) operationChildren.set(label, (byType = new Map()));
  let child = byType.get(type);
  if (!child) byType.set(type, (child = graphqlOperations.labels(label, type)));
  child.inc();
}

// --- Webhooks --------------------------------------------------------------------------------

export type DeliveryResult = "success" | "failure" | "error";
const deliveryChildren = {
  success: deliveries.labels("success"),
  failure: deliveries.labels("failure"),
  error: deliveries.labels("error"),
} satisfies Record<DeliveryResult, Counter.Internal>;
for (const child of Object.values(deliveryChildren)) child.inc(0); // every result shown from the start

/** One delivery attempt; a successful one also its latency from `writtenAt` (the event's outbox row). */
export function countDelivery(result: DeliveryResult, writtenAt: Date): void {
  deliveryChildren[result].inc();
  const seconds = (Date.now() - writtenAt.getTime()) / 1000;
  // prom-client throws on NaN: a row without a readable time is counted, not timed
  if (result === "success" && Number.isFinite(seconds)) deliveryLatency.observe(Math.max(0, seconds));
}

// --- caches ----------------------------------------------------------------------------------

const staleReads = new Counter({
  name: "forgeline_cache_stale_reads_total",
  help: "API reads run a second time: the look at other processes' writes, sent beside them, found a cache they had used stale (PostgreSQL).",
  registers: [registry],
});

export function countStaleRead(): void {
  staleReads.inc();
}

const leaseHolders = new Set<() => number>();
new Gauge({
  name: "forgeline_webhook_worker_leases",
  help: "Outbox rows the delivery workers of this process hold (claimed, not yet settled).",
  registers: [registry],
  collect() {
    let held = 0;
    for (const holder of leaseHolders) held += holder();
    this.set(held);
  },
});

/** A delivery worker's rows in hand, read at each scrape; returns the unregistering function. */
export function countLeases(holder: () => number): () => void {
  leaseHolders.add(holder);
  return () => leaseHolders.delete(holder);
}

export interface OutboxState {
  pending: number;
  /** when the oldest pending row was written; null when none is pending */
  oldestPendingAt: Date | null;
}

let outboxWatched = false;

/**
 * The outbox gauges, read from the database at each scrape (one query for both). Registered only in
 * the process that answers for the server's outbox (the single server process or a clustered
 * server's primary, and each standalone worker), so web processes do not add it up.
 */
export function watchOutbox(read: () => Promise<OutboxState>): void {
  if (outboxWatched) return;
  outboxWatched = true;
  let reading: Promise<OutboxState | undefined> | undefined;
  // both gauges are collected at once: they share the query in flight; a database that cannot
  // answer leaves them NaN rather than failing the scrape (the process metrics still tell a lot)
  const state = () =>
    (reading ??= read()
      .catch((error) => void logError("could not read the webhook outbox for the metrics", error))
      .finally(() => (reading = undefined)));
  new Gauge({
    name: "forgeline_webhook_outbox_pending",
    help: "Webhook deliveries waiting in the outbox (due now or scheduled for a retry).",
    aggregator: "max",
    registers: [registry],
    async collect() {
      this.set((await state())?.pending ?? NaN);
    },
  });
  new Gauge({
    name: "forgeline_webhook_outbox_oldest_pending_age_seconds",
    help: "Age of the oldest webhook delivery waiting in the outbox (0 when none is).",
    aggregator: "max",
    registers: [registry],
    async collect() {
      const outbox = await state();
      if (!outbox) this.set(NaN);
      else this.set(outbox.oldestPendingAt ? Math.max(0, Date.now() - outbox.oldestPendingAt.getTime()) / 1000 : 0);
    },
  });
}

// --- git -------------------------------------------------------------------------------------

/** The git command of an argument list (`--git-dir=x -c a=b cat-file ...` → cat-file, `--version` → version). */
export function gitCommandOf(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-c" || arg === "-C" || arg === "--git-dir" || arg === "--work-tree" || arg === "--namespace") i++;
    else if (arg === "--version") return "version";
    else if (!arg.startsWith("-")) return /^[a-z][a-z0-9-]{0,39}$/.test(arg) ? arg : OTHER;
  }
  return OTHER;
}

/** A git process spawned: counted while it runs (one that could not start has no pid and is not counted). */
export function trackGitProcess(args: readonly string[], child: ChildProcess): void {
  if (child.pid === undefined) return; // the caller hears the spawn error
  const command = gitCommandOf(args);
  gitStarted.labels(command).inc();
  const running = gitRunning.labels(command);
  running.inc();
  child.once("exit", () => running.dec());
}
