import { beforeAll, describe, expect, it } from "vitest";
import { isFeatureEnabled } from "../../src/domain/features/flags.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createUser, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  user = await createUser(t);
});

const on = (name: string, definition: unknown = null) => ({ name, state: "on", gates: [{ key: "boolean", value: true }], definition });
const off = (name: string, definition: unknown = null) => ({ name, state: "off", gates: [{ key: "boolean", value: false }], definition });

describe("who may use the Features API", () => {
  it.each([
    ["GET", "/features"],
    ["GET", "/features/definitions"],
    ["POST", "/features/some_flag"],
    ["DELETE", "/features/some_flag"],
  ])("%s %s: 401 anonymous, 403 for a user", async (method, path) => {
    const options = method === "GET" ? {} : { json: { value: true } };
    const anonymous = await t.anon.request(method, path, options);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: "401 Unauthorized" });
    const denied = await user.api.request(method, path, options);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: "403 Forbidden" });
  });

  it("a user's attempt changes nothing", async () => {
    await user.api.post("/features/approval_group_rules", { value: true });
    expect(await isFeatureEnabled(t.services, "approval_group_rules")).toBe(false);
  });
});

describe("defaults", () => {
  it("GET /features lists only persisted flags, so a fresh instance has none", async () => {
    const fresh = await startTestApp();
    const res = await fresh.root.get("/features");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toEqual([]);
  });

  it("isFeatureEnabled follows GitLab's defaults when nothing is set", async () => {
    const fresh = await startTestApp();
    expect(await isFeatureEnabled(fresh.services, "approval_group_rules")).toBe(false);
    expect(await isFeatureEnabled(fresh.services, "web_hook_event_resend_api_endpoint_rate_limit")).toBe(true);
    expect(await isFeatureEnabled(fresh.services, "web_hook_test_api_endpoint_rate_limit")).toBe(true);
  });

  it("GET /features/definitions shows the known flags and their defaults", async () => {
    const res = await t.root.get("/features/definitions");
    expect(res.status).toBe(200);
    const defaults = Object.fromEntries(res.body.map((d: any) => [d.name, d.default_enabled]));
    expect(defaults).toEqual({
      approval_group_rules: false,
      web_hook_event_resend_api_endpoint_rate_limit: true,
      web_hook_test_api_endpoint_rate_limit: true,
    });
    expect(res.body.find((d: any) => d.name === "web_hook_test_api_endpoint_rate_limit")).toEqual({
      name: "web_hook_test_api_endpoint_rate_limit",
      feature_issue_url: null,
      introduced_by_url: "https://gitlab.com/gitlab-org/gitlab/-/merge_requests/150066",
      rollout_issue_url: null,
      milestone: "17.0",
      log_state_changes: null,
      type: "ops",
      group: "group::import and integrate",
      default_enabled: true,
    });
  });
});

describe("POST /features/:name", () => {
  it.each([
    ["JSON true", { json: { value: true } }, true],
    ["JSON false", { json: { value: false } }, false],
    ['string "true"', { json: { value: "true" } }, true],
    ['string "false"', { json: { value: "false" } }, false],
    ["form-encoded true", { form: new URLSearchParams({ value: "true" }) }, true],
    ["query string false", { query: { value: "false" } }, false],
    ['"100" (GitLab: fully on)', { json: { value: "100" } }, true],
    ["0 (GitLab: off)", { json: { value: 0 } }, false],
  ])("accepts %s", async (_label, options, enabled) => {
    const name = `flag_${Math.random().toString(36).slice(2, 8)}`;
    const res = await t.root.request("POST", `/features/${name}`, options);
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toEqual(enabled ? on(name) : off(name));
  });

  it("sets a known flag and shows its definition", async () => {
    const res = await t.root.post("/features/approval_group_rules", { value: true });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "approval_group_rules", state: "on", gates: [{ key: "boolean", value: true }] });
    expect(res.body.definition).toMatchObject({ name: "approval_group_rules", default_enabled: false });
    expect(await isFeatureEnabled(t.services, "approval_group_rules")).toBe(true);
    await t.root.delete("/features/approval_group_rules");
  });

  it("updates an existing override", async () => {
    await t.root.post("/features/toggled_twice", { value: true });
    const res = await t.root.post("/features/toggled_twice", { value: false });
    expect(res.body).toEqual(off("toggled_twice"));
    const list = await t.root.get("/features");
    expect(list.body.filter((f: any) => f.name === "toggled_twice")).toEqual([off("toggled_twice")]);
  });

  it("accepts python-gitlab's double slash (POST /features//name)", async () => {
    const res = await t.root.post("/features//double_slash_flag", { value: true }, { raw: true });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual(on("double_slash_flag"));
  });

  it("keeps an encoded slash inside the name", async () => {
    const res = await t.root.post("/features/team%2Fflag", { value: true }, { raw: true });
    expect(res.status, res.text).toBe(201);
    expect(res.body.name).toBe("team/flag");
  });

  it.each([
    ["no value", {}, { error: "value is missing" }],
    ["null", { value: null }, { error: "value is missing" }],
    ["a word", { value: "yes" }, { message: `400 Bad request - Cannot set 'bad_flag' to "yes"` }],
    ["an empty string", { value: "" }, { message: `400 Bad request - Cannot set 'bad_flag' to ""` }],
    ["an object", { value: { a: 1 } }, { message: `400 Bad request - Cannot set 'bad_flag' to {"a":1}` }],
    ["a percentage", { value: 50 }, { message: "400 Bad request - Percentage gates are not supported; set 'bad_flag' to true or false" }],
    ["a percentage string", { value: "25.5" }, { message: "400 Bad request - Percentage gates are not supported; set 'bad_flag' to true or false" }],
  ])("answers 400 for %s and stores nothing", async (_label, body, error) => {
    const res = await t.root.post("/features/bad_flag", body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error);
    const list = await t.root.get("/features");
    expect(list.body.map((f: any) => f.name)).not.toContain("bad_flag");
  });
});

