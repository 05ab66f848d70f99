// Requests whose body cannot be read, and ids no record can have, on every route: GitLab answers
// 400 for a body Rack cannot parse (Rails raises ActionController::BadRequest, which
// Gitlab::Middleware::HandleMalformedStrings turns into 400 "Bad Request" before any route) and
// 404 for an id beyond the database's range (ActiveRecord finds nothing); never 500.
import { beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../helpers/api.js";
import { ROOT_TOKEN, startTestApp, type TestApp } from "../helpers/app.js";
import { routes } from "../../src/rest/routes.js";
import { createFixtures, type Fixtures } from "../fuzz/fixtures.js";
import { pathValueKeys } from "../fuzz/generator.js";
import type { Send } from "../fuzz/runner.js";
import { REST_GRAPH_PATH } from "../../src/app.js";

const BAD_REQUEST = { error: "Bad Request" };
const HUGE = ["99999999999999999999", "9223372036854775808", "2147483648"];
/** In range, and no record has it: what a huge id must answer like. */
const ABSENT = "2147483647";

let t: TestApp;
let fixtures: Fixtures;
let projectId: string;

const send: Send = async ({ method, url, headers, body }) => {
  const response = await t.app.fetch(new Request(`http://forgeline.test${url}`, { method, headers, body }));
  return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
};

/** A route's path with each `:param` filled from the fixtures (or `override` for one of them). */
function pathOf(path: string, override: Record<string, string> = {}): string {
  const openApiPath = path.replace(/[:*](\w+)/g, "{$1}");
  return path.replace(/[:*](\w+)/g, (_, name: string) => {
    const known = pathValueKeys(openApiPath, name).map((key) => fixtures.pathValues[key]).find((v) => v?.length);
    return encodeURIComponent(override[name] ?? known?.[0] ?? "1");
  });
}

const asRoot = (extra: Record<string, string> = {}) => ({ "PRIVATE-TOKEN": ROOT_TOKEN, ...extra });

beforeAll(async () => {
  t = await startTestApp();
  fixtures = await createFixtures(send, ROOT_TOKEN);
  expect(fixtures.problems).toEqual([]);
  projectId = fixtures.pathValues["projects:id"]![0]!;
});

describe("multipart bodies that do not parse answer 400 on every route, before authentication", () => {
  const broken: [string, string, string][] = [
    ["a body without the boundary", "multipart/form-data; boundary=XX", "garbage"],
    ["another boundary", "multipart/form-data; boundary=XX", '--YY\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n--YY--\r\n'],
    ["a truncated body", "multipart/form-data; boundary=XX", '--XX\r\nContent-Disposition: form-data; name="title"\r\n\r\nx'],
    ["a part without headers", "multipart/form-data; boundary=XX", "--XX\r\nno headers\r\n--XX--\r\n"],
  ];
  const writes = routes.filter((route) => route.method !== "GET");

  it.each(broken)("%s", async (_, type, body) => {
    for (const route of writes) {
      for (const headers of [asRoot({ "Content-Type": type }), { "Content-Type": type }]) {
        const res = await rawRequest(t.app, route.method, `/api/v4${pathOf(route.path)}`, { headers, body });
        expect(res.status, `${route.method} ${route.path}`).toBe(400);
        expect(res.body, `${route.method} ${route.path}`).toEqual(BAD_REQUEST);
      }
    }
  });

  it("never reaches the resolver: nothing is created", async () => {
    const name = `broken-${Date.now()}`;
    const body = `--XX\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n--YY--`;
    const res = await rawRequest(t.app, "POST", "/api/v4/projects", { headers: asRoot({ "Content-Type": "multipart/form-data; boundary=XX" }), body });
    expect(res.status).toBe(400);
    expect((await t.root.get("/projects", { query: { search: name } })).body).toEqual([]);
  });

  it("reads an empty body, or one without a boundary, as no params (Rack's multipart parser returns none)", async () => {
    for (const [type, body] of [["multipart/form-data; boundary=XX", ""], ["multipart/form-data", "--XX\r\n"]]) {
      const res = await rawRequest(t.app, "POST", `/api/v4/projects/${projectId}/issues`, { headers: asRoot({ "Content-Type": type! }), body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "title is missing" });
    }
  });

  it("still reads a well-formed multipart body", async () => {
    const form = new FormData();
    form.append("title", "from multipart");
    const res = await t.root.request("POST", `/projects/${projectId}/issues`, { form });
    expect(res.status).toBe(201);
    expect(res.body.title).toBe("from multipart");
  });
});

describe("other bodies that do not parse", () => {
  it("answers 400 to JSON that does not parse, on every route with a body", async () => {
    for (const route of routes.filter((r) => r.method !== "GET")) {
      const res = await rawRequest(t.app, route.method, `/api/v4${pathOf(route.path)}`, {
        headers: asRoot({ "Content-Type": "application/json" }),
        body: '{"title": "half',
      });
      expect(res.status, `${route.method} ${route.path}`).toBe(400);
      expect(res.body).toEqual({ error: "The request body is not valid JSON" });
    }
  });

  it.each([
    ["a bad %-escape", "title=100%&description=x"],
    ["an escape that is not UTF-8", "title=mal%C0formed"],
    ["a truncated escape", "title=abc%2"],
  ])("answers 400 Bad Request to a form body with %s, and creates nothing (Rack's invalid encoding)", async (_, body) => {
    const before = (await t.root.get(`/projects/${projectId}/issues`, { query: { per_page: 100 } })).body.length;
    const res = await rawRequest(t.app, "POST", `/api/v4/projects/${projectId}/issues`, {
      headers: asRoot({ "Content-Type": "application/x-www-form-urlencoded" }),
      body,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(BAD_REQUEST);
    expect((await t.root.get(`/projects/${projectId}/issues`, { query: { per_page: 100 } })).body.length).toBe(before);
  });

  it("reads a well-formed form body, %-escapes and + included", async () => {
    const res = await rawRequest(t.app, "POST", `/api/v4/projects/${projectId}/issues`, {
      headers: asRoot({ "Content-Type": "application/x-www-form-urlencoded" }),
      body: "title=100%25+sure&labels[]=a",
    });
    expect(res.status).toBe(201);
    expect(res.body.title).toBe("100% sure");
  });

  it("answers 400 Bad Request to a lone surrogate in a JSON string (no UTF-8 text holds it), and stores nothing", async () => {
    const before = (await t.root.get(`/projects/${projectId}/issues`, { query: { per_page: 100 } })).body.length;
    for (const body of ['{"title": "\\ud83d"}', '{"title": "x\\udc00y"}', '{"title": "ok", "labels": ["\\ud800"]}']) {
      const res = await rawRequest(t.app, "POST", `/api/v4/projects/${projectId}/issues`, { headers: asRoot({ "Content-Type": "application/json" }), body });
      expect(res.status, body).toBe(400);
      expect(res.body).toEqual(BAD_REQUEST);
    }
    expect((await t.root.get(`/projects/${projectId}/issues`, { query: { per_page: 100 } })).body.length).toBe(before);
    const pair = await rawRequest(t.app, "POST", `/api/v4/projects/${projectId}/issues`, { headers: asRoot({ "Content-Type": "application/json" }), body: '{"title": "\\ud83d\\ude80"}' });
    expect(pair.status).toBe(201);
    expect(pair.body.title).toBe("🚀");
  });

  it("answers 400 Bad Request to a lone surrogate or a null byte in a /graphql variable, and stores nothing", async () => {
    const before = (await t.root.get(`/projects/${projectId}/issues`, { query: { per_page: 100 } })).body.length;
    const mutation = `mutation($title: String!, $labels: [String!]) { createIssue(id: "${projectId}", title: $title, labels: $labels) { id } }`;
    for (const variables of ['{"title": "\\ud83d"}', '{"title": "a\\u0000b"}', '{"title": "ok", "labels": ["x\\udc00"]}']) {
      const body = `{"query": ${JSON.stringify(mutation)}, "variables": ${variables}}`;
      const res = await rawRequest(t.app, "POST", REST_GRAPH_PATH, { headers: asRoot({ "Content-Type": "application/json" }), body });
      expect(res.status, variables).toBe(400);
      expect(res.body.errors[0].extensions.gitlab, variables).toEqual(BAD_REQUEST);
    }
    expect((await t.root.get(`/projects/${projectId}/issues`, { query: { per_page: 100 } })).body.length).toBe(before);
    const pair = await t.root.graphql(mutation, { title: "🚀" });
    expect(pair.body.errors).toBeUndefined();
  });

  it("answers 400 Bad Request to a null byte in any param (HandleMalformedStrings), as JSON, form, query or path", async () => {
    const json = await rawRequest(t.app, "POST", `/api/v4/projects/${projectId}/issues`, {
      headers: asRoot({ "Content-Type": "application/json" }),
      body: JSON.stringify({ title: "nul\u0000byte" }),
    });
    const form = await rawRequest(t.app, "POST", `/api/v4/projects/${projectId}/issues`, {
      headers: asRoot({ "Content-Type": "application/x-www-form-urlencoded" }),
      body: "title=nul%00byte",
    });
    const query = await t.root.get("/projects", { query: { search: "a\u0000b" } });
    const path = await t.anon.get("/projects/a%00b", { raw: true });
    for (const res of [json, form, query, path]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(BAD_REQUEST);
    }
  });
});

describe("times", () => {
  it("refuses a DateTime param that does not start with a date (V8 would read `12345` as a year PostgreSQL cannot hold)", async () => {
    for (const value of ["12345", "fuzz-201448", "tomorrow"]) {
      const res = await t.root.get(`/projects/${projectId}/access_tokens`, { query: { last_used_after: value } });
      expect(res.status, value).toBe(400);
      expect(res.body).toEqual({ error: "last_used_after is invalid" });
    }
    const ok = await t.root.get(`/projects/${projectId}/access_tokens`, { query: { last_used_after: "2024-05-01T10:00:00Z" } });
    expect(ok.status).toBe(200);
  });

  it("ignores a note's created_at that is not a time, as Rails casts it to nil (no year 201448)", async () => {
    const res = await t.root.post(`/projects/${projectId}/issues/1/notes`, { body: "dated", created_at: "fuzz-201448" });
    expect(res.status).toBe(201);
    expect(new Date(res.body.created_at).getUTCFullYear()).toBeLessThan(3000);
  });
});

describe("oversize arrays", () => {
  it("refuses a list param of more than 500 items with 400 `Array parameter too large` (GitLab's JsonValidation text), in any encoding", async () => {
    const rule = await t.root.post(`/projects/${projectId}/approval_rules`, { name: `big-${Date.now()}`, approvals_required: 1 });
    const ids = Array.from({ length: 2000 }, (_, k) => k + 1);
    const form = `name=x&approvals_required=1&${ids.map((id) => `group_ids[]=${id}`).join("&")}`;
    for (const [type, body] of [["application/json", JSON.stringify({ group_ids: ids })], ["application/x-www-form-urlencoded", form]] as const) {
      const res = await rawRequest(t.app, "PUT", `/api/v4/projects/${projectId}/approval_rules/${rule.body.id}`, { headers: asRoot({ "Content-Type": type }), body });
      expect(res.status, type).toBe(400);
      expect(res.body).toEqual({ error: "Array parameter too large" });
    }
    const query = await t.root.get(`/projects/${projectId}/issues?${ids.slice(0, 501).map((id) => `iids[]=${id}`).join("&")}`, { raw: true });
    expect(query.status).toBe(400);
    expect(query.body).toEqual({ error: "Array parameter too large" });
    const fits = await t.root.get(`/projects/${projectId}/issues?${ids.slice(0, 500).map((id) => `iids[]=${id}`).join("&")}`, { raw: true });
    expect(fits.status).toBe(200);
  });
});

describe("ids beyond the database's integer range", () => {
  /** Path params that name a record by number. */
  const idParams = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!).filter((name) => /^(id|\w+_id|\w+_iid)$/.test(name) && name !== "discussion_id");

  it("answer like an id no record has (404), on every route and at every level of the path", async () => {
    const checked: string[] = [];
    for (const route of routes) {
      for (const name of idParams(route.path)) {
        const absent = await rawRequest(t.app, route.method, `/api/v4${pathOf(route.path, { [name]: ABSENT })}`, { headers: asRoot() });
        for (const huge of HUGE) {
          const res = await rawRequest(t.app, route.method, `/api/v4${pathOf(route.path, { [name]: huge })}`, { headers: asRoot() });
          expect(res.status, `${route.method} ${route.path} ${name}=${huge}`).toBe(absent.status);
          expect(res.body, `${route.method} ${route.path} ${name}=${huge}`).toEqual(absent.body);
        }
        checked.push(`${route.method} ${route.path} :${name} -> ${absent.status}`);
      }
    }
    expect(checked.length).toBeGreaterThan(150);
    expect(checked.filter((line) => / -> 5\d\d$/.test(line))).toEqual([]);
  }, 180_000); // three requests for each id param of every route (over 300 routes)

  it.each([
    ["/groups/99999999999999999999", { message: "404 Group Not Found" }],
    ["/projects/9223372036854775808", { message: "404 Project Not Found" }],
    ["/topics/99999999999", { message: "404 Not found" }],
  ])("GET %s answers GitLab's 404 for the resource", async (path, body) => {
    for (const client of [t.root, t.anon]) {
      const res = await client.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(body);
    }
  });

  it("answers GET /users/<huge> as an absent user (404 User Not Found)", async () => {
    const res = await t.root.get("/users/2147483648");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "404 User Not Found" });
  });

  it("answers negative and huge iids, note ids and hook ids of an existing project with its 404", async () => {
    for (const path of [`/projects/${projectId}/merge_requests/-1`, `/projects/${projectId}/merge_requests/99999999999`,
      `/projects/${projectId}/issues/1/notes/99999999999`, `/projects/${projectId}/hooks/99999999999`, `/projects/${projectId}/issues/-5`]) {
      const res = await t.root.get(path);
      expect(res.status, path).toBe(404);
    }
  });

  it("refuses integer params that are not path ids with Grape's 400 `<param> is invalid`", async () => {
    for (const [path, param, value] of [["/projects", "per_page", "99999999999999"], ["/projects", "page", "99999999999"],
      ["/issues", "author_id", "99999999999"], ["/issues", "assignee_id", "99999999999"], ["/projects", "min_access_level", "-99999999999"]] as const) {
      const res = await t.root.get(path, { query: { [param]: value } });
      expect(res.status, `${path}?${param}`).toBe(400);
      expect(res.body).toEqual({ error: `${param} is invalid` });
    }
  });

  it("treats a huge id in a body or header like one no record has", async () => {
    const namespace = await t.root.post("/projects", { name: `n${Date.now()}`, namespace_id: "99999999999999999999" });
    expect(namespace.status).toBe(400);
    expect(namespace.body).toEqual({ message: { namespace: ["is not valid"] } });
    const sudo = await t.root.get("/user", { headers: { Sudo: "99999999999999999999" } });
    expect(sudo.status).toBe(404);
    expect(sudo.body).toEqual({ message: "404 User with ID or username '99999999999999999999' Not Found" });
  });

  it("answers the same through /graphql (the same root fields)", async () => {
    const res = await t.root.graphql(`{ project(id: "99999999999999999999") { id } }`);
    expect(res.body.errors?.[0]?.extensions?.http?.status).toBe(404);
    expect(res.body.errors?.[0]?.message).toBe("404 Project Not Found");
  });
});
