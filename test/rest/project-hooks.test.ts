// Project webhooks over /api/v4 (GitLab's lib/api/project_hooks.rb): every endpoint per actor
// (read_web_hook / admin_web_hook come with admin_project: Maintainers, Owners, administrators),
// the ProjectHook entity (no group-only switches; the list without url_variables and
// custom_headers), bad input, edits and the key/value sub-resources, the plan limit, GraphQL, and
// deleting the project. Hook URLs are public IP literals: nothing is ever sent to them.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { stateOf } from "../../src/domain/web-hooks/rows.js";
import type { ApiClient } from "../helpers/api.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createGroup, createProject } from "../helpers/factories.js";
import { clientOf, createTeam, createTeamProject, type Actor, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let project: any, publicProject: any, other: any;

const PUBLIC = "http://8.8.8.8";
const hooks = (projectId: number | string) => `/projects/${encodeURIComponent(String(projectId))}/hooks`;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  project = await createTeamProject(team);
  publicProject = await createTeamProject(team, { visibility: "public" });
  other = await createProject(team.owner.api);
});

afterEach(async () => {
  await t.services.db.webHook.deleteMany({});
});

/** A hook made by root with one URL variable (v) and one custom header (X-H). */
async function newHook(projectId = project.id, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await t.root.post(hooks(projectId), {
    url: `${PUBLIC}/hook`, token: "secret-token", url_variables: [{ key: "v", value: "1" }], custom_headers: [{ key: "X-H", value: "1" }], ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function stored(id: number) {
  return stateOf(t.services, await t.services.db.webHook.findUniqueOrThrow({ where: { id } }));
}

type Call = (api: ApiClient, projectId: number, hookId: number) => Promise<{ status: number; body: any; text: string }>;
const endpoints: [string, Call, number][] = [
  ["GET /hooks", (api, p) => api.get(hooks(p)), 200],
  ["POST /hooks", (api, p) => api.post(hooks(p), { url: `${PUBLIC}/new` }), 201],
  ["GET /hooks/:hook_id", (api, p, h) => api.get(`${hooks(p)}/${h}`), 200],
  ["PUT /hooks/:hook_id", (api, p, h) => api.put(`${hooks(p)}/${h}`, { url: `${PUBLIC}/hook`, note_events: true }), 200],
  ["DELETE /hooks/:hook_id", (api, p, h) => api.delete(`${hooks(p)}/${h}`), 204],
  ["PUT .../url_variables/:key", (api, p, h) => api.put(`${hooks(p)}/${h}/url_variables/w`, { value: "2" }), 204],
  ["DELETE .../url_variables/:key", (api, p, h) => api.delete(`${hooks(p)}/${h}/url_variables/v`), 204],
  ["PUT .../custom_headers/:key", (api, p, h) => api.put(`${hooks(p)}/${h}/custom_headers/X-Other`, { value: "2" }), 204],
  ["DELETE .../custom_headers/:key", (api, p, h) => api.delete(`${hooks(p)}/${h}/custom_headers/X-H`), 204],
];

describe.each(endpoints)("%s per actor (GitLab: read_web_hook / admin_web_hook from admin_project)", (_name, call, success) => {
  const cases: [Actor, () => any, number | "ok", unknown?][] = [
    ["anonymous", () => project, 401, { message: "401 Unauthorized" }],
    ["nonMember", () => project, 404, { message: "404 Project Not Found" }],
    ["nonMember", () => publicProject, 403, { message: "403 Forbidden" }],
    ["guest", () => project, 403, { message: "403 Forbidden" }],
    ["reporter", () => project, 403, { message: "403 Forbidden" }],
    ["developer", () => publicProject, 403, { message: "403 Forbidden" }],
    ["maintainer", () => project, "ok"],
    ["owner", () => project, "ok"],
    ["admin", () => project, "ok"],
  ];
  it.each(cases)("%s", async (actor, target, expected, body) => {
    const hook = await newHook(target().id);
    const res = await call(clientOf(t, team, actor), target().id, hook.id);
    expect(res.status, res.text).toBe(expected === "ok" ? success : expected);
    if (body) expect(res.body).toEqual(body);
    if (expected !== "ok") expect((await t.root.get(`${hooks(target().id)}/${hook.id}`)).body).toEqual(hook); // unchanged
  });
});

describe("the entity", () => {
  const PROJECT_SWITCHES = [
    "issues_events", "confidential_issues_events", "note_events", "confidential_note_events", "pipeline_events", "wiki_page_events",
    "deployment_events", "feature_flag_events", "job_events", "releases_events", "milestone_events", "emoji_events",
    "resource_access_token_events", "vulnerability_events",
  ];

  it("has GitLab's ProjectHook fields in its order, keys only for variables and headers, never the token", async () => {
    const res = await team.maintainer.api.post(hooks(project.id), {
      url: `${PUBLIC}/{path}`, name: "CI", description: "notifies CI", token: "tok-1", push_events: false, tag_push_events: true,
      merge_requests_events: true, ...Object.fromEntries(PROJECT_SWITCHES.map((s) => [s, true])), enable_ssl_verification: false,
      push_events_branch_filter: "release/*", branch_filter_strategy: "wildcard", custom_webhook_template: '{"kind":"{{object_kind}}"}',
      url_variables: [{ key: "path", value: "deliver" }], custom_headers: [{ key: "X-Team", value: "core" }],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number), url: `${PUBLIC}/{path}`, name: "CI", description: "notifies CI",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      push_events: false, tag_push_events: true, merge_requests_events: true, repository_update_events: false,
      enable_ssl_verification: false, alert_status: "executable", disabled_until: null, url_variables: [{ key: "path" }],
      push_events_branch_filter: "release/*", branch_filter_strategy: "wildcard", custom_webhook_template: '{"kind":"{{object_kind}}"}',
      custom_headers: [{ key: "X-Team" }], project_id: project.id, ...Object.fromEntries(PROJECT_SWITCHES.map((s) => [s, true])),
      signing_enabled: false, signing_secret: null, // Forgeline extension (test/webhooks/signing.test.ts)
    });
    expect(Object.keys(res.body)).toEqual([
      "id", "url", "name", "description", "created_at", "push_events", "tag_push_events", "merge_requests_events",
      "repository_update_events", "enable_ssl_verification", "alert_status", "disabled_until", "url_variables",
      "push_events_branch_filter", "branch_filter_strategy", "custom_webhook_template", "custom_headers", "project_id", ...PROJECT_SWITCHES,
      "signing_enabled", "signing_secret",
    ]);
    expect((await team.maintainer.api.get(`${hooks(project.id)}/${res.body.id}`)).body).toEqual(res.body);
    expect(res.text).not.toMatch(/tok-1|deliver|core/);
    expect(await stored(res.body.id)).toMatchObject({ token: "tok-1", urlVariables: { path: "deliver" }, customHeaders: { "X-Team": "core" } });
  });

  it("the list leaves out url_variables and custom_headers (lib/api/project_hooks.rb: with_url_variables: false)", async () => {
    const hook = await newHook();
    const listed = await team.maintainer.api.get(hooks(project.id));
    expect(listed.status).toBe(200);
    const { url_variables: _v, custom_headers: _h, ...rest } = hook;
    expect(listed.body).toEqual([rest]);
    expect(listed.text).not.toContain("secret-token");
  });

  it("defaults: push events on, every other switch off; group-only switches are not parameters", async () => {
    const res = await team.owner.api.post(hooks(project.id), { url: `${PUBLIC}/d`, member_events: true, subgroup_events: true, project_events: true });
    expect(res.status, res.text).toBe(201);
    expect(Object.entries(res.body).filter(([key, on]) => key.endsWith("_events") && on).map(([key]) => key)).toEqual(["push_events"]);
    expect(res.body).not.toHaveProperty("member_events");
    expect(res.body).not.toHaveProperty("group_id");
    const row = await t.services.db.webHook.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ projectId: project.id, groupId: null, memberEvents: false, subgroupEvents: false, projectEvents: false });
  });

  it("lists the project's own hooks only, paginated, by full path too", async () => {
    const mine = [await newHook(), await newHook(), await newHook()];
    await newHook(other.id);
    const page = await team.maintainer.api.get(hooks(project.path_with_namespace), { query: { per_page: 2, page: 2 } });
    expect(page.status).toBe(200);
    expect(page.body.map((h: any) => h.id)).toEqual([mine[2].id]);
    expect(page.headers.get("x-total")).toBe("3");
  });
});

