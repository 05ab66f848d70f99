// Groups and subgroups through /api/v4: visibility per actor, create, list filters and ordering,
// read by id and path, update (Owner only, path moves), subgroups and group projects.
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../helpers/api.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let owner: TestUser, maintainer: TestUser, developer: TestUser, reporter: TestUser, guest: TestUser;
let stranger: TestUser, subMember: TestUser, projectMember: TestUser;
// priv (private; guest..maintainer members) > privSub (private); pub (public) > pubSub (public), pubHidden (private);
// internal (internal); lone (private) > loneSub (subMember is a developer there), loneProject (projectMember)
let priv: any, privSub: any, pub: any, pubSub: any, pubHidden: any, internal: any, lone: any, loneSub: any;

const NOT_FOUND = { message: "404 Group Not Found" };
const FORBIDDEN = { message: "403 Forbidden" };
const ids = (body: any[]) => body.map((g) => g.id);
const enc = (path: string) => encodeURIComponent(path);

beforeAll(async () => {
  t = await startTestApp();
  [owner, maintainer, developer, reporter, guest, stranger, subMember, projectMember] = await Promise.all(
    Array.from({ length: 8 }, () => createUser(t)),
  );
  priv = await createGroup(owner.api);
  privSub = await createGroup(owner.api, { parent_id: priv.id });
  pub = await createGroup(owner.api, { visibility: "public" });
  pubSub = await createGroup(owner.api, { parent_id: pub.id, visibility: "public" });
  pubHidden = await createGroup(owner.api, { parent_id: pub.id });
  internal = await createGroup(owner.api, { visibility: "internal" });
  lone = await createGroup(owner.api);
  loneSub = await createGroup(owner.api, { parent_id: lone.id });
  for (const [user, level] of [[guest, 10], [reporter, 20], [developer, 30], [maintainer, 40]] as const) {
    await addMember(owner.api, "groups", priv.id, user.id, level);
  }
  await addMember(owner.api, "groups", loneSub.id, subMember.id, 30);
  const loneProject = await createProject(owner.api, { namespace_id: lone.id });
  await addMember(owner.api, "projects", loneProject.id, projectMember.id, 20);
});

