// Personal access tokens: creation by administrators, listing, reading and revoking (by id and
// /self), by anonymous callers, the owner, other users and administrators; bad input.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createUser, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let aliceTokenId: number;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const day = (offset: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset)).toISOString().slice(0, 10);
};

beforeAll(async () => {
  t = await startTestApp();
  alice = await createUser(t);
  bob = await createUser(t);
  aliceTokenId = (await alice.api.get("/personal_access_tokens/self")).body.id;
});

/** GitLab's PersonalAccessToken entity for a token that has not been used yet. */
function entity(token: { id: number; name: string; scopes: string[]; user_id: number; expires_at: string; description?: string }) {
  return {
    id: token.id,
    name: token.name,
    description: token.description ?? "",
    revoked: false,
    created_at: expect.stringMatching(ISO),
    scopes: token.scopes,
    user_id: token.user_id,
    last_used_at: null,
    active: true,
    expires_at: token.expires_at,
  };
}

async function issue(user: { id: number }, body: Record<string, unknown> = {}) {
  const res = await t.root.post(`/users/${user.id}/personal_access_tokens`, { name: "issued", scopes: ["api"], ...body });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; token: string };
}

describe("POST /users/:user_id/personal_access_tokens", () => {
  it("needs a token (401) and an administrator (403), before checking params", async () => {
    const anon = await t.anon.post(`/users/${alice.id}/personal_access_tokens`, { name: "x", scopes: ["api"] });
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ message: "401 Unauthorized" });
    for (const body of [{ name: "x", scopes: ["api"] }, {}]) {
      const own = await alice.api.post(`/users/${alice.id}/personal_access_tokens`, body);
      expect(own.status).toBe(403);
      expect(own.body).toEqual({ message: "403 Forbidden" });
    }
  });

  it("creates a token that expires after 365 days by default and shows the secret once", async () => {
    const res = await t.root.post(`/users/${alice.id}/personal_access_tokens`, { name: "ci", scopes: ["api", "read_user"] });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toEqual({
      ...entity({ id: res.body.id, name: "ci", scopes: ["api", "read_user"], user_id: alice.id, expires_at: day(365) }),
      token: expect.stringMatching(/^glpat-[A-Za-z0-9_-]{20,}$/),
    });
    const shown = await t.root.get(`/personal_access_tokens/${res.body.id}`);
    expect(shown.body).not.toHaveProperty("token");
    expect((await t.client(res.body.token).get("/user")).body.id).toBe(alice.id);
  });

  it("keeps the given expiry date and description", async () => {
    const res = await t.root.post(`/users/${bob.id}/personal_access_tokens`, {
      name: "dated",
      scopes: ["read_api"],
      expires_at: day(30),
      description: "for the nightly job",
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      ...entity({ id: res.body.id, name: "dated", scopes: ["read_api"], user_id: bob.id, expires_at: day(30), description: "for the nightly job" }),
      token: expect.any(String),
    });
  });

  it("accepts the longest allowed lifetime", async () => {
    const res = await t.root.post(`/users/${bob.id}/personal_access_tokens`, { name: "max", scopes: ["api"], expires_at: day(365) });
    expect(res.status).toBe(201);
    expect(res.body.expires_at).toBe(day(365));
  });

  it("answers 404 for an unknown user", async () => {
    const res = await t.root.post("/users/999999/personal_access_tokens", { name: "x", scopes: ["api"] });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "404 User Not Found" });
  });

  it.each([
    [{}, { error: "name is missing, scopes is missing" }],
    [{ name: "x" }, { error: "scopes is missing" }],
    [{ scopes: ["api"] }, { error: "name is missing" }],
    [{ name: "x", scopes: ["api", "root_powers"] }, { error: "scopes does not have a valid value" }],
    [{ name: "x", scopes: "api,bogus" }, { error: "scopes does not have a valid value" }],
    [{ name: "x", scopes: ["api"], expires_at: "2030-13-01" }, { error: "expires_at is invalid" }],
    [{ name: "x", scopes: ["api"], expires_at: "tomorrow" }, { error: "expires_at is invalid" }],
    [{ name: "x", scopes: ["api"], expires_at: day(-1) }, { error: "expires_at is invalid" }],
    [{ name: "x", scopes: ["api"], expires_at: day(0) }, { error: "expires_at is invalid" }],
  ])("refuses %j with 400", async (body, error) => {
    const res = await t.root.post(`/users/${alice.id}/personal_access_tokens`, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error);
  });

  it.each([
    [{ name: "", scopes: ["api"] }, "Name can't be blank"],
    [{ name: "   ", scopes: ["api"] }, "Name can't be blank"],
    [{ name: "x", scopes: [] }, "Scopes can't be blank"],
    [{ name: "", scopes: [] }, "Name can't be blank and Scopes can't be blank"],
    [{ name: "x", scopes: ["api"], expires_at: day(366) }, `Expires at must be before ${day(365)}`],
  ])("refuses %j with 422 and the model's message", async (body, message) => {
    const res = await t.root.post(`/users/${alice.id}/personal_access_tokens`, body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message });
  });

  it("checks the user before the token's own rules", async () => {
    const res = await t.root.post("/users/999999/personal_access_tokens", { name: "", scopes: [] });
    expect(res.status).toBe(404);
  });
});

