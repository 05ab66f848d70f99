// The Namespaces API over /api/v4: the caller's namespaces (direct memberships only, per actor, with
// search / owned_only / top_level_only and pages), one namespace by id or path (membership, not
// visibility, decides), the counts a group's Owners see, and whether a path is taken (suggestions,
// parent_id, rate limit).
import { beforeAll, describe, expect, it } from "vitest";
import { pathSlug } from "../../src/domain/groups/availability.js";
import type { ApiClient } from "../helpers/api.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { UNAUTHORIZED } from "../helpers/errors.js";
import { addMember, createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let owner: TestUser, maintainer: TestUser, developer: TestUser, reporter: TestUser, guest: TestUser, minimal: TestUser;
let stranger: TestUser, subOwner: TestUser, projectMember: TestUser, expired: TestUser, blocked: TestUser;
// alpha (private; every role, Minimal Access, a project) > beta (private; subOwner its Owner, owner's
// own membership removed: Owner through alpha only, a project, a blocked member);
// gamma (public; expired's membership has expired); delta (internal)
let alpha: any, beta: any, gamma: any, delta: any;
let ns: Record<string, any>;

const NAMESPACE_NOT_FOUND = { message: "404 Namespace Not Found" };
const ids = (body: any[]) => body.map((n) => n.id);
const enc = (path: string) => encodeURIComponent(path);

beforeAll(async () => {
  t = await startTestApp();
  [owner, maintainer, developer, reporter, guest, minimal, stranger, subOwner, projectMember, expired, blocked] = await Promise.all(
    Array.from({ length: 11 }, () => createUser(t)),
  );
  alpha = await createGroup(owner.api, { path: uniq("alpha"), name: "Alpha Team" });
  beta = await createGroup(owner.api, { path: uniq("beta"), name: "Beta Squad", parent_id: alpha.id });
  gamma = await createGroup(owner.api, { path: uniq("gamma"), name: "Gamma Public", visibility: "public" });
  delta = await createGroup(owner.api, { path: uniq("delta"), name: "Delta Internal", visibility: "internal" });
  for (const [user, level] of [[maintainer, 40], [developer, 30], [reporter, 20], [guest, 10], [minimal, 5]] as const) {
    await addMember(owner.api, "groups", alpha.id, user.id, level);
  }
  await addMember(owner.api, "groups", beta.id, subOwner.id, 50);
  expect((await subOwner.api.delete(`/groups/${beta.id}/members/${owner.id}`)).status).toBe(204);
  await addMember(subOwner.api, "groups", beta.id, blocked.id, 30);
  expect((await t.root.post(`/users/${blocked.id}/block`)).status).toBe(201);
  const project = await createProject(owner.api, { namespace_id: alpha.id });
  await addMember(owner.api, "projects", project.id, projectMember.id, 30);
  await createProject(subOwner.api, { namespace_id: beta.id });
  await addMember(owner.api, "groups", gamma.id, expired.id, 30);
  await t.services.db.groupMember.updateMany({ where: { groupId: gamma.id, userId: expired.id }, data: { expiresAt: new Date(Date.now() - 86_400_000) } });
  t.forgetCaches();
  const personal = async (user: TestUser) => (await t.root.get(`/namespaces/${user.username}`)).body;
  ns = Object.fromEntries(await Promise.all(
    Object.entries({ owner, maintainer, developer, reporter, guest, minimal, stranger, subOwner, projectMember, expired }).map(async ([k, u]) => [k, await personal(u)]),
  ));
});

/** The Namespace entity of a group as its Owners and administrators see it. */
const withCounts = (group: any, members: number, projects: number) => ({
  id: group.id, name: group.name, path: group.path, kind: "group", full_path: group.full_path, parent_id: group.parent_id,
  avatar_url: null, web_url: `${BASE_URL}/groups/${group.full_path}`,
  members_count_with_descendants: members, root_repository_size: null, projects_count: projects,
});
/** ... and as anyone else who may read it sees it: NamespaceBasic's fields only. */
const basic = (group: any) => {
  const { members_count_with_descendants: _m, root_repository_size: _r, projects_count: _p, ...rest } = withCounts(group, 0, 0);
  return rest;
};

describe("GET /namespaces", () => {
  it("answers 401 without a token", async () => {
    const res = await t.anon.get("/namespaces");
    expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
  });

  const users = () => ({ owner, maintainer, developer, reporter, guest, minimal, stranger, subOwner, projectMember, expired });
  it.each([
    // direct memberships as Guest or above, never the groups below (beta) or above them
    ["owner", () => [ns.owner, alpha, gamma, delta]],
    ["maintainer", () => [ns.maintainer, alpha]],
    ["developer", () => [ns.developer, alpha]],
    ["reporter", () => [ns.reporter, alpha]],
    ["guest", () => [ns.guest, alpha]],
    // neither Minimal Access, a project's membership nor an expired one lists a group
    ["minimal", () => [ns.minimal]],
    ["projectMember", () => [ns.projectMember]],
    ["expired", () => [ns.expired]],
    ["stranger", () => [ns.stranger]],
    ["subOwner", () => [ns.subOwner, beta]],
  ] as const)("lists the personal namespace and direct groups of the %s, by id", async (who, expected) => {
    const res = await users()[who].api.get("/namespaces");
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(expected().map((n) => n.id));
    expect(res.body[0]).toEqual({
      id: ns[who].id, name: ns[who].name, path: users()[who].username, kind: "user", full_path: users()[who].username, parent_id: null,
      avatar_url: expect.stringMatching(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{64}\?s=80&d=identicon$/),
      web_url: `${BASE_URL}/${users()[who].username}`,
    });
  });

  it("shows the counts to a group's Owners only (members of the hierarchy: active, above Minimal Access)", async () => {
    const mine = await owner.api.get("/namespaces");
    expect(mine.body.find((n: any) => n.id === alpha.id)).toEqual(withCounts(alpha, 6, 2));
    expect(mine.body.find((n: any) => n.id === gamma.id)).toEqual(withCounts(gamma, 1, 0));
    expect((await subOwner.api.get("/namespaces")).body[1]).toEqual(withCounts(beta, 1, 1));
    expect((await maintainer.api.get("/namespaces")).body[1]).toEqual(basic(alpha));
  });

  it("lists every namespace to an administrator, with every group's counts", async () => {
    const res = await t.root.get("/namespaces", { query: { per_page: 100 } });
    expect(res.status).toBe(200);
    const total = await t.services.db.namespace.count();
    expect(res.headers.get("x-total")).toBe(String(total));
    const all = (await t.services.db.namespace.findMany({ orderBy: { id: "asc" }, select: { id: true } })).map((n) => n.id);
    expect(ids(res.body)).toEqual(all);
    expect(res.body.find((n: any) => n.id === beta.id)).toEqual(withCounts(beta, 1, 1));
    expect(res.body.find((n: any) => n.id === ns.stranger.id)).not.toHaveProperty("members_count_with_descendants");
  });

  it.each([
    ["a name's part", () => "lpha tea", () => [alpha]],
    ["a path's part, any case", () => alpha.path.slice(2).toUpperCase(), () => [alpha]],
    ["a short term: whole names and paths only", () => "al", () => []],
    ["nothing (blank)", () => " ", () => [ns.owner, alpha, gamma, delta]],
  ])("searches names and paths: %s", async (_name, search, expected) => {
    const res = await owner.api.get("/namespaces", { query: { search: search() } });
    expect(ids(res.body)).toEqual(expected().map((n) => n.id));
  });

  it("searches the personal namespace by username, and an administrator's whole instance", async () => {
    expect(ids((await guest.api.get("/namespaces", { query: { search: guest.username } })).body)).toEqual([ns.guest.id]);
    expect(ids((await guest.api.get("/namespaces", { query: { search: "Squad" } })).body)).toEqual([]);
    expect(ids((await t.root.get("/namespaces", { query: { search: "Squad" } })).body)).toEqual([beta.id]);
  });

  it("owned_only: the personal namespace and groups held as Owner (an administrator's list is not narrowed)", async () => {
    expect(ids((await owner.api.get("/namespaces", { query: { owned_only: true } })).body)).toEqual([ns.owner.id, alpha.id, gamma.id, delta.id]);
    expect(ids((await subOwner.api.get("/namespaces", { query: { owned_only: true } })).body)).toEqual([ns.subOwner.id, beta.id]);
    expect(ids((await maintainer.api.get("/namespaces", { query: { owned_only: true } })).body)).toEqual([ns.maintainer.id]);
    expect(ids((await maintainer.api.get("/namespaces", { query: { owned_only: false } })).body)).toEqual([ns.maintainer.id, alpha.id]);
    const admin = await t.root.get("/namespaces", { query: { owned_only: true } });
    expect(admin.headers.get("x-total")).toBe(String(await t.services.db.namespace.count()));
  });

  it("top_level_only: no subgroups", async () => {
    expect(ids((await subOwner.api.get("/namespaces", { query: { top_level_only: true } })).body)).toEqual([ns.subOwner.id]);
    const admin = await t.root.get("/namespaces", { query: { top_level_only: true, search: "Squad" } });
    expect(admin.body).toEqual([]);
    expect(ids((await t.root.get("/namespaces", { query: { top_level_only: true, search: "Alpha" } })).body)).toEqual([alpha.id]);
  });

  it("pages with GitLab's headers", async () => {
    const url = (query: string) => `${BASE_URL}/api/v4/namespaces?${query}`;
    const first = await owner.api.get("/namespaces", { query: { per_page: 3 } });
    expect(ids(first.body)).toEqual([ns.owner.id, alpha.id, gamma.id]);
    expect(Object.fromEntries(["x-page", "x-per-page", "x-next-page", "x-prev-page", "x-total", "x-total-pages"].map((h) => [h, first.headers.get(h)]))).toEqual({
      "x-page": "1", "x-per-page": "3", "x-next-page": "2", "x-prev-page": "", "x-total": "4", "x-total-pages": "2",
    });
    expect(first.headers.get("link")).toBe(
      `<${url("page=2&per_page=3")}>; rel="next", <${url("page=1&per_page=3")}>; rel="first", <${url("page=2&per_page=3")}>; rel="last"`,
    );
    const second = await owner.api.get("/namespaces", { query: { per_page: 3, page: 2 } });
    expect(ids(second.body)).toEqual([delta.id]);
    expect([second.headers.get("x-next-page"), second.headers.get("x-prev-page")]).toEqual(["", "1"]);
  });

  it.each([
    [{ owned_only: "maybe" }, "owned_only is invalid"],
    [{ top_level_only: "2" }, "top_level_only is invalid"],
    [{ per_page: "x" }, "per_page is invalid"],
  ])("refuses %j with 400", async (query, error) => {
    const res = await owner.api.get("/namespaces", { query });
    expect([res.status, res.body]).toEqual([400, { error }]);
  });
});

describe("GET /namespaces/:id", () => {
  type Who = () => ApiClient;
  const get = (api: ApiClient, key: string | number) => api.get(`/namespaces/${typeof key === "number" ? key : enc(key)}`, { raw: true });

  it("answers 401 without a token, before the lookup", async () => {
    for (const key of [alpha.id, gamma.full_path, "no-such-namespace"]) {
      const res = await get(t.anon, key);
      expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
    }
  });

  // [who, group, status]; 200 "counts" when the caller administers the group (admin_group)
  const table: [string, Who, () => any, 200 | 404, ("counts" | "basic")?][] = [
    ["a user with no membership, on a private group", () => stranger.api, () => alpha, 404],
    ["a user with no membership, on a public group (membership decides, not visibility)", () => stranger.api, () => gamma, 404],
    ["a user with no membership, on an internal group", () => stranger.api, () => delta, 404],
    ["a project's member, on the project's group", () => projectMember.api, () => alpha, 404],
    ["an expired member", () => expired.api, () => gamma, 404],
    ["a subgroup's Owner, on its parent", () => subOwner.api, () => alpha, 404],
    ["a Minimal Access member", () => minimal.api, () => alpha, 200, "basic"],
    ["a Minimal Access member, on a subgroup (inherited)", () => minimal.api, () => beta, 200, "basic"],
    ["a Guest", () => guest.api, () => alpha, 200, "basic"],
    ["a Reporter", () => reporter.api, () => alpha, 200, "basic"],
    ["a Developer", () => developer.api, () => alpha, 200, "basic"],
    ["a Maintainer", () => maintainer.api, () => alpha, 200, "basic"],
    ["a Maintainer, on a subgroup (inherited)", () => maintainer.api, () => beta, 200, "basic"],
    ["the Owner", () => owner.api, () => alpha, 200, "counts"],
    ["the Owner of the parent, on a subgroup (inherited)", () => owner.api, () => beta, 200, "counts"],
    ["a subgroup's Owner", () => subOwner.api, () => beta, 200, "counts"],
    ["an administrator, on a private group", () => t.root, () => alpha, 200, "counts"],
    ["an administrator, on a public group", () => t.root, () => gamma, 200, "counts"],
  ];
  const counts: Record<string, [number, number]> = {};
  beforeAll(() => {
    Object.assign(counts, { [alpha.id]: [6, 2], [beta.id]: [1, 1], [gamma.id]: [1, 0] });
  });

  it.each(table)("%s: by id and by full path", async (_name, who, group, status, shape) => {
    for (const key of [group().id, group().full_path, group().full_path.toUpperCase()]) {
      const res = await get(who(), key);
      expect(res.status).toBe(status);
      if (status === 404) expect(res.body).toEqual(NAMESPACE_NOT_FOUND);
      else expect(res.body).toEqual(shape === "counts" ? withCounts(group(), ...counts[group().id]!) : basic(group()));
    }
  });

  it("shows a personal namespace to its owner and administrators only, without counts", async () => {
    for (const [api, status] of [[guest.api, 200], [t.root, 200], [stranger.api, 404], [owner.api, 404]] as const) {
      for (const key of [ns.guest.id, guest.username]) {
        const res = await get(api, key);
        expect(res.status).toBe(status);
        expect(res.body).toEqual(status === 200 ? ns.guest : NAMESPACE_NOT_FOUND);
      }
    }
    expect(Object.keys(ns.guest)).toEqual(["id", "name", "path", "kind", "full_path", "parent_id", "avatar_url", "web_url"]);
  });

  it("answers 404 Namespace Not Found for a namespace that does not exist", async () => {
    for (const key of [0, 2_147_483_648, "99999999999999999999", "no-such-namespace", `${alpha.full_path}/no-such`]) {
      const res = await get(owner.api, key);
      expect([res.status, res.body]).toEqual([404, NAMESPACE_NOT_FOUND]);
    }
  });
});

describe("GET /namespaces/:namespace/exists", () => {
  /** A user of its own per test: the check is limited to 20 a minute per user. */
  const asker = async () => (await createUser(t)).api;
  const exists = (api: ApiClient, path: string, query: Record<string, string | number> = {}) =>
    api.get(`/namespaces/${enc(path)}/exists`, { query });

  it("answers 401 without a token, before checking parent_id", async () => {
    for (const query of [{}, { parent_id: "abc" }] as Record<string, string>[]) {
      const res = await exists(t.anon, alpha.path, query);
      expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
    }
  });

  it("finds a top-level group's or user's path in any case, suggesting it with a number", async () => {
    const api = await asker();
    for (const path of [alpha.path, alpha.path.toUpperCase(), guest.username]) {
      const res = await exists(api, path);
      expect(res.status).toBe(200);
      expect(res.text).toBe(JSON.stringify({ exists: true, suggests: [`${path}1`] }));
    }
  });

  it("answers false without suggestions for a free path, and whatever the caller may see", async () => {
    const api = await asker();
    expect((await exists(api, "no-such-namespace")).body).toEqual({ exists: false, suggests: [] });
    // stranger may not read alpha, yet its path is taken
    expect((await exists(stranger.api, alpha.path)).body).toEqual({ exists: true, suggests: [`${alpha.path}1`] });
  });

  it("looks at one level: top-level without parent_id, the parent's children with it", async () => {
    const api = await asker();
    expect((await exists(api, beta.path)).body).toEqual({ exists: false, suggests: [] });
    expect((await exists(api, beta.path, { parent_id: alpha.id })).body).toEqual({ exists: true, suggests: [`${beta.path}1`] });
    expect((await exists(api, beta.path.toUpperCase(), { parent_id: alpha.id })).body).toEqual({ exists: true, suggests: [`${beta.path.toUpperCase()}1`] });
    expect((await exists(api, alpha.path, { parent_id: alpha.id })).body).toEqual({ exists: false, suggests: [] });
    expect((await exists(api, beta.path, { parent_id: gamma.id })).body).toEqual({ exists: false, suggests: [] });
    expect((await exists(api, beta.path, { parent_id: 999_999 })).body).toEqual({ exists: false, suggests: [] });
    expect((await exists(api, beta.full_path)).body).toEqual({ exists: false, suggests: [] });
  });

  it("suggests the first number no path or name beside it takes, ignoring other hierarchies", async () => {
    const api = await asker();
    const base = uniq("team");
    // made by root, so that the owner's own list stays as the tests above saw it
    await createGroup(t.root, { parent_id: gamma.id, path: base, name: "Team" });
    await createGroup(t.root, { parent_id: gamma.id, path: `${base}1`, name: "Team one" });
    await createGroup(t.root, { parent_id: gamma.id, path: uniq("other"), name: `${base}2`.toUpperCase() });
    await createGroup(t.root, { parent_id: delta.id, path: `${base}3`, name: "Elsewhere" });
    const res = await exists(api, base, { parent_id: gamma.id });
    expect(res.body).toEqual({ exists: true, suggests: [`${base}3`] });
  });

  it("after four numbers, takes one from the clock (milliseconds, minute, ISO week)", async () => {
    const api = await asker();
    const base = uniq("crowd");
    const parent = await createGroup(t.root);
    for (const suffix of ["", "1", "2", "3", "4"]) await createGroup(t.root, { parent_id: parent.id, path: `${base}${suffix}` });
    const clock = t.services.now;
    t.services.now = () => new Date("2024-03-14T10:07:00.042Z"); // "042" "07" "11" → 420711
    try {
      expect((await exists(api, base, { parent_id: parent.id })).body).toEqual({ exists: true, suggests: [`${base}420711`] });
    } finally {
      t.services.now = clock;
    }
  });

  it.each([
    ["john.doe@example.com", "john.doe"],
    ["My Group!", "MyGroup"],
    ["--lead", "lead"],
    ["repo.git.atom.", "repo"],
    ["a.b", "a.b"],
    ["@@@", "blank"],
  ])("makes %j a valid path: %j (Gitlab::Slug::Path)", (input, slug) => {
    expect(pathSlug(input)).toBe(slug);
  });

  it.each([
    [{ parent_id: "abc" }, "parent_id is invalid"],
    [{ parent_id: "1.5" }, "parent_id is invalid"],
  ])("refuses %j with 400", async (query, error) => {
    const res = await exists(await asker(), alpha.path, query);
    expect([res.status, res.body]).toEqual([400, { error }]);
  });

  it("answers 20 checks a minute per user, then 429", async () => {
    const [api, other] = [await asker(), await asker()];
    const clock = t.services.now;
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
    t.services.now = () => minute;
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await exists(api, i % 2 ? alpha.path : "free-path")).status);
      expect(statuses).toEqual(Array(20).fill(200));
      const refused = await exists(api, alpha.path);
      expect([refused.status, refused.body]).toEqual([429, { message: { error: "This endpoint has been requested too many times. Try again later." } }]);
      expect((await exists(other, alpha.path)).status).toBe(200);
    } finally {
      t.services.now = clock;
    }
  });
});
