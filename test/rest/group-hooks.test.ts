// Group webhooks over /api/v4: every endpoint per actor, the entity, edits (token reset, URL
// variables and custom headers merged or dropped when the URL changes), idempotent DELETE, and the
// key/value sub-resources. Hook URLs use public IP literals (no DNS; nothing is ever sent to them).
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { stateOf } from "../../src/domain/web-hooks/rows.js";
import type { ApiClient } from "../helpers/api.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createUser, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let owner: TestUser, maintainer: TestUser, developer: TestUser, reporter: TestUser, guest: TestUser, stranger: TestUser, subOwner: TestUser;
let group: any, sub: any, pub: any;

const PUBLIC = "http://8.8.8.8";
const NOT_FOUND_GROUP = { message: "404 Group Not Found" };
const FORBIDDEN = { message: "403 Forbidden" };
const hooks = (groupId: number | string) => `/groups/${encodeURIComponent(String(groupId))}/hooks`;

beforeAll(async () => {
  t = await startTestApp();
  [owner, maintainer, developer, reporter, guest, stranger, subOwner] = await Promise.all(Array.from({ length: 7 }, () => createUser(t)));
  group = await createGroup(owner.api);
  sub = await createGroup(owner.api, { parent_id: group.id });
  pub = await createGroup(owner.api, { visibility: "public" });
  await addMember(owner.api, "groups", group.id, maintainer.id, 40);
  await addMember(owner.api, "groups", group.id, developer.id, 30);
  await addMember(owner.api, "groups", group.id, reporter.id, 20);
  await addMember(owner.api, "groups", group.id, guest.id, 10);
  await addMember(owner.api, "groups", sub.id, subOwner.id, 50);
});

// GitLab's plan limit allows 50 hooks per group: every test starts without any
afterEach(async () => {
  await t.services.db.webHook.deleteMany({});
});

