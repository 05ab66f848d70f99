// What one request did, gathered while it runs: the code on its path (the REST adapter, the graph,
// authentication, the database adapter) adds to the record of the request it runs for, found
// through AsyncLocalStorage, and the request log line and the metrics are written from it once the
// response is sent (request-log.ts).
import { AsyncLocalStorage } from "node:async_hooks";
import { logError } from "./logger.js";

export interface RequestRecord {
  readonly correlationId: string;
  readonly method: string;
  /** the path without its query string */
  readonly path: string;
  /**
   * the peer's address, for what GitLab stores about a request (user agent details); personal
   * data: never put on a log line from here
   */
  readonly remoteAddress?: string;
  /** the route's template (`/api/v4/projects/:id/issues`); set by whatever matched the request */
  route?: string;
  graphqlOperation?: string;
  userId?: number;
  username?: string;
  dbStatements: number;
  /** waits for the database server: statements, and on PostgreSQL the cache-version read (no more than statements on SQLite) */
  dbRoundTrips: number;
  dbMilliseconds: number;
  /** the unexpected error behind a 5xx: logged once, with its stack, on the request's line */
  error?: unknown;
}

const scope = new AsyncLocalStorage<RequestRecord>();

export function runInRequest<T>(record: RequestRecord, run: () => T): T {
  return scope.run(record, run);
}

/** The request the calling code runs for; undefined outside requests (the worker, start-up). */
export function currentRequest(): RequestRecord | undefined {
  return scope.getStore();
}

export function noteRoute(route: string): void {
  const record = scope.getStore();
  if (record) record.route = route;
}

export function noteUser(user: { id: number; username: string } | null | undefined): void {
  const record = scope.getStore();
  if (!record || !user) return;
  record.userId = user.id;
  record.username = user.username;
}

export function noteGraphqlOperation(name: string | null | undefined): void {
  const record = scope.getStore();
  if (record && name) record.graphqlOperation = name;
}

/**
 * An unexpected error: carried on the line of the request it happened in (the first one; the
 * request is answered 500), else written on its own line.
 */
export function reportError(error: unknown): void {
  const record = scope.getStore();
  if (record && record.error === undefined) record.error = error;
  else logError("unexpected error", error);
}
