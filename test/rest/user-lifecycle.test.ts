// Users API lifecycle (lib/api/users.rb): PUT /users/:id, block/unblock, ban/unban,
// deactivate/activate and what each state does to the user's tokens, avatars on create and update,
// GET /users/:user_id/memberships and GET /users/:user_id/projects; by anonymous callers, users,
// the user themself and administrators, on REST and GraphQL.
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { createServices } from "../../src/services.js";
import { ApiClient, rawRequest } from "../helpers/api.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { bluePng, NOT_AN_IMAGE, pngOfSize, redPng } from "../helpers/images.js";
import { expectServed, gitbeakerForm, pythonMultipart } from "../helpers/multipart.js";
import { storedAvatar } from "../helpers/stored-files.js";

let t: TestApp;
let admin2: TestUser;
let regular: TestUser;

const UPLOADS = `${BASE_URL}/uploads/-/system/`;
const FORBIDDEN = { message: "403 Forbidden" };
const UNAUTHORIZED = { message: "401 Unauthorized" };
const USER_NOT_FOUND = { message: "404 User Not Found" };

beforeAll(async () => {
  t = await startTestApp();
  [admin2, regular] = await Promise.all([createUser(t, { admin: true }), createUser(t)]);
});

const post = (by: TestUser | null, path: string) => (by ? by.api : t.anon).post(path);