describe("GET /personal_access_tokens", () => {
  it("needs a token", async () => {
    const res = await t.anon.get("/personal_access_tokens");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "401 Unauthorized" });
  });

  it("lists only the caller's own tokens for non-administrators, oldest first", async () => {
    const extra = await issue(alice, { name: "second" });
    const res = await alice.api.get("/personal_access_tokens");
    expect(res.status).toBe(200);
    const mine = await t.services.db.accessToken.findMany({ where: { userId: alice.id }, orderBy: { id: "asc" } });
    expect(res.body.map((tok: any) => tok.id)).toEqual(mine.map((tok) => tok.id));
    expect(res.body.map((tok: any) => tok.id)).toContain(extra.id);
    expect(res.body.every((tok: any) => tok.user_id === alice.id && !("token" in tok))).toBe(true);
    expect(res.headers.get("x-total")).toBe(String(mine.length));
  });

  it("accepts the caller's own user_id and answers 401 for someone else's", async () => {
    const own = await alice.api.get("/personal_access_tokens", { query: { user_id: alice.id } });
    expect(own.status).toBe(200);
    expect(own.body.every((tok: any) => tok.user_id === alice.id)).toBe(true);
    const other = await alice.api.get("/personal_access_tokens", { query: { user_id: bob.id } });
    expect(other.status).toBe(401);
    expect(other.body).toEqual({ message: "401 Unauthorized" });
  });

  it("lists everyone's tokens for administrators, or one user's with user_id", async () => {
    const all = await t.root.get("/personal_access_tokens", { query: { per_page: 100 } });
    const users = new Set(all.body.map((tok: any) => tok.user_id));
    expect(users).toEqual(new Set([1, alice.id, bob.id]));
    const bobs = await t.root.get("/personal_access_tokens", { query: { user_id: bob.id, per_page: 100 } });
    const expected = await t.services.db.accessToken.findMany({ where: { userId: bob.id }, orderBy: { id: "asc" } });
    expect(bobs.body.map((tok: any) => tok.id)).toEqual(expected.map((tok) => tok.id));
  });

  it("answers 404 to administrators filtering on an unknown user", async () => {
    const res = await t.root.get("/personal_access_tokens", { query: { user_id: 999999 } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "404 Not Found" });
  });

  it("filters by revoked, state and search", async () => {
    const carol = await createUser(t);
    const keep = await issue(carol, { name: "keep-me" });
    const gone = await issue(carol, { name: "revoke-me" });
    expect((await t.root.delete(`/personal_access_tokens/${gone.id}`)).status).toBe(204);
    const list = (query: Record<string, string | number | boolean>) =>
      carol.api.get("/personal_access_tokens", { query }).then((res) => res.body.map((tok: any) => tok.name));
    expect(await list({ revoked: true })).toEqual(["revoke-me"]);
    expect(await list({ revoked: false })).toEqual(["test", "keep-me"]);
    expect(await list({ state: "inactive" })).toEqual(["revoke-me"]);
    expect(await list({ state: "active" })).toEqual(["test", "keep-me"]);
    expect(await list({ search: "keep" })).toEqual(["keep-me"]);
    const bad = await carol.api.get("/personal_access_tokens", { query: { state: "sleeping" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "state does not have a valid value" });
    const revoked = await carol.api.get("/personal_access_tokens", { query: { revoked: true } });
    expect(revoked.body[0]).toMatchObject({ id: gone.id, revoked: true, active: false });
    expect(keep.id).toBeLessThan(gone.id);
  });
});

