// Group approval rules on the public graph: approvalGroupRuleCreate and approvalGroupRuleUpdate
// and Group.approvalRules, over the REST group rule rules (group Owners and administrators, only
// while the approval_group_rules feature flag is on, approvers narrowed to direct group members,
// top-level groups only); effects checked through REST /groups/:id/approval_rules.
import { beforeAll, describe, expect, it } from "vitest";
import { createProjectRule, idsOf } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject } from "../helpers/factories.js";
import { expectNotAvailable, gid, graph, graphData } from "../helpers/graph.js";
import { protectBranch } from "../helpers/repository.js";
import { ACCESS_LEVEL, clientOf, createTeam, type Actor, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let group: any;
let mainBranch: any;

const RULE_FIELDS = "id name type approvalsRequired appliesToAllProtectedBranches protectedBranches { name } users { nodes { id } } groups { nodes { id } }";
const CREATE = `mutation($input: ApprovalGroupRuleCreateInput!) { approvalGroupRuleCreate(input: $input) { errors approvalRule { ${RULE_FIELDS} } } }`;
const UPDATE = `mutation($input: ApprovalGroupRuleUpdateInput!) { approvalGroupRuleUpdate(input: $input) { errors approvalRule { ${RULE_FIELDS} } } }`;
const LIST = `query($path: ID!) { group(fullPath: $path) { approvalRules { count nodes { id name } } } }`;

const rulesPath = (groupId: number) => `/groups/${groupId}/approval_rules`;
const setFlag = async (value: boolean) => expect((await t.root.post("/features/approval_group_rules", { value })).status).toBe(201);

/** The group's rules as REST lists them to the group's owner. */
async function restRules(groupId = group.id): Promise<any[]> {
  const res = await team.owner.api.get(rulesPath(groupId));
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function createRule(input: Record<string, unknown>, by = team.owner.api): Promise<any> {
  const data = await graphData(by, CREATE, { input: { groupPath: group.full_path, approvalsRequired: 1, ...input } });
  expect(data.approvalGroupRuleCreate.errors).toEqual([]);
  return data.approvalGroupRuleCreate.approvalRule;
}

const dbId = (globalId: string) => Number(globalId.split("/").pop());

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  group = await createGroup(team.owner.api);
  for (const [user, level] of [[team.maintainer, ACCESS_LEVEL.maintainer], [team.developer, ACCESS_LEVEL.developer], [team.guest, ACCESS_LEVEL.guest]] as const) {
    await addMember(team.owner.api, "groups", group.id, user.id, level);
  }
  const project = await createProject(team.owner.api, { namespace_id: group.id });
  mainBranch = await protectBranch(team.owner.api, project.id, "main");
});

describe("with the approval_group_rules flag off", () => {
  it("refuses even the group's owner and an administrator, and shows no rules", async () => {
    await setFlag(false);
    for (const client of [team.owner.api, t.root]) {
      expectNotAvailable(await graph(client, CREATE, { input: { groupPath: group.full_path, name: "Off", approvalsRequired: 1 } }), "approvalGroupRuleCreate");
      expect((await graphData(client, LIST, { path: group.full_path })).group.approvalRules).toBeNull();
    }
    await setFlag(true);
    expect(await restRules()).toEqual([]);
  });
});

describe("approvalGroupRuleCreate", () => {
  beforeAll(() => setFlag(true));

  it.each(["owner", "admin"] as Actor[])("creates a rule as %s: direct members only, every protected branch of the group's projects", async (actor) => {
    const name = `Security by ${actor}`;
    const data = await graphData(clientOf(t, team, actor), CREATE, {
      input: {
        groupPath: group.full_path, name, approvalsRequired: 2,
        userIds: [gid("User", team.developer.id), gid("User", team.nonMember.id)], groupIds: [gid("Group", group.id)],
      },
    });
    const rule = data.approvalGroupRuleCreate.approvalRule;
    expect(data.approvalGroupRuleCreate.errors).toEqual([]);
    expect(rule).toMatchObject({
      name, type: "regular", approvalsRequired: 2, appliesToAllProtectedBranches: true, protectedBranches: [{ name: "main" }],
      users: { nodes: [{ id: gid("User", team.developer.id) }] }, groups: { nodes: [{ id: gid("Group", group.id) }] },
    });
    expect(rule.id).toMatch(/^gid:\/\/forgeline\/ApprovalGroupRule\/\d+$/);
    const stored = (await restRules()).find((r) => r.id === dbId(rule.id));
    expect(stored).toMatchObject({ name, approvals_required: 2, applies_to_all_protected_branches: true });
    expect(idsOf(stored.users)).toEqual([team.developer.id]);
    expect(stored.protected_branches.map((b: any) => b.id)).toEqual([mainBranch.id]);
  });

  it.each(["anonymous", "nonMember", "guest", "developer", "maintainer"] as Actor[])("refuses %s without a rule made", async (actor) => {
    const before = (await restRules()).length;
    const res = await graph(clientOf(t, team, actor), CREATE, { input: { groupPath: group.full_path, name: `By ${actor}`, approvalsRequired: 1 } });
    expectNotAvailable(res, "approvalGroupRuleCreate");
    expect(await restRules()).toHaveLength(before);
  });

  it("answers a missing group or a numeric id as a hidden one", async () => {
    for (const groupPath of ["no-such-group", String(group.id)]) {
      expectNotAvailable(await graph(t.root, CREATE, { input: { groupPath, name: "Nowhere", approvalsRequired: 1 } }), "approvalGroupRuleCreate");
    }
  });

  it("lists bad input in errors and makes no rule", async () => {
    const fresh = await createGroup(team.owner.api);
    const input = (fields: Record<string, unknown>, path = fresh.full_path) => ({ input: { groupPath: path, name: "Rule", approvalsRequired: 1, ...fields } });
    const tooMany = await graphData(team.owner.api, CREATE, input({ approvalsRequired: 101, userIds: [gid("User", team.owner.id)] }));
    expect(tooMany.approvalGroupRuleCreate).toEqual({ errors: ["approvals_required must be less than or equal to 100"], approvalRule: null });
    const blank = await graphData(team.owner.api, CREATE, input({ name: "" }));
    expect(blank.approvalGroupRuleCreate.approvalRule).toBeNull();
    expect(blank.approvalGroupRuleCreate.errors).toContain("name can't be blank");
    const sub = await createGroup(team.owner.api, { parent_id: fresh.id });
    const nested = await graphData(team.owner.api, CREATE, input({ userIds: [gid("User", team.owner.id)] }, sub.full_path));
    expect(nested.approvalGroupRuleCreate).toEqual({ errors: ["group must be a top level Group"], approvalRule: null });
    expect(await restRules(fresh.id)).toEqual([]);
    expect(await restRules(sub.id)).toEqual([]);
  });
});

