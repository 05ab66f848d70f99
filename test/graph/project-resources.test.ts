// The public graph's project resources: Project.branches, protectedBranches, approvalRules and
// hooks, Group.hooks and Hook.events, per actor (null exactly where REST refuses), their fields,
// paging, and that no hook secret (token, URL variable or custom header value) is ever shown.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createProjectRule } from "../helpers/approvals.js";
import { addMember, createGroup } from "../helpers/factories.js";
import { graph, graphData, gid } from "../helpers/graph.js";
import { createBranch, protectBranch } from "../helpers/repository.js";
import { ACTORS, clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let pub: any, priv: any, group: any, secretGroup: any;
let projectHooks: any[];
let groupHook: any;

const HOOK_URL = "http://8.8.8.8/hook";
const SECRETS = ["tok-secret-value", "var-secret-value", "header-secret-value"];
const hookBody = (n: number) => ({
  url: `${HOOK_URL}/${n}`, token: SECRETS[0], push_events: true, issues_events: n === 0,
  url_variables: [{ key: "v", value: SECRETS[1] }], custom_headers: [{ key: "X-H", value: SECRETS[2] }],
});

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  pub = team.publicProject;
  priv = team.privateProject;
  for (const name of ["feature-1", "feature-2", "feature-3"]) await createBranch(team.owner.api, pub.id, name);
  await createBranch(team.owner.api, priv.id, "private-feature");
  await protectBranch(team.owner.api, pub.id, "release/*", {
    push_access_level: 40, merge_access_level: 30, allow_force_push: true, allowed_to_push: [{ user_id: team.developer.id }],
  });
  await createProjectRule(team.owner.api, pub.id, { name: "Backend", approvals_required: 2, user_ids: [team.developer.id, team.reporter.id] });
  secretGroup = await createGroup(team.nonMember.api); // private: only its owner and admins see it
  await createProjectRule(t.root, pub.id, { name: "Hidden", approvals_required: 1, group_ids: [secretGroup.id] });
  await createProjectRule(team.owner.api, priv.id, { name: "Private rule", approvals_required: 1 });
  projectHooks = [];
  for (let n = 0; n < 3; n++) {
    const res = await t.root.post(`/projects/${pub.id}/hooks`, hookBody(n));
    expect(res.status, res.text).toBe(201);
    projectHooks.push(res.body);
  }
  expect((await t.root.post(`/projects/${priv.id}/hooks`, hookBody(9))).status).toBe(201);
  group = await createGroup(team.owner.api);
  await addMember(team.owner.api, "groups", group.id, team.maintainer.id, 40);
  await addMember(team.owner.api, "groups", group.id, team.developer.id, 30);
  const res = await t.root.post(`/groups/${group.id}/hooks`, { ...hookBody(5), subgroup_events: true });
  expect(res.status, res.text).toBe(201);
  groupHook = res.body;
  await recordDeliveries(projectHooks[0].id);
});

/** Three deliveries of the hook, newest last, headers recorded as delivery records them (redacted). */
async function recordDeliveries(hookId: number) {
  const base = Date.now() - 60_000;
  for (const [i, code] of [200, 500, 404].entries()) {
    await t.services.db.webHookLog.create({
      data: {
        hookId, trigger: "push_hooks", url: `${HOOK_URL}/0`, requestHeaders: JSON.stringify({ "X-Gitlab-Token": "[REDACTED]", "X-H": "[REDACTED]" }),
        requestData: "{}", responseHeaders: "{}", responseBody: "", responseStatus: String(code), responseCode: code,
        executionDuration: 0.25 * (i + 1), idempotencyKey: `k${i}`, createdAt: new Date(base + i * 1000),
      },
    });
  }
}

const pathOf = (project: any) => project.path_with_namespace;

/** Whether REST answers the actor's GET with 200 (the graph shows the same things). */
async function restAllows(actor: Actor, path: string): Promise<boolean> {
  return (await clientOf(t, team, actor).get(path)).status === 200;
}

