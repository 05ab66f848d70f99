// User status over /api/v4 (GitLab's Users API): GET, PUT and PATCH /user/status and
// GET /users/:id_or_username/status; GitLab's UserStatus entity, Users::SetStatusService's rules
// (removal, default emoji, availability), the model's validations, clear_status_after, expiry.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { UNAUTHORIZED } from "../helpers/errors.js";
import { createUser, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let alice: TestUser, bob: TestUser, readOnly: TestUser;

const NONE = { emoji: null, message: null, availability: null, message_html: "", clear_status_at: null };

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob] = await Promise.all([createUser(t), createUser(t)]);
  readOnly = await createUser(t, {}, ["read_user"]);
});

const fresh = () => createUser(t);

describe("GET /user/status", () => {
  it("answers 401 without a token", async () => {
    const res = await t.anon.get("/user/status");
    expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
  });

  it("answers the empty entity when the caller has no status, also for a read_user token", async () => {
    for (const user of [alice, readOnly]) {
      const res = await user.api.get("/user/status");
      expect([res.status, res.body]).toEqual([200, NONE]);
    }
  });
});

describe("PUT /user/status", () => {
  it("sets the status and answers GitLab's entity in its field order", async () => {
    const user = await fresh();
    const res = await user.api.put("/user/status", { emoji: "coffee", message: "Brewing <ideas> :coffee:", availability: "busy" });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["emoji", "message", "availability", "message_html", "clear_status_at"]);
    expect(res.body).toEqual({
      emoji: "coffee",
      message: "Brewing <ideas> :coffee:",
      availability: "busy",
      message_html: 'Brewing &lt;ideas&gt; <gl-emoji title="hot beverage" data-name="coffee">\u2615</gl-emoji>',
      clear_status_at: null,
    });
    expect((await user.api.get("/user/status")).body).toEqual(res.body);
  });

  it("defaults the emoji to speech_balloon and availability to not_set, and clears what is not given", async () => {
    const user = await fresh();
    await user.api.put("/user/status", { emoji: "rocket", message: "first", availability: "busy", clear_status_after: "1_day" });
    const res = await user.api.put("/user/status", { message: "second" });
    expect(res.body).toMatchObject({ emoji: "speech_balloon", message: "second", availability: "not_set", clear_status_at: null });
  });

  it("removes the status when neither emoji, message nor an availability other than not_set is given", async () => {
    const user = await fresh();
    await user.api.put("/user/status", { message: "here" });
    const res = await user.api.put("/user/status", { availability: "not_set", clear_status_after: "3_hours" });
    expect([res.status, res.body]).toEqual([200, NONE]);
    expect(await t.services.db.userStatus.count({ where: { userId: user.id } })).toBe(0);
  });

  it("an availability of busy alone is a status, with the default emoji", async () => {
    const user = await fresh();
    const res = await user.api.put("/user/status", { availability: "busy" });
    expect(res.body).toMatchObject({ emoji: "speech_balloon", message: null, availability: "busy", message_html: "" });
  });

  it("sets clear_status_at from clear_status_after", async () => {
    const user = await fresh();
    const before = Date.now();
    const res = await user.api.put("/user/status", { message: "lunch", clear_status_after: "30_minutes" });
    const at = Date.parse(res.body.clear_status_at);
    expect(at).toBeGreaterThanOrEqual(before + 30 * 60_000 - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 30 * 60_000 + 1000);
  });

  it("accepts an emoji alias", async () => {
    const user = await fresh();
    expect((await user.api.put("/user/status", { emoji: "+1" })).body).toMatchObject({ emoji: "+1" });
  });

  it.each([
    [{ emoji: "not_an_emoji_at_all" }, { message: { emoji: ["is not a valid emoji name"] } }],
    [{ emoji: "nope_nope", message: "y".repeat(101) }, { message: { emoji: ["is not a valid emoji name"], message: ["is too long (maximum is 100 characters)"] } }],
    [{ message: "x".repeat(101) }, { message: { message: ["is too long (maximum is 100 characters)"] } }],
    [{ message: "ok", clear_status_after: "2_hours" }, { error: "clear_status_after does not have a valid value" }],
  ])("answers 400 for %j and keeps the status", async (params, body) => {
    const user = await fresh();
    await user.api.put("/user/status", { emoji: "rocket", message: "kept" });
    const res = await user.api.put("/user/status", params);
    expect([res.status, res.body]).toEqual([400, body]);
    expect((await user.api.get("/user/status")).body).toMatchObject({ emoji: "rocket", message: "kept" });
  });

  it("takes a message of exactly 100 characters", async () => {
    const user = await fresh();
    expect((await user.api.put("/user/status", { message: "é".repeat(100) })).status).toBe(200);
  });

  it("answers 401 anonymous and 403 for a read_user token", async () => {
    expect((await t.anon.put("/user/status", { message: "x" })).status).toBe(401);
    const res = await readOnly.api.put("/user/status", { message: "x" });
    expect(res.status).toBe(403);
  });
});

