// Users API: GET /user, GET /users (filters, order, visibility), GET /users/:id, POST /users,
// by anonymous callers, users, other users and administrators.
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { createUser, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let seq = 0;
const uniq = (prefix: string) => `${prefix}${Date.now().toString(36)}${++seq}`;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createUser(t, { name: "Alice Liddell" });
  bob = await createUser(t, { name: "Bob Builder" });
});

const gravatar = (email: string) =>
  `https://www.gravatar.com/avatar/${createHash("sha256").update(email.toLowerCase()).digest("hex")}?s=80&d=identicon`;

/** GitLab's user entity as seen by the user themself or an administrator. */
function fullEntity(user: { id: number; username: string; name: string; email: string; admin?: boolean; bio?: string }) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: "active",
    locked: false,
    avatar_url: gravatar(user.email),
    web_url: `${BASE_URL}/${user.username}`,
    created_at: expect.stringMatching(ISO),
    bio: user.bio ?? "",
    bot: false,
    public_email: null,
    email: user.email.toLowerCase(),
    is_admin: !!user.admin,
    can_create_group: true,
    can_create_project: true,
    two_factor_enabled: false,
    external: false,
    private_profile: false,
  };
}

/** The same entity as seen by another, non-admin user: private fields are null. */
function publicEntity(user: Parameters<typeof fullEntity>[0]) {
  return { ...fullEntity(user), email: null, is_admin: null, can_create_group: null, can_create_project: null, two_factor_enabled: null };
}

const aliceData = () => ({ id: alice.id, username: alice.username, name: "Alice Liddell", email: `${alice.username}@example.com` });
const ids = (body: any[]) => body.map((u) => u.id);

describe("GET /user", () => {
  it("answers 401 without a token", async () => {
    const res = await t.anon.get("/user");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "401 Unauthorized" });
  });

  it("returns the caller with private fields", async () => {
    const res = await alice.api.get("/user");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toEqual(fullEntity(aliceData()));
  });

  it("returns an administrator as admin", async () => {
    const res = await t.root.get("/user");
    expect(res.body).toEqual(fullEntity({ id: 1, username: "root", name: "Administrator", email: "admin@example.com", admin: true }));
  });
});

describe("GET /users", () => {
  it("refuses anonymous callers who do not name a username", async () => {
    const res = await t.anon.get("/users");
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "403 Forbidden - Not authorized to access /api/v4/users" });
    const search = await t.anon.get("/users", { query: { search: "alice" } });
    expect(search.status).toBe(403);
  });

  it("lets anonymous callers find one user by username, without private fields", async () => {
    const res = await t.anon.get("/users", { query: { username: alice.username.toUpperCase() } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([publicEntity(aliceData())]);
    expect((await t.anon.get("/users", { query: { username: "nobody-here" } })).body).toEqual([]);
  });

  it("lists everyone to users, newest first, with private fields only for themselves", async () => {
    const res = await alice.api.get("/users");
    expect(res.status).toBe(200);
    const all = await t.services.db.user.findMany({ orderBy: { id: "desc" } });
    expect(ids(res.body)).toEqual(all.map((u) => u.id).slice(0, 20));
    expect(res.body.find((u: any) => u.id === alice.id)).toEqual(fullEntity(aliceData()));
    expect(res.body.find((u: any) => u.id === bob.id).email).toBeNull();
    expect(res.body.find((u: any) => u.id === 1).is_admin).toBeNull();
  });

  it("shows administrators everyone's private fields", async () => {
    const res = await t.root.get("/users", { query: { username: alice.username } });
    expect(res.body).toEqual([fullEntity(aliceData())]);
  });

  it("searches names and usernames as a substring", async () => {
    const byName = await bob.api.get("/users", { query: { search: "Liddell" } });
    expect(ids(byName.body)).toEqual([alice.id]);
    const byUsername = await bob.api.get("/users", { query: { search: alice.username.slice(2) } });
    expect(ids(byUsername.body)).toEqual([alice.id]);
  });

  it("matches e-mail addresses only for administrators", async () => {
    const email = `${alice.username}@example.com`;
    expect((await bob.api.get("/users", { query: { search: email } })).body).toEqual([]);
    expect(ids((await t.root.get("/users", { query: { search: email.toUpperCase() } })).body)).toEqual([alice.id]);
  });

  it("lets administrators choose the order; ignores order_by and sort from others", async () => {
    const asc = await t.root.get("/users", { query: { order_by: "id", sort: "asc", per_page: 3 } });
    expect(ids(asc.body)).toEqual([1, 2, 3]);
    const byUsername = await t.root.get("/users", { query: { order_by: "username", sort: "asc", per_page: 100 } });
    const usernames = byUsername.body.map((u: any) => u.username);
    expect(usernames).toEqual([...usernames].sort());
    const ignored = await alice.api.get("/users", { query: { order_by: "id", sort: "asc", per_page: 3 } });
    const newest = await t.services.db.user.findMany({ orderBy: { id: "desc" }, take: 3 });
    expect(ids(ignored.body)).toEqual(newest.map((u) => u.id));
  });

  it("hides blocked users from non-administrators; blocked=true filters for administrators", async () => {
    const carol = await createUser(t);
    await t.services.db.user.update({ where: { id: carol.id }, data: { state: "blocked" } });
    t.forgetCaches();
    expect((await alice.api.get("/users", { query: { username: carol.username } })).body).toEqual([]);
    const admin = await t.root.get("/users", { query: { blocked: true } });
    expect(ids(admin.body)).toEqual([carol.id]);
    expect(admin.body[0].state).toBe("blocked");
    const active = await t.root.get("/users", { query: { active: true, per_page: 100 } });
    expect(ids(active.body)).not.toContain(carol.id);
    expect(ids(active.body)).toContain(alice.id);
  });
});