describe("Project.branches", () => {
  const BRANCHES = `query($path: ID!, $first: Int, $after: String, $search: String) { project(fullPath: $path) {
    branches(first: $first, after: $after, search: $search) { count pageInfo { hasNextPage endCursor }
      nodes { name default protected merged canPush commit { sha shortId title webUrl } } } } }`;

  it.each(ACTORS)("shows the public project's branches to %s", async (actor) => {
    const data = await graphData(clientOf(t, team, actor), BRANCHES, { path: pathOf(pub) });
    expect(data.project.branches.nodes.map((b: any) => b.name)).toEqual(["feature-1", "feature-2", "feature-3", "main"]);
    expect(data.project.branches.count).toBe(4);
  });

  it.each(ACTORS)("shows the private project's branches as REST does (%s)", async (actor) => {
    const data = await graphData(clientOf(t, team, actor), BRANCHES, { path: pathOf(priv) });
    const allowed = await restAllows(actor, `/projects/${priv.id}/repository/branches`);
    expect(allowed).toBe(["reporter", "developer", "maintainer", "owner", "admin"].includes(actor));
    if (allowed) expect(data.project.branches.nodes.map((b: any) => b.name)).toEqual(["main", "private-feature"]);
    else expect(data.project?.branches ?? null).toBeNull();
    // the project itself stays visible to its guest: only the repository is hidden
    if (actor === "guest") expect(data.project).toEqual({ branches: null });
  });

  it("has the fields of REST's Branch entity, canPush per caller", async () => {
    const rest = (await team.developer.api.get(`/projects/${pub.id}/repository/branches/main`)).body;
    const data = await graphData(team.developer.api, BRANCHES, { path: pathOf(pub), search: "main" });
    expect(data.project.branches.nodes).toEqual([{
      name: "main", default: true, protected: rest.protected, merged: false, canPush: rest.can_push,
      commit: { sha: rest.commit.id, shortId: rest.commit.short_id, title: rest.commit.title, webUrl: rest.commit.web_url },
    }]);
    const anon = await graphData(t.anon, BRANCHES, { path: pathOf(pub), search: "feature-1" });
    expect(anon.project.branches.nodes[0]).toMatchObject({ name: "feature-1", default: false, canPush: false });
    const dev = await graphData(team.developer.api, BRANCHES, { path: pathOf(pub), search: "feature-1" });
    expect(dev.project.branches.nodes[0]).toMatchObject({ canPush: true });
  });

  it("pages forward to the end and filters by search", async () => {
    const names: string[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 5; guard++) {
      const data: any = await graphData(t.anon, BRANCHES, { path: pathOf(pub), first: 3, after });
      names.push(...data.project.branches.nodes.map((b: any) => b.name));
      if (!data.project.branches.pageInfo.hasNextPage) break;
      after = data.project.branches.pageInfo.endCursor;
    }
    expect(names).toEqual(["feature-1", "feature-2", "feature-3", "main"]);
    const found = await graphData(t.anon, BRANCHES, { path: pathOf(pub), search: "^feature" });
    expect(found.project.branches.count).toBe(3);
  });

  it("refuses a cursor it did not issue", async () => {
    const res = await graph(t.anon, BRANCHES, { path: pathOf(pub), first: 1, after: "bogus" });
    expect(res.body.errors?.[0]?.message).toBe("Invalid cursor");
  });
});

describe("Project.protectedBranches", () => {
  const PROTECTED = `query($path: ID!) { project(fullPath: $path) { protectedBranches { count nodes { name allowForcePush codeOwnerApprovalRequired
    pushAccessLevels { accessLevel accessLevelDescription user { username } } mergeAccessLevels { accessLevel accessLevelDescription }
    unprotectAccessLevels { accessLevel } } } } }`;

  it.each(ACTORS)("shows them as REST does on both projects (%s)", async (actor) => {
    for (const project of [pub, priv]) {
      const data = await graphData(clientOf(t, team, actor), PROTECTED, { path: pathOf(project) });
      const rest = await clientOf(t, team, actor).get(`/projects/${project.id}/protected_branches`);
      if (rest.status === 200) expect(data.project.protectedBranches.nodes.map((b: any) => b.name)).toEqual(rest.body.map((b: any) => b.name));
      else expect(data.project?.protectedBranches ?? null).toBeNull();
    }
  });

  it("shows the access levels of a wildcard rule", async () => {
    const data = await graphData(t.anon, PROTECTED, { path: pathOf(pub) });
    const release = data.project.protectedBranches.nodes.find((b: any) => b.name === "release/*");
    expect(release).toMatchObject({ allowForcePush: true, codeOwnerApprovalRequired: false, mergeAccessLevels: [{ accessLevel: 30, accessLevelDescription: "Developers + Maintainers" }] });
    const rest = (await t.anon.get(`/projects/${pub.id}/protected_branches/${encodeURIComponent("release/*")}`)).body;
    expect(release.pushAccessLevels).toEqual(rest.push_access_levels.map((entry: any) => ({
      accessLevel: entry.access_level, accessLevelDescription: entry.access_level_description, user: entry.user_id ? { username: team.developer.username } : null,
    })));
    expect(release.pushAccessLevels.map((entry: any) => entry.user?.username ?? null)).toEqual([null, team.developer.username]);
    expect(release.pushAccessLevels[0]).toMatchObject({ accessLevel: 40, accessLevelDescription: "Maintainers" });
  });
});