describe("approvalGroupRuleUpdate", () => {
  beforeAll(() => setFlag(true));

  it.each(["owner", "admin"] as Actor[])("changes what is sent as %s and keeps the rest", async (actor) => {
    const rule = await createRule({ name: `Editable ${actor}`, userIds: [gid("User", team.developer.id)] });
    const data = await graphData(clientOf(t, team, actor), UPDATE, { input: { id: rule.id, approvalsRequired: 3, userIds: [gid("User", team.maintainer.id)] } });
    expect(data.approvalGroupRuleUpdate.errors).toEqual([]);
    expect(data.approvalGroupRuleUpdate.approvalRule).toMatchObject({ id: rule.id, name: `Editable ${actor}`, approvalsRequired: 3, users: { nodes: [{ id: gid("User", team.maintainer.id) }] } });
    const stored = (await restRules()).find((r) => r.id === dbId(rule.id));
    expect(stored).toMatchObject({ name: `Editable ${actor}`, approvals_required: 3 });
    expect(idsOf(stored.users)).toEqual([team.maintainer.id]);
  });

  it.each(["anonymous", "nonMember", "guest", "developer", "maintainer"] as Actor[])("refuses %s and leaves the rule as it was", async (actor) => {
    const rule = await createRule({ name: `Kept from ${actor}`, approvalsRequired: 1, userIds: [gid("User", team.developer.id)] });
    expectNotAvailable(await graph(clientOf(t, team, actor), UPDATE, { input: { id: rule.id, approvalsRequired: 5 } }), "approvalGroupRuleUpdate");
    expect((await restRules()).find((r) => r.id === dbId(rule.id))).toMatchObject({ approvals_required: 1 });
  });

  it("answers ids of no group rule as hidden", async () => {
    const project = await createProject(team.owner.api);
    const projectRule = await createProjectRule(team.owner.api, project.id, { name: "Project rule", approvals_required: 1 });
    for (const id of [gid("ApprovalProjectRule", projectRule.id), gid("ApprovalGroupRule", projectRule.id), gid("ApprovalGroupRule", 99999999999), "nonsense"]) {
      expectNotAvailable(await graph(t.root, UPDATE, { input: { id, approvalsRequired: 2 } }), "approvalGroupRuleUpdate");
    }
  });

  it("lists bad input in errors and changes nothing", async () => {
    const rule = await createRule({ name: "Validated", approvalsRequired: 1, userIds: [gid("User", team.developer.id)] });
    const data = await graphData(team.owner.api, UPDATE, { input: { id: rule.id, approvalsRequired: -1 } });
    expect(data.approvalGroupRuleUpdate).toEqual({ errors: ["approvals_required must be greater than or equal to 0"], approvalRule: null });
    expect((await restRules()).find((r) => r.id === dbId(rule.id))).toMatchObject({ approvals_required: 1 });
  });
});

describe("Group.approvalRules", () => {
  beforeAll(() => setFlag(true));

  it.each(["owner", "admin"] as Actor[])("lists the group's rules to %s as REST does", async (actor) => {
    const listed = (await graphData(clientOf(t, team, actor), LIST, { path: group.full_path })).group.approvalRules;
    const rest = await restRules();
    expect(rest.length).toBeGreaterThan(0);
    expect(listed.count).toBe(rest.length);
    expect(listed.nodes).toEqual(rest.map((r) => ({ id: gid("ApprovalGroupRule", r.id), name: r.name })));
  });

  it.each(["guest", "developer", "maintainer"] as Actor[])("is null for %s", async (actor) => {
    expect((await graphData(clientOf(t, team, actor), LIST, { path: group.full_path })).group.approvalRules).toBeNull();
  });
});
