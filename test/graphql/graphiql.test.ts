import { beforeAll, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});

it("serves GraphiQL on /graphql to browsers, with its assets bundled (no CDN)", async () => {
  const res = await t.app.fetch(new Request("http://forgeline.test/graphql", { headers: { Accept: "text/html" } }));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  const html = await res.text();
  expect(html).toContain("GraphiQL");
  expect(html).not.toMatch(/unpkg\.com|jsdelivr/);
});
