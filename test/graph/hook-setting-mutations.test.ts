// One URL variable or custom header of a webhook at a time on the public graph
// (projectHookUrlVariableSet/Delete, projectHookCustomHeaderSet/Delete and the group pairs) over
// the REST rules: project Maintainers, group Owners, administrators. Values never come back; the
// effects are checked through REST (the hook's keys, and a test delivery to a loopback receiver
// that carries the values).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject } from "../helpers/factories.js";
import { expectNotAvailable, gid, graph, graphData, type GraphResult } from "../helpers/graph.js";
import { ACCESS_LEVEL, clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";
import { startReceiver, type Receiver } from "../webhooks/receiver.js";

const AREA = "firstarea";
const SPARE = "sparevalue";
const HEADER = "first-header-value";
const NEW_AREA = "secretarea77";
const NEW_HEADER = "secret-header-99";

let t: TestApp;
let team: TeamWithProjects;
let receiver: Receiver;
let group: any;

beforeAll(async () => {
  t = await startTestApp({ ALLOW_LOCAL_WEBHOOKS: "true" });
  receiver = await startReceiver();
  team = await createTeamWithProjects(t);
  group = await createGroup(team.owner.api);
  await addMember(team.owner.api, "groups", group.id, team.maintainer.id, ACCESS_LEVEL.maintainer);
  await addMember(team.owner.api, "groups", group.id, team.developer.id, ACCESS_LEVEL.developer);
  await createProject(team.owner.api, { namespace_id: group.id }); // a group's test delivery needs a project with commits
});

afterAll(() => receiver.close());

beforeEach(async () => {
  await t.services.db.webHook.deleteMany({});
  await t.services.db.rateLimitCounter.deleteMany({});
  receiver.clear();
});

/** No answer may carry a value that was set. */
function expectNoValues(res: GraphResult) {
  const text = JSON.stringify(res.body);
  for (const value of [AREA, SPARE, HEADER, NEW_AREA, NEW_HEADER]) expect(text).not.toContain(value);
}

const capitalized = (name: string) => name[0]!.toUpperCase() + name.slice(1);

interface KindCase {
  kind: "project" | "group";
  hooksPath: () => string;
  allowed: Actor[];
  refused: Actor[];
}

const KINDS: KindCase[] = [
  { kind: "project", hooksPath: () => `/projects/${team.privateProject.id}/hooks`, allowed: ["maintainer", "owner", "admin"], refused: ["anonymous", "nonMember", "guest", "developer"] },
  { kind: "group", hooksPath: () => `/groups/${group.id}/hooks`, allowed: ["owner", "admin"], refused: ["anonymous", "nonMember", "developer", "maintainer"] },
];

describe.each(KINDS)("$kind hooks", ({ kind, hooksPath, allowed, refused }) => {
  const hookField = `${kind}Hook`;
  const mutation = (name: string) => `mutation($input: ${capitalized(name)}Input!) { ${name}(input: $input) { errors ${hookField} { id urlVariableKeys customHeaderKeys } } }`;
  const SET_VARIABLE = `${kind}HookUrlVariableSet`;
  const DELETE_VARIABLE = `${kind}HookUrlVariableDelete`;
  const SET_HEADER = `${kind}HookCustomHeaderSet`;
  const DELETE_HEADER = `${kind}HookCustomHeaderDelete`;

  /** A hook made through REST with a URL variable its URL uses, a spare one and a custom header; returns its REST entity. */
  async function restHook(): Promise<any> {
    const res = await team.owner.api.post(hooksPath(), {
      url: `${receiver.url}/{area}/hook`,
      url_variables: [{ key: "area", value: AREA }, { key: "spare", value: SPARE }],
      custom_headers: [{ key: "X-Custom", value: HEADER }],
    });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  async function restKeys(hookId: number): Promise<{ variables: string[]; headers: string[] }> {
    const res = await team.owner.api.get(`${hooksPath()}/${hookId}`);
    expect(res.status, res.text).toBe(200);
    return { variables: res.body.url_variables.map((v: any) => v.key), headers: res.body.custom_headers.map((h: any) => h.key) };
  }

  /** A test delivery through REST: the request the receiver got. */
  async function delivered(hookId: number) {
    receiver.clear();
    const res = await team.owner.api.post(`${hooksPath()}/${hookId}/test/push_events`);
    expect(res.status, res.text).toBe(201);
    expect(receiver.requests).toHaveLength(1);
    return receiver.requests[0]!;
  }

  async function call(actor: Actor, name: string, input: Record<string, unknown>) {
    const res = await graph(clientOf(t, team, actor), mutation(name), { input });
    expectNoValues(res);
    return res;
  }

  it.each(allowed)("sets a custom header and a URL variable as %s, values write-only", async (actor) => {
    const hook = await restHook();
    const id = gid(capitalized(hookField), hook.id);
    const header = await call(actor, SET_HEADER, { id, key: "X-Extra", value: NEW_HEADER });
    expect(header.body.data[SET_HEADER]).toEqual({ errors: [], [hookField]: { id, urlVariableKeys: ["area", "spare"], customHeaderKeys: ["X-Custom", "X-Extra"] } });
    expect(await restKeys(hook.id)).toEqual({ variables: ["area", "spare"], headers: ["X-Custom", "X-Extra"] });
    const before = await delivered(hook.id);
    expect([before.path, before.headers["x-custom"], before.headers["x-extra"]]).toEqual([`/${AREA}/hook`, HEADER, NEW_HEADER]);
    // a new value of a variable the URL uses is a new target: the hook's other secrets stay behind (the hook's rule)
    const variable = await call(actor, SET_VARIABLE, { id, key: "area", value: NEW_AREA });
    expect(variable.body.data[SET_VARIABLE]).toEqual({ errors: [], [hookField]: { id, urlVariableKeys: ["area"], customHeaderKeys: [] } });
    const after = await delivered(hook.id);
    expect([after.path, after.headers["x-custom"], after.headers["x-extra"]]).toEqual([`/${NEW_AREA}/hook`, undefined, undefined]);
  });

  it.each(allowed)("deletes a custom header and a URL variable as %s", async (actor) => {
    const hook = await restHook();
    const id = gid(capitalized(hookField), hook.id);
    const header = await call(actor, DELETE_HEADER, { id, key: "X-Custom" });
    expect(header.body.data[DELETE_HEADER]).toEqual({ errors: [], [hookField]: { id, urlVariableKeys: ["area", "spare"], customHeaderKeys: [] } });
    expect((await delivered(hook.id)).headers["x-custom"]).toBeUndefined();
    const variable = await call(actor, DELETE_VARIABLE, { id, key: "spare" });
    expect(variable.body.data[DELETE_VARIABLE]).toEqual({ errors: [], [hookField]: { id, urlVariableKeys: ["area"], customHeaderKeys: [] } });
    expect(await restKeys(hook.id)).toEqual({ variables: ["area"], headers: [] });
  });

  it.each(refused)("refuses %s every write and changes nothing", async (actor) => {
    const hook = await restHook();
    const id = gid(capitalized(hookField), hook.id);
    expectNotAvailable(await call(actor, SET_VARIABLE, { id, key: "area", value: NEW_AREA }), SET_VARIABLE);
    expectNotAvailable(await call(actor, SET_HEADER, { id, key: "X-Extra", value: NEW_HEADER }), SET_HEADER);
    expectNotAvailable(await call(actor, DELETE_VARIABLE, { id, key: "area" }), DELETE_VARIABLE);
    expectNotAvailable(await call(actor, DELETE_HEADER, { id, key: "X-Custom" }), DELETE_HEADER);
    expect(await restKeys(hook.id)).toEqual({ variables: ["area", "spare"], headers: ["X-Custom"] });
    const request = await delivered(hook.id);
    expect(request.path).toBe(`/${AREA}/hook`);
    expect(request.headers["x-custom"]).toBe(HEADER);
  });

  it("lists an illegal key or value, and unsetting a variable the URL uses, in errors and keeps the hook", async () => {
    const hook = await restHook();
    const id = gid(capitalized(hookField), hook.id);
    for (const [name, key] of [[SET_VARIABLE, "bad key"], [SET_HEADER, "bad header"]] as const) {
      const res = await call("admin", name, { id, key, value: "x" });
      expect(res.body.data[name]).toEqual({ errors: ["Illegal key or value"], [hookField]: null });
    }
    const used = await call("admin", DELETE_VARIABLE, { id, key: "area" });
    expect(used.body.data[DELETE_VARIABLE]).toEqual({ errors: ["Could not unset variable"], [hookField]: null });
    expect(await restKeys(hook.id)).toEqual({ variables: ["area", "spare"], headers: ["X-Custom"] });
  });

  it("answers a key the hook does not have, and ids of no such hook, as not available", async () => {
    const hook = await restHook();
    const id = gid(capitalized(hookField), hook.id);
    expectNotAvailable(await call("admin", DELETE_VARIABLE, { id, key: "nope" }), DELETE_VARIABLE);
    expectNotAvailable(await call("admin", DELETE_HEADER, { id, key: "X-Nope" }), DELETE_HEADER);
    const otherKind = kind === "project" ? "GroupHook" : "ProjectHook";
    for (const wrong of [gid(otherKind, hook.id), gid(capitalized(hookField), 99999999999), "nonsense"]) {
      expectNotAvailable(await call("admin", SET_HEADER, { id: wrong, key: "X-Extra", value: NEW_HEADER }), SET_HEADER);
    }
    expect(await restKeys(hook.id)).toEqual({ variables: ["area", "spare"], headers: ["X-Custom"] });
  });
});

describe("Project.hooks after a write", () => {
  it("lists the key set through the graph, not its value", async () => {
    const created = await team.owner.api.post(`/projects/${team.privateProject.id}/hooks`, { url: `${receiver.url}/hook` });
    const id = gid("ProjectHook", created.body.id);
    await graphData(team.maintainer.api, `mutation($input: ProjectHookCustomHeaderSetInput!) { projectHookCustomHeaderSet(input: $input) { errors } }`, {
      input: { id, key: "X-Listed", value: NEW_HEADER },
    });
    const listed = await graphData(team.maintainer.api, `query($p: ID!) { project(fullPath: $p) { hooks { nodes { id customHeaderKeys } } } }`, {
      p: team.privateProject.path_with_namespace,
    });
    expect(listed.project.hooks.nodes).toEqual([{ id, customHeaderKeys: ["X-Listed"] }]);
  });
});