describe("PUT /users/:id", () => {
  it("lets an administrator change name, username, e-mail, bio, admin and password", async () => {
    const user = await createUser(t);
    const username = uniq("renamed").replace(/-/g, "_");
    const res = await t.root.put(`/users/${user.id}`, {
      name: "New Name", username, email: `${username}@Example.com`, bio: "about me", admin: true, password: "new-password-1",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: user.id, name: "New Name", username, email: `${username}@example.com`, bio: "about me", is_admin: true, state: "active",
      web_url: `${BASE_URL}/${username}`,
    });
    // the user's token keeps working, and now belongs to an administrator
    const me = await user.api.get("/user");
    expect(me.body).toMatchObject({ username, is_admin: true });
  });

  it("moves the personal namespace and its projects with the username (old paths redirect)", async () => {
    const user = await createUser(t);
    const project = await createProject(user.api, { path: "home" });
    const username = uniq("moved").replace(/-/g, "_");
    expect((await t.root.put(`/users/${user.id}`, { username })).status).toBe(200);
    const moved = await user.api.get(`/projects/${encodeURIComponent(`${username}/home`)}`);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: project.id, path_with_namespace: `${username}/home`, namespace: { path: username, full_path: username } });
    const old = await user.api.get(`/projects/${encodeURIComponent(`${user.username}/home`)}`);
    expect(old.status).toBe(301);
  });

  it("answers 409 for an e-mail or username another user has, before validation errors (users.rb)", async () => {
    const user = await createUser(t);
    const email = await t.root.put(`/users/${user.id}`, { email: `${regular.username}@example.com`, name: "" });
    expect(email.status).toBe(409);
    expect(email.body).toEqual({ message: "Email has already been taken" });
    const username = await t.root.put(`/users/${user.id}`, { username: regular.username.toUpperCase() });
    expect(username.status).toBe(409);
    expect(username.body).toEqual({ message: "Username has already been taken" });
    const group = await createGroup(t.root);
    expect((await t.root.put(`/users/${user.id}`, { username: group.path })).status).toBe(409);
  });

  it("accepts the user's own username and e-mail again", async () => {
    const user = await createUser(t);
    const res = await t.root.put(`/users/${user.id}`, { username: user.username, email: `${user.username}@example.com` });
    expect(res.status, res.text).toBe(200);
  });

  it.each([
    [{ name: "" }, { name: ["can't be blank"] }],
    [{ name: "x".repeat(256) }, { name: ["is too long (maximum is 255 characters)"] }],
    [{ email: "not-an-email" }, { email: ["is invalid"] }],
    [{ username: "-bad" }, { username: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."] }],
    [{ username: "ends.git" }, { username: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."] }],
    [{ password: "short" }, { password: ["is too short (minimum is 8 characters)"] }],
  ])("refuses %j with GitLab's validation error and changes nothing", async (params, errors) => {
    const user = await createUser(t);
    const res = await t.root.put(`/users/${user.id}`, params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: errors });
    const after = await t.root.get(`/users/${user.id}`);
    expect(after.body).toMatchObject({ username: user.username, name: `User ${user.username}` });
  });

  it("answers 400 for a badly typed admin flag", async () => {
    const res = await t.root.put(`/users/${regular.id}`, { admin: "maybe" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "admin is invalid" });
  });

  it.each([
    ["anonymous", null, 401, UNAUTHORIZED],
    ["a regular user", "regular", 403, FORBIDDEN],
    ["the user themself", "self", 403, FORBIDDEN],
  ] as const)("refuses %s", async (_name, who, status, body) => {
    const user = await createUser(t);
    const api = who === null ? t.anon : who === "self" ? user.api : regular.api;
    const res = await api.put(`/users/${user.id}`, { name: "Nope" });
    expect(res.status).toBe(status);
    expect(res.body).toEqual(body);
  });

  it("answers 404 User Not Found for an unknown id (admin), after the admin check", async () => {
    expect((await t.root.put("/users/999999", { name: "x" })).body).toEqual(USER_NOT_FOUND);
    expect((await regular.api.put("/users/999999", { name: "x" })).status).toBe(403);
  });

  it("is the GraphQL mutation updateUser too", async () => {
    const user = await createUser(t);
    const res = await t.root.graphql(`mutation { updateUser(id: ${user.id}, bio: "via graphql") { id bio } }`);
    expect(res.body.data.updateUser).toEqual({ id: user.id, bio: "via graphql" });
  });
});

describe("user avatars", () => {
  it("takes python-gitlab's multipart `avatar` on POST /users and serves it under PUBLIC_URL", async () => {
    const username = uniq("py").replace(/-/g, "_");
    const image = redPng();
    const res = await rawRequest(t.app, "POST", "/api/v4/users", pythonMultipart("root-test-token-0123456789abcdef", {
      username, name: "Py", email: `${username}@example.com`, password: "password-123456",
    }, image));
    expect(res.status, res.text).toBe(201);
    expect(res.body.avatar_url).toBe(`${UPLOADS}user/avatar/${res.body.id}/avatar.png`);
    expect(await storedAvatar(t, res.body.avatar_url)).toEqual(image);
    await expectServed(t.app, res.body.avatar_url, image, "image/png");
    // every entity naming the user shows it
    const listed = await t.root.get("/users", { query: { username } });
    expect(listed.body[0].avatar_url).toBe(res.body.avatar_url);
  });

  it("replaces the avatar on PUT /users/:id (gitbeaker's FormData) and removes the old file", async () => {
    const user = await createUser(t);
    const first = await t.root.put(`/users/${user.id}`, undefined, { form: gitbeakerForm({}, redPng(), "one.png", "image/png", "avatar") });
    expect(first.status, first.text).toBe(200);
    const second = await t.root.put(`/users/${user.id}`, undefined, { form: gitbeakerForm({ bio: "b" }, bluePng(), "two.png", "image/png", "avatar") });
    expect(second.status, second.text).toBe(200);
    expect(second.body.avatar_url).toBe(`${UPLOADS}user/avatar/${user.id}/two.png`);
    expect(await storedAvatar(t, first.body.avatar_url)).toBeNull();
    await expectServed(t.app, second.body.avatar_url, bluePng(), "image/png");
  });

  it.each([
    ["not an image", NOT_AN_IMAGE, "file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp"],
    ["too big", pngOfSize(200 * 1024 + 1), "is too big (should be at most 200 KiB)"],
  ])("refuses an avatar that is %s, changing nothing", async (_name, bytes, message) => {
    const user = await createUser(t);
    const res = await t.root.put(`/users/${user.id}`, undefined, { form: gitbeakerForm({ name: "Changed" }, bytes, "x.png", "image/png", "avatar") });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { avatar: [message] } });
    expect((await t.root.get(`/users/${user.id}`)).body.name).toBe(`User ${user.username}`);
  });
});