describe("Project.approvalRules", () => {
  const RULES = `query($path: ID!, $first: Int, $after: String) { project(fullPath: $path) { approvalRules(first: $first, after: $after) {
    count pageInfo { hasNextPage endCursor } nodes { id name type approvalsRequired containsHiddenGroups
      users { count nodes { username } } eligibleApprovers { nodes { username } } groups { nodes { fullPath } } } } } }`;

  it.each(ACTORS)("shows the rules to those REST shows them to (%s)", async (actor) => {
    for (const project of [pub, priv]) {
      const data = await graphData(clientOf(t, team, actor), RULES, { path: pathOf(project) });
      const rest = await clientOf(t, team, actor).get(`/projects/${project.id}/approval_rules`);
      if (rest.status === 200) expect(data.project.approvalRules.nodes.map((r: any) => r.name)).toEqual(rest.body.map((r: any) => r.name));
      else expect(data.project?.approvalRules ?? null).toBeNull();
    }
  });

  it("is null for anonymous callers and guests, there for developers", async () => {
    expect((await graphData(t.anon, RULES, { path: pathOf(pub) })).project.approvalRules).toBeNull();
    expect((await graphData(team.guest.api, RULES, { path: pathOf(pub) })).project.approvalRules).toBeNull();
    expect((await graphData(team.developer.api, RULES, { path: pathOf(pub) })).project.approvalRules.count).toBe(2);
  });

  it("shows users, eligible approvers and only the groups the caller may see", async () => {
    const dev = await graphData(team.developer.api, RULES, { path: pathOf(pub) });
    const [backend, hidden] = dev.project.approvalRules.nodes;
    const usernames = [team.developer.username, team.reporter.username].sort();
    expect(backend).toMatchObject({ name: "Backend", type: "regular", approvalsRequired: 2, containsHiddenGroups: false, users: { count: 2 } });
    expect(backend.users.nodes.map((u: any) => u.username).sort()).toEqual(usernames);
    expect(backend.eligibleApprovers.nodes.map((u: any) => u.username).sort()).toEqual(usernames);
    expect(backend.id).toMatch(/^gid:\/\/forgeline\/ApprovalProjectRule\/\d+$/);
    expect(hidden).toMatchObject({ name: "Hidden", containsHiddenGroups: true, groups: { nodes: [] } });
    const admin = await graphData(t.root, RULES, { path: pathOf(pub) });
    expect(admin.project.approvalRules.nodes[1]).toMatchObject({ containsHiddenGroups: false, groups: { nodes: [{ fullPath: secretGroup.full_path }] } });
  });

  it("pages", async () => {
    const first = await graphData(team.maintainer.api, RULES, { path: pathOf(pub), first: 1 });
    expect(first.project.approvalRules).toMatchObject({ count: 2, pageInfo: { hasNextPage: true }, nodes: [{ name: "Backend" }] });
    const second = await graphData(team.maintainer.api, RULES, { path: pathOf(pub), first: 1, after: first.project.approvalRules.pageInfo.endCursor });
    expect(second.project.approvalRules).toMatchObject({ pageInfo: { hasNextPage: false }, nodes: [{ name: "Hidden" }] });
  });
});

const PROJECT_HOOKS = `query($path: ID!, $first: Int, $after: String) { project(fullPath: $path) { hooks(first: $first, after: $after) {
  count pageInfo { hasNextPage endCursor }
  nodes { id url name createdAt enableSslVerification alertStatus disabledUntil pushEvents issuesEvents tagPushEvents
    urlVariableKeys customHeaderKeys } } } }`;

