// Instance-wide OAuth applications: create, list, delete and renew-secret, by anonymous callers,
// users and administrators; Grape's param errors and the model's validation errors; the secret
// shown only by create and renew-secret and stored only as a digest.
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { secretMatches } from "../../src/domain/oauth/applications.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { databaseContents } from "../helpers/test-database.js";
import { createUser, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let alice: TestUser;

const UID = /^[0-9a-f]{64}$/;
const SECRET = /^gloas-[0-9a-f]{64}$/;
const ENTITY_KEYS = ["id", "application_id", "application_name", "callback_url", "confidential"];
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const valid = { name: "My app", redirect_uri: "https://app.example.com/callback", scopes: "api" };

beforeAll(async () => {
  t = await startTestApp();
  alice = await createUser(t);
});

async function create(body: Record<string, unknown> = {}) {
  const res = await t.root.post("/applications", { ...valid, ...body });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number; application_id: string; application_name: string; callback_url: string; confidential: boolean; secret: string };
}

const countRows = () => t.services.db.application.count();

/** Everything the database holds (SQLite: its files, write-ahead log included). */
async function databaseBytes(): Promise<Buffer> {
  return Buffer.concat((await databaseContents(t.services.config.databaseUrl)).map((part) => part.bytes));
}

describe("access: administrators only, checked before params", () => {
  const routes = [
    ["POST", "/applications", valid],
    ["POST", "/applications", {}],
    ["GET", "/applications", undefined],
    ["DELETE", "/applications/1", undefined],
    ["DELETE", "/applications/abc", undefined],
    ["POST", "/applications/1/renew-secret", undefined],
    ["POST", "/applications/abc/renew-secret", undefined],
  ] as const;

  it.each(routes)("%s %s (%j): 401 without a token", async (method, route, json) => {
    const res = await t.anon.request(method, route, { json });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "401 Unauthorized" });
  });

  it.each(routes)("%s %s (%j): 403 for a user who is not an administrator", async (method, route, json) => {
    const before = await countRows();
    const res = await alice.api.request(method, route, { json });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "403 Forbidden" });
    expect(await countRows()).toBe(before);
  });

  it("leaves an application alone when a user tries to delete it or renew its secret", async () => {
    const app = await create();
    expect((await alice.api.delete(`/applications/${app.id}`)).status).toBe(403);
    expect((await alice.api.post(`/applications/${app.id}/renew-secret`)).status).toBe(403);
    const row = await t.services.db.application.findUniqueOrThrow({ where: { id: app.id } });
    expect(secretMatches(row, app.secret)).toBe(true);
  });
});

