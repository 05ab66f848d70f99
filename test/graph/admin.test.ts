// The public graph's administrator entry points: `applications` (instance-wide OAuth applications,
// never their secret) and `features` (the flags set on the instance); null for everyone else, as
// GET /applications and GET /features refuse them.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { graph, graphData, gid } from "../helpers/graph.js";
import { ACTORS, clientOf, createTeam, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let apps: any[];

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  apps = [];
  for (const [n, confidential] of [[1, true], [2, false], [3, true]] as const) {
    const res = await t.root.post("/applications", {
      name: `App ${n}`, redirect_uri: `https://app${n}.example.com/callback`, scopes: n === 2 ? "read_user openid" : "api", confidential,
    });
    expect(res.status, res.text).toBe(200);
    apps.push(res.body);
  }
});

const NON_ADMINS = ACTORS.filter((actor) => actor !== "admin");

/** What REST answers a non-admin on an admin-only route. */
const refusalOf = (actor: string) => (actor === "anonymous" ? [401, { message: "401 Unauthorized" }] : [403, { message: "403 Forbidden" }]);

const APPLICATIONS = `query($first: Int, $after: String) { applications(first: $first, after: $after) {
  count pageInfo { hasNextPage endCursor } nodes { id name applicationId redirectUri scopes confidential createdAt } } }`;

describe("applications", () => {
  it.each(NON_ADMINS)("is null for %s, as GET /applications refuses them", async (actor) => {
    const client = clientOf(t, team, actor);
    const rest = await client.get("/applications");
    expect([rest.status, rest.body]).toEqual(refusalOf(actor));
    const res = await graph(client, APPLICATIONS);
    expect(res.body).toEqual({ data: { applications: null } });
  });

  it("lists the instance's applications, oldest first, for administrators, without a secret", async () => {
    const data = await graphData(t.root, APPLICATIONS);
    expect(data.applications.count).toBe(3);
    expect(data.applications.nodes[1]).toEqual({
      id: gid("Application", apps[1].id), name: "App 2", applicationId: apps[1].application_id,
      redirectUri: "https://app2.example.com/callback", scopes: ["read_user", "openid"], confidential: false,
      createdAt: expect.any(String),
    });
    expect(data.applications.nodes.map((a: any) => a.name)).toEqual(["App 1", "App 2", "App 3"]);
    const text = JSON.stringify(data);
    for (const app of apps) expect(text).not.toContain(app.secret);
  });

  it("pages", async () => {
    const first = await graphData(t.root, APPLICATIONS, { first: 2 });
    expect(first.applications).toMatchObject({ count: 3, pageInfo: { hasNextPage: true }, nodes: [{ name: "App 1" }, { name: "App 2" }] });
    const rest = await graphData(t.root, APPLICATIONS, { first: 2, after: first.applications.pageInfo.endCursor });
    expect(rest.applications).toMatchObject({ pageInfo: { hasNextPage: false }, nodes: [{ name: "App 3" }] });
  });

  it.each([
    ["a cursor it did not issue", { first: 1, after: "bogus" }, "Invalid cursor"],
    ["a negative first", { first: -1 }, 'Argument "first" must be a non-negative integer'],
  ])("refuses %s", async (_name, vars, message) => {
    const res = await graph(t.root, APPLICATIONS, vars);
    expect(res.body.errors?.[0]?.message).toBe(message);
  });

  it("has no secret field", async () => {
    const res = await graph(t.root, `{ applications { nodes { secret } } }`);
    expect(res.body.errors?.[0]?.message).toMatch(/Application\.secret/);
  });
});

const FEATURES = `{ features { name state gates { key value } defaultEnabled } }`;

describe("features", () => {
  it.each(NON_ADMINS)("is null for %s, as GET /features refuses them", async (actor) => {
    const client = clientOf(t, team, actor);
    const rest = await client.get("/features");
    expect([rest.status, rest.body]).toEqual(refusalOf(actor));
    expect((await graph(client, FEATURES)).body).toEqual({ data: { features: null } });
  });

  it("lists the flags set on the instance, as GET /features does", async () => {
    expect(await graphData(t.root, FEATURES)).toEqual({ features: [] });
    const set = await t.root.post("/features/approval_group_rules", { value: true });
    expect(set.status, set.text).toBe(201);
    const off = await t.root.post("/features/web_hook_test_api_endpoint_rate_limit", { value: false });
    expect(off.status, off.text).toBe(201);
    const data = await graphData(t.root, FEATURES);
    expect(data.features).toEqual([
      { name: "approval_group_rules", state: "on", gates: [{ key: "boolean", value: true }], defaultEnabled: false },
      { name: "web_hook_test_api_endpoint_rate_limit", state: "off", gates: [{ key: "boolean", value: false }], defaultEnabled: true },
    ]);
    const rest = (await t.root.get("/features")).body;
    expect(data.features.map((f: any) => [f.name, f.state])).toEqual(rest.map((f: any) => [f.name, f.state]));
  });
});
