// Group and project members through /api/v4: who may read and manage them, inherited members,
// GitLab's checks and their order (404 source, 404 user, 409, 403, 400), the Owner rules.
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../helpers/api.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject, createUser, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let owner: TestUser, maintainer: TestUser, developer: TestUser, reporter: TestUser, guest: TestUser, stranger: TestUser;
// group (private: owner 50, maintainer 40, developer 30, reporter 20, guest 10) > sub > project (private)
let group: any, sub: any, project: any, openGroup: any, openProject: any;

type Kind = "groups" | "projects";
const KINDS: Kind[] = ["groups", "projects"];
const source = (kind: Kind) => (kind === "groups" ? group : project);
const notFound = (kind: Kind) => ({ message: kind === "groups" ? "404 Group Not Found" : "404 Project Not Found" });
const FORBIDDEN = { message: "403 Forbidden" };
const levels = (body: any[]) => body.map((m) => [m.id, m.access_level]);

beforeAll(async () => {
  t = await startTestApp();
  [owner, maintainer, developer, reporter, guest, stranger] = await Promise.all(Array.from({ length: 6 }, () => createUser(t)));
  group = await createGroup(owner.api);
  sub = await createGroup(owner.api, { parent_id: group.id });
  project = await createProject(owner.api, { namespace_id: sub.id });
  for (const [user, level] of [[maintainer, 40], [developer, 30], [reporter, 20], [guest, 10]] as const) {
    await addMember(owner.api, "groups", group.id, user.id, level);
    await addMember(owner.api, "projects", project.id, user.id, level);
  }
  openGroup = await createGroup(owner.api, { visibility: "public" });
  openProject = await createProject(owner.api, { namespace_id: openGroup.id, visibility: "public" });
});

/** A fresh user added to `kind`'s source at `level` (by the owner). */
async function member(kind: Kind, level: number): Promise<TestUser> {
  const user = await createUser(t);
  await addMember(owner.api, kind, source(kind).id, user.id, level);
  return user;
}

describe.each(KINDS)("GET /%s/:id/members", (kind) => {
  const url = () => `/${kind}/${source(kind).id}/members`;

  it("needs a token, even on public sources", async () => {
    const res = await t.anon.get(`/${kind}/${kind === "groups" ? openGroup.id : openProject.id}/members`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "401 Unauthorized" });
  });

  it("hides a private source from non-members", async () => {
    const res = await stranger.api.get(url());
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFound(kind));
  });

  it("lists the direct members to any member, with GitLab's fields", async () => {
    const res = await guest.api.get(url());
    expect(res.status).toBe(200);
    const expected = [[maintainer.id, 40], [developer.id, 30], [reporter.id, 20], [guest.id, 10]];
    expect(levels(res.body)).toEqual(kind === "groups" ? [[owner.id, 50], ...expected] : expected);
    expect(res.body.find((m: any) => m.id === guest.id)).toEqual({
      id: guest.id, username: guest.username, name: `User ${guest.username}`, state: "active", locked: false,
      avatar_url: expect.stringMatching(/^https:\/\/www\.gravatar\.com\/avatar\//), web_url: `http://forgeline.test/${guest.username}`,
      access_level: 10, created_at: expect.any(String), expires_at: null, membership_state: "active",
    });
    expect(res.headers.get("x-total")).toBe(String(expected.length + (kind === "groups" ? 1 : 0)));
  });

  it("lists the members of a public source to non-members", async () => {
    const res = await stranger.api.get(`/${kind}/${kind === "groups" ? openGroup.id : openProject.id}/members`);
    expect(res.status).toBe(200);
  });

  it("filters by query and user_ids", async () => {
    expect(levels((await owner.api.get(url(), { query: { query: developer.username.toUpperCase() } })).body)).toEqual([[developer.id, 30]]);
    const byIds = await owner.api.get(`${url()}?user_ids[]=${guest.id}&user_ids[]=${stranger.id}`, { raw: true });
    expect(levels(byIds.body)).toEqual([[guest.id, 10]]);
  });
});