describe("block and unblock", () => {
  it("blocks an active user (201 true): the user's token is refused with 403, and works again once unblocked", async () => {
    const user = await createUser(t);
    expect((await user.api.get("/user")).status).toBe(200);
    const blocked = await t.root.post(`/users/${user.id}/block`);
    expect(blocked.status).toBe(201);
    expect(blocked.body).toBe(true);
    expect((await t.root.get(`/users/${user.id}`)).body.state).toBe("blocked");
    const refused = await user.api.get("/user");
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: "403 Forbidden - Your account has been blocked." });
    expect((await user.api.graphql("{ currentUser { id } }")).status).toBe(403);
    const unblocked = await t.root.post(`/users/${user.id}/unblock`);
    expect(unblocked.status).toBe(201);
    expect(unblocked.body).toBe(true);
    expect((await user.api.get("/user")).status).toBe(200);
  });

  it("answers 201 null for a user blocked already (users.rb `break if user.blocked?`), and for a banned one", async () => {
    const user = await createUser(t);
    await t.root.post(`/users/${user.id}/block`);
    const again = await t.root.post(`/users/${user.id}/block`);
    expect(again.status).toBe(201);
    expect(again.text).toBe("null");
    const banned = await createUser(t);
    await t.root.post(`/users/${banned.id}/ban`);
    expect((await t.root.post(`/users/${banned.id}/block`)).text).toBe("null");
  });

  it("blocks a deactivated user", async () => {
    const user = await createUser(t);
    expect((await t.root.post(`/users/${user.id}/deactivate`)).body).toBe(true);
    expect((await t.root.post(`/users/${user.id}/block`)).body).toBe(true);
    expect((await t.root.get(`/users/${user.id}`)).body.state).toBe("blocked");
  });

  it("refuses to let the API initiating user block themself", async () => {
    const res = await admin2.api.post(`/users/${admin2.id}/block`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "403 Forbidden - The API initiating user cannot be blocked by the API" });
  });

  it("refuses LDAP-blocked users both ways", async () => {
    const user = await createUser(t);
    await t.services.db.user.update({ where: { id: user.id }, data: { state: "ldap_blocked" } });
    expect((await t.root.post(`/users/${user.id}/block`)).body).toEqual({ message: "403 Forbidden - LDAP blocked users cannot be modified by the API" });
    expect((await t.root.post(`/users/${user.id}/unblock`)).body).toEqual({ message: "403 Forbidden - LDAP blocked users cannot be unblocked by the API" });
    const refused = await user.api.get("/user");
    expect(refused.body).toEqual({ message: "403 Forbidden - Your account has been blocked." });
  });

  it("answers 201 false when unblocking an active user, 403 for a deactivated one", async () => {
    const user = await createUser(t);
    const res = await t.root.post(`/users/${user.id}/unblock`);
    expect(res.status).toBe(201);
    expect(res.body).toBe(false);
    await t.root.post(`/users/${user.id}/deactivate`);
    const deactivated = await t.root.post(`/users/${user.id}/unblock`);
    expect(deactivated.status).toBe(403);
    expect(deactivated.body).toEqual({ message: "403 Forbidden - Deactivated users cannot be unblocked by the API" });
  });
});

describe("ban and unban", () => {
  it("bans an active user (tokens refused as blocked), unbans a banned one", async () => {
    const user = await createUser(t);
    const banned = await t.root.post(`/users/${user.id}/ban`);
    expect(banned.status).toBe(201);
    expect(banned.body).toBe(true);
    expect((await t.root.get(`/users/${user.id}`)).body.state).toBe("banned");
    expect((await user.api.get("/user")).body).toEqual({ message: "403 Forbidden - Your account has been blocked." });
    // banned users are hidden from non-administrators' lists, as blocked ones
    expect((await regular.api.get("/users", { query: { username: user.username } })).body).toEqual([]);
    const unbanned = await t.root.post(`/users/${user.id}/unban`);
    expect(unbanned.body).toBe(true);
    expect((await user.api.get("/user")).status).toBe(200);
  });

  it("refuses to ban users who are not active and to unban users who are not banned (Users::BannedUserBaseService)", async () => {
    const user = await createUser(t);
    const unban = await t.root.post(`/users/${user.id}/unban`);
    expect(unban.status).toBe(403);
    expect(unban.body).toEqual({ message: "You cannot unban active users." });
    await t.root.post(`/users/${user.id}/block`);
    const ban = await t.root.post(`/users/${user.id}/ban`);
    expect(ban.status).toBe(403);
    expect(ban.body).toEqual({ message: "You cannot ban blocked users." });
  });

  it("unblock also lifts a ban (the state machine's activate)", async () => {
    const user = await createUser(t);
    await t.root.post(`/users/${user.id}/ban`);
    expect((await t.root.post(`/users/${user.id}/unblock`)).body).toBe(true);
    expect((await t.root.get(`/users/${user.id}`)).body.state).toBe("active");
  });
});

