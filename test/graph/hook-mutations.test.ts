// Webhook writes on the public graph: project hooks (Maintainers and above, administrators) and
// group hooks (group Owners, administrators) over the REST hook rules; the token, URL variable and
// header values never come back, the signing secret only in the rotate payload; test deliveries
// and resends reach a real loopback receiver.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject } from "../helpers/factories.js";
import { gid, graph, graphData, type GraphResult, expectNotAvailable } from "../helpers/graph.js";
import { ACCESS_LEVEL, clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";
import { startReceiver, type Receiver } from "../webhooks/receiver.js";

const TOKEN = "tok-secret-4711";
const HEADER_VALUE = "header-secret-0815";
const VARIABLE_VALUE = "variablesecret42";

let t: TestApp;
let team: TeamWithProjects;
let receiver: Receiver;
let group: any;
let groupMaintainer: TeamWithProjects["owner"];

beforeAll(async () => {
  t = await startTestApp({ ALLOW_LOCAL_WEBHOOKS: "true" });
  receiver = await startReceiver();
  team = await createTeamWithProjects(t);
  group = await createGroup(team.owner.api);
  groupMaintainer = team.maintainer;
  await addMember(team.owner.api, "groups", group.id, groupMaintainer.id, ACCESS_LEVEL.maintainer);
  await addMember(team.owner.api, "groups", group.id, team.developer.id, ACCESS_LEVEL.developer);
  await createProject(team.owner.api, { namespace_id: group.id });
});

afterAll(() => receiver.close());

beforeEach(async () => {
  await t.services.db.webHook.deleteMany({});
  await t.services.db.rateLimitCounter.deleteMany({});
  receiver.clear();
  receiver.answer = { status: 200, body: "OK" };
});

const HOOK_FIELDS = "id url name pushEvents issuesEvents enableSslVerification pushEventsBranchFilter branchFilterStrategy urlVariableKeys customHeaderKeys signingEnabled";
const PROJECT_CREATE = `mutation($input: ProjectHookCreateInput!) { projectHookCreate(input: $input) { errors projectHook { ${HOOK_FIELDS} } } }`;
const PROJECT_UPDATE = `mutation($input: ProjectHookUpdateInput!) { projectHookUpdate(input: $input) { errors projectHook { ${HOOK_FIELDS} } } }`;
const PROJECT_DELETE = `mutation($input: ProjectHookDeleteInput!) { projectHookDelete(input: $input) { errors } }`;
const PROJECT_TEST = `mutation($input: ProjectHookTestInput!) { projectHookTest(input: $input) { errors projectHook { id events { nodes { id trigger responseStatus requestHeaders { name value } } } } } }`;
const PROJECT_RESEND = `mutation($input: ProjectHookEventResendInput!) { projectHookEventResend(input: $input) { errors responseStatus } }`;
const PROJECT_ROTATE = `mutation($input: ProjectHookRotateSigningSecretInput!) { projectHookRotateSigningSecret(input: $input) { errors signingSecret projectHook { id signingEnabled } } }`;
const GROUP_CREATE = `mutation($input: GroupHookCreateInput!) { groupHookCreate(input: $input) { errors groupHook { ${HOOK_FIELDS} subgroupEvents memberEvents } } }`;
const GROUP_UPDATE = `mutation($input: GroupHookUpdateInput!) { groupHookUpdate(input: $input) { errors groupHook { ${HOOK_FIELDS} subgroupEvents } } }`;
const GROUP_DELETE = `mutation($input: GroupHookDeleteInput!) { groupHookDelete(input: $input) { errors } }`;
const GROUP_TEST = `mutation($input: GroupHookTestInput!) { groupHookTest(input: $input) { errors groupHook { id } } }`;
const GROUP_ROTATE = `mutation($input: GroupHookRotateSigningSecretInput!) { groupHookRotateSigningSecret(input: $input) { errors signingSecret groupHook { id signingEnabled } } }`;

/** No answer may carry a write-only value. */
function expectNoSecrets(res: GraphResult) {
  const text = JSON.stringify(res.body);
  for (const secret of [TOKEN, HEADER_VALUE, VARIABLE_VALUE, "whsec_"]) expect(text).not.toContain(secret);
}

const fullInput = (extra: Record<string, unknown> = {}) => ({
  url: `${receiver.url}/{area}/hook`,
  name: "CI",
  token: TOKEN,
  urlVariables: [{ key: "area", value: VARIABLE_VALUE }],
  customHeaders: [{ key: "X-Custom", value: HEADER_VALUE }],
  pushEventsBranchFilter: "main",
  issuesEvents: true,
  enableSslVerification: false,
  ...extra,
});

async function projectHook(extra: Record<string, unknown> = {}, project = team.privateProject): Promise<any> {
  const res = await graph(team.maintainer.api, PROJECT_CREATE, { input: { projectPath: project.path_with_namespace, ...fullInput(extra) } });
  expect(res.body.errors).toBeUndefined();
  expectNoSecrets(res);
  expect(res.body.data.projectHookCreate.errors).toEqual([]);
  return res.body.data.projectHookCreate.projectHook;
}

async function groupHook(extra: Record<string, unknown> = {}): Promise<any> {
  const data = await graphData(team.owner.api, GROUP_CREATE, { input: { groupPath: group.full_path, ...fullInput(extra) } });
  expect(data.groupHookCreate.errors).toEqual([]);
  return data.groupHookCreate.groupHook;
}

describe("projectHookCreate", () => {
  it.each(["maintainer", "owner", "admin"] as Actor[])("creates a hook on the private project as %s, write-only values left out", async (actor) => {
    const res = await graph(clientOf(t, team, actor), PROJECT_CREATE, { input: { projectPath: team.privateProject.path_with_namespace, ...fullInput() } });
    expectNoSecrets(res);
    const hook = res.body.data.projectHookCreate.projectHook;
    expect(res.body.data.projectHookCreate.errors).toEqual([]);
    expect(hook).toMatchObject({
      url: `${receiver.url}/{area}/hook`, name: "CI", pushEvents: true, issuesEvents: true, enableSslVerification: false,
      pushEventsBranchFilter: "main", branchFilterStrategy: "wildcard", urlVariableKeys: ["area"], customHeaderKeys: ["X-Custom"], signingEnabled: false,
    });
    expect(hook.id).toMatch(/^gid:\/\/forgeline\/ProjectHook\/\d+$/);
    const listed = await graphData(clientOf(t, team, actor), `query($p: ID!) { project(fullPath: $p) { hooks { nodes { id } } } }`, { p: team.privateProject.path_with_namespace });
    expect(listed.project.hooks.nodes).toEqual([{ id: hook.id }]);
  });

  it.each(["anonymous", "nonMember", "guest", "developer"] as Actor[])("refuses %s without telling the project exists", async (actor) => {
    for (const project of [team.privateProject, team.publicProject]) {
      const res = await graph(clientOf(t, team, actor), PROJECT_CREATE, { input: { projectPath: project.path_with_namespace, url: receiver.url } });
      expectNotAvailable(res, "projectHookCreate");
    }
    expect(await t.services.db.webHook.count()).toBe(0);
  });

  it("answers a missing project as a hidden one", async () => {
    expectNotAvailable(await graph(team.maintainer.api, PROJECT_CREATE, { input: { projectPath: "no/such", url: receiver.url } }), "projectHookCreate");
    expectNotAvailable(await graph(team.maintainer.api, PROJECT_CREATE, { input: { projectPath: String(team.privateProject.id), url: receiver.url } }), "projectHookCreate");
  });

  it("lists bad input in errors", async () => {
    const input = (fields: Record<string, unknown>) => ({ input: { projectPath: team.privateProject.path_with_namespace, url: receiver.url, ...fields } });
    const badUrl = await graphData(team.maintainer.api, PROJECT_CREATE, input({ url: "not a url" }));
    expect(badUrl.projectHookCreate).toEqual({ errors: ["Invalid url given"], projectHook: null });
    const badFilter = await graphData(team.maintainer.api, PROJECT_CREATE, input({ branchFilterStrategy: "regex", pushEventsBranchFilter: "(" }));
    expect(badFilter.projectHookCreate).toEqual({ errors: ["Invalid branch filter given"], projectHook: null });
    const badHeader = await graphData(team.maintainer.api, PROJECT_CREATE, input({ customHeaders: [{ key: "bad header", value: "x" }] }));
    expect(badHeader.projectHookCreate.projectHook).toBeNull();
    expect(badHeader.projectHookCreate.errors[0]).toMatch(/^Custom headers /);
    expect(await t.services.db.webHook.count()).toBe(0);
  });
});

describe("projectHookUpdate and projectHookDelete", () => {
  it("changes a hook as a maintainer, keeping what is not sent", async () => {
    const hook = await projectHook();
    const res = await graph(team.maintainer.api, PROJECT_UPDATE, { input: { id: hook.id, name: "Renamed", pushEvents: false, branchFilterStrategy: "all_branches" } });
    expectNoSecrets(res);
    expect(res.body.data.projectHookUpdate).toEqual({
      errors: [],
      projectHook: { ...hook, name: "Renamed", pushEvents: false, branchFilterStrategy: "all_branches", pushEventsBranchFilter: null },
    });
  });

  it("turns signing on and off without showing the secret", async () => {
    const hook = await projectHook();
    const on = await graph(team.maintainer.api, PROJECT_UPDATE, { input: { id: hook.id, signingEnabled: true } });
    expectNoSecrets(on);
    expect(on.body.data.projectHookUpdate.projectHook.signingEnabled).toBe(true);
    const off = await graphData(team.maintainer.api, PROJECT_UPDATE, { input: { id: hook.id, signingEnabled: false } });
    expect(off.projectHookUpdate.projectHook.signingEnabled).toBe(false);
  });

  it("drops the secrets when the URL changes", async () => {
    const hook = await projectHook();
    const data = await graphData(team.owner.api, PROJECT_UPDATE, { input: { id: hook.id, url: `${receiver.url}/elsewhere` } });
    expect(data.projectHookUpdate.projectHook).toMatchObject({ url: `${receiver.url}/elsewhere`, urlVariableKeys: [], customHeaderKeys: [] });
  });

  it("lists bad input in errors", async () => {
    const hook = await projectHook();
    const data = await graphData(team.maintainer.api, PROJECT_UPDATE, { input: { id: hook.id, url: "ftp://x" } });
    expect(data.projectHookUpdate).toEqual({ errors: ["Invalid url given"], projectHook: null });
  });

  it.each(["anonymous", "nonMember", "guest", "developer"] as Actor[])("refuses %s to change or delete a hook", async (actor) => {
    const hook = await projectHook();
    expectNotAvailable(await graph(clientOf(t, team, actor), PROJECT_UPDATE, { input: { id: hook.id, name: "x" } }), "projectHookUpdate");
    expectNotAvailable(await graph(clientOf(t, team, actor), PROJECT_DELETE, { input: { id: hook.id } }), "projectHookDelete");
    expect(await t.services.db.webHook.count()).toBe(1);
  });

  it("answers ids of no project hook as hidden", async () => {
    const gHook = await groupHook();
    for (const id of [gHook.id, gid("ProjectHook", 999999), gid("ProjectHook", 99999999999), "nonsense"]) {
      expectNotAvailable(await graph(t.root, PROJECT_UPDATE, { input: { id, name: "x" } }), "projectHookUpdate");
    }
  });

  it.each(["maintainer", "owner", "admin"] as Actor[])("deletes a hook as %s", async (actor) => {
    const hook = await projectHook();
    expect(await graphData(clientOf(t, team, actor), PROJECT_DELETE, { input: { id: hook.id } })).toEqual({ projectHookDelete: { errors: [] } });
    expect(await t.services.db.webHook.count()).toBe(0);
  });
});

describe("projectHookTest and projectHookEventResend", () => {
  it("sends a sample push to the receiver with the token, variables and headers, and resends it", async () => {
    const hook = await projectHook();
    const res = await graph(team.maintainer.api, PROJECT_TEST, { input: { id: hook.id, trigger: "push_events" } });
    expectNoSecrets(res);
    expect(res.body.data.projectHookTest.errors).toEqual([]);
    expect(receiver.requests).toHaveLength(1);
    const received = receiver.requests[0]!;
    expect(received.path).toBe(`/${VARIABLE_VALUE}/hook`);
    expect(received.headers["x-service-token"]).toBe(TOKEN);
    expect(received.headers["x-custom"]).toBe(HEADER_VALUE);
    expect(received.headers["x-service-event"]).toBe("Push Hook");
    expect(received.json.object_kind).toBe("push");
    const [event] = res.body.data.projectHookTest.projectHook.events.nodes;
    expect(event).toMatchObject({ trigger: "push_hooks", responseStatus: "200" });

    const resent = await graph(team.maintainer.api, PROJECT_RESEND, { input: { id: hook.id, eventId: event.id } });
    expectNoSecrets(resent);
    expect(resent.body.data.projectHookEventResend).toEqual({ errors: [], responseStatus: 200 });
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1]!.headers["idempotency-key"]).toBe(received.headers["idempotency-key"]);
    expect(receiver.requests[1]!.json.object_kind).toBe("push");
  });

  it("reports a failing receiver and unknown deliveries", async () => {
    const hook = await projectHook();
    receiver.answer = { status: 500, body: "down" };
    const failed = await graphData(team.maintainer.api, PROJECT_TEST, { input: { id: hook.id, trigger: "push_events" } });
    expect(failed.projectHookTest.projectHook).toBeNull();
    expect(failed.projectHookTest.errors).toHaveLength(1);
    expect(receiver.requests).toHaveLength(1);
    const noSample = await graphData(team.maintainer.api, PROJECT_TEST, { input: { id: hook.id, trigger: "issues_events" } });
    expect(noSample.projectHookTest).toEqual({ errors: ["Ensure the project has issues."], projectHook: null });
    for (const eventId of [gid("WebHookLog", 999999), gid("Issue", 1)]) {
      expectNotAvailable(await graph(team.maintainer.api, PROJECT_RESEND, { input: { id: hook.id, eventId } }), "projectHookEventResend");
    }
  });

  it.each(["anonymous", "nonMember", "guest", "developer"] as Actor[])("refuses %s and sends nothing", async (actor) => {
    const hook = await projectHook();
    expectNotAvailable(await graph(clientOf(t, team, actor), PROJECT_TEST, { input: { id: hook.id, trigger: "push_events" } }), "projectHookTest");
    expect(receiver.requests).toHaveLength(0);
  });

  it("rejects an unknown trigger", async () => {
    const hook = await projectHook();
    const res = await graph(team.maintainer.api, PROJECT_TEST, { input: { id: hook.id, trigger: "subgroup_events" } });
    expect(res.body.errors?.[0]?.message).toMatch(/HookTestTrigger/);
    expect(receiver.requests).toHaveLength(0);
  });
});