describe("POST /applications", () => {
  it("answers 200 with the application and its secret (GitLab's ApplicationWithSecret)", async () => {
    const res = await t.root.post("/applications", { name: "CI dashboard", redirect_uri: "https://ci.example.com/oauth", scopes: "api read_user" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toEqual({
      id: expect.any(Number),
      application_id: expect.stringMatching(UID),
      application_name: "CI dashboard",
      callback_url: "https://ci.example.com/oauth",
      confidential: true,
      secret: expect.stringMatching(SECRET),
    });
    expect(Object.keys(res.body)).toEqual([...ENTITY_KEYS, "secret"]);
    const row = await t.services.db.application.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ uid: res.body.application_id, scopes: "api read_user", ownerId: null, confidential: true });
    expect(row.secretDigest).toBe(sha256(res.body.secret));
  });

  it("gives every application its own client id and secret", async () => {
    const [a, b] = [await create(), await create()];
    expect(a.application_id).not.toBe(b.application_id);
    expect(a.secret).not.toBe(b.secret);
  });

  it.each([
    [{ confidential: false }, false],
    [{ confidential: true }, true],
    [{ confidential: null }, true],
    [{ confidential: "false" }, false],
    [{}, true],
  ])("with %j stores confidential %s", async (body, expected) => {
    expect((await create(body)).confidential).toBe(expected);
  });

  it("reads a form-encoded body", async () => {
    const form = new URLSearchParams({ name: "form app", redirect_uri: "https://form.example/cb", scopes: "read_api openid", confidential: "false" });
    const res = await t.root.request("POST", "/applications", { form });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ application_name: "form app", callback_url: "https://form.example/cb", confidential: false });
  });

  it("stores scopes as Doorkeeper does: split on whitespace, duplicates dropped", async () => {
    const app = await create({ scopes: "  api\tread_user api\nuser:42  " });
    const row = await t.services.db.application.findUniqueOrThrow({ where: { id: app.id } });
    expect(row.scopes).toBe("api read_user user:42");
  });

  it.each([
    "urn:ietf:wg:oauth:2.0:oob",
    "urn:ietf:wg:oauth:2.0:oob:auto",
    "com.example.app:/oauth/callback",
    "com.example.app://oauth/callback",
    "myapp:/callback",
    "http://127.0.0.1:8080/callback",
    "http://localhost:3000/callback?state=1",
    "https://[::1]:8443/cb",
    "https://app.example.com/a https://app.example.com/b",
    "https://app.example.com/a\nurn:ietf:wg:oauth:2.0:oob\ncom.example.app:/cb",
  ])("accepts the redirect URI %j and shows it as callback_url", async (redirectUri) => {
    expect((await create({ redirect_uri: redirectUri })).callback_url).toBe(redirectUri);
  });

  it.each([
    [{}, "name is missing, redirect_uri is missing, scopes is missing, scopes is empty"],
    [{ redirect_uri: valid.redirect_uri, scopes: "api" }, "name is missing"],
    [{ name: "x", scopes: "api" }, "redirect_uri is missing"],
    [{ name: "x", redirect_uri: valid.redirect_uri }, "scopes is missing, scopes is empty"],
    [{ name: "x", redirect_uri: valid.redirect_uri, scopes: "" }, "scopes is empty"],
    [{ name: "x", redirect_uri: valid.redirect_uri, scopes: "  \t" }, "scopes is empty"],
    [{ name: "x", scopes: "" }, "redirect_uri is missing, scopes is empty"],
    [{ ...valid, confidential: "maybe" }, "confidential is invalid"],
  ])("refuses %j with 400 {error: %j}", async (body, error) => {
    const before = await countRows();
    const res = await t.root.post("/applications", body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
    expect(await countRows()).toBe(before);
  });

  it.each([
    [{ scopes: "non_existent_scope" }, { scopes: ["doesn't match configured on the server."] }],
    [{ scopes: "api non_existent_scope" }, { scopes: ["doesn't match configured on the server."] }],
    [{ scopes: "user:" }, { scopes: ["doesn't match configured on the server."] }],
    [{ scopes: "group:1" }, { scopes: ["doesn't match configured on the server."] }],
    [{ scopes: "API" }, { scopes: ["doesn't match configured on the server."] }],
    [{ redirect_uri: "http://" }, { redirect_uri: ["must be a valid URI."] }],
    [{ redirect_uri: "https://" }, { redirect_uri: ["must be a valid URI."] }],
    [{ redirect_uri: "https://exa<mple.com" }, { redirect_uri: ["must be a valid URI."] }],
    // whitespace separates URIs: "https://exa" passes, "mple.com" is relative
    [{ redirect_uri: "https://exa mple.com" }, { redirect_uri: ["must be an absolute URI."] }],
    [{ redirect_uri: "https://app.example.com/ü" }, { redirect_uri: ["must be a valid URI."] }],
    [{ redirect_uri: "127.0.0.1:8080" }, { redirect_uri: ["must be a valid URI."] }],
    [{ redirect_uri: "]" }, { redirect_uri: ["must be a valid URI."] }],
    [{ redirect_uri: "https://[not-an-ip]/cb" }, { redirect_uri: ["must be a valid URI."] }],
    [{ redirect_uri: "javascript://alert()" }, { redirect_uri: ["is forbidden by the server."] }],
    [{ redirect_uri: "JavaScript://alert()" }, { redirect_uri: ["is forbidden by the server."] }],
    [{ redirect_uri: "javascript:alert(1)" }, { redirect_uri: ["is forbidden by the server.", "must specify a scheme."] }],
    [{ redirect_uri: "data:text/html,hi" }, { redirect_uri: ["is forbidden by the server.", "must specify a scheme."] }],
    [{ redirect_uri: "vbscript://x" }, { redirect_uri: ["is forbidden by the server."] }],
    [{ redirect_uri: "https://app.example.com/cb#top" }, { redirect_uri: ["cannot contain a fragment."] }],
    [{ redirect_uri: "https://app.example.com/cb#" }, { redirect_uri: ["cannot contain a fragment."] }],
    [{ redirect_uri: "localhost:3000" }, { redirect_uri: ["must specify a scheme."] }],
    [{ redirect_uri: "urn:example:other" }, { redirect_uri: ["must specify a scheme."] }],
    [{ redirect_uri: "/callback" }, { redirect_uri: ["must be an absolute URI."] }],
    [{ redirect_uri: "app.example.com/callback" }, { redirect_uri: ["must be an absolute URI."] }],
    [{ redirect_uri: "https://ok.example/cb\nhttp://" }, { redirect_uri: ["must be a valid URI."] }],
    [{ redirect_uri: "/a http://" }, { redirect_uri: ["must be an absolute URI.", "must be a valid URI."] }],
    [{ redirect_uri: "" }, { redirect_uri: ["can't be blank"] }],
    [{ redirect_uri: " \n " }, { redirect_uri: ["can't be blank"] }],
    [{ name: "" }, { name: ["can't be blank"] }],
    [{ name: "   " }, { name: ["can't be blank"] }],
    [
      { name: "", redirect_uri: "http://", scopes: "bogus" },
      { name: ["can't be blank"], redirect_uri: ["must be a valid URI."], scopes: ["doesn't match configured on the server."] },
    ],
  ])("refuses %j with 400 and the model's messages", async (body, message) => {
    const before = await countRows();
    const res = await t.root.post("/applications", { ...valid, ...body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
    expect(Object.keys(res.body.message)).toEqual(Object.keys(message));
    expect(await countRows()).toBe(before);
  });

  it("accepts every scope GitLab configures for OAuth applications", async () => {
    const scopes = "api read_api read_user create_runner manage_runner k8s_proxy self_rotate mcp read_repository write_repository " +
      "read_registry write_registry read_virtual_registry write_virtual_registry read_observability write_observability " +
      "ai_features sudo admin_mode read_service_ping openid profile email ai_workflows user:* user:7";
    const app = await create({ scopes });
    expect((await t.services.db.application.findUniqueOrThrow({ where: { id: app.id } })).scopes).toBe(scopes);
  });
});

describe("GET /applications", () => {
  let tx: TestApp;
  let created: Awaited<ReturnType<typeof create>>[];

  beforeAll(async () => {
    tx = await startTestApp(); // its own database: a known set of rows
    created = [];
    for (const name of ["one", "two", "three"]) {
      const res = await tx.root.post("/applications", { ...valid, name, confidential: name !== "two" });
      expect(res.status).toBe(200);
      created.push(res.body);
    }
    // a user-owned application (GitLab's user OAuth apps): never managed through /applications
    await tx.services.db.application.create({
      data: { name: "owned", uid: "u".repeat(64), secretDigest: sha256("owned"), redirectUri: "https://owned.example/cb", scopes: "api", ownerId: 1 },
    });
  });

  it("lists instance-wide applications, oldest first, without secrets", async () => {
    const res = await tx.root.get("/applications");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toEqual(created.map(({ secret: _secret, ...entity }) => entity));
    for (const row of res.body) expect(Object.keys(row)).toEqual(ENTITY_KEYS);
    expect(res.text).not.toContain("secret");
    for (const app of created) expect(res.text).not.toContain(app.secret);
  });

  it("accepts page and per_page and sets the pagination headers", async () => {
    const res = await tx.root.get("/applications", { query: { per_page: 2, page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body.map((a: { id: number }) => a.id)).toEqual([created[2]!.id]);
    expect(Object.fromEntries(["x-page", "x-per-page", "x-total", "x-total-pages", "x-next-page", "x-prev-page"].map((h) => [h, res.headers.get(h)])))
      .toEqual({ "x-page": "2", "x-per-page": "2", "x-total": "3", "x-total-pages": "2", "x-next-page": "", "x-prev-page": "1" });
    expect(res.headers.get("link")).toContain('rel="first"');
    const first = await tx.root.get("/applications", { query: { per_page: 2 } });
    expect(first.body.map((a: { id: number }) => a.id)).toEqual([created[0]!.id, created[1]!.id]);
    expect(first.headers.get("x-next-page")).toBe("2");
  });

  it("does not delete or renew a user-owned application (404)", async () => {
    const owned = await tx.services.db.application.findFirstOrThrow({ where: { ownerId: 1 } });
    for (const res of [await tx.root.delete(`/applications/${owned.id}`), await tx.root.post(`/applications/${owned.id}/renew-secret`)]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Application Not Found" });
    }
    expect(await tx.services.db.application.findUnique({ where: { id: owned.id } })).toMatchObject({ secretDigest: sha256("owned") });
  });
});

describe("DELETE /applications/:id", () => {
  it("answers 204 without a body, then 404", async () => {
    const app = await create();
    const res = await t.root.delete(`/applications/${app.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(res.headers.get("content-type")).toBeNull();
    expect(await t.services.db.application.findUnique({ where: { id: app.id } })).toBeNull();
    expect((await t.root.get("/applications", { query: { per_page: 100 } })).body.map((a: { id: number }) => a.id)).not.toContain(app.id);
    const again = await t.root.delete(`/applications/${app.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: "404 Application Not Found" });
  });

  it("takes the record id, not the application_id", async () => {
    const app = await create();
    const res = await t.root.delete(`/applications/${app.application_id}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "id is invalid" });
  });

  it.each(["999999", "0", "-1"])("answers 404 for the unknown id %s", async (id) => {
    const res = await t.root.delete(`/applications/${id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "404 Application Not Found" });
  });

  it.each(["abc", "1.5", "1e3"])("answers 400 for the id %j", async (id) => {
    const res = await t.root.delete(`/applications/${id}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "id is invalid" });
  });
});

describe("POST /applications/:id/renew-secret", () => {
  it("answers 200 with a new secret; the old one stops matching", async () => {
    const app = await create({ confidential: false });
    const res = await t.root.post(`/applications/${app.id}/renew-secret`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    const { secret, ...entity } = app;
    expect(res.body).toEqual({ ...entity, secret: expect.stringMatching(SECRET) });
    expect(Object.keys(res.body)).toEqual([...ENTITY_KEYS, "secret"]);
    expect(res.body.secret).not.toBe(secret);
    const row = await t.services.db.application.findUniqueOrThrow({ where: { id: app.id } });
    expect(secretMatches(row, res.body.secret)).toBe(true);
    expect(secretMatches(row, secret)).toBe(false);
    expect(row.secretDigest).toBe(sha256(res.body.secret));

    const listed = await t.root.get("/applications", { query: { per_page: 100 } });
    expect(listed.body.find((a: { id: number }) => a.id === app.id)).toEqual(entity);
  });

  it("answers 404 for an unknown id and 400 for a non-integer one", async () => {
    const missing = await t.root.post("/applications/999999/renew-secret");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Application Not Found" });
    const invalid = await t.root.post("/applications/abc/renew-secret");
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: "id is invalid" });
  });
});

describe("secret storage", () => {
  it("keeps only the SHA-256 digest of created and renewed secrets in the database files", async () => {
    const app = await create({ name: "stored" });
    const renewed = (await t.root.post(`/applications/${app.id}/renew-secret`)).body;
    const bytes = await databaseBytes();
    // the search does see what was written (WAL included): the client id is there
    expect(bytes.includes(Buffer.from(app.application_id))).toBe(true);
    for (const secret of [app.secret, renewed.secret]) {
      expect(bytes.includes(Buffer.from(secret)), "clear secret in the database files").toBe(false);
      expect(bytes.includes(Buffer.from(secret.slice("gloas-".length))), "secret body in the database files").toBe(false);
    }
    expect(bytes.includes(Buffer.from(sha256(renewed.secret)))).toBe(true);
  });
});