describe("GET /:source/:id/members/all", () => {
  it("adds inherited members with each user's highest level, by user id", async () => {
    const both = await createUser(t);
    await addMember(owner.api, "groups", group.id, both.id, 20);
    await addMember(owner.api, "projects", project.id, both.id, 40);
    const res = await guest.api.get(`/projects/${project.id}/members/all`, { query: { per_page: 100 } });
    expect(res.status).toBe(200);
    const expected = [[owner.id, 50], [maintainer.id, 40], [developer.id, 30], [reporter.id, 20], [guest.id, 10], [both.id, 40]];
    expect(levels(res.body)).toEqual(expected.sort((a, b) => a[0]! - b[0]!));
    const subAll = await guest.api.get(`/groups/${sub.id}/members/all`, { query: { per_page: 100 } });
    expect(levels(subAll.body)).toContainEqual([both.id, 20]);
    expect(levels((await guest.api.get(`/groups/${sub.id}/members`)).body)).toEqual([[owner.id, 50]]); // the creator
  });

  it("GET .../members/all/:user_id finds an inherited member, 404 for a non-member", async () => {
    const groupOnly = await createUser(t);
    await addMember(owner.api, "groups", group.id, groupOnly.id, 30);
    const inherited = await guest.api.get(`/projects/${project.id}/members/all/${groupOnly.id}`);
    expect(inherited.status).toBe(200);
    expect(inherited.body).toMatchObject({ id: groupOnly.id, username: groupOnly.username, access_level: 30 });
    expect((await guest.api.get(`/projects/${project.id}/members/${groupOnly.id}`)).status).toBe(404); // not a direct member
    const subInherited = await guest.api.get(`/groups/${sub.id}/members/all/${groupOnly.id}`);
    expect(subInherited.body).toMatchObject({ id: groupOnly.id, access_level: 30 });
    const none = await guest.api.get(`/projects/${project.id}/members/all/${stranger.id}`);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ message: "404 Not found" });
  });

  it("refuses a subgroup-only member the private parent's member list (403)", async () => {
    const inner = await createUser(t);
    await addMember(owner.api, "groups", sub.id, inner.id, 30);
    expect((await inner.api.get(`/groups/${group.id}`)).status).toBe(200);
    for (const path of ["members", "members/all", `members/${owner.id}`]) {
      const res = await inner.api.get(`/groups/${group.id}/${path}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
  });
});

describe.each(KINDS)("GET /%s/:id/members/:user_id", (kind) => {
  it("answers the direct member, or 404 Not found", async () => {
    const res = await reporter.api.get(`/${kind}/${source(kind).id}/members/${developer.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: developer.id, access_level: 30 });
    const none = await reporter.api.get(`/${kind}/${source(kind).id}/members/${stranger.id}`);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ message: "404 Not found" });
  });
});

