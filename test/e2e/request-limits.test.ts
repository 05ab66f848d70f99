// Limits a real server process applies before the app: a query string past the app's limit gets the
// app's 414, and a request line past even Node's header limit gets a 414 too (as GitLab's nginx
// answers a too-long URI), never Node's bare 431 or a reset connection.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request as httpRequest } from "node:http";
import { startServer, type RunningServer } from "./helpers/server.js";

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

/** A raw GET (Node's client sends any length; fetch would too, but keeps the answer opaque on a reset). */
function get(path: string): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, { maxHeaderSize: 1 << 20 }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, type: res.headers["content-type"], body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("request line limits of the server process", () => {
  it("answers the app's 414 to a query string just past MAX_QUERY_STRING_LENGTH (16 KiB by default)", async () => {
    const res = await get(`/api/v4/projects?search=${"a".repeat(17_000)}`);
    expect(res.status).toBe(414);
    expect(res.type).toBe("application/json");
    expect(JSON.parse(res.body).message).toMatch(/^414 Request-URI Too Large/);
  });

  it("answers 414 in JSON to a request line past Node's header limit, and keeps serving", async () => {
    const res = await get(`/api/v4/projects?${"ids[]=1&".repeat(10_000)}`);
    expect(res.status).toBe(414);
    expect(JSON.parse(res.body)).toEqual({ message: "414 Request-URI Too Large" });
    expect((await get("/-/health")).status).toBe(200);
  });
});