/** A hook made by root with one URL variable (v) and one custom header (X-H). */
async function newHook(groupId = group.id, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await t.root.post(hooks(groupId), {
    url: `${PUBLIC}/hook`, token: "secret-token", url_variables: [{ key: "v", value: "1" }], custom_headers: [{ key: "X-H", value: "1" }], ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The stored hook, secrets decrypted (what delivery will read). */
async function stored(id: number) {
  const row = await t.services.db.webHook.findUniqueOrThrow({ where: { id } });
  return stateOf(t.services, row);
}

type Call = (api: ApiClient, groupId: number, hookId: number) => Promise<{ status: number; body: any; text: string }>;
/** The group's hooks after a successful call, given the one hook there was before (reads leave it). */
type Effect = (hook: any) => unknown[];
const unchanged: Effect = (hook) => [hook];
const endpoints: [string, Call, number, Effect][] = [
  ["GET /hooks", (api, g) => api.get(hooks(g)), 200, unchanged],
  ["POST /hooks", (api, g) => api.post(hooks(g), { url: `${PUBLIC}/new` }), 201, (hook) => [hook, expect.objectContaining({ url: `${PUBLIC}/new` })]],
  ["GET /hooks/:hook_id", (api, g, h) => api.get(`${hooks(g)}/${h}`), 200, unchanged],
  ["PUT /hooks/:hook_id", (api, g, h) => api.put(`${hooks(g)}/${h}`, { url: `${PUBLIC}/hook`, note_events: true }), 200, (hook) => [{ ...hook, note_events: true }]],
  ["DELETE /hooks/:hook_id", (api, g, h) => api.delete(`${hooks(g)}/${h}`), 204, () => []],
  ["PUT .../url_variables/:key", (api, g, h) => api.put(`${hooks(g)}/${h}/url_variables/w`, { value: "2" }), 204, (hook) => [{ ...hook, url_variables: [{ key: "v" }, { key: "w" }] }]],
  ["DELETE .../url_variables/:key", (api, g, h) => api.delete(`${hooks(g)}/${h}/url_variables/v`), 204, (hook) => [{ ...hook, url_variables: [] }]],
  ["PUT .../custom_headers/:key", (api, g, h) => api.put(`${hooks(g)}/${h}/custom_headers/X-Other`, { value: "2" }), 204, (hook) => [{ ...hook, custom_headers: [{ key: "X-H" }, { key: "X-Other" }] }]],
  ["DELETE .../custom_headers/:key", (api, g, h) => api.delete(`${hooks(g)}/${h}/custom_headers/X-H`), 204, (hook) => [{ ...hook, custom_headers: [] }]],
];

describe.each(endpoints)("%s per actor", (_name, call, success, effect) => {
  const actors: [string, () => ApiClient, () => any, number | "ok", unknown?][] = [
    ["anonymous", () => t.anon, () => group, 401, { message: "401 Unauthorized" }],
    ["a non-member of the private group", () => stranger.api, () => group, 404, NOT_FOUND_GROUP],
    ["a non-member of a public group", () => stranger.api, () => pub, 403, FORBIDDEN],
    ["a Guest", () => guest.api, () => group, 403, FORBIDDEN],
    ["a Reporter", () => reporter.api, () => group, 403, FORBIDDEN],
    ["a Developer", () => developer.api, () => group, 403, FORBIDDEN],
    ["a Maintainer", () => maintainer.api, () => group, 403, FORBIDDEN],
    ["the Owner of a subgroup, on the parent", () => subOwner.api, () => group, 403, FORBIDDEN],
    ["the Owner of a subgroup, on the subgroup", () => subOwner.api, () => sub, "ok"],
    ["the Owner of the parent, on a subgroup (inherited)", () => owner.api, () => sub, "ok"],
    ["the group's Owner", () => owner.api, () => group, "ok"],
    ["an administrator", () => t.root, () => group, "ok"],
  ];
  it.each(actors)("%s", async (_who, api, target, expected, body) => {
    const hook = await newHook(target().id);
    const res = await call(api(), target().id, hook.id);
    expect(res.status, res.text).toBe(expected === "ok" ? success : expected);
    if (body) expect(res.body).toEqual(body);
    // the group's hooks, read back by an administrator: as they were after a refusal, changed after a write
    const after = await t.root.get(hooks(target().id));
    expect(after.body).toEqual(expected === "ok" ? effect(hook) : [hook]);
  });
});

describe("the entity", () => {
  it("has every field of GitLab's GroupHook, keys only for variables and headers, never the token", async () => {
    const res = await owner.api.post(hooks(group.id), {
      url: `${PUBLIC}/{path}?t={tok}`, name: "CI", description: "notifies CI", token: "tok-1",
      push_events: false, tag_push_events: true, merge_requests_events: true, issues_events: true, confidential_issues_events: true,
      note_events: true, confidential_note_events: true, job_events: true, pipeline_events: true, wiki_page_events: true,
      deployment_events: true, feature_flag_events: true, releases_events: true, subgroup_events: true, member_events: true,
      resource_access_token_events: true, emoji_events: true, enable_ssl_verification: false,
      push_events_branch_filter: "release/*", branch_filter_strategy: "wildcard", custom_webhook_template: '{"kind":"{{object_kind}}"}',
      url_variables: [{ key: "path", value: "deliver" }, { key: "tok", value: "s3cr3t" }],
      custom_headers: [{ key: "Authorization", value: "Bearer abc" }, { key: "X-Team", value: "core" }],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toEqual({
      id: expect.any(Number), url: `${PUBLIC}/{path}?t={tok}`, name: "CI", description: "notifies CI",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      push_events: false, tag_push_events: true, merge_requests_events: true, repository_update_events: false,
      enable_ssl_verification: false, alert_status: "executable", disabled_until: null,
      url_variables: [{ key: "path" }, { key: "tok" }], push_events_branch_filter: "release/*", branch_filter_strategy: "wildcard",
      custom_webhook_template: '{"kind":"{{object_kind}}"}', custom_headers: [{ key: "Authorization" }, { key: "X-Team" }],
      group_id: group.id, issues_events: true, confidential_issues_events: true, note_events: true, confidential_note_events: true,
      pipeline_events: true, wiki_page_events: true, job_events: true, deployment_events: true, feature_flag_events: true,
      releases_events: true, milestone_events: false, subgroup_events: true, emoji_events: true, resource_access_token_events: true,
      member_events: true, vulnerability_events: false, project_events: false,
      signing_enabled: false, signing_secret: null, // Forgeline extension (test/webhooks/signing.test.ts)
    });
    expect(Object.keys(res.body)).toEqual([
      "id", "url", "name", "description", "created_at", "push_events", "tag_push_events", "merge_requests_events",
      "repository_update_events", "enable_ssl_verification", "alert_status", "disabled_until", "url_variables",
      "push_events_branch_filter", "branch_filter_strategy", "custom_webhook_template", "custom_headers", "group_id",
      "issues_events", "confidential_issues_events", "note_events", "confidential_note_events", "pipeline_events",
      "wiki_page_events", "job_events", "deployment_events", "feature_flag_events", "releases_events", "milestone_events",
      "subgroup_events", "emoji_events", "resource_access_token_events", "member_events", "vulnerability_events", "project_events",
      "signing_enabled", "signing_secret",
    ]);
    expect((await owner.api.get(`${hooks(group.id)}/${res.body.id}`)).body).toEqual(res.body);
    const listed = await owner.api.get(hooks(group.id), { query: { per_page: 100 } });
    expect(listed.body).toContainEqual(res.body);
    for (const text of [res.text, listed.text]) {
      for (const secret of ["tok-1", "s3cr3t", "deliver", "Bearer abc", "core"]) expect(text).not.toContain(secret);
    }
    expect(await stored(res.body.id)).toMatchObject({
      token: "tok-1", urlVariables: { path: "deliver", tok: "s3cr3t" }, customHeaders: { Authorization: "Bearer abc", "X-Team": "core" },
    });
  });

  it("defaults: push events on, the other switches off, SSL verification on, wildcard strategy", async () => {
    const res = await owner.api.post(hooks(group.id), { url: `${PUBLIC}/defaults` });
    expect(res.status).toBe(201);
    const switches = Object.entries(res.body).filter(([key]) => key.endsWith("_events"));
    expect(switches.filter(([, on]) => on).map(([key]) => key)).toEqual(["push_events"]);
    expect(res.body).toMatchObject({
      name: null, description: null, enable_ssl_verification: true, branch_filter_strategy: "wildcard", push_events_branch_filter: null,
      custom_webhook_template: null, url_variables: [], custom_headers: [],
    });
    expect((await stored(res.body.id)).token).toBeNull();
  });

  it("accepts a form-encoded body with arrays of hashes", async () => {
    const form = new URLSearchParams({
      url: `${PUBLIC}/{a}`, "url_variables[0][key]": "a", "url_variables[0][value]": "x", "custom_headers[0][key]": "X-Form",
      "custom_headers[0][value]": "yes", issues_events: "true",
    });
    const res = await owner.api.request("POST", hooks(group.id), { form });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ url_variables: [{ key: "a" }], custom_headers: [{ key: "X-Form" }], issues_events: true });
  });

  it("lists a group's own hooks only, paginated, by full path too", async () => {
    const own = await createGroup(owner.api);
    const a = await newHook(own.id);
    const b = await newHook(own.id);
    const page = await owner.api.get(hooks(own.full_path), { query: { per_page: 1, page: 2 } });
    expect(page.status).toBe(200);
    expect(page.body.map((h: any) => h.id)).toEqual([b.id]);
    expect(page.headers.get("x-total")).toBe("2");
    expect(page.headers.get("x-prev-page")).toBe("1");
    expect((await owner.api.get(hooks(own.id))).body.map((h: any) => h.id)).toEqual([a.id, b.id]);
  });
});

describe("lookups and parameters", () => {
  it("GET/PUT of an unknown hook, or of another group's hook, answers 404 Not found", async () => {
    const other = await newHook(sub.id);
    for (const id of [999999, other.id]) {
      expect((await owner.api.get(`${hooks(group.id)}/${id}`)).body).toEqual({ message: "404 Not found" });
      const put = await owner.api.put(`${hooks(group.id)}/${id}`, { url: `${PUBLIC}/x` });
      expect([put.status, put.body]).toEqual([404, { message: "404 Not found" }]);
      const variable = await owner.api.put(`${hooks(group.id)}/${id}/url_variables/a`, { value: "x" });
      expect([variable.status, variable.body]).toEqual([404, { message: "404 Not found" }]);
    }
  });

  it.each([
    ["POST", {}, "url is missing"],
    ["POST", { push_events: true }, "url is missing"],
    ["PUT", {}, "url is missing"],
    ["PUT", { push_events: false }, "url is missing"],
    ["POST", { url: `${PUBLIC}/x`, branch_filter_strategy: "glob" }, "branch_filter_strategy does not have a valid value"],
    ["POST", { url: `${PUBLIC}/x`, push_events: "maybe" }, "push_events is invalid"],
    ["PUT", { url: `${PUBLIC}/x`, enable_ssl_verification: "sometimes" }, "enable_ssl_verification is invalid"],
    ["POST", { url: `${PUBLIC}/x`, custom_headers: [{ value: "no key" }] }, "custom_headers is invalid"],
    ["POST", { url: `${PUBLIC}/x`, url_variables: "nope" }, "url_variables is invalid"],
  ])("%s %j: 400 %s", async (method, body, error) => {
    const hook = await newHook();
    const path = method === "POST" ? hooks(group.id) : `${hooks(group.id)}/${hook.id}`;
    const res = await owner.api.request(method, path, { json: body });
    expect([res.status, res.body]).toEqual([400, { error }]);
  });

  it("a hook_id that is not an integer is a 400", async () => {
    expect((await owner.api.get(`${hooks(group.id)}/abc`)).body).toEqual({ error: "hook_id is invalid" });
  });
});

describe("PUT /groups/:id/hooks/:hook_id", () => {
  it("changes the given attributes and keeps the others", async () => {
    const hook = await newHook(group.id, { name: "before", job_events: true });
    const res = await owner.api.put(`${hooks(group.id)}/${hook.id}`, {
      url: hook.url, push_events: false, pipeline_events: true, push_events_branch_filter: "updated-branch-filter", description: "d",
      service_access_tokens_expiration_enforced: false,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      ...hook, push_events: false, pipeline_events: true, push_events_branch_filter: "updated-branch-filter", description: "d",
    });
    const row = await t.services.db.webHook.findUniqueOrThrow({ where: { id: hook.id } });
    expect(row.serviceAccessTokensExpirationEnforced).toBe(false);
  });

  it("merges URL variables and custom headers into the stored ones", async () => {
    const hook = await newHook();
    const res = await owner.api.put(`${hooks(group.id)}/${hook.id}`, {
      url: hook.url, url_variables: [{ key: "w", value: "2" }, { key: "v", value: "one" }], custom_headers: [{ key: "X-Two", value: "2" }],
    });
    expect(res.body).toMatchObject({ url_variables: [{ key: "v" }, { key: "w" }], custom_headers: [{ key: "X-H" }, { key: "X-Two" }] });
    expect(await stored(hook.id)).toMatchObject({ urlVariables: { v: "one", w: "2" }, customHeaders: { "X-H": "1", "X-Two": "2" } });
  });

  it("entries sent back as GET shows them (keys only, as python-gitlab's save() does) change nothing", async () => {
    const hook = await newHook();
    const same = await owner.api.put(`${hooks(group.id)}/${hook.id}`, { ...hook, note_events: true });
    expect(same.status, same.text).toBe(200);
    expect(await stored(hook.id)).toMatchObject({ token: "secret-token", urlVariables: { v: "1" }, customHeaders: { "X-H": "1" } });
    // they do not keep the stored secrets across a url change either
    const moved = await owner.api.put(`${hooks(group.id)}/${hook.id}`, { ...hook, url: `${PUBLIC}/moved` });
    expect(moved.body).toMatchObject({ url_variables: [], custom_headers: [] });
    expect(await stored(hook.id)).toMatchObject({ token: null, urlVariables: {}, customHeaders: {} });
  });

  describe("the secret token", () => {
    const cases: [string, (h: any) => Record<string, unknown>, string | null][] = [
      ["the same url (what clients always resend) keeps it", (h) => ({ url: h.url, push_events: false }), "secret-token"],
      ["a new url value drops it", (h) => ({ url: `${h.url}/moved` }), null],
      ["a new url with a new token takes the new token", (h) => ({ url: `${h.url}/moved`, token: "new-token" }), "new-token"],
      ["the same url with a new token takes the new token", (h) => ({ url: h.url, token: "new-token" }), "new-token"],
      ["an empty token removes it", (h) => ({ url: h.url, token: "" }), null],
    ];
    it.each(cases)("%s", async (_name, body, token) => {
      const hook = await newHook();
      const res = await owner.api.put(`${hooks(group.id)}/${hook.id}`, body(hook));
      expect(res.status, res.text).toBe(200);
      expect(res.body).not.toHaveProperty("token");
      expect((await stored(hook.id)).token).toBe(token);
    });
  });

  describe("a URL change drops the stored custom headers and URL variables", () => {
    it("custom headers go when the url changes; those sent with the change stay", async () => {
      const hook = await newHook();
      const moved = await owner.api.put(`${hooks(group.id)}/${hook.id}`, { url: `${PUBLIC}/moved` });
      expect(moved.body.custom_headers).toEqual([]);
      const again = await newHook();
      const withNew = await owner.api.put(`${hooks(group.id)}/${again.id}`, { url: `${PUBLIC}/moved`, custom_headers: [{ key: "X-New", value: "n" }] });
      expect(withNew.body.custom_headers).toEqual([{ key: "X-New" }]);
      expect((await stored(again.id)).customHeaders).toEqual({ "X-New": "n" });
    });

    it("resending the same url keeps headers and variables", async () => {
      const hook = await newHook();
      const res = await owner.api.put(`${hooks(group.id)}/${hook.id}`, { url: hook.url, issues_events: true });
      expect(res.body).toMatchObject({ custom_headers: [{ key: "X-H" }], url_variables: [{ key: "v" }] });
    });

    it("variables go when the interpolated url changes, so a template still needing them is refused", async () => {
      const hook = await newHook(group.id, { url: `${PUBLIC}/{p}`, url_variables: [{ key: "p", value: "a" }, { key: "q", value: "b" }] });
      const refused = await owner.api.put(`${hooks(group.id)}/${hook.id}`, { url: `${PUBLIC}/x/{p}` });
      expect([refused.status, refused.body]).toEqual([422, { error: "Invalid url given" }]);
      expect((await owner.api.get(`${hooks(group.id)}/${hook.id}`)).body).toEqual(hook); // nothing saved

      const resent = await owner.api.put(`${hooks(group.id)}/${hook.id}`, { url: `${PUBLIC}/x/{p}`, url_variables: [{ key: "p", value: "c" }] });
      expect(resent.status, resent.text).toBe(200);
      expect(resent.body).toMatchObject({ url: `${PUBLIC}/x/{p}`, url_variables: [{ key: "p" }], custom_headers: [] });
      expect(await stored(hook.id)).toMatchObject({ urlVariables: { p: "c" }, customHeaders: {}, token: null });
    });

    it("a variable not used in the url changes nothing else; one that changes the target drops the other secrets and the token", async () => {
      const hook = await newHook(group.id, { url: `${PUBLIC}/{p}`, url_variables: [{ key: "p", value: "a" }, { key: "q", value: "b" }] });
      const unused = await owner.api.put(`${hooks(group.id)}/${hook.id}/url_variables/q`, { value: "B" });
      expect(unused.status).toBe(204);
      expect(await stored(hook.id)).toMatchObject({ urlVariables: { p: "a", q: "B" }, customHeaders: { "X-H": "1" }, token: "secret-token" });
      const used = await owner.api.put(`${hooks(group.id)}/${hook.id}/url_variables/p`, { value: "z" });
      expect(used.status).toBe(204);
      expect(await stored(hook.id)).toMatchObject({ url: `${PUBLIC}/{p}`, urlVariables: { p: "z" }, customHeaders: {}, token: null });
    });
  });
});

describe("DELETE /groups/:id/hooks/:hook_id", () => {
  it("deletes; a repeat DELETE and an unknown hook answer 204 too", async () => {
    const hook = await newHook();
    for (let i = 0; i < 2; i++) {
      const res = await owner.api.delete(`${hooks(group.id)}/${hook.id}`);
      expect([res.status, res.text, res.headers.get("content-type")]).toEqual([204, "", null]);
    }
    expect((await owner.api.get(`${hooks(group.id)}/${hook.id}`)).status).toBe(404);
    expect((await owner.api.delete(`${hooks(group.id)}/999999`)).status).toBe(204);
  });

  it("never deletes another group's hook", async () => {
    const other = await newHook(sub.id);
    expect((await owner.api.delete(`${hooks(group.id)}/${other.id}`)).status).toBe(204);
    expect((await owner.api.get(`${hooks(sub.id)}/${other.id}`)).status).toBe(200);
  });

  it("honours If-Unmodified-Since (412 when the hook changed later)", async () => {
    const hook = await newHook();
    const stale = await owner.api.delete(`${hooks(group.id)}/${hook.id}`, { headers: { "If-Unmodified-Since": "Mon, 01 Jan 2001 00:00:00 GMT" } });
    expect([stale.status, stale.body]).toEqual([412, { message: "412 Precondition Failed" }]);
    const fresh = await owner.api.delete(`${hooks(group.id)}/${hook.id}`, { headers: { "If-Unmodified-Since": new Date(Date.now() + 60_000).toUTCString() } });
    expect(fresh.status).toBe(204);
  });

  it("DELETE on the collection path is an unknown route", async () => {
    expect((await owner.api.delete(hooks(group.id))).body).toEqual({ error: "404 Not Found" });
  });
});

describe.each([
  ["url_variables", "URL variable", "Could not unset variable", "v", "abc%20def"],
  ["custom_headers", "Custom header", "Could not unset custom header", "X-H", "X--H"],
] as const)("PUT/DELETE .../%s/:key", (setting, noun, unsetError, existing, illegal) => {
  const path = (hookId: number, key: string) => `${hooks(group.id)}/${hookId}/${setting}/${key}`;
  const storedMap = async (id: number) => {
    const state = await stored(id);
    return setting === "url_variables" ? state.urlVariables : state.customHeaders;
  };

  it("sets a new key, overwrites an existing one, and answers 204 without a body", async () => {
    const hook = await newHook();
    const added = await owner.api.put(path(hook.id, "Extra_1"), { value: "new value" });
    expect([added.status, added.text, added.headers.get("content-type")]).toEqual([204, "", null]);
    const overwritten = await owner.api.put(path(hook.id, existing), { value: "changed" });
    expect(overwritten.status).toBe(204);
    expect(await storedMap(hook.id)).toEqual({ [existing]: "changed", Extra_1: "new value" });
    expect((await owner.api.get(`${hooks(group.id)}/${hook.id}`)).body[setting]).toEqual([{ key: existing }, { key: "Extra_1" }]);
  });

  it.each([
    ["an illegal key", () => illegal, { value: "x" }],
    ["an empty value", () => "Fine", { value: "" }],
    ["a value that is too long", () => "Fine", { value: "x".repeat(setting === "url_variables" ? 101 : 2049) }],
  ])("refuses %s with 422 Illegal key or value", async (_name, key, body) => {
    const hook = await newHook();
    const res = await owner.api.put(path(hook.id, key()), body);
    expect([res.status, res.body]).toEqual([422, { error: "Illegal key or value" }]);
    expect(await storedMap(hook.id)).toEqual({ [existing]: "1" });
  });

  it("requires a value (400)", async () => {
    const hook = await newHook();
    expect((await owner.api.put(path(hook.id, "k"), {})).body).toEqual({ error: "value is missing" });
  });

  it("refuses a 21st key", async () => {
    const entries = Array.from({ length: 19 }, (_, i) => ({ key: `K${i}`, value: "v" }));
    const hook = await newHook(group.id, { [setting]: [{ key: existing, value: "1" }, ...entries] });
    expect((await owner.api.put(path(hook.id, "K19"), { value: "v" })).body).toEqual({ error: "Illegal key or value" });
    expect((await owner.api.put(path(hook.id, "K0"), { value: "overwrite is fine" })).status).toBe(204);
  });

  it(`deletes a key; an absent key is 404 ${noun} Not Found`, async () => {
    const hook = await newHook();
    expect((await owner.api.delete(path(hook.id, existing))).status).toBe(204);
    expect(await storedMap(hook.id)).toEqual({});
    const again = await owner.api.delete(path(hook.id, existing));
    expect([again.status, again.body]).toEqual([404, { message: `404 ${noun} Not Found` }]);
    const unknownHook = await owner.api.delete(path(999999, existing));
    expect([unknownHook.status, unknownHook.body]).toEqual([404, { message: "404 Not found" }]);
  });

  if (setting === "url_variables") {
    it(`a variable the url still uses cannot be unset (422 ${unsetError})`, async () => {
      const hook = await newHook(group.id, { url: `${PUBLIC}/{v}` });
      const res = await owner.api.delete(path(hook.id, "v"));
      expect([res.status, res.body]).toEqual([422, { error: unsetError }]);
      expect(await storedMap(hook.id)).toEqual({ v: "1" });
    });
  } else {
    it.each(["X-Service-Token", "x-gitlab-token", "Content-Type", "User-Agent", "Idempotency-Key"])("refuses the delivery header %s", async (key) => {
      const hook = await newHook();
      expect((await owner.api.put(path(hook.id, key), { value: "x" })).body).toEqual({ error: "Illegal key or value" });
    });
  }
});
