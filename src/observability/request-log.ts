// The outermost layer of the HTTP server: each request gets its correlation id (the proxy's
// X-Request-Id, else a new one, returned on the response as GitLab does) and a record that the
// code on its path fills in (request-scope.ts); once the response is over, one log line is written
// from the record and the finished-request listeners (metrics) are called.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { logError, logger } from "./logger.js";
import { runInRequest, type RequestRecord } from "./request-scope.js";

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export interface FinishedRequest {
  record: RequestRecord;
  /** 499 when the client went away before the response was complete (nginx's code) */
  status: number;
  seconds: number;
  responseBytes: number;
}

const finishedListeners: ((request: FinishedRequest) => void)[] = [];

export function onRequestFinished(listener: (request: FinishedRequest) => void): void {
  finishedListeners.push(listener);
}

/** A proxy's id is taken when it is a plain token (it goes into headers and logs as it is). */
const ACCEPTED_ID = /^[A-Za-z0-9][A-Za-z0-9._:+=\/-]{0,127}$/;

export function correlationIdOf(header: string | string[] | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given !== undefined && ACCEPTED_ID.test(given) ? given : randomUUID().replaceAll("-", "");
}

export function observeRequests(next: Listener): Listener {
  return (req, res) => {
    const started = performance.now();
    const correlationId = correlationIdOf(req.headers["x-request-id"]);
    res.setHeader("X-Request-Id", correlationId);
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const record: RequestRecord = {
      correlationId, method: req.method ?? "GET", path: query === -1 ? url : url.slice(0, query), dbStatements: 0, dbRoundTrips: 0, dbMilliseconds: 0,
      remoteAddress: req.socket.remoteAddress,
    };
    const counted = countBytes(res);
    res.once("close", () => {
      const finished: FinishedRequest = {
        record, status: res.writableFinished ? res.statusCode : 499, seconds: (performance.now() - started) / 1000, responseBytes: counted.bytes,
      };
      writeLine(req, finished);
      for (const listener of finishedListeners) {
        try {
          listener(finished);
        } catch (error) {
          logError("a finished-request listener failed", error); // never the process: this runs outside any request
        }
      }
    });
    runInRequest(record, () => next(req, res));
  };
}

/** The body bytes the response sends, counted as they are written. */
function countBytes(res: ServerResponse): { bytes: number } {
  const counted = { bytes: 0 };
  const write = res.write;
  const end = res.end;
  const add = (chunk: unknown, encoding?: unknown) => {
    if (typeof chunk === "string") counted.bytes += Buffer.byteLength(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
    else if (chunk instanceof Uint8Array) counted.bytes += chunk.byteLength;
  };
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    add(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse["write"];
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== "function") add(chunk, rest[0]);
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as ServerResponse["end"];
  return counted;
}

function writeLine(req: IncomingMessage, { record, status, seconds, responseBytes }: FinishedRequest): void {
  const line = {
    correlation_id: record.correlationId,
    method: record.method,
    path: record.path,
    route: record.route ?? null,
    status,
    duration_s: round(seconds),
    db_count: record.dbStatements,
    db_duration_s: round(record.dbMilliseconds / 1000),
    graphql_operation_name: record.graphqlOperation ?? null,
    user_id: record.userId ?? null,
    username: record.username ?? null,
    remote_ip: req.socket.remoteAddress ?? null,
    ua: req.headers["user-agent"] ?? null,
    response_bytes: responseBytes,
    ...(record.error === undefined ? {} : { err: record.error }),
  };
  if (record.error === undefined && status < 500) logger.info(line, "request");
  else logger.error(line, "request");
}

const round = (seconds: number) => Math.round(seconds * 1e6) / 1e6;