describe("DELETE /features/:name", () => {
  it("removes the override: back to the default, gone from the list", async () => {
    await t.root.post("/features/web_hook_test_api_endpoint_rate_limit", { value: false });
    expect(await isFeatureEnabled(t.services, "web_hook_test_api_endpoint_rate_limit")).toBe(false);
    const res = await t.root.delete("/features/web_hook_test_api_endpoint_rate_limit");
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(res.headers.get("content-type")).toBeNull();
    expect(await isFeatureEnabled(t.services, "web_hook_test_api_endpoint_rate_limit")).toBe(true);
    const list = await t.root.get("/features");
    expect(list.body.map((f: any) => f.name)).not.toContain("web_hook_test_api_endpoint_rate_limit");
  });

  it("answers 204 for a flag that was never set", async () => {
    const res = await t.root.delete("/features/never_set_anywhere");
    expect(res.status).toBe(204);
  });
});

describe("GET /features", () => {
  it("lists every override sorted by name with state, gates and definition", async () => {
    const fresh = await startTestApp();
    await fresh.root.post("/features/zeta_flag", { value: true });
    await fresh.root.post("/features/approval_group_rules", { value: true });
    await fresh.root.post("/features/web_hook_event_resend_api_endpoint_rate_limit", { value: false });
    const res = await fresh.root.get("/features");
    expect(res.status).toBe(200);
    expect(res.body.map((f: any) => [f.name, f.state, f.gates, f.definition?.default_enabled ?? null])).toEqual([
      ["approval_group_rules", "on", [{ key: "boolean", value: true }], false],
      ["web_hook_event_resend_api_endpoint_rate_limit", "off", [{ key: "boolean", value: false }], true],
      ["zeta_flag", "on", [{ key: "boolean", value: true }], null],
    ]);
  });
});

describe("GraphQL", () => {
  const SET = `mutation($name: String!, $value: JSON!) { setFeature(name: $name, value: $value) { name state gates { key value } definition { default_enabled } } }`;

  it("sets, lists and deletes a flag", async () => {
    const set = await t.root.graphql(SET, { name: "approval_group_rules", value: true });
    expect(set.body.errors).toBeUndefined();
    expect(set.body.data.setFeature).toEqual({
      name: "approval_group_rules", state: "on", gates: [{ key: "boolean", value: true }], definition: { default_enabled: false },
    });
    const list = await t.root.graphql(`{ features { name state } }`);
    expect(list.body.data.features).toContainEqual({ name: "approval_group_rules", state: "on" });
    const del = await t.root.graphql(`mutation { deleteFeature(name: "approval_group_rules") }`);
    expect(del.body.data).toEqual({ deleteFeature: true });
    expect(await isFeatureEnabled(t.services, "approval_group_rules")).toBe(false);
  });

  it("refuses non-admins with the REST body in extensions", async () => {
    const denied = await user.api.graphql(SET, { name: "approval_group_rules", value: true });
    expect(denied.body.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN", gitlab: { message: "403 Forbidden" } });
    expect(await isFeatureEnabled(t.services, "approval_group_rules")).toBe(false);
    const anonymous = await t.anon.graphql(`{ features { name } }`);
    expect(anonymous.body.errors?.[0]?.extensions).toMatchObject({ code: "UNAUTHENTICATED", gitlab: { message: "401 Unauthorized" } });
    const definitions = await user.api.graphql(`{ featureDefinitions { name } }`);
    expect(definitions.body.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN" });
  });

  it("answers a bad value with the same 400 as REST", async () => {
    const res = await t.root.graphql(SET, { name: "x_flag", value: "maybe" });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT", gitlab: { message: `400 Bad request - Cannot set 'x_flag' to "maybe"` },
    });
  });
});