describe("deactivate and activate", () => {
  it("deactivates a dormant user: the token is refused with GitLab's deactivated message until activated", async () => {
    const user = await createUser(t);
    const res = await t.root.post(`/users/${user.id}/deactivate`);
    expect(res.status).toBe(201);
    expect(res.body).toBe(true);
    expect((await t.root.get(`/users/${user.id}`)).body.state).toBe("deactivated");
    const refused = await user.api.get("/user");
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      message: "403 Forbidden - Your account has been deactivated by your administrator. " +
        `Please log back in from a web browser to reactivate your account at ${BASE_URL}`,
    });
    // a token does not reactivate the account (only a web sign-in does in GitLab)
    expect((await t.root.get(`/users/${user.id}`)).body.state).toBe("deactivated");
    const again = await t.root.post(`/users/${user.id}/deactivate`);
    expect(again.status).toBe(201);
    expect(again.text).toBe("null");
    const activated = await t.root.post(`/users/${user.id}/activate`);
    expect(activated.status).toBe(201);
    expect(activated.body).toBe(true);
    expect((await user.api.get("/user")).status).toBe(200);
  });

  it("refuses a user active in the past 90 days (Users::DeactivateService)", async () => {
    const user = await createUser(t);
    await user.api.get("/user"); // token use is the user's activity
    const res = await t.root.post(`/users/${user.id}/deactivate`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated" });
  });

  it("refuses blocked users both ways", async () => {
    const user = await createUser(t);
    await t.root.post(`/users/${user.id}/block`);
    const deactivate = await t.root.post(`/users/${user.id}/deactivate`);
    expect(deactivate.status).toBe(403);
    expect(deactivate.body).toEqual({ message: "Error occurred. A blocked user cannot be deactivated" });
    const activate = await t.root.post(`/users/${user.id}/activate`);
    expect(activate.status).toBe(403);
    expect(activate.body).toEqual({ message: "403 Forbidden - A blocked user must be unblocked to be activated" });
  });

  it("answers 201 false when activating an active user", async () => {
    const res = await t.root.post(`/users/${regular.id}/activate`);
    expect(res.status).toBe(201);
    expect(res.body).toBe(false);
  });
});

describe("states changed by another server process on the same database", () => {
  it("take effect at once for a token this process has cached (table versions)", async () => {
    const services = await createServices(t.services.config);
    const other = new ApiClient(createApp(services, () => {}), "root-test-token-0123456789abcdef");
    const user = await createUser(t);
    expect((await user.api.get("/user")).status).toBe(200); // cached here now
    expect((await other.post(`/users/${user.id}/block`)).body).toBe(true);
    expect((await user.api.get("/user")).status).toBe(403);
    expect((await other.post(`/users/${user.id}/unblock`)).body).toBe(true);
    expect((await user.api.get("/user")).status).toBe(200);
    expect((await other.delete(`/users/${user.id}`)).status).toBe(204);
    expect((await user.api.get("/user")).status).toBe(401);
    await services.db.$disconnect();
  });
});

