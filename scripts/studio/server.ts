// The Studio HTTP server: the page, its script and style sheet, and the BFF endpoint ("backend for
// frontend") that runs the page's SQL on the database. It listens on 127.0.0.1 only, and since any
// web page the user opens could otherwise send requests to it, it also refuses:
// - a Host other than 127.0.0.1:<port> or localhost:<port> (DNS rebinding);
// - a POST from another origin, or without a JSON content type (a cross-site form or "simple"
//   request; a JSON one needs CORS approval, which this server never gives).
// The page may only talk to this server (Content-Security-Policy), so it sends nothing elsewhere.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { serializeError, type StudioBFFRequest } from "@prisma/studio-core/data/bff";
import type { StudioAssets } from "./assets.js";
import type { StudioExecutor } from "./executors.js";

export const STUDIO_HOST = "127.0.0.1";
const MAX_BODY_BYTES = 16 * 1024 * 1024;

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#16a394"/></svg>`;

export interface StudioOptions {
  executor: StudioExecutor;
  dialect: "sqlite" | "postgresql";
  assets: StudioAssets;
  /** 0 picks a free port */
  port: number;
}

export interface RunningStudio {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

function page(dialect: StudioOptions["dialect"], version: string): string {
  // the configuration travels as a JSON data block: no inline script runs under the CSP
  const config = JSON.stringify({ dialect }).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en" style="height: 100%">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Forgeline · Prisma Studio ${version}</title>
    <link rel="icon" href="favicon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="studio.css" />
    <style>html, body, #root { height: 100%; margin: 0; padding: 0; }</style>
  </head>
  <body>
    <div id="root"></div>
    <script type="application/json" id="studio-config">${config}</script>
    <script type="module" src="studio.js"></script>
  </body>
</html>
`;
}

function send(response: ServerResponse, status: number, body: string | Buffer, contentType = "text/plain; charset=utf-8") {
  response.writeHead(status, {
    "Content-Type": contentType,
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
  });
  response.end(body);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("request body too large"));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** JSON for the page: Buffers (BLOB, bytea) as hex text, bigints as decimal text. */
function toJson(payload: unknown): string {
  return JSON.stringify(payload, function (this: Record<string, unknown>, key, value) {
    const raw = this[key];
    if (Buffer.isBuffer(raw) || raw instanceof Uint8Array) return `\\x${Buffer.from(raw).toString("hex")}`;
    if (typeof value === "bigint") return value.toString();
    return value;
  });
}

async function answerBff(request: StudioBFFRequest, executor: StudioExecutor): Promise<unknown> {
  switch (request.procedure) {
    case "query": {
      const [error, rows] = await executor.execute(request.query, { schema: request.schema });
      return error ? [serializeError(error)] : [null, rows];
    }
    case "sequence": {
      const [[error0, rows0], second] = await executor.executeSequence(request.sequence);
      if (error0) return [[serializeError(error0)]];
      const [error1, rows1] = second!;
      return error1 ? [[null, rows0], [serializeError(error1)]] : [[null, rows0], [null, rows1]];
    }
    case "transaction": {
      const [error, results] = await executor.executeTransaction!(request.queries);
      return error ? [serializeError(error)] : [null, results];
    }
    default:
      // "sql-lint" and "query-insights": not offered (the SQL editor works without lint)
      return [serializeError(new Error(`Studio procedure "${(request as { procedure: string }).procedure}" is not supported here`))];
  }
}

export function startStudioServer(options: StudioOptions): Promise<RunningStudio> {
  const { executor, dialect, assets } = options;
  const html = page(dialect, assets.version);
  let allowedHosts = new Set<string>();
  let origin = "";

  const server = createServer(async (request, response) => {
    try {
      if (!allowedHosts.has((request.headers.host ?? "").toLowerCase())) return send(response, 421, "Misdirected request: open Studio at " + origin + "\n");
      const pathname = new URL(request.url ?? "/", origin).pathname;
      if (request.method === "GET" || request.method === "HEAD") {
        if (pathname === "/") return send(response, 200, html, "text/html; charset=utf-8");
        if (pathname === "/studio.js") return send(response, 200, assets.script, "text/javascript; charset=utf-8");
        if (pathname === "/studio.css") return send(response, 200, assets.css, "text/css; charset=utf-8");
        if (pathname === "/favicon.svg" || pathname === "/favicon.ico") return send(response, 200, FAVICON, "image/svg+xml");
        return send(response, 404, "Not Found\n");
      }
      if (request.method === "POST" && pathname === "/bff") {
        const requestOrigin = request.headers.origin;
        if (requestOrigin !== undefined && !allowedHosts.has(requestOrigin.replace(/^http:\/\//, "").toLowerCase())) {
          return send(response, 403, "Forbidden: cross-origin request\n");
        }
        if (!/^application\/json\b/i.test(request.headers["content-type"] ?? "")) return send(response, 415, "Unsupported Media Type: send JSON\n");
        let body: StudioBFFRequest;
        try {
          body = JSON.parse(await readBody(request)) as StudioBFFRequest;
        } catch (error) {
          return send(response, 400, `Bad Request: ${(error as Error).message}\n`);
        }
        return send(response, 200, toJson(await answerBff(body, executor)), "application/json");
      }
      return send(response, 405, "Method Not Allowed\n");
    } catch (error) {
      if (!response.headersSent) send(response, 500, `Internal Server Error: ${(error as Error).message}\n`);
      else response.destroy();
    }
  });

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, STUDIO_HOST, () => {
      const { port } = server.address() as AddressInfo;
      allowedHosts = new Set([`${STUDIO_HOST}:${port}`, `localhost:${port}`]);
      origin = `http://${STUDIO_HOST}:${port}`;
      resolve({
        server,
        port,
        url: `${origin}/`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