describe("GET /users/:id", () => {
  it("refuses anonymous callers with 403", async () => {
    const res = await t.anon.get(`/users/${alice.id}`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "403 Forbidden - Not authorized!" });
  });

  it("shows a user to another user without private fields", async () => {
    const res = await bob.api.get(`/users/${alice.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(publicEntity(aliceData()));
  });

  it("shows the user themself and administrators the private fields", async () => {
    expect((await alice.api.get(`/users/${alice.id}`)).body).toEqual(fullEntity(aliceData()));
    expect((await t.root.get(`/users/${alice.id}`)).body).toEqual(fullEntity(aliceData()));
  });

  it("answers 404 for an unknown user", async () => {
    for (const id of ["999999", "0", "-1"]) {
      const res = await alice.api.get(`/users/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ message: "404 User Not Found" });
    }
  });
});

describe("POST /users", () => {
  const params = (overrides: Record<string, unknown> = {}) => {
    const username = uniq("new_user");
    return { username, name: `New ${username}`, email: `${username}@example.com`, password: "password-123", ...overrides };
  };

  it("needs a token (401) and an administrator (403)", async () => {
    const anon = await t.anon.post("/users", params());
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ message: "401 Unauthorized" });
    const user = await bob.api.post("/users", params());
    expect(user.status).toBe(403);
    expect(user.body).toEqual({ message: "403 Forbidden" });
    // the permission check comes before the params check, as Grape's before filter
    expect((await bob.api.post("/users", {})).status).toBe(403);
  });

  it("creates a user and answers 201 with the admin entity", async () => {
    const input = params({ bio: "Writes tests", email: "Mixed.Case@Example.COM" });
    const res = await t.root.post("/users", input);
    expect(res.status).toBe(201);
    expect(res.body).toEqual(fullEntity({ ...input, id: res.body.id }));
    const shown = await t.root.get(`/users/${res.body.id}`);
    expect(shown.body).toEqual(res.body);
  });

  it("creates administrators with admin=true", async () => {
    const res = await t.root.post("/users", params({ admin: true }));
    expect(res.status).toBe(201);
    expect(res.body.is_admin).toBe(true);
  });

  it("accepts reset_password or force_random_password instead of a password", async () => {
    for (const flag of ["reset_password", "force_random_password"]) {
      const { password: _p, ...rest } = params();
      const res = await t.root.post("/users", { ...rest, [flag]: true });
      expect(res.status, flag).toBe(201);
    }
  });

  it("reports missing params as Grape does", async () => {
    const missing = await t.root.post("/users", { name: "n" });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: "email is missing, username is missing" });
    const { password: _p, ...noPassword } = params();
    const res = await t.root.post("/users", noPassword);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: "password, reset_password, force_random_password are missing, at least one parameter must be provided",
    });
  });

  it("answers 409 for a taken username or e-mail, case-insensitively, e-mail first", async () => {
    const username = await t.root.post("/users", params({ username: alice.username.toUpperCase() }));
    expect(username.status).toBe(409);
    expect(username.body).toEqual({ message: "Username has already been taken" });
    const email = await t.root.post("/users", params({ email: `${alice.username.toUpperCase()}@EXAMPLE.com` }));
    expect(email.status).toBe(409);
    expect(email.body).toEqual({ message: "Email has already been taken" });
    const both = await t.root.post("/users", params({ username: alice.username, email: `${alice.username}@example.com` }));
    expect(both.body).toEqual({ message: "Email has already been taken" });
    // a conflict is reported before validation errors
    const conflictFirst = await t.root.post("/users", params({ username: bob.username, password: "short" }));
    expect(conflictFirst.status).toBe(409);
  });

  it("validates the password length", async () => {
    const res = await t.root.post("/users", params({ password: "1234567" }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { password: ["is too short (minimum is 8 characters)"] } });
    expect((await t.root.post("/users", params({ password: "12345678" }))).status).toBe(201);
  });

  it.each(["-leading", "trailing.", "proj.git", "feed.atom", "has space", "tab\tbed", "ünïcode", "a/b"])(
    "refuses the username %j",
    async (username) => {
      const res = await t.root.post("/users", params({ username, email: `${uniq("x")}@example.com` }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: { username: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."] },
      });
    },
  );

  it.each(["under_", "dash-", ".dot", "_lead", "a", "Mixed.Case-1_x"])("accepts the username %j", async (username) => {
    const res = await t.root.post("/users", params({ username, email: `${uniq("ok")}@example.com` }));
    expect(res.status, res.text).toBe(201);
    expect(res.body.username).toBe(username);
  });

  it("refuses an invalid e-mail and a blank name, reporting every field", async () => {
    const res = await t.root.post("/users", params({ email: "not-an-email", name: "  ", password: "short" }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: {
        email: ["is invalid"],
        name: ["can't be blank"],
        password: ["is too short (minimum is 8 characters)"],
      },
    });
  });

  it("refuses over-long usernames and names", async () => {
    const longUsername = await t.root.post("/users", params({ username: "u".repeat(256) }));
    expect(longUsername.body).toEqual({ message: { username: ["is too long (maximum is 255 characters)"] } });
    const longName = await t.root.post("/users", params({ name: "n".repeat(256) }));
    expect(longName.body).toEqual({ message: { name: ["is too long (maximum is 255 characters)"] } });
  });

  it("gives the new user a working login through a token", async () => {
    const created = await t.root.post("/users", params());
    const token = await t.root.post(`/users/${created.body.id}/personal_access_tokens`, { name: "t", scopes: ["api"] });
    const me = await t.client(token.body.token).get("/user");
    expect(me.body).toEqual(created.body);
  });
});