describe("PATCH /user/status", () => {
  it("keeps the message and clear_status_at when not given", async () => {
    const user = await fresh();
    const set = await user.api.put("/user/status", { emoji: "rocket", message: "shipping", clear_status_after: "8_hours" });
    const res = await user.api.request("PATCH", "/user/status", { json: { availability: "busy" } });
    expect(res.status).toBe(200);
    // GitLab's service still resets a missing emoji to speech_balloon
    expect(res.body).toEqual({ ...set.body, emoji: "speech_balloon", availability: "busy" });
  });

  it("changes nothing without params", async () => {
    const user = await fresh();
    const set = await user.api.put("/user/status", { emoji: "rocket", message: "kept" });
    const res = await user.api.request("PATCH", "/user/status", { json: {} });
    expect([res.status, res.body]).toEqual([200, set.body]);
  });

  it("removes the status when what it gives clears it", async () => {
    const user = await fresh();
    await user.api.put("/user/status", { message: "gone soon" });
    const res = await user.api.request("PATCH", "/user/status", { json: { message: "" } });
    expect([res.status, res.body]).toEqual([200, NONE]);
  });

  it("answers 401 anonymous", async () => {
    expect((await t.anon.request("PATCH", "/user/status", { json: { message: "x" } })).status).toBe(401);
  });
});

describe("GET /users/:id_or_username/status", () => {
  beforeAll(async () => {
    await bob.api.put("/user/status", { emoji: "palm_tree", message: "Away", availability: "busy" });
  });

  it.each(["anonymous", "another user", "an administrator"])("shows a user's status by id and by username to %s", async (who) => {
    const client = who === "anonymous" ? t.anon : who === "another user" ? alice.api : t.root;
    for (const ref of [String(bob.id), bob.username, bob.username.toUpperCase()]) {
      const res = await client.get(`/users/${ref}/status`);
      expect([res.status, res.body]).toMatchObject([200, { emoji: "palm_tree", message: "Away", availability: "busy" }]);
    }
  });

  it("answers the empty entity for a user without a status", async () => {
    expect((await t.anon.get(`/users/${alice.id}/status`)).body).toEqual(NONE);
  });

  it("answers 404 User Not Found for an unknown id or username", async () => {
    for (const ref of ["999999", "nobody-by-that-name"]) {
      const res = await t.anon.get(`/users/${ref}/status`);
      expect([res.status, res.body]).toEqual([404, { message: "404 User Not Found" }]);
    }
  });

  it("stops showing a status past its clear_status_at", async () => {
    const user = await fresh();
    await user.api.put("/user/status", { message: "brb", clear_status_after: "30_minutes" });
    await t.services.db.userStatus.update({ where: { userId: user.id }, data: { clearStatusAt: new Date(Date.now() - 1000) } });
    expect((await t.anon.get(`/users/${user.id}/status`)).body).toEqual(NONE);
    expect((await user.api.get("/user/status")).body).toEqual(NONE);
    // a PATCH onto the expired status starts afresh
    const res = await user.api.request("PATCH", "/user/status", { json: { emoji: "rocket" } });
    expect(res.body).toEqual({ emoji: "rocket", message: null, availability: "not_set", message_html: "", clear_status_at: null });
  });

  it("is removed with the user", async () => {
    const user = await fresh();
    await user.api.put("/user/status", { message: "leaving" });
    expect((await t.root.delete(`/users/${user.id}`, { query: { hard_delete: true } })).status).toBe(204);
    await expect.poll(() => t.services.db.userStatus.count({ where: { userId: user.id } })).toBe(0);
  });
});
