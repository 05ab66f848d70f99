// Authentication: where tokens are read from, bad/revoked/expired tokens, token scopes per verb
// and endpoint (REST and GraphQL), sudo, blocked users, and how tokens are stored.
import { beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../helpers/api.js";
import { ROOT_TOKEN, startTestApp, type TestApp } from "../helpers/app.js";
import { createUser, type TestUser } from "../helpers/factories.js";
import { createHash } from "node:crypto";
import { databaseContents } from "../helpers/test-database.js";
import { gid } from "../helpers/graph.js";

let t: TestApp;
let alice: TestUser;

const INSUFFICIENT = "The request requires higher privileges than provided by the access token.";
const insufficientScope = (scope: string) => ({ error: "insufficient_scope", error_description: INSUFFICIENT, scope });
const REVOKED = "Token was revoked. You have to re-authorize from the user.";
const EXPIRED = "Token is expired. You can either do re-authorization or token refresh.";

beforeAll(async () => {
  t = await startTestApp();
  alice = await createUser(t);
});

/** A new token for `user` with the given scopes (created by root). */
async function tokenFor(user: { id: number }, scopes: string[], extra: Record<string, unknown> = {}) {
  const res = await t.root.post(`/users/${user.id}/personal_access_tokens`, { name: `tok-${scopes.join("-")}`, scopes, ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; token: string };
}

const getUser = (headers: Record<string, string>, query = "") => rawRequest(t.app, "GET", `/api/v4/user${query}`, { headers });

describe("where the token is read from", () => {
  it.each([
    ["PRIVATE-TOKEN header", (tok: string) => getUser({ "PRIVATE-TOKEN": tok })],
    ["lower-case private-token header", (tok: string) => getUser({ "private-token": tok })],
    ["private_token query param", (tok: string) => getUser({}, `?private_token=${tok}`)],
    ["Authorization: Bearer", (tok: string) => getUser({ Authorization: `Bearer ${tok}` })],
    ["access_token query param", (tok: string) => getUser({}, `?access_token=${tok}`)],
  ])("accepts the %s", async (_name, send) => {
    const res = await send(alice.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: alice.id, username: alice.username });
  });

  it("accepts private_token in a JSON body", async () => {
    const res = await rawRequest(t.app, "POST", "/api/v4/users", {
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ private_token: ROOT_TOKEN }),
    });
    // authenticated as root: the params are checked (not 401)
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "email is missing, name is missing, username is missing" });
  });

  it("treats a request without a token as anonymous", async () => {
    const res = await t.anon.get("/user");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "401 Unauthorized" });
    expect((await t.anon.get("/users", { query: { username: "root" } })).status).toBe(200);
  });
});

describe("bad tokens", () => {
  it("answers 401 even on endpoints open to anonymous callers", async () => {
    const sends = [
      () => rawRequest(t.app, "GET", "/api/v4/users?username=root", { headers: { "PRIVATE-TOKEN": "glpat-nonsense" } }),
      () => rawRequest(t.app, "GET", "/api/v4/users?username=root&private_token=glpat-nonsense"),
      () => rawRequest(t.app, "GET", "/api/v4/users?username=root", { headers: { Authorization: "Bearer glpat-nonsense" } }),
    ];
    for (const send of sends) {
      const res = await send();
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.body).toEqual({ message: "401 Unauthorized" });
    }
    const graphql = await t.client("glpat-nonsense").graphql('{ users(username: "root") { id } }');
    expect(graphql.status).toBe(401);
    expect(graphql.body.errors?.[0]).toMatchObject({ message: "401 Unauthorized", extensions: { http: { status: 401 } } });
  });

  it("answers 401 to sudo without a token", async () => {
    const res = await rawRequest(t.app, "GET", "/api/v4/users?username=root", { headers: { Sudo: "root" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "401 Unauthorized" });
  });

  it("refuses a revoked token with rack-oauth2's invalid_token answer", async () => {
    const user = await createUser(t);
    expect((await user.api.get("/user")).status).toBe(200);
    const self = await user.api.get("/personal_access_tokens/self");
    expect((await t.root.delete(`/personal_access_tokens/${self.body.id}`)).status).toBe(204);
    for (const res of [await user.api.get("/user"), await user.api.get("/users", { query: { username: "root" } })]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "invalid_token", error_description: REVOKED });
      expect(res.headers.get("www-authenticate")).toBe(
        `Bearer realm="Protected by OAuth 2.0", error="invalid_token", error_description="${REVOKED}"`,
      );
    }
  });

  it("refuses a token revoked through /personal_access_tokens/self", async () => {
    const user = await createUser(t);
    expect((await user.api.delete("/personal_access_tokens/self")).status).toBe(204);
    const res = await user.api.get("/user");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "invalid_token", error_description: REVOKED });
  });

  it("refuses to create an already expired token", async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const res = await t.root.post(`/users/${alice.id}/personal_access_tokens`, { name: "old", scopes: ["api"], expires_at: yesterday });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "expires_at is invalid" });
  });

  it("refuses an expired token (expiry reported before revocation)", async () => {
    const user = await createUser(t);
    const token = await tokenFor(user, ["api"]);
    expect((await t.client(token.token).get("/user")).status).toBe(200);
    await t.services.db.accessToken.update({ where: { id: token.id }, data: { expiresAt: new Date(Date.now() - 1000), revoked: true } });
    t.forgetCaches();
    const res = await t.client(token.token).get("/user");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "invalid_token", error_description: EXPIRED });
    expect(res.headers.get("www-authenticate")).toBe(
      `Bearer realm="Protected by OAuth 2.0", error="invalid_token", error_description="${EXPIRED}"`,
    );
  });

  it("refuses a token on its expiry date", async () => {
    const user = await createUser(t);
    const token = await tokenFor(user, ["api"]);
    const now = new Date();
    const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    await t.services.db.accessToken.update({ where: { id: token.id }, data: { expiresAt: today } });
    t.forgetCaches();
    const res = await t.client(token.token).get("/user");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "invalid_token", error_description: EXPIRED });
  });

  it("answers 403 to a blocked user's token", async () => {
    const user = await createUser(t);
    await t.services.db.user.update({ where: { id: user.id }, data: { state: "blocked" } });
    t.forgetCaches();
    const res = await user.api.get("/user");
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "403 Forbidden - Your account has been blocked." });
  });
});