describe("projectHookRotateSigningSecret", () => {
  it("shows the new secret once, and signs deliveries with it", async () => {
    const hook = await projectHook({ signingEnabled: true });
    expect(hook.signingEnabled).toBe(true);
    const data = await graphData(team.maintainer.api, PROJECT_ROTATE, { input: { id: hook.id } });
    expect(data.projectHookRotateSigningSecret).toMatchObject({ errors: [], projectHook: { id: hook.id, signingEnabled: true } });
    expect(data.projectHookRotateSigningSecret.signingSecret).toMatch(/^whsec_/);
    const again = await graphData(team.maintainer.api, PROJECT_ROTATE, { input: { id: hook.id } });
    expect(again.projectHookRotateSigningSecret.signingSecret).not.toBe(data.projectHookRotateSigningSecret.signingSecret);
    const read = await graph(team.maintainer.api, `query($p: ID!) { project(fullPath: $p) { hooks { nodes { ${HOOK_FIELDS} } } } }`, { p: team.privateProject.path_with_namespace });
    expectNoSecrets(read);
    await graphData(team.maintainer.api, PROJECT_TEST, { input: { id: hook.id, trigger: "push_events" } });
    expect(receiver.requests[0]!.headers["webhook-signature"]).toMatch(/^v1,/);
  });

  it.each(["anonymous", "nonMember", "guest", "developer"] as Actor[])("refuses %s", async (actor) => {
    const hook = await projectHook();
    const res = await graph(clientOf(t, team, actor), PROJECT_ROTATE, { input: { id: hook.id } });
    expectNotAvailable(res, "projectHookRotateSigningSecret");
    expectNoSecrets(res);
  });
});

