// Project and group access tokens over REST: every endpoint and actor, bad input, and the bot
// token itself (GitLab: lib/api/resource_access_tokens.rb, resource_access_tokens/*_service.rb).
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createUser, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let owner: TestUser, maintainer: TestUser, developer: TestUser, guest: TestUser, outsider: TestUser;
let groupMaintainer: TestUser;
let group: { id: number; full_path: string };
let project: { id: number; path_with_namespace: string };
let otherProject: { id: number };
let seq = 0;

async function post(api: TestUser["api"], path: string, body: unknown) {
  const res = await api.post(path, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const today = () => new Date(new Date().toISOString().slice(0, 10) + "T00:00:00Z");
const isoDays = (days: number) => new Date(today().getTime() + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await startTestApp();
  [owner, maintainer, developer, guest, outsider, groupMaintainer] = await Promise.all(
    Array.from({ length: 6 }, () => createUser(t)),
  );
  const path = `rat-${Date.now().toString(36)}`;
  group = await post(owner.api, "/groups", { name: path, path });
  project = await post(owner.api, "/projects", { name: "tokens", namespace_id: group.id });
  otherProject = await post(owner.api, "/projects", { name: "other", namespace_id: group.id });
  for (const [user, level] of [[maintainer, 40], [developer, 30], [guest, 10]] as const) {
    await post(owner.api, `/projects/${project.id}/members`, { user_id: user.id, access_level: level });
  }
  await post(owner.api, `/groups/${group.id}/members`, { user_id: groupMaintainer.id, access_level: 40 });
});

const tokenBody = (extra: Record<string, unknown> = {}) => ({ name: `bot-${++seq}`, scopes: ["api"], ...extra });

describe("POST /projects/:id/access_tokens", () => {
  it("creates a bot, its membership and its token (Maintainer, default level 40)", async () => {
    const res = await maintainer.api.post(`/projects/${project.id}/access_tokens`, tokenBody({ description: "ci", scopes: ["api", "read_repository"] }));
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(Object.keys(res.body).sort()).toEqual([
      "access_level", "active", "created_at", "description", "expires_at", "id", "last_used_at", "last_used_ips",
      "name", "resource_id", "resource_type", "revoked", "scopes", "token", "user_id",
    ]);
    expect(res.body).toMatchObject({
      name: `bot-${seq}`, description: "ci", revoked: false, active: true, scopes: ["api", "read_repository"],
      access_level: 40, resource_type: "project", resource_id: project.id, last_used_at: null, last_used_ips: [],
      expires_at: isoDays(365),
    });
    expect(res.body.token).toMatch(/^glpat-/);

    const bot = await t.root.get(`/users/${res.body.user_id}`);
    expect(bot.body).toMatchObject({ name: `bot-${seq}`, bot: true });
    expect(bot.body.username).toMatch(new RegExp(`^project_${project.id}_bot_[0-9a-f]{32}$`));
    expect(bot.body.email).toBe(`${bot.body.username}@noreply.forgeline.test`);
    const member = await owner.api.get(`/projects/${project.id}/members/${res.body.user_id}`);
    expect(member.status).toBe(200);
    expect(member.body.access_level).toBe(40);
  });

  it("stores only the digest of the secret", async () => {
    const res = await maintainer.api.post(`/projects/${project.id}/access_tokens`, tokenBody());
    const row = await t.services.db.accessToken.findUnique({ where: { id: res.body.id } });
    expect(row).toMatchObject({ kind: "project", resourceId: project.id, userId: res.body.user_id });
    expect(row!.digest).toBe(createHash("sha256").update(res.body.token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(res.body.token);
  });

  it("answers 401 without a token and 404 for a private project the caller cannot see", async () => {
    const anon = await t.anon.post(`/projects/${project.id}/access_tokens`, tokenBody());
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ message: "401 Unauthorized" });
    const hidden = await outsider.api.post(`/projects/${project.id}/access_tokens`, tokenBody());
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: "404 Project Not Found" });
  });

  it.each([["guest", () => guest], ["developer", () => developer]])("refuses a %s with GitLab's 400", async (_name, who) => {
    const res = await who().api.post(`/projects/${project.id}/access_tokens`, tokenBody());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "400 Bad request - User does not have permission to create project access token" });
  });

  it("lets a Maintainer grant up to Maintainer, not Owner (nor Planner)", async () => {
    for (const level of [50, 15]) {
      const res = await maintainer.api.post(`/projects/${project.id}/access_tokens`, tokenBody({ access_level: level }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: "400 Bad request - Access level of the token contains permissions not held by the creating user" });
    }
    const dev = await maintainer.api.post(`/projects/${project.id}/access_tokens`, tokenBody({ access_level: 30 }));
    expect(dev.status).toBe(201);
    expect(dev.body.access_level).toBe(30);
  });

  it("lets an Owner and an administrator create Owner-level tokens", async () => {
    for (const api of [owner.api, t.root]) {
      const res = await api.post(`/projects/${project.id}/access_tokens`, tokenBody({ access_level: "50" }));
      expect(res.status, res.text).toBe(201);
      expect(res.body.access_level).toBe(50);
    }
  });

  it("accepts the project path and an explicit expiry date", async () => {
    const res = await maintainer.api.post(`/projects/${encodeURIComponent(project.path_with_namespace)}/access_tokens`, tokenBody({ expires_at: isoDays(30) }));
    expect(res.status, res.text).toBe(201);
    expect(res.body.expires_at).toBe(isoDays(30));
  });

  it("does not let a project access token create another one", async () => {
    const created = await owner.api.post(`/projects/${project.id}/access_tokens`, tokenBody({ access_level: 50 }));
    const res = await t.client(created.body.token).post(`/projects/${project.id}/access_tokens`, tokenBody());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "400 Bad request - User does not have permission to create project access token" });
  });

  it.each([
    ["no name", { scopes: ["api"] }, { error: "name is missing" }],
    ["no scopes", { name: "x" }, { error: "scopes is missing" }],
    ["nothing", {}, { error: "name is missing, scopes is missing" }],
    ["an unknown scope", { name: "x", scopes: ["api", "bogus"] }, { error: "scopes does not have a valid value" }],
    ["an admin scope", { name: "x", scopes: ["sudo"] }, { error: "scopes does not have a valid value" }],
    ["read_user", { name: "x", scopes: ["read_user"] }, { error: "scopes does not have a valid value" }],
    ["access_level 0", { name: "x", scopes: ["api"], access_level: 0 }, { error: "access_level does not have a valid value" }],
    ["access_level 60", { name: "x", scopes: ["api"], access_level: 60 }, { error: "access_level does not have a valid value" }],
    ["a text access_level", { name: "x", scopes: ["api"], access_level: "owner" }, { error: "access_level is invalid" }],
    ["a past expiry", { name: "x", scopes: ["api"], expires_at: isoDays(-1) }, { error: "expires_at is invalid" }],
    ["today as expiry", { name: "x", scopes: ["api"], expires_at: isoDays(0) }, { error: "expires_at is invalid" }],
    ["a malformed date", { name: "x", scopes: ["api"], expires_at: "soon" }, { error: "expires_at is invalid" }],
    ["empty scopes", { name: "x", scopes: [] }, { message: "400 Bad request - Scopes can't be blank" }],
    ["a blank name", { name: " ", scopes: ["api"] }, { message: "400 Bad request - Name can't be blank" }],
    ["a too late expiry", { name: "x", scopes: ["api"], expires_at: isoDays(400) }, { message: `400 Bad request - Expires at must be before ${isoDays(365)}` }],
  ])("answers 400 for %s", async (_name, body, expected) => {
    const users = await t.services.db.user.count();
    const res = await maintainer.api.post(`/projects/${project.id}/access_tokens`, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
    expect(await t.services.db.user.count()).toBe(users);
  });

  it("accepts form-encoded scopes[]", async () => {
    const form = new URLSearchParams([["name", "form"], ["scopes[]", "read_api"], ["scopes[]", "read_registry"], ["access_level", "20"]]);
    const res = await maintainer.api.post(`/projects/${project.id}/access_tokens`, undefined, { form });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ scopes: ["read_api", "read_registry"], access_level: 20 });
  });
});