describe("token scopes", () => {
  it("lets a read_api token read but not write", async () => {
    const reader = t.client((await tokenFor(alice, ["read_api"])).token);
    expect((await reader.get("/user")).status).toBe(200);
    expect((await reader.get("/users")).status).toBe(200);
    expect((await reader.get("/personal_access_tokens")).status).toBe(200);
    const writes = [
      await reader.post("/users", { username: "nope", name: "n", email: "nope@example.com", password: "password1" }),
      await reader.post(`/users/${alice.id}/personal_access_tokens`, { name: "x", scopes: ["api"] }),
      await reader.put("/groups/1", { name: "x" }),
      await reader.delete(`/personal_access_tokens/${(await tokenFor(alice, ["api"])).id}`),
    ];
    for (const res of writes) {
      expect(res.status).toBe(403);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.body).toEqual(insufficientScope("api"));
    }
  });

  it("checks the scope before the route's permissions and params", async () => {
    const reader = t.client((await tokenFor(alice, ["read_api"])).token);
    const res = await reader.post("/users", {});
    expect(res.status).toBe(403);
    expect(res.body).toEqual(insufficientScope("api"));
  });

  it("lets a read_user token read users only", async () => {
    const userReader = t.client((await tokenFor(alice, ["read_user"])).token);
    expect((await userReader.get("/user")).body).toMatchObject({ id: alice.id });
    expect((await userReader.get("/users")).status).toBe(200);
    expect((await userReader.get(`/users/${alice.id}`)).status).toBe(200);
    const tokens = await userReader.get("/personal_access_tokens");
    expect(tokens.status).toBe(403);
    expect(tokens.body).toEqual(insufficientScope("api read_api"));
    const create = await userReader.post("/users", {});
    expect(create.status).toBe(403);
    expect(create.body).toEqual(insufficientScope("api"));
  });

  it("refuses a token with no API scope, naming the scopes the endpoint admits", async () => {
    const repo = t.client((await tokenFor(alice, ["read_repository"])).token);
    const user = await repo.get("/user");
    expect(user.status).toBe(403);
    expect(user.body).toEqual(insufficientScope("api read_api read_user"));
    const tokens = await repo.get("/personal_access_tokens");
    expect(tokens.body).toEqual(insufficientScope("api read_api"));
  });

  it("lets any token read and revoke itself", async () => {
    for (const scopes of [["read_repository"], ["read_api"], ["read_user"]]) {
      const token = await tokenFor(alice, scopes);
      const client = t.client(token.token);
      const self = await client.get("/personal_access_tokens/self");
      expect(self.status).toBe(200);
      expect(self.body).toMatchObject({ id: token.id, scopes });
      expect((await client.delete("/personal_access_tokens/self")).status).toBe(204);
      expect((await client.get("/personal_access_tokens/self")).status).toBe(401);
    }
  });

  it("applies the same rules to GraphQL: read_api runs queries, not mutations", async () => {
    const reader = t.client((await tokenFor(alice, ["read_api"])).token);
    const query = await reader.graphql("{ currentUser { id } }");
    expect(query.status).toBe(200);
    expect(query.body).toEqual({ data: { currentUser: { id: alice.id } } });
    const mutation = await reader.graphql(`mutation { revokePersonalAccessToken(id: 1) }`);
    expect(mutation.status).toBe(403);
    expect(mutation.body.data ?? null).toBeNull();
    expect(mutation.body.errors).toHaveLength(1);
    expect(mutation.body.errors![0].extensions).toMatchObject({
      code: "FORBIDDEN",
      http: { status: 403 },
      gitlab: insufficientScope("api"),
    });
    const userReader = t.client((await tokenFor(alice, ["read_user"])).token);
    const refused = await userReader.graphql("{ currentUser { id } }");
    expect(refused.status).toBe(403);
    expect(refused.body.errors![0].extensions).toMatchObject({ http: { status: 403 }, gitlab: insufficientScope("api read_api") });
  });

  it("lets an api token write through GraphQL", async () => {
    const token = await tokenFor(alice, ["api"]);
    const res = await t.client(token.token).graphql(`mutation { revokePersonalAccessToken(id: ${token.id}) }`);
    expect(res.body).toEqual({ data: { revokePersonalAccessToken: true } });
  });
});