describe.each(KINDS)("POST /%s/:id/members", (kind) => {
  const post = (api: ApiClient, body: Record<string, unknown>) => api.post(`/${kind}/${source(kind).id}/members`, body);

  it.each([
    [{ user_id: 1, access_level: 25 }, "access_level does not have a valid value"],
    [{ user_id: 1 }, "access_level is missing"],
    [{ access_level: 30 }, "user_id, username are missing, at least one parameter must be provided"],
    [{ user_id: 1, username: "root", access_level: 30 }, "user_id, username are mutually exclusive"],
    [{ user_id: "abc", access_level: 30 }, "user_id is invalid"],
  ])("rejects %j", async (body, error) => {
    const res = await post(owner.api, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
  });

  it("answers 401, then 404 for hidden sources and unknown users, then 409, then 403", async () => {
    const newcomer = await createUser(t);
    expect((await post(t.anon, { user_id: newcomer.id, access_level: 30 })).status).toBe(401);
    expect((await post(stranger.api, { user_id: newcomer.id, access_level: 30 })).body).toEqual(notFound(kind));
    expect((await post(owner.api, { user_id: 999999, access_level: 30 })).body).toEqual({ message: "404 User Not Found" });
    const dup = await post(developer.api, { user_id: guest.id, access_level: 30 });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ message: "Member already exists" });
    const denied = await post(developer.api, { user_id: newcomer.id, access_level: 30 });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(FORBIDDEN);
  });

  it("lets a Maintainer add members to projects only, and never as Owner", async () => {
    const newcomer = await createUser(t);
    const res = await post(maintainer.api, { user_id: newcomer.id, access_level: 40 });
    expect(res.status).toBe(kind === "projects" ? 201 : 403);
    const asOwner = await post(maintainer.api, { user_id: (await createUser(t)).id, access_level: 50 });
    expect(asOwner.status).toBe(403);
  });

  it("lets the Owner and an admin add members (by id or username), with an expiry date", async () => {
    const [a, b] = await Promise.all([createUser(t), createUser(t)]);
    const res = await post(owner.api, { user_id: a.id, access_level: 50, expires_at: "2099-01-31" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: a.id, username: a.username, access_level: 50, expires_at: "2099-01-31" });
    const byName = await post(t.root, { username: b.username.toUpperCase(), access_level: 10 });
    expect(byName.status).toBe(201);
    expect(byName.body).toMatchObject({ id: b.id, access_level: 10 });
  });

  it("refuses an expiry date in the past", async () => {
    const res = await post(owner.api, { user_id: (await createUser(t)).id, access_level: 30, expires_at: "2001-01-01" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { expires_at: ["cannot be a date in the past"] } });
  });
});

describe("inherited access levels", () => {
  it("refuses a level below the user's membership of an ancestor group", async () => {
    const user = await createUser(t);
    await addMember(owner.api, "groups", group.id, user.id, 30);
    // the subgroup inherits Developer from the group; once a Maintainer of the subgroup, the project inherits that
    for (const [path, level, from] of [[`/groups/${sub.id}/members`, "Developer", group.name], [`/projects/${project.id}/members`, "Maintainer", sub.name]]) {
      const low = await owner.api.post(path!, { user_id: user.id, access_level: 20 });
      expect(low.status).toBe(400);
      expect(low.body).toEqual({ message: { access_level: [`should be greater than or equal to ${level} inherited membership from group ${from}`] } });
      expect((await owner.api.post(path!, { user_id: user.id, access_level: 40 })).status).toBe(201);
    }
  });

  it("gives a group's members access to its subgroups and projects", async () => {
    expect((await guest.api.get(`/groups/${sub.id}`)).status).toBe(200);
    expect((await stranger.api.get(`/groups/${sub.id}`)).status).toBe(404);
    const user = await createUser(t);
    await addMember(owner.api, "groups", group.id, user.id, 40);
    const res = await user.api.post(`/projects/${project.id}/members`, { user_id: (await createUser(t)).id, access_level: 30 });
    expect(res.status).toBe(201);
  });
});

describe.each(KINDS)("PUT /%s/:id/members/:user_id", (kind) => {
  const put = (api: ApiClient, userId: number, body: Record<string, unknown>) => api.put(`/${kind}/${source(kind).id}/members/${userId}`, body);

  it("answers 404 Not found for a non-member and 400 for bad levels", async () => {
    expect((await put(owner.api, stranger.id, { access_level: 30 })).body).toEqual({ message: "404 Not found" });
    expect((await put(owner.api, guest.id, { access_level: 25 })).body).toEqual({ error: "access_level does not have a valid value" });
    expect((await put(owner.api, guest.id, {})).body).toEqual({ error: "access_level is missing" });
  });

  it("lets the managing level change a member, within the Owner rules", async () => {
    const user = await member(kind, 10);
    expect((await put(developer.api, user.id, { access_level: 20 })).status).toBe(403);
    const byMaintainer = await put(maintainer.api, user.id, { access_level: 30, expires_at: "2099-12-31" });
    expect(byMaintainer.status).toBe(kind === "projects" ? 200 : 403);
    expect((await put(maintainer.api, user.id, { access_level: 50 })).status).toBe(403);
    const byOwner = await put(owner.api, user.id, { access_level: 40 });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body).toMatchObject({ id: user.id, access_level: 40 });
  });

  it("keeps a project Maintainer away from Owners", async () => {
    const user = await member(kind, 50);
    expect((await put(maintainer.api, user.id, { access_level: 40 })).status).toBe(403);
    expect((await put(owner.api, user.id, { access_level: 40 })).status).toBe(200);
  });
});

