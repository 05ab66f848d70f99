// GET /-/metrics, answered before the app (inside observeRequests: the scrape has its correlation
// id and log line like any request). Only for addresses the monitoring allowlist admits; to anyone
// else the path answers as an unknown one does (GitLab renders its not-found page there too).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { METRICS_CONTENT_TYPE } from "./metrics.js";
import { logger } from "./logger.js";
import { observeRequests } from "./request-log.js";
import { noteRoute, reportError } from "./request-scope.js";

export const METRICS_PATH = "/-/metrics";

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export interface MetricsEndpoint {
  /** who may read (createMonitoringAccess) */
  allowed: (remoteAddress: string | undefined) => boolean;
  /** the text to answer: this process's metrics, or the whole server's */
  scrape: () => Promise<string>;
}

/** The app's answer to a path it does not know (app.ts). */
const NOT_FOUND_BODY = JSON.stringify({ error: "404 Not Found" });

function answer(res: ServerResponse, status: number, contentType: string, body: string, head: boolean): void {
  res.writeHead(status, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(body) });
  res.end(head ? undefined : body);
}

export function withMetricsEndpoint({ allowed, scrape }: MetricsEndpoint, next: Listener): Listener {
  return (req, res) => {
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const pathname = query === -1 ? url : url.slice(0, query);
    if (pathname !== METRICS_PATH || (req.method !== "GET" && req.method !== "HEAD")) return next(req, res);
    noteRoute(METRICS_PATH);
    const head = req.method === "HEAD";
    if (!allowed(req.socket.remoteAddress)) return answer(res, 404, "application/json", NOT_FOUND_BODY, head);
    scrape().then(
      (text) => answer(res, 200, METRICS_CONTENT_TYPE, text, head),
      (error) => {
        reportError(error);
        answer(res, 500, "application/json", JSON.stringify({ message: "500 Internal Server Error" }), head);
      },
    );
  };
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** A server of /-/metrics alone (`npm run worker` with WORKER_METRICS_PORT); every other path answers 404. */
export function serveMetrics(host: string, port: number, endpoint: MetricsEndpoint): Promise<MetricsServer> {
  const notFound: Listener = (req, res) => answer(res, 404, "application/json", NOT_FOUND_BODY, req.method === "HEAD");
  const server = createServer(observeRequests(withMetricsEndpoint(endpoint, notFound)));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      const bound = typeof address === "object" && address ? address.port : port;
      logger.info(`metrics on http://${host}:${bound}${METRICS_PATH}`);
      resolve({
        port: bound,
        close: () =>
          new Promise<void>((closed) => {
            server.close(() => closed());
            server.closeAllConnections();
          }),
      });
    });
  });
}
