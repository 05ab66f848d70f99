// The request-log layer on a real Node HTTP server: an unexpected error lands once, with its stack,
// on its request's line; a response the client abandons is logged as 499; the body bytes are
// counted whichever way they are written; a proxy's X-Request-Id is taken only when it is a plain token.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { configureLogging } from "../../src/observability/logger.js";
import { observeRequests, onRequestFinished, type FinishedRequest } from "../../src/observability/request-log.js";
import { noteRoute, reportError } from "../../src/observability/request-scope.js";

const lines: Record<string, any>[] = [];
const finished: FinishedRequest[] = [];
const memory = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});

/** What the wrapped listener does, by path. */
const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  "/boom": (_req, res) => {
    noteRoute("/boom");
    setTimeout(() => {
      reportError(new Error("first failure"));
      reportError(new Error("second failure")); // not the request's: a line of its own
      res.writeHead(500, { "Content-Type": "application/json" }).end('{"message":"500 Internal Server Error"}');
    }, 1);
  },
  "/chunks": (_req, res) => {
    res.writeHead(200, { "Content-Type": "text/plain" });
    res.write("héllo ");
    res.write(Buffer.from("wörld"));
    res.end("!", "utf8");
  },
  "/hang": (_req, res) => {
    res.writeHead(200, { "Content-Type": "text/plain" });
    res.write("partial");
  },
};

let server: Server;
let base: string;

beforeAll(async () => {
  configureLogging({ level: "info", format: "json" }, memory);
  onRequestFinished((request) => finished.push(request));
  server = createServer(observeRequests((req, res) => routes[req.url!.split("?")[0]!]!(req, res)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  configureLogging({ level: "info", format: "json" });
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  lines.length = 0;
  finished.length = 0;
});

async function lineOf(id: string) {
  await expect.poll(() => lines.some((line) => line.correlation_id === id)).toBe(true);
  return lines.filter((line) => line.correlation_id === id);
}

describe("request log layer", () => {
  it("writes the first unexpected error of a request on its line with the stack, a later one on its own line", async () => {
    const response = await fetch(`${base}/boom?token=secret-in-query`, { headers: { "X-Request-Id": "boom-1" } });
    expect(response.status).toBe(500);
    const [line, ...others] = await lineOf("boom-1");
    expect(others).toEqual([]);
    expect(line).toMatchObject({ severity: "ERROR", route: "/boom", path: "/boom", status: 500, err: { type: "Error", message: "first failure" } });
    expect(line!.err.stack).toContain("request-log.test.ts");
    const second = lines.filter((candidate) => candidate.err?.message === "second failure");
    expect(second).toHaveLength(1);
    expect(second[0]!.correlation_id).toBeUndefined();
    expect(JSON.stringify(lines)).not.toContain("secret-in-query");
  });

  it("counts the body bytes of string and buffer writes", async () => {
    const response = await fetch(`${base}/chunks`, { headers: { "X-Request-Id": "chunks-1" } });
    const body = Buffer.from(await response.arrayBuffer());
    const [line] = await lineOf("chunks-1");
    expect(line).toMatchObject({ status: 200, response_bytes: body.length, route: null });
    expect(body.length).toBe(Buffer.byteLength("héllo wörld!"));
  });

  it("logs a response the client abandoned as 499 and tells the listeners", async () => {
    await new Promise<void>((resolve) => {
      const req = request(`${base}/hang`, { headers: { "X-Request-Id": "hang-1" } }, (res) => {
        res.once("data", () => {
          req.destroy();
          resolve();
        });
      });
      req.on("error", () => {});
      req.end();
    });
    const [line] = await lineOf("hang-1");
    expect(line).toMatchObject({ status: 499, response_bytes: "partial".length });
    expect(finished.find((request) => request.record.correlationId === "hang-1")?.status).toBe(499);
  });

  it.each([
    ["proxy-id.1:2/3+4=5", true],
    ["a".repeat(128), true],
    ["a".repeat(129), false],
    ["two words", false],
    ["-dash-first", false],
    ["quote\"d", false],
  ])("X-Request-Id %s taken: %s", async (given, taken) => {
    const response = await fetch(`${base}/chunks`, { headers: { "X-Request-Id": given } });
    await response.arrayBuffer();
    const returned = response.headers.get("x-request-id")!;
    if (taken) expect(returned).toBe(given);
    else expect(returned).toMatch(/^[0-9a-f]{32}$/);
    await lineOf(returned);
  });
});