describe.each(KINDS)("DELETE /%s/:id/members/:user_id", (kind) => {
  const del = (api: ApiClient, userId: number) => api.delete(`/${kind}/${source(kind).id}/members/${userId}`);

  it("lets a member leave", async () => {
    const user = await member(kind, 20);
    const res = await del(user.api, user.id);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await user.api.get(`/${kind}/${source(kind).id}`)).status).toBe(404);
  });

  it("needs the managing level to remove someone else", async () => {
    const user = await member(kind, 20);
    expect((await del(developer.api, user.id)).body).toEqual(FORBIDDEN);
    expect((await del(maintainer.api, user.id)).status).toBe(kind === "projects" ? 204 : 403);
    if (kind === "groups") expect((await del(owner.api, user.id)).status).toBe(204);
    expect((await del(owner.api, user.id)).body).toEqual({ message: "404 Not found" });
  });

  it("keeps a project Maintainer from removing an Owner", async () => {
    const user = await member(kind, 50);
    expect((await del(maintainer.api, user.id)).status).toBe(403);
    expect((await del(t.root, user.id)).status).toBe(204);
  });
});

describe("the last Owner", () => {
  it("of a top-level group cannot be removed or demoted, even by themselves", async () => {
    const solo = await createUser(t);
    const mine = await createGroup(solo.api);
    expect((await solo.api.delete(`/groups/${mine.id}/members/${solo.id}`)).body).toEqual(FORBIDDEN);
    expect((await solo.api.put(`/groups/${mine.id}/members/${solo.id}`, { access_level: 40 })).status).toBe(403);
    expect((await t.root.delete(`/groups/${mine.id}/members/${solo.id}`)).status).toBe(403);
    const second = await createUser(t);
    await addMember(solo.api, "groups", mine.id, second.id, 50);
    expect((await solo.api.put(`/groups/${mine.id}/members/${solo.id}`, { access_level: 40 })).status).toBe(200);
    expect((await second.api.delete(`/groups/${mine.id}/members/${second.id}`)).status).toBe(403);
  });

  it("of a subgroup may go: the parent's Owners remain", async () => {
    const solo = await createUser(t);
    const top = await createGroup(solo.api);
    const child = await createGroup(solo.api, { parent_id: top.id });
    expect((await solo.api.delete(`/groups/${child.id}/members/${solo.id}`)).status).toBe(204);
    expect((await solo.api.get(`/groups/${child.id}`)).status).toBe(200);
  });

  it("of a personal project (its namespace owner) keeps the membership", async () => {
    const solo = await createUser(t);
    const mine = await createProject(solo.api);
    expect((await solo.api.delete(`/projects/${mine.id}/members/${solo.id}`)).body).toEqual(FORBIDDEN);
    expect((await solo.api.put(`/projects/${mine.id}/members/${solo.id}`, { access_level: 40 })).status).toBe(403);
  });
});

describe("removing a group member", () => {
  it("also removes their memberships below it, unless skip_subresources=true", async () => {
    for (const skip of [false, true]) {
      const user = await createUser(t);
      await addMember(owner.api, "groups", group.id, user.id, 30);
      await addMember(owner.api, "groups", sub.id, user.id, 30);
      await addMember(owner.api, "projects", project.id, user.id, 30);
      const res = await owner.api.delete(`/groups/${group.id}/members/${user.id}`, { query: { skip_subresources: skip } });
      expect(res.status).toBe(204);
      expect((await owner.api.get(`/groups/${sub.id}/members/${user.id}`)).status).toBe(skip ? 200 : 404);
      expect((await owner.api.get(`/projects/${project.id}/members/${user.id}`)).status).toBe(skip ? 200 : 404);
    }
  });
});