describe("the bot's token", () => {
  it("authenticates as the bot, which acts with its membership level", async () => {
    const created = await maintainer.api.post(`/projects/${project.id}/access_tokens`, tokenBody({ access_level: 20 }));
    const bot = t.client(created.body.token);
    const me = await bot.get("/user");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: created.body.user_id, name: created.body.name, bot: true });
    expect((await bot.get(`/projects/${project.id}`)).status).toBe(200);
    const members = await bot.get(`/projects/${project.id}/members`);
    expect(members.body).toContainEqual(expect.objectContaining({ id: created.body.user_id, access_level: 20 }));
    // a Reporter may not read the project's tokens; the bot sees nothing outside its project
    expect((await bot.get(`/projects/${project.id}/access_tokens`)).status).toBe(401);
    expect((await bot.get(`/groups/${group.id}`)).status).toBe(200); // members of a project see its group
    const alone = await post(owner.api, `/groups`, { name: `solo-${seq}`, path: `solo-${Date.now().toString(36)}` });
    expect((await bot.get(`/groups/${alone.id}`)).status).toBe(404);
  });

  it("of a Maintainer bot can list the project's tokens", async () => {
    const created = await maintainer.api.post(`/projects/${project.id}/access_tokens`, tokenBody());
    const res = await t.client(created.body.token).get(`/projects/${project.id}/access_tokens`);
    expect(res.status).toBe(200);
    expect(res.body.map((x: any) => x.id)).toContain(created.body.id);
  });

  it("with read_api only may read but not write", async () => {
    const created = await maintainer.api.post(`/projects/${project.id}/access_tokens`, tokenBody({ scopes: ["read_api"] }));
    const bot = t.client(created.body.token);
    expect((await bot.get(`/projects/${project.id}`)).status).toBe(200);
    expect((await bot.put(`/projects/${project.id}`, { description: "x" })).status).toBe(403);
  });
});