const HOOK_EVENTS = `query($path: ID!) { project(fullPath: $path) { hooks(first: 2) { nodes {
  events(first: 5) { count nodes { id trigger url responseStatus executionDuration createdAt } } } } } }`;

// apart: the headers' list inside the events' inside the hooks' is over the complexity limit with the rest
const HOOK_EVENT_HEADERS = `query($path: ID!) { project(fullPath: $path) { hooks(first: 1) { nodes {
  events(first: 1) { nodes { requestHeaders { name value } } } } } } }`;

describe("Project.hooks", () => {
  const MANAGERS: Actor[] = ["maintainer", "owner", "admin"];

  it.each(ACTORS)("shows hooks to project Maintainers, Owners and admins only (%s)", async (actor) => {
    for (const [project, count] of [[pub, 3], [priv, 1]] as const) {
      const data = await graphData(clientOf(t, team, actor), PROJECT_HOOKS, { path: pathOf(project) });
      if (MANAGERS.includes(actor)) expect(data.project.hooks.count).toBe(count);
      else expect(data.project?.hooks ?? null).toBeNull();
    }
  });

  it("has REST's fields, keys without values, and never a secret", async () => {
    const data = await graphData(team.maintainer.api, PROJECT_HOOKS, { path: pathOf(pub) });
    expect(data.project.hooks.nodes[0]).toMatchObject({
      id: gid("ProjectHook", projectHooks[0].id), url: `${HOOK_URL}/0`, enableSslVerification: true, alertStatus: "EXECUTABLE",
      disabledUntil: null, pushEvents: true, issuesEvents: true, tagPushEvents: false, urlVariableKeys: ["v"], customHeaderKeys: ["X-H"],
      createdAt: projectHooks[0].created_at,
    });
    expect(data.project.hooks.nodes[1].issuesEvents).toBe(false);
    const text = JSON.stringify(data);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  });

  it("shows a hook that failed too often as REST does: temporarily disabled until a time", async () => {
    const until = new Date(Date.now() + 3_600_000);
    const hookId = (await t.root.get(`/projects/${priv.id}/hooks`)).body[0].id;
    await t.services.db.webHook.update({ where: { id: hookId }, data: { recentFailures: 4, disabledUntil: until } });
    const data = await graphData(team.owner.api, PROJECT_HOOKS, { path: pathOf(priv) });
    const rest = (await team.owner.api.get(`/projects/${priv.id}/hooks/${hookId}`)).body;
    expect(data.project.hooks.nodes[0]).toMatchObject({ alertStatus: "TEMPORARILY_DISABLED", disabledUntil: until.toISOString() });
    expect([rest.alert_status, rest.disabled_until]).toEqual(["temporarily_disabled", until.toISOString()]);
  });

  it("pages the hooks", async () => {
    const first = await graphData(team.owner.api, PROJECT_HOOKS, { path: pathOf(pub), first: 2 });
    expect(first.project.hooks.nodes.map((h: any) => h.url)).toEqual([`${HOOK_URL}/0`, `${HOOK_URL}/1`]);
    const rest = await graphData(team.owner.api, PROJECT_HOOKS, { path: pathOf(pub), first: 2, after: first.project.hooks.pageInfo.endCursor });
    expect(rest.project.hooks).toMatchObject({ pageInfo: { hasNextPage: false }, nodes: [{ url: `${HOOK_URL}/2` }] });
  });

  it("lists each hook's deliveries newest first, headers redacted", async () => {
    const data = await graphData(t.root, HOOK_EVENTS, { path: pathOf(pub) });
    const [withEvents, without] = data.project.hooks.nodes;
    expect(without.events).toEqual({ count: 0, nodes: [] });
    expect(withEvents.events.count).toBe(3);
    expect(withEvents.events.nodes.map((e: any) => e.responseStatus)).toEqual(["404", "500", "200"]);
    expect(withEvents.events.nodes[0]).toMatchObject({ trigger: "push_hooks", url: `${HOOK_URL}/0`, executionDuration: 0.75 });
    expect(withEvents.events.nodes[0].id).toMatch(/^gid:\/\/forgeline\/WebHookLog\/\d+$/);
    const headers = await graphData(t.root, HOOK_EVENT_HEADERS, { path: pathOf(pub) });
    expect(headers.project.hooks.nodes[0].events.nodes[0].requestHeaders).toEqual([
      { name: "X-Gitlab-Token", value: "[REDACTED]" }, { name: "X-H", value: "[REDACTED]" },
    ]);
  });

  it("filters and pages the deliveries, and refuses a bad status", async () => {
    const q = `query($path: ID!, $status: [String!], $first: Int) { project(fullPath: $path) { hooks(first: 1) { nodes {
      events(status: $status, first: $first) { count pageInfo { hasNextPage } nodes { responseStatus } } } } } }`;
    const failed = await graphData(t.root, q, { path: pathOf(pub), status: ["server_failure", "404"] });
    expect(failed.project.hooks.nodes[0].events).toMatchObject({ count: 2, nodes: [{ responseStatus: "404" }, { responseStatus: "500" }] });
    const paged = await graphData(t.root, q, { path: pathOf(pub), first: 1 });
    expect(paged.project.hooks.nodes[0].events).toMatchObject({ count: 3, pageInfo: { hasNextPage: true }, nodes: [{ responseStatus: "404" }] });
    const bad = await graph(t.root, q, { path: pathOf(pub), status: ["nonsense"] });
    expect(bad.body.errors?.[0]?.message).toContain("status does not have a valid value");
  });
});