describe("sudo", () => {
  it("acts as the user named by the Sudo header (id or username, any case) or the sudo param", async () => {
    const variants: [string, Record<string, string>, string][] = [
      ["header id", { Sudo: String(alice.id) }, ""],
      ["header username", { Sudo: alice.username }, ""],
      ["header upper-case username", { Sudo: alice.username.toUpperCase() }, ""],
      ["query id", {}, `?sudo=${alice.id}`],
      ["query username", {}, `?sudo=${alice.username.toUpperCase()}`],
    ];
    for (const [name, headers, query] of variants) {
      const res = await getUser({ "PRIVATE-TOKEN": ROOT_TOKEN, ...headers }, query);
      expect(res.status, name).toBe(200);
      expect(res.body, name).toMatchObject({ id: alice.id, username: alice.username, is_admin: false });
    }
  });

  it("gives the sudo target's permissions, not the admin's", async () => {
    const res = await rawRequest(t.app, "POST", "/api/v4/users", {
      headers: { "PRIVATE-TOKEN": ROOT_TOKEN, Sudo: alice.username, "Content-Type": "application/json" },
      body: JSON.stringify({ username: "viasudo", name: "v", email: "viasudo@example.com", password: "password1" }),
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "403 Forbidden" });
  });

  it("works on GraphQL", async () => {
    const res = await rawRequest(t.app, "POST", "/graphql", {
      headers: { "PRIVATE-TOKEN": ROOT_TOKEN, Sudo: alice.username, "Content-Type": "application/json" },
      body: JSON.stringify({ query: "{ currentUser { id username } }" }),
    });
    expect(res.body).toEqual({ data: { currentUser: { id: gid("User", alice.id), username: alice.username } } });
  });

  it("is for administrators only", async () => {
    const bob = await createUser(t, {}, ["api", "sudo"]);
    const res = await getUser({ "PRIVATE-TOKEN": bob.token, Sudo: "root" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "403 Forbidden - Must be admin to use sudo" });
  });

  it("needs the sudo scope on an administrator's token", async () => {
    const admin = await createUser(t, { admin: true });
    expect((await admin.api.get("/user")).body.is_admin).toBe(true);
    const res = await getUser({ "PRIVATE-TOKEN": admin.token, Sudo: alice.username });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(insufficientScope("sudo"));
    const withSudo = await tokenFor(admin, ["api", "sudo"]);
    const ok = await getUser({ "PRIVATE-TOKEN": withSudo.token, Sudo: alice.username });
    expect(ok.body).toMatchObject({ id: alice.id });
  });

  it("answers 404 for an unknown sudo user", async () => {
    for (const sudo of ["nosuch", "999999"]) {
      const res = await getUser({ "PRIVATE-TOKEN": ROOT_TOKEN, Sudo: sudo });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: `404 User with ID or username '${sudo}' Not Found` });
    }
  });
});

describe("token storage", () => {
  it("keeps only SHA-256 digests in the database", async () => {
    const created = await tokenFor(alice, ["api"]);
    expect(created.token).toMatch(/^glpat-[A-Za-z0-9_-]{20,}$/);
    expect((await t.client(created.token).get("/user")).status).toBe(200);
    const bytes = Buffer.concat((await databaseContents(t.services.config.databaseUrl)).map((part) => part.bytes));
    for (const secret of [created.token, ROOT_TOKEN, alice.token]) {
      expect(bytes.includes(Buffer.from(secret)), "clear token in the database files").toBe(false);
      expect(bytes.includes(Buffer.from(createHash("sha256").update(secret).digest("hex")))).toBe(true);
    }
    const row = await t.services.db.accessToken.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.digest).toBe(createHash("sha256").update(created.token).digest("hex"));
  });

  it("records when a token was last used", async () => {
    const created = await t.root.post(`/users/${alice.id}/personal_access_tokens`, { name: "fresh", scopes: ["api"] });
    expect(created.body.last_used_at).toBeNull();
    const before = Date.now();
    const self = await t.client(created.body.token).get("/personal_access_tokens/self");
    const lastUsed = Date.parse(self.body.last_used_at);
    expect(lastUsed).toBeGreaterThanOrEqual(before - 1000);
    expect(lastUsed).toBeLessThanOrEqual(Date.now());
  });
});