describe("GET /projects/:id/access_tokens", () => {
  it("lists the project's tokens with pagination headers, without secrets", async () => {
    const mine = await maintainer.api.post(`/projects/${project.id}/access_tokens`, tokenBody());
    const elsewhere = await maintainer.api.post(`/projects/${otherProject.id}/access_tokens`, tokenBody());
    expect(elsewhere.status).toBe(404); // the maintainer is no member of the other (private) project
    const res = await maintainer.api.get(`/projects/${project.id}/access_tokens`, { query: { per_page: 100 } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total")).toBe(String(res.body.length));
    expect(res.headers.get("x-per-page")).toBe("100");
    const ids = res.body.map((x: any) => x.id);
    expect(ids).toContain(mine.body.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    expect(res.body.every((x: any) => !("token" in x) && x.resource_type === "project" && x.resource_id === project.id)).toBe(true);
    expect(res.body.find((x: any) => x.id === mine.body.id)).toMatchObject({ access_level: 40, user_id: mine.body.user_id });
  });

  it("does not list another project's tokens", async () => {
    const other = await owner.api.post(`/projects/${otherProject.id}/access_tokens`, tokenBody());
    expect(other.status).toBe(201);
    const res = await owner.api.get(`/projects/${project.id}/access_tokens`, { query: { per_page: 100 } });
    expect(res.body.map((x: any) => x.id)).not.toContain(other.body.id);
    const theirs = await owner.api.get(`/projects/${otherProject.id}/access_tokens`);
    expect(theirs.body.map((x: any) => x.id)).toEqual([other.body.id]);
  });

  it("pages", async () => {
    const res = await owner.api.get(`/projects/${project.id}/access_tokens`, { query: { per_page: 2, page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.headers.get("x-page")).toBe("2");
    expect(res.headers.get("x-prev-page")).toBe("1");
  });

  it("answers 401 to anonymous callers and to members below Maintainer, 404 to outsiders", async () => {
    expect((await t.anon.get(`/projects/${project.id}/access_tokens`)).status).toBe(401);
    for (const user of [guest, developer]) {
      const res = await user.api.get(`/projects/${project.id}/access_tokens`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: "401 Unauthorized" });
    }
    const hidden = await outsider.api.get(`/projects/${project.id}/access_tokens`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: "404 Project Not Found" });
    expect((await t.root.get(`/projects/${project.id}/access_tokens`)).status).toBe(200);
  });

  it("rejects an unknown state", async () => {
    const res = await owner.api.get(`/projects/${project.id}/access_tokens`, { query: { state: "gone" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "state does not have a valid value" });
  });
});

describe("GET /projects/:id/access_tokens/:token_id", () => {
  it("shows one token", async () => {
    const created = await maintainer.api.post(`/projects/${project.id}/access_tokens`, tokenBody({ access_level: 10 }));
    const res = await maintainer.api.get(`/projects/${project.id}/access_tokens/${created.body.id}`);
    expect(res.status).toBe(200);
    const { token: _secret, ...rest } = created.body;
    expect(res.body).toEqual(rest);
  });

  it("answers 404 for unknown ids and for tokens of other projects", async () => {
    const other = await owner.api.post(`/projects/${otherProject.id}/access_tokens`, tokenBody());
    for (const id of ["999999", String(other.body.id), "abc"]) {
      const res = await owner.api.get(`/projects/${project.id}/access_tokens/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 project Access Token Not Found" });
    }
  });

  it("answers 401 below Maintainer", async () => {
    const created = await maintainer.api.post(`/projects/${project.id}/access_tokens`, tokenBody());
    expect((await developer.api.get(`/projects/${project.id}/access_tokens/${created.body.id}`)).status).toBe(401);
    expect((await t.anon.get(`/projects/${project.id}/access_tokens/${created.body.id}`)).status).toBe(401);
  });
});

describe("DELETE /projects/:id/access_tokens/:token_id", () => {
  it("revokes the token: 204, the secret stops working, the token stays listed as inactive", async () => {
    const created = await maintainer.api.post(`/projects/${project.id}/access_tokens`, tokenBody());
    const bot = t.client(created.body.token);
    expect((await bot.get("/user")).status).toBe(200);
    const res = await maintainer.api.delete(`/projects/${project.id}/access_tokens/${created.body.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await bot.get("/user")).status).toBe(401);
    expect((await bot.get(`/projects/${project.id}`)).status).toBe(401);
    const shown = await maintainer.api.get(`/projects/${project.id}/access_tokens/${created.body.id}`);
    expect(shown.body).toMatchObject({ revoked: true, active: false });
    const inactive = await maintainer.api.get(`/projects/${project.id}/access_tokens`, { query: { state: "inactive", per_page: 100 } });
    expect(inactive.body.map((x: any) => x.id)).toContain(created.body.id);
    const active = await maintainer.api.get(`/projects/${project.id}/access_tokens`, { query: { state: "active", per_page: 100 } });
    expect(active.body.map((x: any) => x.id)).not.toContain(created.body.id);
    expect(active.body.every((x: any) => x.active)).toBe(true);
  });

  it("refuses members below Maintainer with GitLab's 400, and hides the project from outsiders", async () => {
    const created = await maintainer.api.post(`/projects/${project.id}/access_tokens`, tokenBody());
    const res = await developer.api.delete(`/projects/${project.id}/access_tokens/${created.body.id}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `400 Bad request - User ${developer.username} cannot delete ${created.body.name}` });
    expect((await outsider.api.delete(`/projects/${project.id}/access_tokens/${created.body.id}`)).status).toBe(404);
    expect((await t.anon.delete(`/projects/${project.id}/access_tokens/${created.body.id}`)).status).toBe(401);
    expect((await t.client(created.body.token).get("/user")).status).toBe(200);
  });

  it("answers 404 for an unknown token; an administrator may revoke", async () => {
    const missing = await owner.api.delete(`/projects/${project.id}/access_tokens/999999`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 project Access Token Not Found" });
    const created = await maintainer.api.post(`/projects/${project.id}/access_tokens`, tokenBody());
    expect((await t.root.delete(`/projects/${project.id}/access_tokens/${created.body.id}`)).status).toBe(204);
  });
});

describe("group access tokens", () => {
  it("are created by group Owners with a group bot member", async () => {
    const res = await owner.api.post(`/groups/${group.id}/access_tokens`, tokenBody({ access_level: 50, scopes: ["read_api"] }));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ resource_type: "group", resource_id: group.id, access_level: 50, scopes: ["read_api"] });
    const bot = await t.root.get(`/users/${res.body.user_id}`);
    expect(bot.body.username).toMatch(new RegExp(`^group_${group.id}_bot_[0-9a-f]{32}$`));
    const members = await owner.api.get(`/groups/${group.id}/members`);
    expect(members.body).toContainEqual(expect.objectContaining({ id: res.body.user_id, access_level: 50 }));
  });

  it("give the bot the group's projects through inheritance", async () => {
    const res = await owner.api.post(`/groups/${encodeURIComponent(group.full_path)}/access_tokens`, tokenBody({ access_level: 20 }));
    expect(res.status, res.text).toBe(201);
    const bot = t.client(res.body.token);
    expect((await bot.get(`/groups/${group.id}`)).status).toBe(200);
    expect((await bot.get(`/projects/${otherProject.id}`)).status).toBe(200);
    expect((await bot.get("/user")).body).toMatchObject({ bot: true });
  });

  it("need Owner: a group Maintainer gets GitLab's 400 / 401", async () => {
    const create = await groupMaintainer.api.post(`/groups/${group.id}/access_tokens`, tokenBody());
    expect(create.status).toBe(400);
    expect(create.body).toEqual({ message: "400 Bad request - User does not have permission to create group access token" });
    expect((await groupMaintainer.api.get(`/groups/${group.id}/access_tokens`)).status).toBe(401);
    const created = await owner.api.post(`/groups/${group.id}/access_tokens`, tokenBody());
    expect((await groupMaintainer.api.get(`/groups/${group.id}/access_tokens/${created.body.id}`)).status).toBe(401);
    expect((await groupMaintainer.api.delete(`/groups/${group.id}/access_tokens/${created.body.id}`)).status).toBe(400);
  });

  it("are hidden from outsiders of a private group and listed, shown and revoked for Owners and admins", async () => {
    expect((await outsider.api.get(`/groups/${group.id}/access_tokens`)).status).toBe(404);
    expect((await outsider.api.get(`/groups/${group.id}/access_tokens`)).body).toEqual({ message: "404 Group Not Found" });
    expect((await t.anon.get(`/groups/${group.id}/access_tokens`)).status).toBe(401);
    const created = await t.root.post(`/groups/${group.id}/access_tokens`, tokenBody());
    expect(created.status).toBe(201);
    const list = await owner.api.get(`/groups/${group.id}/access_tokens`);
    expect(list.status).toBe(200);
    expect(list.body.map((x: any) => x.id)).toContain(created.body.id);
    expect(list.body.every((x: any) => x.resource_type === "group")).toBe(true);
    const one = await owner.api.get(`/groups/${group.id}/access_tokens/${created.body.id}`);
    expect(one.body).toMatchObject({ id: created.body.id, access_level: 40 });
    const projectSide = await owner.api.get(`/projects/${project.id}/access_tokens/${created.body.id}`);
    expect(projectSide.status).toBe(404);
    expect((await owner.api.delete(`/groups/${group.id}/access_tokens/${created.body.id}`)).status).toBe(204);
    expect((await t.client(created.body.token).get("/user")).status).toBe(401);
    const missing = await owner.api.get(`/groups/${group.id}/access_tokens/999999`);
    expect(missing.body).toEqual({ message: "404 group Access Token Not Found" });
  });
});