describe("group hooks", () => {
  it.each(["owner", "admin"] as Actor[])("creates, changes, tests, rotates and deletes a group hook as %s", async (actor) => {
    const client = clientOf(t, team, actor);
    const created = await graph(client, GROUP_CREATE, { input: { groupPath: group.full_path, ...fullInput({ subgroupEvents: true }) } });
    expectNoSecrets(created);
    const hook = created.body.data.groupHookCreate.groupHook;
    expect(hook).toMatchObject({ name: "CI", subgroupEvents: true, memberEvents: false, urlVariableKeys: ["area"] });
    expect(hook.id).toMatch(/^gid:\/\/forgeline\/GroupHook\/\d+$/);

    const updated = await graphData(client, GROUP_UPDATE, { input: { id: hook.id, subgroupEvents: false, name: "Renamed" } });
    expect(updated.groupHookUpdate.groupHook).toMatchObject({ name: "Renamed", subgroupEvents: false });

    expect((await graphData(client, GROUP_TEST, { input: { id: hook.id, trigger: "push_events" } })).groupHookTest).toEqual({ errors: [], groupHook: { id: hook.id } });
    expect(receiver.requests[0]!.headers["x-service-token"]).toBe(TOKEN);

    const rotated = await graphData(client, GROUP_ROTATE, { input: { id: hook.id } });
    expect(rotated.groupHookRotateSigningSecret.signingSecret).toMatch(/^whsec_/);

    expect(await graphData(client, GROUP_DELETE, { input: { id: hook.id } })).toEqual({ groupHookDelete: { errors: [] } });
    expect(await t.services.db.webHook.count()).toBe(0);
  });

  it.each(["anonymous", "nonMember", "developer", "maintainer"] as Actor[])("refuses the group's %s", async (actor) => {
    const client = clientOf(t, team, actor);
    expectNotAvailable(await graph(client, GROUP_CREATE, { input: { groupPath: group.full_path, url: receiver.url } }), "groupHookCreate");
    const hook = await groupHook();
    expectNotAvailable(await graph(client, GROUP_UPDATE, { input: { id: hook.id, name: "x" } }), "groupHookUpdate");
    expectNotAvailable(await graph(client, GROUP_TEST, { input: { id: hook.id, trigger: "push_events" } }), "groupHookTest");
    const rotate = await graph(client, GROUP_ROTATE, { input: { id: hook.id } });
    expectNotAvailable(rotate, "groupHookRotateSigningSecret");
    expectNoSecrets(rotate);
    expectNotAvailable(await graph(client, GROUP_DELETE, { input: { id: hook.id } }), "groupHookDelete");
    expect(await t.services.db.webHook.count()).toBe(1);
    expect(receiver.requests).toHaveLength(0);
  });

  it("answers a project hook's id as no group hook, and lists bad input in errors", async () => {
    const pHook = await projectHook();
    expectNotAvailable(await graph(t.root, GROUP_UPDATE, { input: { id: pHook.id, name: "x" } }), "groupHookUpdate");
    const bad = await graphData(team.owner.api, GROUP_CREATE, { input: { groupPath: group.full_path, url: "nope" } });
    expect(bad.groupHookCreate).toEqual({ errors: ["Invalid url given"], groupHook: null });
    const empty = await createGroup(team.owner.api);
    const hook = (await graphData(team.owner.api, GROUP_CREATE, { input: { groupPath: empty.full_path, url: receiver.url } })).groupHookCreate.groupHook;
    const test = await graphData(team.owner.api, GROUP_TEST, { input: { id: hook.id, trigger: "push_events" } });
    expect(test.groupHookTest).toEqual({ errors: ["Ensure the group has a project with commits."], groupHook: null });
  });
});