describe("POST /groups", () => {
  it("answers 401 without a token", async () => {
    const res = await t.anon.post("/groups", { name: "x", path: "x" });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "401 Unauthorized" });
  });

  it("creates a private top-level group whose creator is its Owner", async () => {
    const path = uniq("Top");
    const res = await stranger.api.post("/groups", { name: "Top Group", path, description: "about" });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toMatchObject({
      name: "Top Group", path, full_path: path, full_name: "Top Group", parent_id: null, visibility: "private",
      description: "about", web_url: `${BASE_URL}/groups/${path}`, request_access_enabled: true,
    });
    const members = await stranger.api.get(`/groups/${res.body.id}/members`);
    expect(members.body.map((m: any) => [m.id, m.access_level])).toEqual([[stranger.id, 50]]);
  });

  it.each([
    [{ path: "p" }, "name is missing"],
    [{ name: "n" }, "path is missing"],
    [{}, "name is missing, path is missing"],
    [{ name: "n", path: "p", visibility: "secret" }, "visibility does not have a valid value"],
    [{ name: "n", path: "p", parent_id: "abc" }, "parent_id is invalid"],
  ])("rejects params %j", async (params, error) => {
    const res = await owner.api.post("/groups", params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
  });

  it("refuses a path already taken (case-insensitively), by a group or a user", async () => {
    for (const path of [priv.path.toUpperCase(), owner.username]) {
      const res = await stranger.api.post("/groups", { name: "Dup", path });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Failed to save group {:path=>["has already been taken"]}' });
    }
  });

  it.each(["-lead", "trail.", "repo.git", "feed.atom", "sp ace"])("refuses the path %j", async (path) => {
    const res = await stranger.api.post("/groups", { name: "Bad", path });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: `Failed to save group {:path=>["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."]}`,
    });
  });

  it("refuses a name with markup", async () => {
    const res = await stranger.api.post("/groups", { name: "<script>alert(1)</script>", path: uniq("m") });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `Failed to save group {:name=>["can contain only letters, digits, emoji, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'."]}`,
    );
  });

  describe("subgroups", () => {
    // a parent of its own, so that the subgroups created here stay out of the other tests' lists
    let kids: any, kidsSub: any, kidGuest: TestUser, kidDeveloper: TestUser, kidMaintainer: TestUser;
    beforeAll(async () => {
      [kidGuest, kidDeveloper, kidMaintainer] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
      kids = await createGroup(owner.api);
      kidsSub = await createGroup(owner.api, { parent_id: kids.id });
      for (const [user, level] of [[kidGuest, 10], [kidDeveloper, 30], [kidMaintainer, 40]] as const) {
        await addMember(owner.api, "groups", kids.id, user.id, level);
      }
    });

    it.each([
      ["the parent's Maintainer", () => kidMaintainer, 201],
      ["an admin", () => null, 201],
      ["the parent's Developer", () => kidDeveloper, 403],
      ["the parent's Guest", () => kidGuest, 403],
      ["a non-member of the private parent", () => stranger, 404],
    ])("%s: %i", async (_who, actor, status) => {
      const api = actor()?.api ?? t.root;
      const path = uniq("child");
      const res = await api.post("/groups", { name: "Child", path, parent_id: kids.id });
      expect(res.status).toBe(status);
      if (status === 201) expect(res.body).toMatchObject({ full_path: `${kids.full_path}/${path}`, parent_id: kids.id, full_name: `${kids.name} / Child` });
      if (status === 403) expect(res.body).toEqual(FORBIDDEN);
      if (status === 404) expect(res.body).toEqual(NOT_FOUND);
    });

    it("lets a Maintainer of an ancestor group create a subgroup deeper down (inherited)", async () => {
      const res = await kidMaintainer.api.post("/groups", { name: "Deep", path: uniq("deep"), parent_id: kidsSub.id });
      expect(res.status).toBe(201);
      expect(res.body.full_path.startsWith(`${kidsSub.full_path}/`)).toBe(true);
    });

    it("answers 403 to a non-member on a public parent", async () => {
      const res = await stranger.api.post("/groups", { name: "Child", path: uniq("c"), parent_id: pub.id });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    });

    it("refuses a visibility above the parent's", async () => {
      const res = await owner.api.post("/groups", { name: "Loud", path: uniq("loud"), parent_id: kids.id, visibility: "public" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: 'Failed to save group {:visibility_level=>["public is not allowed since the parent group has a private visibility."]}',
      });
    });

    it("allows the same path below another parent but not twice below one", async () => {
      const path = uniq("twin");
      await createGroup(owner.api, { path, parent_id: kids.id });
      await createGroup(owner.api, { path, parent_id: kidsSub.id });
      const again = await owner.api.post("/groups", { name: "Again", path, parent_id: kids.id });
      expect(again.status).toBe(400);
      expect(again.body.message).toBe('Failed to save group {:path=>["has already been taken"]}');
    });
  });
});