describe("Group.hooks", () => {
  const GROUP_HOOKS = `query($path: ID!) { group(fullPath: $path) { hooks { count nodes { id url pushEvents subgroupEvents memberEvents
    urlVariableKeys customHeaderKeys events { count } } } } }`;

  it.each(ACTORS)("shows group hooks to the group's Owners and admins only (%s)", async (actor) => {
    const data = await graphData(clientOf(t, team, actor), GROUP_HOOKS, { path: group.full_path });
    if (actor === "owner" || actor === "admin") {
      expect(data.group.hooks).toEqual({
        count: 1,
        nodes: [{ id: gid("GroupHook", groupHook.id), url: `${HOOK_URL}/5`, pushEvents: true, subgroupEvents: true, memberEvents: false,
          urlVariableKeys: ["v"], customHeaderKeys: ["X-H"], events: { count: 0 } }],
      });
      for (const secret of SECRETS) expect(JSON.stringify(data)).not.toContain(secret);
    } else {
      // the group is private: members see it without its hooks, others not at all
      expect(data.group?.hooks ?? null).toBeNull();
      if (actor === "maintainer" || actor === "developer") expect(data.group).toEqual({ hooks: null });
    }
  });
});

describe("statements per nested page", () => {
  const NESTED = `query($path: ID!, $first: Int!) { project(fullPath: $path) {
    branches(first: $first) { nodes { name canPush webUrl commit { sha webUrl } } }
    protectedBranches(first: $first) { nodes { name pushAccessLevels { accessLevelDescription user { username } } } }
    approvalRules(first: $first) { nodes { name users { nodes { username } } groups { nodes { fullPath } } } }
    hooks(first: $first) { nodes { url pushEvents } } } }`;

  /** Statements of the query on a warm server (answered once before), counted at the driver. */
  async function statementsFor(first: number) {
    await graphData(team.maintainer.api, NESTED, { path: pathOf(pub), first });
    const before = t.services.sqlStats.statements;
    const data = await graphData(team.maintainer.api, NESTED, { path: pathOf(pub), first });
    return { count: t.services.sqlStats.statements - before, branches: data.project.branches.nodes.length, hooks: data.project.hooks.nodes.length };
  }

  it("reads a page of each in a number of statements that does not grow with the page", async () => {
    await protectBranch(team.owner.api, pub.id, "feature-*", { allowed_to_push: [{ user_id: team.reporter.id }] });
    // two rows at least: the second approval rule's group makes a visibility check of its own
    const two = await statementsFor(2);
    const four = await statementsFor(4);
    expect([two.branches, four.branches, two.hooks, four.hooks]).toEqual([2, 4, 2, 3]);
    expect(four.count).toBe(two.count);
    expect((await team.owner.api.delete(`/projects/${pub.id}/protected_branches/feature-*`)).status).toBe(204);
  });
});