describe("bad input and lookups", () => {
  it.each([
    ["POST", {}, 400, { error: "url is missing" }],
    ["PUT", { push_events: false }, 400, { error: "url is missing" }],
    ["POST", { url: `${PUBLIC}/x`, branch_filter_strategy: "glob" }, 400, { error: "branch_filter_strategy does not have a valid value" }],
    ["POST", { url: "ftp://8.8.8.8/" }, 422, { error: "Invalid url given" }],
    ["POST", { url: "http://127.0.0.1/" }, 422, { error: "Invalid url given" }],
    ["POST", { url: `${PUBLIC}/{missing}` }, 422, { error: "Invalid url given" }],
    ["POST", { url: `${PUBLIC}/x`, push_events_branch_filter: "a..b" }, 422, { error: "Invalid branch filter given" }],
    ["POST", { url: `${PUBLIC}/x`, token: "a\nb" }, 422, { error: "Token is invalid" }],
    ["PUT", { url: "ftp://8.8.8.8/" }, 422, { error: "Invalid url given" }],
  ])("%s %j: %i", async (method, body, status, answer) => {
    const hook = await newHook();
    const res = method === "POST" ? await team.maintainer.api.post(hooks(project.id), body) : await team.maintainer.api.put(`${hooks(project.id)}/${hook.id}`, body);
    expect(res.status, res.text).toBe(status);
    expect(res.body).toEqual(answer);
    expect(await t.services.db.webHook.count({ where: { projectId: project.id } })).toBe(1);
    expect((await t.root.get(`${hooks(project.id)}/${hook.id}`)).body).toEqual(hook);
  });

  it("an unknown hook, or another project's, is 404 Not found; a hook_id that is not an integer is 400", async () => {
    const foreign = await newHook(other.id);
    for (const id of [999_999, foreign.id]) {
      expect(await team.owner.api.get(`${hooks(project.id)}/${id}`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
      expect(await team.owner.api.put(`${hooks(project.id)}/${id}`, { url: `${PUBLIC}/x` })).toMatchObject({ status: 404 });
    }
    expect(await team.owner.api.get(`${hooks(project.id)}/abc`)).toMatchObject({ status: 400, body: { error: "hook_id is invalid" } });
    expect((await t.root.get(`${hooks(other.id)}/${foreign.id}`)).body).toEqual(foreign);
  });

  it("an unknown project is 404 Project Not Found", async () => {
    expect(await t.root.get(hooks(999_999))).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
  });

  it("a project holds at most 100 hooks (GitLab's plan limit project_hooks)", async () => {
    const target = await createProject(team.owner.api);
    await t.services.db.webHook.createMany({
      data: Array.from({ length: 100 }, (_, i) => ({ uuid: `limit-${i}`, projectId: target.id, encryptedUrl: "x" })),
    });
    const res = await team.owner.api.post(hooks(target.id), { url: `${PUBLIC}/one-more` });
    expect(res).toMatchObject({ status: 422, body: { error: "Maximum number of project hooks (100) exceeded" } });
  });
});

describe("edits and sub-resources", () => {
  it("PUT changes the given attributes, merges variables and headers, and drops the token when the url changes", async () => {
    const hook = await newHook();
    const edited = await team.maintainer.api.put(`${hooks(project.id)}/${hook.id}`, {
      url: `${PUBLIC}/hook`, issues_events: true, custom_headers: [{ key: "X-More", value: "2" }],
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ issues_events: true, push_events: true, custom_headers: [{ key: "X-H" }, { key: "X-More" }] });
    expect((await stored(hook.id)).token).toBe("secret-token");
    const moved = await team.maintainer.api.put(`${hooks(project.id)}/${hook.id}`, { url: `${PUBLIC}/moved` });
    expect(moved.body).toMatchObject({ url: `${PUBLIC}/moved`, url_variables: [], custom_headers: [] });
    expect((await stored(hook.id)).token).toBeNull();
  });

  it("sets and unsets URL variables and custom headers; an absent key is 404", async () => {
    const hook = await newHook();
    const path = `${hooks(project.id)}/${hook.id}`;
    expect((await team.maintainer.api.put(`${path}/url_variables/w`, { value: "2" })).status).toBe(204);
    expect((await team.maintainer.api.put(`${path}/custom_headers/X-New`, { value: "3" })).status).toBe(204);
    expect(await stored(hook.id)).toMatchObject({ urlVariables: { v: "1", w: "2" }, customHeaders: { "X-H": "1", "X-New": "3" } });
    expect((await team.maintainer.api.delete(`${path}/url_variables/v`)).status).toBe(204);
    expect((await team.maintainer.api.delete(`${path}/custom_headers/X-H`)).status).toBe(204);
    expect(await stored(hook.id)).toMatchObject({ urlVariables: { w: "2" }, customHeaders: { "X-New": "3" } });
    expect(await team.maintainer.api.delete(`${path}/url_variables/v`)).toMatchObject({ status: 404, body: { message: "404 URL variable Not Found" } });
    expect(await team.maintainer.api.delete(`${path}/custom_headers/nope`)).toMatchObject({ status: 404, body: { message: "404 Custom header Not Found" } });
    expect(await team.maintainer.api.put(`${path}/url_variables/bad key`, { value: "x" })).toMatchObject({ status: 422, body: { error: "Illegal key or value" } });
  });

  it("DELETE deletes; a repeat DELETE answers 204 too; another project's hook stays", async () => {
    const hook = await newHook();
    const foreign = await newHook(other.id);
    expect((await team.maintainer.api.delete(`${hooks(project.id)}/${hook.id}`)).status).toBe(204);
    expect((await team.maintainer.api.delete(`${hooks(project.id)}/${hook.id}`)).status).toBe(204);
    expect((await team.maintainer.api.delete(`${hooks(project.id)}/${foreign.id}`)).status).toBe(204);
    expect(await t.services.db.webHook.findMany({ select: { id: true } })).toEqual([{ id: foreign.id }]);
  });
});

describe("GraphQL", () => {
  it("answers with the same root fields as REST", async () => {
    const hook = await newHook();
    const res = await team.maintainer.api.graphql(
      `query($id: ID!, $hook: Int!) { projectHook(id: $id, hook_id: $hook) { id url project_id push_events url_variables { key } }
        projectHooks(id: $id) { id } }`,
      { id: String(project.id), hook: hook.id },
    );
    expect(res.body).toEqual({
      data: {
        projectHook: { id: hook.id, url: hook.url, project_id: project.id, push_events: true, url_variables: [{ key: "v" }] },
        projectHooks: [{ id: hook.id }],
      },
    });
    const denied = await team.developer.api.graphql(`mutation($id: ID!) { createProjectHook(id: $id, url: "${PUBLIC}/g") { id } }`, { id: String(project.id) });
    expect(denied.body.errors?.[0]?.message).toMatch(/403/);
  });
});

describe("deleting the project", () => {
  it("deletes its hooks with their deliveries and history (onDelete: Cascade)", async () => {
    const doomed = await createProject(team.owner.api, { namespace_id: (await createGroup(team.owner.api)).id });
    const hook = await newHook(doomed.id);
    const db = t.services.db;
    await db.webHookDelivery.create({ data: { hookId: hook.id, trigger: "push_hooks", payload: "{}", idempotencyKey: "k", eventUuid: "e", nextAttemptAt: new Date() } });
    await db.webHookLog.create({
      data: { hookId: hook.id, trigger: "push_hooks", url: "u", requestHeaders: "{}", requestData: "{}", responseHeaders: "{}", responseBody: "", responseStatus: "200", executionDuration: 0, idempotencyKey: "k" },
    });
    const res = await team.owner.api.delete(`/projects/${doomed.id}`);
    expect(res.status, res.text).toBe(202);
    expect(await db.webHook.count({ where: { id: hook.id } })).toBe(0);
    expect(await db.webHookDelivery.count({ where: { hookId: hook.id } })).toBe(0);
    expect(await db.webHookLog.count({ where: { hookId: hook.id } })).toBe(0);
  });
});