describe("GET /groups/:id", () => {
  const cases: [string, () => TestUser | "anon" | "root", () => any, number][] = [
    ["anonymous, public group", () => "anon", () => pub, 200],
    ["anonymous, internal group", () => "anon", () => internal, 404],
    ["anonymous, private group", () => "anon", () => priv, 404],
    ["non-member, internal group", () => stranger, () => internal, 200],
    ["non-member, private group", () => stranger, () => priv, 404],
    ["non-member, private subgroup of a public group", () => stranger, () => pubHidden, 404],
    ["guest", () => guest, () => priv, 200],
    ["inherited guest on the subgroup", () => guest, () => privSub, 200],
    ["member of a subgroup, on its private parent", () => subMember, () => lone, 200],
    ["member of a project, on its private group", () => projectMember, () => lone, 200],
    ["member of a project, on a private sibling subgroup", () => projectMember, () => loneSub, 404],
    ["admin", () => "root", () => priv, 200],
  ];

  it.each(cases)("%s: %i", async (_name, actor, group, status) => {
    const who = actor();
    const api = who === "anon" ? t.anon : who === "root" ? t.root : who.api;
    const res = await api.get(`/groups/${group().id}`);
    expect(res.status).toBe(status);
    if (status === 404) expect(res.body).toEqual(NOT_FOUND);
    else expect(res.body).toMatchObject({ id: group().id, full_path: group().full_path });
  });

  it("finds a group by its full path, URL-encoded, case-insensitively", async () => {
    const res = await guest.api.get(`/groups/${enc(privSub.full_path.toUpperCase())}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: privSub.id, parent_id: priv.id, full_name: `${priv.name} / ${privSub.name}` });
  });

  it("answers 404 for unknown ids and paths", async () => {
    expect((await t.root.get("/groups/999999")).body).toEqual(NOT_FOUND);
    expect((await t.root.get(`/groups/${enc("no/such")}`)).status).toBe(404);
  });

  it("needs %2F: an unencoded slash matches no route", async () => {
    const res = await t.root.get(`/groups/${privSub.full_path}`, { raw: true });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "404 Not Found" });
  });
});

describe("GET /groups", () => {
  it("shows anonymous callers the public groups only", async () => {
    const res = await t.anon.get("/groups", { query: { per_page: 100 } });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(expect.arrayContaining([pub.id, pubSub.id]));
    expect(res.body.every((g: any) => g.visibility === "public")).toBe(true);
  });

  it("shows a user only their own groups unless all_available=true", async () => {
    const mine = await guest.api.get("/groups", { query: { per_page: 100 } });
    expect(ids(mine.body).sort()).toEqual([priv.id, privSub.id].sort());
    const all = await guest.api.get("/groups", { query: { all_available: true, per_page: 100 } });
    expect(ids(all.body)).toEqual(expect.arrayContaining([priv.id, privSub.id, pub.id, pubSub.id, internal.id]));
    expect(ids(all.body)).not.toContain(pubHidden.id);
    expect(ids(all.body)).not.toContain(lone.id);
  });

  it("includes the ancestors of a user's subgroups and of their projects' groups", async () => {
    expect(ids((await subMember.api.get("/groups")).body).sort()).toEqual([lone.id, loneSub.id].sort());
    expect(ids((await projectMember.api.get("/groups")).body)).toEqual([lone.id]);
    expect((await stranger.api.get("/groups")).body.filter((g: any) => [priv.id, pub.id, lone.id].includes(g.id))).toEqual([]);
  });

  it("shows admins every group, or only their own with all_available=false", async () => {
    const all = await t.root.get("/groups", { query: { per_page: 100 } });
    expect(ids(all.body)).toEqual(expect.arrayContaining([priv.id, privSub.id, pubHidden.id, lone.id, loneSub.id]));
    const own = await t.root.get("/groups", { query: { all_available: false, per_page: 100 } });
    expect(ids(own.body)).not.toContain(priv.id);
  });

  it("filters by search (name, path or full path, any case)", async () => {
    const res = await owner.api.get("/groups", { query: { search: privSub.path.toUpperCase() } });
    expect(ids(res.body)).toEqual([privSub.id]);
    const byFullPath = await owner.api.get("/groups", { query: { search: `${priv.path}/${privSub.path}` } });
    expect(ids(byFullPath.body)).toEqual([privSub.id]);
  });

  it("treats a search shorter than 3 characters as a whole-value match", async () => {
    const tiny = await createGroup(stranger.api, { name: "ab", path: uniq("ab") });
    await createGroup(stranger.api, { name: "abc", path: uniq("abc") });
    await createGroup(stranger.api, { name: "abab", path: uniq("abab") }); // starts and ends with "ab"
    const res = await stranger.api.get("/groups", { query: { search: "AB" } });
    expect(ids(res.body)).toEqual([tiny.id]);
  });

  it("filters owned groups (direct Owner membership only)", async () => {
    const res = await owner.api.get("/groups", { query: { owned: true, per_page: 100 } });
    expect(ids(res.body)).toEqual(expect.arrayContaining([priv.id, privSub.id, pub.id]));
    expect((await maintainer.api.get("/groups", { query: { owned: true } })).body).toEqual([]);
    expect((await t.anon.get("/groups", { query: { owned: true } })).body).toEqual([]);
  });

  it("filters by min_access_level (including descendants)", async () => {
    expect(ids((await developer.api.get("/groups", { query: { min_access_level: 30 } })).body).sort()).toEqual([priv.id, privSub.id].sort());
    expect((await reporter.api.get("/groups", { query: { min_access_level: 30 } })).body).toEqual([]);
  });

  it("filters top-level groups and by visibility", async () => {
    const top = await guest.api.get("/groups", { query: { top_level_only: true } });
    expect(ids(top.body)).toEqual([priv.id]);
    const internalOnly = await stranger.api.get("/groups", { query: { all_available: true, visibility: "internal", per_page: 100 } });
    expect(internalOnly.body.length).toBeGreaterThan(0);
    expect(internalOnly.body.every((g: any) => g.visibility === "internal")).toBe(true);
  });

  describe("ordering", () => {
    let mine: any[];
    beforeAll(async () => {
      const user = await createUser(t);
      mine = [];
      for (const [name, path] of [["beta", "zz"], ["alpha", "yy"], ["same", "xb"], ["same", "xa"]]) {
        mine.push(await createGroup(user.api, { name, path: uniq(path) }));
      }
      (mine as any).api = user.api;
    });
    const list = async (query: Record<string, string>) => ids((await (mine as any).api.get("/groups", { query })).body);

    it("orders by name ascending with ids ascending as the tie-breaker", async () => {
      const [beta, alpha, same1, same2] = mine;
      expect(await list({})).toEqual([alpha.id, beta.id, same1.id, same2.id]);
      expect(await list({ sort: "desc" })).toEqual([same1.id, same2.id, beta.id, alpha.id]);
    });

    it("orders by path or id", async () => {
      const [beta, alpha, same1, same2] = mine;
      expect(await list({ order_by: "path" })).toEqual([same2.id, same1.id, alpha.id, beta.id]);
      expect(await list({ order_by: "id", sort: "desc" })).toEqual([same2.id, same1.id, alpha.id, beta.id]);
    });

    it("rejects an unknown order", async () => {
      const res = await (mine as any).api.get("/groups", { query: { order_by: "size" } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "order_by does not have a valid value" });
    });
  });

  it("sends offset pagination headers", async () => {
    const res = await owner.api.get("/groups", { query: { per_page: 2, page: 2, owned: true } });
    expect(res.headers.get("x-page")).toBe("2");
    expect(res.headers.get("x-per-page")).toBe("2");
    expect(res.headers.get("x-prev-page")).toBe("1");
    expect(Number(res.headers.get("x-total"))).toBeGreaterThanOrEqual(8);
    expect(res.headers.get("link")).toContain('rel="next"');
  });

  it("walks keyset pagination (order_by=name) to the end through Link rel=next", async () => {
    const expected = (await t.anon.get("/groups", { query: { per_page: 100 } })).body.map((g: any) => g.id);
    let url: string | null = `/groups?pagination=keyset&order_by=name&sort=asc&per_page=2`;
    const seen: number[] = [];
    for (let pages = 0; url && pages < 50; pages++) {
      const res: any = await t.anon.get(url, { raw: true });
      expect(res.status).toBe(200);
      seen.push(...ids(res.body));
      const link = res.headers.get("link");
      url = link ? /<http:\/\/forgeline\.test\/api\/v4([^>]+)>; rel="next"/.exec(link)![1]! : null;
      if (url) expect(link).toContain("cursor=");
    }
    expect(seen).toEqual(expected);
  });

  it("refuses keyset pagination for another order", async () => {
    const res = await t.anon.get("/groups", { query: { pagination: "keyset", order_by: "path" } });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: "Keyset pagination is not yet available for this type of request" });
  });
});

describe("PUT /groups/:id", () => {
  const refusals: [string, () => TestUser | "anon", number, object][] = [
    ["anonymous", () => "anon", 401, { message: "401 Unauthorized" }],
    ["a non-member", () => stranger, 404, NOT_FOUND],
    ["a Guest", () => guest, 403, FORBIDDEN],
    ["a Developer", () => developer, 403, FORBIDDEN],
    ["a Maintainer", () => maintainer, 403, FORBIDDEN],
  ];
  it.each(refusals)("refuses %s", async (_name, actor, status, body) => {
    const who = actor();
    const res = await (who === "anon" ? t.anon : who.api).put(`/groups/${priv.id}`, { description: "no" });
    expect(res.status).toBe(status);
    expect(res.body).toEqual(body);
  });

  it("lets the Owner, an inherited Owner and an admin update", async () => {
    const mine = await createGroup(owner.api);
    const sub = await createGroup(owner.api, { parent_id: mine.id });
    expect((await owner.api.put(`/groups/${mine.id}`, { name: "Renamed", description: "d" })).body).toMatchObject({ name: "Renamed", description: "d", path: mine.path });
    expect((await owner.api.put(`/groups/${sub.id}`, { description: "inherited" })).status).toBe(200);
    const byAdmin = await t.root.put(`/groups/${enc(sub.full_path)}`, { visibility: "private", description: "admin" });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({ description: "admin", full_name: `Renamed / ${sub.name}` });
  });

  it("renders validation errors as a message hash", async () => {
    const mine = await createGroup(owner.api, { visibility: "public" });
    await createGroup(owner.api, { parent_id: mine.id, visibility: "internal" });
    const taken = await owner.api.put(`/groups/${mine.id}`, { path: priv.path });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: { path: ["has already been taken"] } });
    const hidden = await owner.api.put(`/groups/${mine.id}`, { visibility: "private" });
    expect(hidden.body).toEqual({ message: { visibility_level: ["private is not allowed since there are sub-groups with higher visibility."] } });
    await createProject(owner.api, { namespace_id: mine.id, visibility: "public" });
    const withProject = await owner.api.put(`/groups/${mine.id}`, { visibility: "internal" });
    expect(withProject.body).toEqual({ message: { visibility_level: ["internal is not allowed since this group contains projects with higher visibility."] } });
    const aboveParent = await owner.api.put(`/groups/${privSub.id}`, { visibility: "internal" });
    expect(aboveParent.body).toEqual({ message: { visibility_level: ["internal is not allowed since the parent group has a private visibility."] } });
  });

  it("moves the subtree on a path change; projects inside answer on their old paths with 301", async () => {
    const top = await createGroup(owner.api);
    const mid = await createGroup(owner.api, { parent_id: top.id });
    const project = await createProject(owner.api, { namespace_id: mid.id });
    const newPath = uniq("moved");
    const res = await owner.api.put(`/groups/${top.id}`, { path: newPath });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ path: newPath, full_path: newPath });
    expect((await owner.api.get(`/groups/${enc(`${newPath}/${mid.path}`)}`)).body.id).toBe(mid.id);
    expect((await owner.api.get(`/groups/${enc(mid.full_path)}`)).status).toBe(404);
    const moved = await owner.api.get(`/projects/${enc(project.path_with_namespace)}`);
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe(`${BASE_URL}/api/v4/projects/${project.id}`);
    const current = await owner.api.get(`/projects/${enc(`${newPath}/${mid.path}/${project.path}`)}`);
    expect(current.body).toMatchObject({ id: project.id, path_with_namespace: `${newPath}/${mid.path}/${project.path}` });
  });
});

describe("GET /groups/:id/subgroups", () => {
  const sub = (api: ApiClient, id: number, query = {}) => api.get(`/groups/${id}/subgroups`, { query });

  it("shows anonymous callers the public subgroups of a public group", async () => {
    const res = await sub(t.anon, pub.id);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([pubSub.id]);
    expect(res.body[0].parent_id).toBe(pub.id);
    expect((await sub(t.anon, priv.id)).body).toEqual(NOT_FOUND);
  });

  it("shows a non-member nothing unless all_available=true", async () => {
    expect((await sub(stranger.api, pub.id)).body).toEqual([]);
    expect(ids((await sub(stranger.api, pub.id, { all_available: true })).body)).toEqual([pubSub.id]);
    expect((await sub(stranger.api, priv.id)).status).toBe(404);
  });

  it("shows members and admins the private subgroups too", async () => {
    expect(ids((await sub(guest.api, priv.id)).body)).toContain(privSub.id);
    expect(ids((await sub(t.root, pub.id)).body).sort()).toEqual([pubSub.id, pubHidden.id].sort());
    expect(ids((await sub(owner.api, pub.id, { search: pubHidden.path })).body)).toEqual([pubHidden.id]);
  });
});

describe("GET /groups/:id/projects", () => {
  let open: any, hidden: any, internalP: any, nested: any;
  beforeAll(async () => {
    open = await createProject(owner.api, { namespace_id: pub.id, visibility: "public" });
    internalP = await createProject(owner.api, { namespace_id: pub.id, visibility: "internal" });
    hidden = await createProject(owner.api, { namespace_id: pub.id });
    nested = await createProject(owner.api, { namespace_id: pubSub.id, visibility: "public" });
  });
  const projects = async (api: ApiClient, query = {}) => (await api.get(`/groups/${pub.id}/projects`, { query })).body.map((p: any) => p.id).sort();

  it("lists what each caller may see", async () => {
    expect(await projects(t.anon)).toEqual([open.id]);
    expect(await projects(stranger.api)).toEqual([open.id, internalP.id].sort());
    expect(await projects(owner.api)).toEqual([open.id, internalP.id, hidden.id].sort());
    expect(await projects(t.root)).toEqual([open.id, internalP.id, hidden.id].sort());
  });

  it("includes subgroups on request, and filters", async () => {
    expect(await projects(t.anon, { include_subgroups: true })).toEqual([open.id, nested.id].sort());
    expect(await projects(owner.api, { visibility: "internal" })).toEqual([internalP.id]);
    expect(await projects(owner.api, { search: hidden.path })).toEqual([hidden.id]);
  });

  it("GET /groups/:id embeds the projects the caller can see (GroupDetail), unless with_projects=false", async () => {
    const embedded = async (api: ApiClient) => (await api.get(`/groups/${pub.id}`)).body.projects.map((p: any) => p.id).sort();
    expect(await embedded(t.anon)).toEqual([open.id]);
    expect(await embedded(owner.api)).toEqual([open.id, internalP.id, hidden.id].sort());
    const detail = await owner.api.get(`/groups/${pub.id}`);
    expect(detail.body.shared_projects).toEqual([]);
    expect(detail.body.projects.find((p: any) => p.id === open.id)).toMatchObject({ path_with_namespace: open.path_with_namespace, namespace: { id: pub.id } });
    const bare = await owner.api.get(`/groups/${pub.id}`, { query: { with_projects: false } });
    expect(bare.body).toMatchObject({ id: pub.id, projects: null, shared_projects: null });
  });

  it("answers 404 on a group the caller cannot see", async () => {
    const res = await stranger.api.get(`/groups/${priv.id}/projects`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });
});