describe("who may change states", () => {
  const ACTIONS = ["block", "unblock", "ban", "unban", "deactivate", "activate"];

  it.each(ACTIONS)("%s: 401 anonymous, 403 users (themselves too), 404 for an unknown user", async (action) => {
    const user = await createUser(t);
    expect((await post(null, `/users/${user.id}/${action}`)).body).toEqual(UNAUTHORIZED);
    expect((await post(regular, `/users/${user.id}/${action}`)).body).toEqual(FORBIDDEN);
    expect((await post(user, `/users/${user.id}/${action}`)).body).toEqual(FORBIDDEN);
    const missing = await t.root.post(`/users/999999/${action}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(USER_NOT_FOUND);
    expect((await t.root.get(`/users/${user.id}`)).body.state).toBe("active");
  });

  it("is reachable through GraphQL", async () => {
    const user = await createUser(t);
    const res = await t.root.graphql(`mutation { blockUser(id: ${user.id}) }`);
    expect(res.body.data).toEqual({ blockUser: true });
    const denied = await regular.api.graphql(`mutation { unblockUser(id: ${user.id}) }`);
    expect(denied.body.errors?.[0]?.extensions?.http).toEqual({ status: 403 });
  });
});

describe("GET /users/:user_id/memberships", () => {
  it("lists the user's group and project memberships with GitLab's Membership entity, filtered by type", async () => {
    const user = await createUser(t);
    const group = await createGroup(t.root);
    const project = await createProject(t.root);
    await addMember(t.root, "groups", group.id, user.id, 30);
    await addMember(t.root, "projects", project.id, user.id, 40);
    const own = await createProject(user.api, { name: "Mine" });
    const all = await t.root.get(`/users/${user.id}/memberships`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual([
      { source_id: group.id, source_name: group.name, source_type: "Namespace", access_level: 30 },
      { source_id: project.id, source_name: project.name, source_type: "Project", access_level: 40 },
      { source_id: own.id, source_name: "Mine", source_type: "Project", access_level: 50 },
    ]);
    expect(all.headers.get("x-total")).toBe("3");
    const projects = await t.root.get(`/users/${user.id}/memberships`, { query: { type: "Project" } });
    expect(projects.body.map((m: any) => m.source_id)).toEqual([project.id, own.id]);
    const groups = await t.root.get(`/users/${user.id}/memberships`, { query: { type: "Namespace" } });
    expect(groups.body.map((m: any) => m.source_id)).toEqual([group.id]);
    const page2 = await t.root.get(`/users/${user.id}/memberships`, { query: { per_page: 2, page: 2 } });
    expect(page2.body.map((m: any) => m.source_id)).toEqual([own.id]);
  });

  it("refuses a bad type, non-administrators and unknown users", async () => {
    expect((await t.root.get(`/users/${regular.id}/memberships`, { query: { type: "Group" } })).body)
      .toEqual({ error: "type does not have a valid value" });
    expect((await t.anon.get(`/users/${regular.id}/memberships`)).status).toBe(401);
    expect((await regular.api.get(`/users/${regular.id}/memberships`)).body).toEqual(FORBIDDEN);
    expect((await t.root.get("/users/999999/memberships")).body).toEqual(USER_NOT_FOUND);
  });
});

describe("GET /users/:user_id/projects", () => {
  it("lists the projects of the user's personal namespace that the caller may see, by id or username", async () => {
    const user = await createUser(t);
    const pub = await createProject(user.api, { visibility: "public" });
    const priv = await createProject(user.api, { visibility: "private" });
    const group = await createGroup(user.api);
    await createProject(user.api, { namespace_id: group.id }); // a group project is not the user's
    const ids = (res: any) => res.body.map((p: any) => p.id);
    expect(ids(await t.anon.get(`/users/${user.id}/projects`))).toEqual([pub.id]);
    expect(ids(await regular.api.get(`/users/${user.username}/projects`))).toEqual([pub.id]);
    expect(ids(await user.api.get(`/users/${user.id}/projects`))).toEqual([priv.id, pub.id]);
    expect(ids(await t.root.get(`/users/${user.username.toUpperCase()}/projects`, { query: { order_by: "id", sort: "asc" } }))).toEqual([pub.id, priv.id]);
    expect(ids(await user.api.get(`/users/${user.id}/projects`, { query: { visibility: "private" } }))).toEqual([priv.id]);
    const paged = await user.api.get(`/users/${user.id}/projects`, { query: { per_page: 1 } });
    expect(paged.headers.get("x-total")).toBe("2");
  });

  it("answers 404 User Not Found for an unknown user", async () => {
    const res = await t.anon.get("/users/no_such_user_here/projects");
    expect(res.status).toBe(404);
    expect(res.body).toEqual(USER_NOT_FOUND);
  });
});
