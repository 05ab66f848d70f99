// Projects through /api/v4: create (namespaces, membership, validation, topics), list (filters,
// ordering, offset and keyset pagination), read by id and path, update, transfer.
import { beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../src/app.js";
import { createApp } from "../../src/app.js";
import { ApiClient } from "../helpers/api.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let owner: TestUser, maintainer: TestUser, developer: TestUser, reporter: TestUser, guest: TestUser, stranger: TestUser;
// group (private; guest..maintainer members) > sub (private) > deep (private project)
let group: any, sub: any, deep: any, pub: any;

const NOT_FOUND = { message: "404 Project Not Found" };
const FORBIDDEN = { message: "403 Forbidden" };
const enc = (path: string) => encodeURIComponent(path);
const ids = (body: any[]) => body.map((p) => p.id);

beforeAll(async () => {
  t = await startTestApp();
  [owner, maintainer, developer, reporter, guest, stranger] = await Promise.all(Array.from({ length: 6 }, () => createUser(t)));
  group = await createGroup(owner.api);
  sub = await createGroup(owner.api, { parent_id: group.id });
  pub = await createGroup(owner.api, { visibility: "public" });
  for (const [user, level] of [[guest, 10], [reporter, 20], [developer, 30], [maintainer, 40]] as const) {
    await addMember(owner.api, "groups", group.id, user.id, level);
  }
  deep = await createProject(owner.api, { namespace_id: sub.id, name: "Deep Project", path: uniq("deep"), description: "deep down" });
});

describe("POST /projects", () => {
  it("answers 401 without a token", async () => {
    const res = await t.anon.post("/projects", { name: "x" });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "401 Unauthorized" });
  });

  it("creates a personal project whose namespace owner is its Owner", async () => {
    const res = await stranger.api.post("/projects", { name: "My Project", description: "mine" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "My Project", path: "my-project", path_with_namespace: `${stranger.username}/my-project`,
      name_with_namespace: `User ${stranger.username} / My Project`, description: "mine", visibility: "private",
      default_branch: "main", creator_id: stranger.id, web_url: `${BASE_URL}/${stranger.username}/my-project`,
      http_url_to_repo: `${BASE_URL}/${stranger.username}/my-project.git`, ssh_url_to_repo: `git@forgeline.test:${stranger.username}/my-project.git`,
      namespace: { kind: "user", full_path: stranger.username }, owner: { id: stranger.id, username: stranger.username },
      permissions: { project_access: { access_level: 50 }, group_access: null },
    });
    const members = await stranger.api.get(`/projects/${res.body.id}/members`);
    expect(members.body.map((m: any) => [m.id, m.access_level])).toEqual([[stranger.id, 50]]);
  });

  it.each([
    [{ name: "CamelCase" }, "CamelCase", "CamelCase"],
    [{ name: "Déjà  vu" }, "Déjà  vu", "deja-vu"],
    [{ path: "only-path" }, "only-path", "only-path"],
  ])("derives the missing name or path from %j", async (params, name, path) => {
    const res = await guest.api.post("/projects", params);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name, path });
  });

  it("needs a name or a path", async () => {
    const res = await owner.api.post("/projects", { description: "nameless" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "name, path are missing, at least one parameter must be provided" });
  });

  const creators: [string, () => TestUser | "root", number][] = [
    ["a Developer", () => developer, 201],
    ["a Maintainer (namespace given by path)", () => maintainer, 201],
    ["an admin", () => "root", 201],
    ["a Reporter", () => reporter, 400],
    ["a Guest", () => guest, 400],
    ["a non-member", () => stranger, 400],
  ];
  it.each(creators)("in a group, as %s: %i", async (name, actor, status) => {
    const who = actor();
    const api = who === "root" ? t.root : who.api;
    const namespace_id = name.includes("by path") ? sub.full_path : sub.id;
    const res = await api.post("/projects", { name: uniq("In Group"), namespace_id });
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body).toEqual({ message: { namespace: ["is not valid"] } });
    else expect(res.body.namespace).toMatchObject({ id: sub.id, kind: "group", full_path: sub.full_path });
  });

  it("adds no direct membership for the creator of a group project (access is inherited)", async () => {
    const project = await createProject(developer.api, { namespace_id: sub.id });
    expect((await developer.api.get(`/projects/${project.id}/members`)).body).toEqual([]);
    const detail = await developer.api.get(`/projects/${project.id}`);
    expect(detail.body.permissions).toEqual({ project_access: null, group_access: { access_level: 30, notification_level: 3 } });
  });

  it("answers 400 for a namespace that does not exist", async () => {
    const res = await owner.api.post("/projects", { name: "nowhere", namespace_id: 999999 });
    expect(res.body).toEqual({ message: { namespace: ["is not valid"] } });
  });

  it("refuses a name or path already taken in the namespace", async () => {
    const res = await owner.api.post("/projects", { name: deep.name, path: deep.path.toUpperCase(), namespace_id: sub.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { name: ["has already been taken"], path: ["has already been taken"] } });
    const elsewhere = await owner.api.post("/projects", { name: deep.name, path: deep.path, namespace_id: group.id });
    expect(elsewhere.status).toBe(201);
  });

  it.each([
    [{ name: "ok", path: "-bad" }, { path: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"] }],
    [{ name: "a&b", path: uniq("amp") }, { name: ["can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'."] }],
    [{ name: "loud", visibility: "public" }, { visibility_level: ["public is not allowed in a private group."] }],
  ])("validates %j", async (params, message) => {
    const res = await owner.api.post("/projects", { ...params, namespace_id: sub.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
  });

  it("assigns topics (an array or a comma-separated string)", async () => {
    const res = await owner.api.post("/projects", { name: uniq("topical"), topics: ["Rust", "cli", "rust"] });
    expect(res.body).toMatchObject({ topics: ["Rust", "cli"], tag_list: ["Rust", "cli"] });
    const form = await owner.api.post("/projects", undefined, { form: new URLSearchParams({ name: uniq("formal"), topics: "go, web" }) });
    expect(form.body.topics).toEqual(["go", "web"]);
  });
});

describe("GET /projects/:id", () => {
  let internalP: any, publicP: any, personal: any;
  beforeAll(async () => {
    internalP = await createProject(owner.api, { namespace_id: pub.id, visibility: "internal" });
    publicP = await createProject(owner.api, { namespace_id: pub.id, visibility: "public" });
    personal = await createProject(stranger.api);
    await addMember(stranger.api, "projects", personal.id, reporter.id, 20);
  });

  const cases: [string, () => TestUser | "anon" | "root", () => any, number][] = [
    ["anonymous, public", () => "anon", () => publicP, 200],
    ["anonymous, internal", () => "anon", () => internalP, 404],
    ["anonymous, private", () => "anon", () => deep, 404],
    ["non-member, internal", () => stranger, () => internalP, 200],
    ["non-member, private", () => stranger, () => deep, 404],
    ["inherited Guest", () => guest, () => deep, 200],
    ["project member of a personal project", () => reporter, () => personal, 200],
    ["other user on a personal project", () => developer, () => personal, 404],
    ["admin", () => "root", () => deep, 200],
  ];

  it.each(cases)("%s: %i", async (_name, actor, project, status) => {
    const who = actor();
    const api = who === "anon" ? t.anon : who === "root" ? t.root : who.api;
    const res = await api.get(`/projects/${project().id}`);
    expect(res.status).toBe(status);
    expect(res.body).toEqual(status === 404 ? NOT_FOUND : expect.objectContaining({ id: project().id }));
  });

  it("finds a project by its URL-encoded full path, any case", async () => {
    const res = await guest.api.get(`/projects/${enc(deep.path_with_namespace.toUpperCase())}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: deep.id, path_with_namespace: `${group.path}/${sub.path}/${deep.path}`,
      name_with_namespace: `${group.name} / ${sub.name} / Deep Project`,
      namespace: { id: sub.id, full_path: sub.full_path, parent_id: group.id, kind: "group" },
      permissions: { project_access: null, group_access: { access_level: 10, notification_level: 3 } },
    });
    expect(res.body.owner).toBeNull();
  });

  it("does not route an unencoded slash", async () => {
    const res = await owner.api.get(`/projects/${deep.path_with_namespace}`, { raw: true });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "404 Not Found" });
  });

  it("answers 404 for unknown ids and paths", async () => {
    expect((await t.root.get("/projects/999999")).body).toEqual(NOT_FOUND);
    expect((await t.root.get(`/projects/${enc("no/such")}`)).body).toEqual(NOT_FOUND);
    expect((await t.root.get("/projects/justapath")).body).toEqual(NOT_FOUND);
  });
});

describe("GET /projects", () => {
  let user: TestUser, mine: any[], topicName: string;
  beforeAll(async () => {
    user = await createUser(t);
    topicName = uniq("topic");
    mine = [];
    for (const [name, visibility] of [["Charlie Search", "private"], ["alpha search", "internal"], ["Bravo", "public"]] as const) {
      mine.push(await createProject(user.api, { name, path: uniq("lp"), visibility, topics: name === "Bravo" ? [topicName] : [] }));
    }
  });
  const list = async (api: ApiClient, query: Record<string, string | number | boolean> = {}) =>
    ids((await api.get("/projects", { query: { per_page: 100, ...query } })).body);

  it("shows anonymous callers public projects, users public and internal ones plus their own, admins all", async () => {
    const [charlie, alpha, bravo] = mine;
    const anon = await list(t.anon);
    expect(anon).toContain(bravo.id);
    expect(anon).not.toContain(alpha.id);
    const other = await list(stranger.api);
    expect(other).toEqual(expect.arrayContaining([alpha.id, bravo.id]));
    expect(other).not.toContain(charlie.id);
    expect(other).not.toContain(deep.id);
    expect(await list(user.api)).toEqual(expect.arrayContaining([charlie.id, alpha.id, bravo.id]));
    expect(await list(guest.api)).toContain(deep.id);
    expect(await list(t.root)).toEqual(expect.arrayContaining([charlie.id, deep.id]));
  });

  it("searches name, path and description; a + in the query is a space", async () => {
    const [charlie, alpha] = mine;
    const res = await user.api.get("/projects?search=SEARCH&membership=true&order_by=id&sort=asc", { raw: true });
    expect(ids(res.body)).toEqual([charlie.id, alpha.id]);
    const spaced = await user.api.get("/projects?search=charlie+search", { raw: true });
    expect(ids(spaced.body)).toEqual([charlie.id]);
    expect(await list(guest.api, { search: "deep down" })).toEqual([deep.id]);
  });

  it("filters by visibility, membership, owned, topic and min_access_level", async () => {
    const [charlie, alpha, bravo] = mine;
    expect(await list(user.api, { membership: true, visibility: "internal" })).toEqual([alpha.id]);
    expect((await list(user.api, { owned: true })).sort()).toEqual([charlie.id, alpha.id, bravo.id].sort());
    expect(await list(t.anon, { topic: topicName })).toEqual([bravo.id]);
    expect(await list(t.anon, { topic: `${topicName},other` })).toEqual([]);
    expect(await list(guest.api, { membership: true })).toContain(deep.id);
    expect(await list(guest.api, { min_access_level: 20 })).not.toContain(deep.id);
    expect(await list(reporter.api, { min_access_level: 20 })).toContain(deep.id);
    expect(await list(owner.api, { owned: true })).toContain(deep.id); // Owner of the group
    expect(await list(maintainer.api, { owned: true })).not.toContain(deep.id);
  });

  it("orders by created_at descending by default, or as asked", async () => {
    const [charlie, alpha, bravo] = mine;
    expect(await list(user.api, { membership: true })).toEqual([bravo.id, alpha.id, charlie.id]);
    expect(await list(user.api, { membership: true, order_by: "name", sort: "asc" })).toEqual([bravo.id, charlie.id, alpha.id]);
    expect(await list(user.api, { membership: true, order_by: "id", sort: "asc" })).toEqual([charlie.id, alpha.id, bravo.id]);
    const bad = await user.api.get("/projects", { query: { order_by: "stars" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "order_by does not have a valid value" });
  });

  it("sends offset pagination headers and Link", async () => {
    const res = await user.api.get("/projects", { query: { membership: true, per_page: 1, page: 2 } });
    expect(res.body).toHaveLength(1);
    expect(Object.fromEntries(["x-page", "x-per-page", "x-next-page", "x-prev-page", "x-total", "x-total-pages"].map((h) => [h, res.headers.get(h)]))).toEqual({
      "x-page": "2", "x-per-page": "1", "x-next-page": "3", "x-prev-page": "1", "x-total": "3", "x-total-pages": "3",
    });
    const base = `${BASE_URL}/api/v4/projects?membership=true`;
    expect(res.headers.get("link")).toBe(
      [`<${base}&page=1&per_page=1>; rel="prev"`, `<${base}&page=3&per_page=1>; rel="next"`, `<${base}&page=1&per_page=1>; rel="first"`, `<${base}&page=3&per_page=1>; rel="last"`].join(", "),
    );
  });

  it.each(["asc", "desc"])("walks keyset pagination (order_by=id, sort=%s) to the end", async (sort) => {
    const all = await list(stranger.api, { order_by: "id", sort });
    let url: string | null = `/projects?pagination=keyset&order_by=id&sort=${sort}&per_page=3`;
    const seen: number[] = [];
    while (url) {
      const res: any = await stranger.api.get(url, { raw: true });
      expect(res.status).toBe(200);
      seen.push(...ids(res.body));
      const link: string | null = res.headers.get("link");
      url = link ? /<http:\/\/forgeline\.test\/api\/v4([^>]+)>; rel="next"/.exec(link)![1]! : null;
      if (url) expect(url).toContain(sort === "asc" ? "id_after=" : "id_before=");
    }
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("refuses keyset pagination ordered by something else", async () => {
    const res = await t.anon.get("/projects", { query: { pagination: "keyset", order_by: "name" } });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: "Keyset pagination is not yet available for this type of request" });
  });

  it("lists 20 projects with a bounded number of database queries", async () => {
    const heavy = await createUser(t);
    const ns = await createGroup(heavy.api);
    for (let i = 0; i < 20; i++) await createProject(heavy.api, { namespace_id: i % 2 ? ns.id : undefined, topics: ["a", `t${i}`] });
    let queries = 0;
    const db = (t.services.db as any).$extends({
      query: { $allModels: { $allOperations: ({ args, query }: any) => ((queries += 1), query(args)) } },
    });
    const app: App = createApp({ ...t.services, db });
    const res = await new ApiClient(app, heavy.token).get("/projects", { query: { membership: true, per_page: 20 } });
    expect(res.body).toHaveLength(20);
    expect(res.body.filter((p: any) => p.owner?.id === heavy.id)).toHaveLength(10);
    expect(res.body.every((p: any) => p.topics.length === 2)).toBe(true);
    expect(queries).toBeLessThan(15);
  });
});

describe("PUT /projects/:id", () => {
  let project: any;
  beforeAll(async () => {
    project = await createProject(owner.api, { namespace_id: sub.id });
  });

  const refusals: [string, () => TestUser | "anon", number, object][] = [
    ["anonymous", () => "anon", 401, { message: "401 Unauthorized" }],
    ["a non-member", () => stranger, 404, NOT_FOUND],
    ["a Guest", () => guest, 403, FORBIDDEN],
    ["a Reporter", () => reporter, 403, FORBIDDEN],
    ["a Developer", () => developer, 403, FORBIDDEN],
  ];
  it.each(refusals)("refuses %s", async (_name, actor, status, body) => {
    const who = actor();
    const res = await (who === "anon" ? t.anon : who.api).put(`/projects/${project.id}`, { description: "x" });
    expect(res.status).toBe(status);
    expect(res.body).toEqual(body);
  });

  it("lets a Maintainer rename it but not change its visibility", async () => {
    const res = await maintainer.api.put(`/projects/${project.id}`, { name: "Renamed Project", description: "new" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Renamed Project", description: "new", path: project.path });
    const visibility = await maintainer.api.put(`/projects/${project.id}`, { visibility: "private" });
    expect(visibility.status).toBe(403);
  });

  it("lets the group Owner and admins change the visibility, within the group's", async () => {
    const inPublic = await createProject(owner.api, { namespace_id: pub.id });
    expect((await owner.api.put(`/projects/${inPublic.id}`, { visibility: "internal" })).body.visibility).toBe("internal");
    expect((await t.root.put(`/projects/${inPublic.id}`, { visibility: "public" })).body.visibility).toBe("public");
    const tooOpen = await owner.api.put(`/projects/${project.id}`, { visibility: "public" });
    expect(tooOpen.status).toBe(400);
    expect(tooOpen.body).toEqual({ message: { visibility_level: ["public is not allowed in a private group."] } });
  });

  it("refuses a taken name or path, replaces topics", async () => {
    const taken = await owner.api.put(`/projects/${project.id}`, { path: deep.path });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: { path: ["has already been taken"] } });
    const topics = await owner.api.put(`/projects/${project.id}`, { topics: ["one", "two"] });
    expect(topics.body.topics).toEqual(["one", "two"]);
    expect((await owner.api.put(`/projects/${project.id}`, { topics: [] })).body.topics).toEqual([]);
  });
});

describe("PUT /projects/:id/transfer", () => {
  let target: any;
  beforeAll(async () => {
    target = await createGroup(owner.api);
    await addMember(owner.api, "groups", target.id, maintainer.id, 40);
    await addMember(owner.api, "groups", target.id, developer.id, 30);
  });

  it("needs the Owner of the project", async () => {
    const project = await createProject(owner.api, { namespace_id: group.id });
    expect((await t.anon.put(`/projects/${project.id}/transfer`, { namespace: target.id })).status).toBe(401);
    const res = await maintainer.api.put(`/projects/${project.id}/transfer`, { namespace: target.id });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
    const missing = await owner.api.put(`/projects/${project.id}/transfer`, {});
    expect(missing.body).toEqual({ error: "namespace is missing" });
  });

  it("moves a personal project into a group given by path, leaving a redirect", async () => {
    const project = await createProject(maintainer.api, { visibility: "public" });
    const res = await maintainer.api.put(`/projects/${project.id}/transfer`, { namespace: target.full_path });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: project.id, path_with_namespace: `${target.full_path}/${project.path}`, visibility: "private" });
    expect(res.body.namespace).toMatchObject({ id: target.id, kind: "group" });
    const old = await maintainer.api.get(`/projects/${enc(project.path_with_namespace)}`);
    expect(old.status).toBe(301);
    expect(old.headers.get("location")).toBe(`${BASE_URL}/api/v4/projects/${project.id}`);
  });

  it("moves a group project into the Owner's personal namespace, making them Owner", async () => {
    const project = await createProject(owner.api, { namespace_id: group.id });
    const res = await owner.api.put(`/projects/${project.id}/transfer`, { namespace: owner.username });
    expect(res.status).toBe(200);
    expect(res.body.owner).toMatchObject({ id: owner.id });
    const members = await owner.api.get(`/projects/${project.id}/members`);
    expect(members.body.map((m: any) => [m.id, m.access_level])).toEqual([[owner.id, 50]]);
  });

  it.each([
    ["into its own namespace", () => group.id, "Project is already in this namespace."],
    ["as a Developer of the target", () => "dev", "You don't have permission to transfer projects into that namespace."],
    ["onto a taken path", () => "clash", "Project with same name or path in target namespace already exists"],
  ])("fails %s", async (_name, namespace, reason) => {
    const actor = await createUser(t);
    const project = await createProject(actor.api, { path: uniq("mv") });
    let key: unknown = namespace();
    if (key === "dev") {
      await addMember(owner.api, "groups", target.id, actor.id, 30);
      key = target.id;
    } else if (key === "clash") {
      await createProject(owner.api, { namespace_id: target.id, path: project.path });
      await addMember(owner.api, "groups", target.id, actor.id, 40);
      key = target.id;
    } else {
      key = actor.username;
    }
    const res = await actor.api.put(`/projects/${project.id}/transfer`, { namespace: key });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `Failed to transfer project {:new_namespace=>["${reason}"]}` });
  });

  it("answers 404 for a public group the caller is not a member of (find_namespace! reads by membership)", async () => {
    const project = await createProject(stranger.api);
    const open = await createGroup(owner.api, { visibility: "public" });
    for (const namespace of [open.id, open.full_path]) {
      const res = await stranger.api.put(`/projects/${project.id}/transfer`, { namespace });
      expect([res.status, res.body]).toEqual([404, { message: "404 Namespace Not Found" }]);
    }
  });

  it("answers 404 for a namespace the caller cannot see", async () => {
    const project = await createProject(stranger.api);
    for (const namespace of [target.id, "no-such-namespace", owner.username]) {
      const res = await stranger.api.put(`/projects/${project.id}/transfer`, { namespace });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Namespace Not Found" });
    }
  });
});