describe("GET /personal_access_tokens/:id and /self", () => {
  it("shows a token to its owner", async () => {
    const res = await alice.api.get(`/personal_access_tokens/${aliceTokenId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...entity({ id: aliceTokenId, name: "test", scopes: ["api"], user_id: alice.id, expires_at: day(365) }),
      last_used_at: expect.stringMatching(ISO),
    });
  });

  it("answers 401 to other users, whether the token exists or not", async () => {
    for (const id of [aliceTokenId, 999999]) {
      const res = await bob.api.get(`/personal_access_tokens/${id}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: "401 Unauthorized" });
    }
  });

  it("shows any token to administrators and tells them when it does not exist", async () => {
    const res = await t.root.get(`/personal_access_tokens/${aliceTokenId}`);
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(alice.id);
    const missing = await t.root.get("/personal_access_tokens/999999");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Not Found" });
  });

  it("needs a token and an integer id", async () => {
    expect((await t.anon.get(`/personal_access_tokens/${aliceTokenId}`)).status).toBe(401);
    expect((await t.anon.get("/personal_access_tokens/self")).body).toEqual({ message: "401 Unauthorized" });
    const bad = await alice.api.get("/personal_access_tokens/selfish");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "id is invalid" });
  });

  it("shows the token used for the request at /self", async () => {
    const res = await bob.api.get("/personal_access_tokens/self");
    expect(res.status).toBe(200);
    const row = await t.services.db.accessToken.findFirstOrThrow({ where: { userId: bob.id, name: "test" } });
    expect(res.body).toMatchObject({ id: row.id, user_id: bob.id, name: "test", scopes: ["api"], active: true });
    expect((await t.root.get("/personal_access_tokens/self")).body).toMatchObject({ id: 1, user_id: 1, scopes: ["api", "sudo"] });
  });
});

describe("DELETE /personal_access_tokens/:id", () => {
  it("lets the owner revoke a token: 204, then the token is refused", async () => {
    const dave = await createUser(t);
    const second = await issue(dave);
    const res = await dave.api.delete(`/personal_access_tokens/${second.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await t.client(second.token).get("/user")).status).toBe(401);
    const shown = await dave.api.get(`/personal_access_tokens/${second.id}`);
    expect(shown.body).toMatchObject({ id: second.id, revoked: true, active: false });
  });

  it("answers 400 to another user and leaves the token working", async () => {
    const res = await bob.api.delete(`/personal_access_tokens/${aliceTokenId}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "400 Bad request" });
    expect((await alice.api.get("/user")).status).toBe(200);
  });

  it("lets administrators revoke anyone's token, and revoking again still answers 204", async () => {
    const erin = await createUser(t);
    const token = await issue(erin);
    expect((await t.root.delete(`/personal_access_tokens/${token.id}`)).status).toBe(204);
    expect((await t.root.delete(`/personal_access_tokens/${token.id}`)).status).toBe(204);
    expect((await erin.api.delete(`/personal_access_tokens/${token.id}`)).status).toBe(204);
    expect((await t.client(token.token).get("/user")).status).toBe(401);
  });

  it("answers 404 'Not found' for an unknown token and 401 without a token", async () => {
    const res = await alice.api.delete("/personal_access_tokens/999999");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "404 Not found" });
    const anon = await t.anon.delete(`/personal_access_tokens/${aliceTokenId}`);
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ message: "401 Unauthorized" });
  });

  it("revokes the token used for the request at /self", async () => {
    const frank = await createUser(t);
    const other = await issue(frank);
    const res = await frank.api.delete("/personal_access_tokens/self");
    expect(res.status).toBe(204);
    expect((await frank.api.get("/user")).status).toBe(401);
    // only that token
    const still = await t.client(other.token).get("/personal_access_tokens/self");
    expect(still.body).toMatchObject({ id: other.id, active: true });
  });
});
