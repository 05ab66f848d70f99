// Conventions common to every /api/v4 endpoint: content types, status codes, routing and path
// decoding, parameter sources and parsing (Grape's rules and error texts), limits, health probes.
import { beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../helpers/api.js";
import { ROOT_TOKEN, startTestApp, type TestApp } from "../helpers/app.js";
import { createUser } from "../helpers/factories.js";

const QUERY_LIMIT = 256;
const BODY_LIMIT = 4096;
let t: TestApp;
let seq = 0;
const uniq = (prefix: string) => `${prefix}${Date.now().toString(36)}${++seq}`;
const asRoot = (extra: Record<string, string> = {}) => ({ "PRIVATE-TOKEN": ROOT_TOKEN, ...extra });

beforeAll(async () => {
  t = await startTestApp({ MAX_QUERY_STRING_LENGTH: String(QUERY_LIMIT), MAX_BODY_BYTES: String(BODY_LIMIT) });
});

function newUserParams(prefix = "conv") {
  const username = uniq(prefix);
  return { username, name: `Name ${username}`, email: `${username}@Example.com`, password: "password-123" };
}

describe("response format", () => {
  it("JSON replies carry exactly application/json and GitLab's security headers", async () => {
    for (const res of [await t.root.get("/user"), await t.root.get("/users"), await t.anon.get("/user"), await t.root.get("/nope")]) {
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(() => JSON.parse(res.text)).not.toThrow();
    }
  });

  it("POST answers 201 with a JSON object", async () => {
    const res = await t.root.post("/users", newUserParams());
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(typeof res.body).toBe("object");
    expect(Array.isArray(res.body)).toBe(false);
  });

  it("DELETE answers 204 with no body and no content type", async () => {
    const user = await createUser(t);
    const token = await t.root.post(`/users/${user.id}/personal_access_tokens`, { name: "gone", scopes: ["api"] });
    const res = await t.root.delete(`/personal_access_tokens/${token.body.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(res.headers.get("content-type")).toBeNull();
  });

  it("HEAD is answered on GET routes with the GET status and headers, without a body", async () => {
    const get = await t.root.get("/users", { query: { per_page: 1 } });
    const head = await t.root.request("HEAD", "/users", { query: { per_page: 1 } });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers.get("content-type")).toBe("application/json");
    expect(head.headers.get("x-total")).toBe(get.headers.get("x-total"));
    expect(head.headers.get("link")).toBe(get.headers.get("link"));
    for (const [path, status] of [["/user", 401], ["/nope", 404], ["/users/abc", 400]] as const) {
      const res = await t.anon.request("HEAD", path);
      expect(res.status, path).toBe(status);
      expect(res.text).toBe("");
    }
  });
});

describe("routing", () => {
  it("answers an unknown route with 404 {error: 404 Not Found}", async () => {
    for (const [method, path] of [["GET", "/nope"], ["GET", ""], ["PUT", "/user"], ["POST", "/users/1"], ["GET", "/users/1/nope"]] as const) {
      const res = await t.root.request(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ error: "404 Not Found" });
    }
  });

  it("answers 404 outside the API too", async () => {
    const res = await rawRequest(t.app, "GET", "/nothing/here");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "404 Not Found" });
  });

  it("answers 410 for any API v3 path", async () => {
    for (const path of ["/api/v3/users", "/api/v3/projects/1/issues", "/api/v3"]) {
      const res = await rawRequest(t.app, "GET", path, { headers: asRoot() });
      expect(res.status, path).toBe(410);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.body).toEqual({ error: "API V3 is no longer supported. Use API V4 instead." });
    }
  });

  it("matches path params before decoding: an unencoded slash matches no route, %2F stays in the value", async () => {
    const slash = await t.root.get("/users/1/2", { raw: true });
    expect(slash.status).toBe(404);
    expect(slash.body).toEqual({ error: "404 Not Found" });
    // %2F reaches the route as part of :id, which is then not an integer
    const encoded = await t.root.get("/users/1%2F2", { raw: true });
    expect(encoded.status).toBe(400);
    expect(encoded.body).toEqual({ error: "id is invalid" });
  });

  it("percent-decodes path params", async () => {
    const res = await t.root.get("/users/%31", { raw: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 1, username: "root" });
  });

  it("collapses repeated slashes as GitLab's router does", async () => {
    const plain = await t.root.get("/users", { query: { username: "root" } });
    const doubled = await rawRequest(t.app, "GET", "/api/v4//users?username=root", { headers: asRoot() });
    expect(doubled.status).toBe(200);
    expect(doubled.body).toEqual(plain.body);
    // Link URLs are built on the collapsed path
    expect(doubled.headers.get("link")).toBe(plain.headers.get("link"));
    const leading = await rawRequest(t.app, "GET", "http://forgeline.test//api/v4///users//1", { headers: asRoot() });
    expect(leading.status).toBe(200);
    expect(leading.body).toMatchObject({ id: 1 });
  });
});

describe("parameter sources", () => {
  it("reads a JSON body", async () => {
    const params = newUserParams();
    const res = await t.root.post("/users", params);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: params.username, name: params.name, email: params.email.toLowerCase() });
  });

  it("reads the query string of a POST whose JSON body is {} (gitbeaker)", async () => {
    const params = newUserParams();
    const res = await t.root.post("/users", {}, { query: params });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: params.username, name: params.name });
  });

  it("reads a form-encoded body", async () => {
    const params = newUserParams();
    const res = await t.root.post("/users", undefined, { form: new URLSearchParams(params) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: params.username, name: params.name, email: params.email.toLowerCase() });
  });

  it("reads a multipart body", async () => {
    const params = newUserParams();
    const form = new FormData();
    for (const [key, value] of Object.entries(params)) form.set(key, value);
    const res = await t.root.post("/users", undefined, { form });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: params.username, name: params.name });
  });

  it("lets path params win over body and query keys of the same name", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const res = await t.root.post(
      `/users/${owner.id}/personal_access_tokens`,
      { user_id: other.id, name: "path wins", scopes: ["api"] },
      { query: { user_id: other.id } },
    );
    expect(res.status).toBe(201);
    expect(res.body.user_id).toBe(owner.id);
  });

  it("parses name[]= arrays in form bodies and query strings, JSON arrays and comma lists", async () => {
    const user = await createUser(t);
    const path = `/users/${user.id}/personal_access_tokens`;
    const form = await t.root.post(path, undefined, { form: new URLSearchParams("name=f&scopes[]=api&scopes[]=read_api") });
    expect(form.status).toBe(201);
    expect(form.body.scopes).toEqual(["api", "read_api"]);
    const query = await t.root.request("POST", `${path}?name=q&scopes%5B%5D=read_user&scopes%5B%5D=api`, { raw: true });
    expect(query.status).toBe(201);
    expect(query.body.scopes).toEqual(["read_user", "api"]);
    const json = await t.root.post(path, { name: "j", scopes: ["read_api"] });
    expect(json.body.scopes).toEqual(["read_api"]);
    const comma = await t.root.post(path, undefined, { form: new URLSearchParams("name=c&scopes=api, read_user") });
    expect(comma.status).toBe(201);
    expect(comma.body.scopes).toEqual(["api", "read_user"]);
  });

  it("parses name[]= arrays in multipart bodies", async () => {
    const user = await createUser(t);
    const form = new FormData();
    form.append("name", "multi");
    form.append("scopes[]", "read_user");
    form.append("scopes[]", "read_api");
    const res = await t.root.post(`/users/${user.id}/personal_access_tokens`, undefined, { form });
    expect(res.status).toBe(201);
    expect(res.body.scopes).toEqual(["read_user", "read_api"]);
  });

  it("keeps the last value of a repeated plain key, as Rack does", async () => {
    const query = await t.root.get("/users?username=nobody-at-all&username=root", { raw: true });
    expect(query.status).toBe(200);
    expect(query.body.map((u: any) => u.username)).toEqual(["root"]);
    const form = new FormData();
    form.append("username", "root");
    form.append("username", uniq("lastwins"));
    for (const [key, value] of Object.entries(newUserParams())) if (key !== "username") form.append(key, value);
    const created = await t.root.post("/users", undefined, { form });
    expect(created.status).toBe(201);
    expect(created.body.username).toMatch(/^lastwins/);
  });

  it("parses h[k]=v as a hash (a hash is not a valid string)", async () => {
    const hash = await t.root.get("/users?username[first]=root", { raw: true });
    expect(hash.status).toBe(400);
    expect(hash.body).toEqual({ error: "username is invalid" });
    const array = await t.root.get("/users?username[]=root", { raw: true });
    expect(array.status).toBe(400);
    expect(array.body).toEqual({ error: "username is invalid" });
  });

  it("reads + in a query string as a space, and %20 too", async () => {
    const marker = uniq("Plusname");
    const created = await t.root.post("/users", { ...newUserParams(), name: `${marker} Spaced Out` });
    expect(created.status).toBe(201);
    for (const query of [`search=${marker}+Spaced`, `search=${marker}%20Spaced`]) {
      const res = await t.root.get(`/users?${query}`, { raw: true });
      expect(res.status).toBe(200);
      expect(res.body.map((u: any) => u.id)).toEqual([created.body.id]);
    }
    const literal = await t.root.get(`/users?search=${marker}%2BSpaced`, { raw: true });
    expect(literal.body).toEqual([]);
  });

  it("takes JSON numbers and numeric strings for integers", async () => {
    const user = await createUser(t);
    const res = await t.root.get("/personal_access_tokens", { query: { user_id: String(user.id) } });
    expect(res.status).toBe(200);
    expect(res.body.map((tok: any) => tok.user_id)).toEqual([user.id]);
  });
});

describe("parameter validation (Grape's texts, 400 {error})", () => {
  it("accepts only true and false for booleans", async () => {
    for (const value of ["yes", "1", "0", "TRUE", "on", ""]) {
      const res = await t.root.get("/users", { query: { active: value } });
      expect(res.status, value).toBe(400);
      expect(res.body).toEqual({ error: "active is invalid" });
    }
    for (const value of ["true", "false", "True", "False"]) { // python-gitlab sends str(True)
      expect((await t.root.get("/users", { query: { active: value } })).status).toBe(200);
    }
    const json = await t.root.post("/users", { ...newUserParams(), admin: "yes" });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ error: "admin is invalid" });
  });

  it("rejects values of the wrong type", async () => {
    const perPage = await t.root.get("/users", { query: { per_page: "abc" } });
    expect(perPage.status).toBe(400);
    expect(perPage.body).toEqual({ error: "per_page is invalid" });
    for (const id of ["abc", "1.5", "1e3", "0x10"]) {
      const res = await t.root.get(`/users/${id}`);
      expect(res.status, id).toBe(400);
      expect(res.body).toEqual({ error: "id is invalid" });
    }
    const name = await t.root.post("/users", { ...newUserParams(), name: { first: "x" } });
    expect(name.body).toEqual({ error: "name is invalid" });
  });

  it("reports values outside the allowed list", async () => {
    const order = await t.root.get("/users", { query: { order_by: "email" } });
    expect(order.status).toBe(400);
    expect(order.body).toEqual({ error: "order_by does not have a valid value" });
    const pagination = await t.root.get("/users", { query: { pagination: "cursor" } });
    expect(pagination.body).toEqual({ error: "pagination does not have a valid value" });
    const user = await createUser(t);
    const scopes = await t.root.post(`/users/${user.id}/personal_access_tokens`, { name: "x", scopes: ["api", "everything"] });
    expect(scopes.status).toBe(400);
    expect(scopes.body).toEqual({ error: "scopes does not have a valid value" });
  });

  it("joins missing params with ', ' in declaration order", async () => {
    const users = await t.root.post("/users", {});
    expect(users.status).toBe(400);
    expect(users.body).toEqual({ error: "email is missing, name is missing, username is missing" });
    const user = await createUser(t);
    const token = await t.root.post(`/users/${user.id}/personal_access_tokens`, {});
    expect(token.body).toEqual({ error: "name is missing, scopes is missing" });
  });

  it("reports several bad params in declaration order, not alphabetically", async () => {
    const res = await t.root.get("/users", { query: { sort: "sideways", page: "x", active: "maybe" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "active is invalid, sort does not have a valid value, page is invalid" });
  });

  it("treats JSON null like an absent param", async () => {
    const res = await t.root.post("/users", { ...newUserParams(), username: null });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "username is missing" });
  });
});

describe("request bodies clients send", () => {
  it("accepts a JSON {} body on DELETE (gitbeaker)", async () => {
    const user = await createUser(t);
    const token = await t.root.post(`/users/${user.id}/personal_access_tokens`, { name: "del", scopes: ["api"] });
    const res = await rawRequest(t.app, "DELETE", `/api/v4/personal_access_tokens/${token.body.id}`, {
      headers: asRoot({ "Content-Type": "application/json" }),
      body: "{}",
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
  });

  it("accepts Content-Type: application/json with an empty body on GET and DELETE (python-gitlab)", async () => {
    const get = await rawRequest(t.app, "GET", "/api/v4/user", { headers: asRoot({ "Content-Type": "application/json" }) });
    expect(get.status).toBe(200);
    expect(get.body).toMatchObject({ id: 1, username: "root" });
    const user = await createUser(t);
    const token = await t.root.post(`/users/${user.id}/personal_access_tokens`, { name: "del", scopes: ["api"] });
    const del = await rawRequest(t.app, "DELETE", `/api/v4/personal_access_tokens/${token.body.id}`, {
      headers: asRoot({ "Content-Type": "application/json", "Content-Length": "0" }),
      body: "",
    });
    expect(del.status).toBe(204);
  });

  it("treats an empty JSON POST body as no params", async () => {
    const res = await rawRequest(t.app, "POST", "/api/v4/users", { headers: asRoot({ "Content-Type": "application/json" }), body: "" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "email is missing, name is missing, username is missing" });
  });

  it("answers 400 to a body that is not valid JSON", async () => {
    const res = await rawRequest(t.app, "POST", "/api/v4/users", {
      headers: asRoot({ "Content-Type": "application/json" }),
      body: '{"username": "half',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toEqual({ error: "The request body is not valid JSON" });
  });
});

describe("request body size limit", () => {
  it("answers 413 for a body over MAX_BODY_BYTES and changes nothing", async () => {
    const username = `big_${Date.now()}`;
    const params = { username, name: "Big", email: `${username}@example.com`, password: "password-123456", bio: "b".repeat(BODY_LIMIT) };
    const res = await t.root.post("/users", params);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: "413 Request Entity Too Large" });
    expect((await t.root.get("/users", { query: { username } })).body).toEqual([]);
  });

  it("accepts a body just under the limit", async () => {
    const username = `fits_${Date.now()}`;
    const res = await t.root.post("/users", { username, name: "Fits", email: `${username}@example.com`, password: "password-123456", bio: "b".repeat(BODY_LIMIT - 200) });
    expect(res.status).toBe(201);
  });
});

describe("query string length limit", () => {
  const padded = (length: number) => {
    const base = "username=root&search=";
    return `${base}${"a".repeat(length - base.length)}`;
  };

  it("answers 414 past the limit and tells to send the params in the body", async () => {
    const res = await t.root.get(`/users?${padded(QUERY_LIMIT + 1)}`, { raw: true });
    expect(res.status).toBe(414);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toEqual({
      message: "414 Request-URI Too Large - the query string is too long; send the parameters in the request body instead",
    });
  });

  it("accepts a query string of exactly the limit", async () => {
    const res = await t.root.get(`/users?${padded(QUERY_LIMIT)}`, { raw: true });
    expect(res.status).toBe(200);
  });

  it("accepts the same params in a body", async () => {
    const params = { ...newUserParams(), bio: "b".repeat(QUERY_LIMIT * 2) };
    const inQuery = await t.root.post("/users", {}, { query: params });
    expect(inQuery.status).toBe(414);
    const inBody = await t.root.post("/users", params);
    expect(inBody.status).toBe(201);
    expect(inBody.body.bio).toBe(params.bio);
  });
});

describe("health probes", () => {
  it.each([
    ["/-/health", "text/plain", "GitLab OK"],
    ["/-/liveness", "application/json", '{"status":"ok"}'],
    ["/-/readiness", "application/json", '{"status":"ok","master_check":[{"status":"ok"}]}'],
  ])("%s answers 200 without authentication, even with a bad token", async (path, type, body) => {
    for (const headers of [{}, { "PRIVATE-TOKEN": "not-a-token" }] as Record<string, string>[]) {
      const res = await rawRequest(t.app, "GET", path, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      expect(res.text).toBe(body);
    }
  });
});

describe("unexpected failures", () => {
  it("answer 500 with GitLab's body and no internals, on REST and GraphQL", async () => {
    const broken = await startTestApp();
    await broken.services.db.$executeRawUnsafe('ALTER TABLE "AccessToken" RENAME TO "AccessTokenGone"');
    const rest = await broken.root.get("/user");
    expect(rest.status).toBe(500);
    expect(rest.headers.get("content-type")).toBe("application/json");
    expect(rest.body).toEqual({ message: "500 Internal Server Error" });
    await broken.services.db.$executeRawUnsafe('ALTER TABLE "AccessTokenGone" RENAME TO "AccessToken"');
    await broken.services.db.$executeRawUnsafe('ALTER TABLE "User" RENAME TO "UserGone"');
    const anonymous = await broken.anon.get("/users", { query: { username: "root" } });
    expect(anonymous.status).toBe(500);
    expect(anonymous.body).toEqual({ message: "500 Internal Server Error" });
    const graphql = await broken.anon.graphql('{ users(username: "root") { id } }');
    expect(graphql.body.errors).toHaveLength(1);
    expect(graphql.body.errors![0].message).toBe("Unexpected error.");
    expect(graphql.body.errors![0].extensions).toEqual({ code: "INTERNAL_SERVER_ERROR" });
    for (const text of [JSON.stringify(rest.body), JSON.stringify(anonymous.body), JSON.stringify(graphql.body)]) {
      expect(text).not.toMatch(/UserGone|AccessTokenGone|prisma|sqlite|no such table/i);
    }
  });
});
