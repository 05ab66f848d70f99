import { beforeAll, expect, it } from "vitest";
import { ROOT_TOKEN, startTestApp, type TestApp } from "../helpers/app.js";
import { REST_GRAPH_PATH } from "../../src/app.js";

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

it("runs the operation a request names in a document of several (as GraphiQL sends them), each time", async () => {
  const query = "query A { currentUser { id } } query B { currentUser { username } }";
  const run = async (operationName: string) => {
    const res = await t.app.fetch(new Request(`http://forgeline.test${REST_GRAPH_PATH}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "PRIVATE-TOKEN": ROOT_TOKEN },
      body: JSON.stringify({ query, operationName }),
    }));
    return (await res.json()) as { data: { currentUser: Record<string, unknown> } };
  };
  for (let round = 0; round < 2; round++) {
    expect((await run("A")).data.currentUser).toEqual({ id: 1 });
    expect((await run("B")).data.currentUser).toEqual({ username: "root" });
  }
});
