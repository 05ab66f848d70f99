// approvalProjectRuleCreate, approvalProjectRuleUpdate and approvalProjectRuleDelete on the public
// graph per actor (public and private projects), the rules seen through Project.approvalRules
// afterwards, refusals as GitLab's "resource not available", bad input in `errors`, read_api
// tokens refused.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createProjectRule } from "../helpers/approvals.js";
import { createUser, uniq } from "../helpers/factories.js";
import { graph, graphData, gid, expectNotAvailable } from "../helpers/graph.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

const RULE_FIELDS = "id name approvalsRequired appliesToAllProtectedBranches users { nodes { username } }";
const CREATE = `mutation($input: ApprovalProjectRuleCreateInput!) { approvalProjectRuleCreate(input: $input) { errors approvalRule { ${RULE_FIELDS} } } }`;
const UPDATE = `mutation($input: ApprovalProjectRuleUpdateInput!) { approvalProjectRuleUpdate(input: $input) { errors approvalRule { ${RULE_FIELDS} } } }`;
const DELETE = `mutation($input: ApprovalProjectRuleDeleteInput!) { approvalProjectRuleDelete(input: $input) { errors approvalRule { id } } }`;
const RULES = `query($path: ID!) { project(fullPath: $path) { approvalRules { nodes { ${RULE_FIELDS} } } } }`;

const projectOf = (visibility: "public" | "private") => (visibility === "public" ? team.publicProject : team.privateProject);
const rulesOf = async (visibility: "public" | "private") =>
  (await graphData(team.owner.api, RULES, { path: projectOf(visibility).path_with_namespace })).project.approvalRules.nodes;

const REFUSED: Actor[] = ["anonymous", "nonMember", "guest", "reporter", "developer"];
const ALLOWED: Actor[] = ["maintainer", "owner", "admin"];

describe("approvalProjectRuleCreate", () => {
  const input = (visibility: "public" | "private", fields: Record<string, unknown> = {}) => ({
    input: { projectPath: projectOf(visibility).path_with_namespace, name: uniq("rule"), approvalsRequired: 2, userIds: [gid("User", team.developer.id)], ...fields },
  });

  it.each(ALLOWED)("creates a rule in both projects as %s", async (actor) => {
    for (const visibility of ["public", "private"] as const) {
      const vars = input(visibility);
      const data = await graphData(clientOf(t, team, actor), CREATE, vars);
      expect(data.approvalProjectRuleCreate.errors).toEqual([]);
      const rule = data.approvalProjectRuleCreate.approvalRule;
      expect(rule).toMatchObject({ name: vars.input.name, approvalsRequired: 2, users: { nodes: [{ username: team.developer.username }] } });
      expect(await rulesOf(visibility)).toContainEqual(rule);
    }
  });

  it.each(REFUSED)("refuses %s in both projects", async (actor) => {
    for (const visibility of ["public", "private"] as const) {
      const vars = input(visibility);
      expectNotAvailable(await graph(clientOf(t, team, actor), CREATE, vars), "approvalProjectRuleCreate");
      expect((await rulesOf(visibility)).map((r: any) => r.name)).not.toContain(vars.input.name);
    }
  });

  it("refuses an unknown project and a numeric path", async () => {
    expectNotAvailable(await graph(t.root, CREATE, input("public", { projectPath: "no/such" })), "approvalProjectRuleCreate");
    expectNotAvailable(await graph(t.root, CREATE, input("public", { projectPath: String(team.publicProject.id) })), "approvalProjectRuleCreate");
  });

  it("lists bad input in errors and keeps approvers to members", async () => {
    const negative = await graphData(team.maintainer.api, CREATE, input("public", { approvalsRequired: -1 }));
    expect(negative.approvalProjectRuleCreate.approvalRule).toBeNull();
    expect(negative.approvalProjectRuleCreate.errors).toEqual(["approvals_required must be greater than or equal to 0"]);
    const blank = await graphData(team.maintainer.api, CREATE, input("public", { name: "" }));
    expect(blank.approvalProjectRuleCreate.approvalRule).toBeNull();
    expect(blank.approvalProjectRuleCreate.errors.length).toBeGreaterThan(0);
    const outsider = await graphData(team.maintainer.api, CREATE, input("private", { userIds: [gid("User", team.nonMember.id), gid("Project", 1)] }));
    expect(outsider.approvalProjectRuleCreate.errors).toEqual([]);
    expect(outsider.approvalProjectRuleCreate.approvalRule.users.nodes).toEqual([]);
  });

  it("refuses a read_api token", async () => {
    const reader = await createUser(t, {}, ["read_api"]);
    const res = await graph(reader.api, CREATE, input("public"));
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ http: { status: 403 } });
  });
});

describe("approvalProjectRuleUpdate", () => {
  let rules: Record<"public" | "private", any>;
  beforeAll(async () => {
    rules = {
      public: await createProjectRule(team.owner.api, team.publicProject.id, { name: uniq("to-change"), approvals_required: 1, user_ids: [team.developer.id] }),
      private: await createProjectRule(team.owner.api, team.privateProject.id, { name: uniq("to-change"), approvals_required: 1, user_ids: [team.developer.id] }),
    };
  });
  const input = (visibility: "public" | "private", fields: Record<string, unknown>) => ({ input: { id: gid("ApprovalProjectRule", rules[visibility].id), ...fields } });

  it.each(ALLOWED)("changes the rule as %s, as the query shows", async (actor) => {
    for (const visibility of ["public", "private"] as const) {
      const name = uniq(`by-${actor}`);
      const data = await graphData(clientOf(t, team, actor), UPDATE, input(visibility, { name, approvalsRequired: 3, userIds: [gid("User", team.reporter.id)] }));
      expect(data.approvalProjectRuleUpdate.errors).toEqual([]);
      const expected = { id: gid("ApprovalProjectRule", rules[visibility].id), name, approvalsRequired: 3, users: { nodes: [{ username: team.reporter.username }] } };
      expect(data.approvalProjectRuleUpdate.approvalRule).toMatchObject(expected);
      expect(await rulesOf(visibility)).toContainEqual(expect.objectContaining(expected));
    }
  });

  it.each(REFUSED)("refuses %s", async (actor) => {
    for (const visibility of ["public", "private"] as const) {
      expectNotAvailable(await graph(clientOf(t, team, actor), UPDATE, input(visibility, { name: "nope" })), "approvalProjectRuleUpdate");
    }
    expect((await rulesOf("public")).map((r: any) => r.name)).not.toContain("nope");
  });

  it("lists bad input in errors and refuses ids of other types", async () => {
    const data = await graphData(team.maintainer.api, UPDATE, input("public", { approvalsRequired: 101 }));
    expect(data.approvalProjectRuleUpdate.approvalRule).toBeNull();
    expect(data.approvalProjectRuleUpdate.errors).toEqual(["approvals_required must be less than or equal to 100"]);
    expectNotAvailable(await graph(t.root, UPDATE, { input: { id: gid("ApprovalProjectRule", 999999), name: "x" } }), "approvalProjectRuleUpdate");
    expectNotAvailable(await graph(t.root, UPDATE, { input: { id: gid("Project", team.publicProject.id), name: "x" } }), "approvalProjectRuleUpdate");
  });
});

describe("approvalProjectRuleDelete", () => {
  const newRule = (visibility: "public" | "private") => createProjectRule(team.owner.api, projectOf(visibility).id, { name: uniq("to-delete"), approvals_required: 1, user_ids: [team.developer.id] });

  it.each(ALLOWED)("deletes the private project's rule as %s", async (actor) => {
    const rule = await newRule("private");
    const data = await graphData(clientOf(t, team, actor), DELETE, { input: { id: gid("ApprovalProjectRule", rule.id) } });
    expect(data.approvalProjectRuleDelete).toEqual({ errors: [], approvalRule: null });
    expect((await rulesOf("private")).map((r: any) => r.id)).not.toContain(gid("ApprovalProjectRule", rule.id));
    expectNotAvailable(await graph(clientOf(t, team, actor), DELETE, { input: { id: gid("ApprovalProjectRule", rule.id) } }), "approvalProjectRuleDelete");
  });

  it.each(REFUSED)("refuses %s", async (actor) => {
    const rule = await newRule("public");
    expectNotAvailable(await graph(clientOf(t, team, actor), DELETE, { input: { id: gid("ApprovalProjectRule", rule.id) } }), "approvalProjectRuleDelete");
    expect((await rulesOf("public")).map((r: any) => r.id)).toContain(gid("ApprovalProjectRule", rule.id));
  });

  it("refuses a read_api token", async () => {
    const reader = await createUser(t, {}, ["read_api"]);
    const rule = await newRule("public");
    const res = await graph(reader.api, DELETE, { input: { id: gid("ApprovalProjectRule", rule.id) } });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ http: { status: 403 } });
    expect((await rulesOf("public")).map((r: any) => r.id)).toContain(gid("ApprovalProjectRule", rule.id));
  });
});

describe("projectApprovalSettingsUpdate", () => {
  const UPDATE_SETTINGS = `mutation($input: ProjectApprovalSettingsUpdateInput!) { projectApprovalSettingsUpdate(input: $input) {
    errors approvalSettings { approvalsBeforeMerge resetApprovalsOnPush mergeRequestsAuthorApproval disableOverridingApproversPerMergeRequest } } }`;
  const SETTINGS = `query($path: ID!) { project(fullPath: $path) { approvalSettings { approvalsBeforeMerge resetApprovalsOnPush mergeRequestsAuthorApproval } } }`;
  const input = (visibility: "public" | "private", fields: Record<string, unknown>) => ({ input: { projectPath: projectOf(visibility).path_with_namespace, ...fields } });
  const settingsOf = async (client: any, visibility: "public" | "private") =>
    (await graphData(client, SETTINGS, { path: projectOf(visibility).path_with_namespace })).project?.approvalSettings ?? null;

  it.each(ALLOWED)("changes the settings given and keeps the others as %s", async (actor) => {
    for (const visibility of ["public", "private"] as const) {
      const before = await settingsOf(team.owner.api, visibility);
      const count = before.approvalsBeforeMerge + 1;
      const data = await graphData(clientOf(t, team, actor), UPDATE_SETTINGS, input(visibility, { approvalsBeforeMerge: count }));
      expect(data.projectApprovalSettingsUpdate.errors).toEqual([]);
      expect(data.projectApprovalSettingsUpdate.approvalSettings).toMatchObject({ approvalsBeforeMerge: count, resetApprovalsOnPush: before.resetApprovalsOnPush });
      expect(await settingsOf(clientOf(t, team, actor), visibility)).toEqual({ ...before, approvalsBeforeMerge: count });
    }
  });

  it.each(REFUSED)("refuses %s, who does not see the settings either", async (actor) => {
    for (const visibility of ["public", "private"] as const) {
      const before = await settingsOf(team.owner.api, visibility);
      expectNotAvailable(await graph(clientOf(t, team, actor), UPDATE_SETTINGS, input(visibility, { approvalsBeforeMerge: 50 })), "projectApprovalSettingsUpdate");
      expect(await settingsOf(team.owner.api, visibility)).toEqual(before);
      expect(await settingsOf(clientOf(t, team, actor), visibility)).toBeNull();
    }
  });

  it("lists bad input in errors", async () => {
    const none = await graphData(team.maintainer.api, UPDATE_SETTINGS, input("public", {}));
    expect(none.projectApprovalSettingsUpdate.approvalSettings).toBeNull();
    expect(none.projectApprovalSettingsUpdate.errors).toHaveLength(1);
    const negative = await graphData(team.maintainer.api, UPDATE_SETTINGS, input("public", { approvalsBeforeMerge: -1 }));
    expect(negative.projectApprovalSettingsUpdate).toEqual({ approvalSettings: null, errors: ["approvals_before_merge must be greater than or equal to 0"] });
    await graphData(team.maintainer.api, UPDATE_SETTINGS, input("public", { resetApprovalsOnPush: true }));
    const conflict = await graphData(team.maintainer.api, UPDATE_SETTINGS, input("public", { selectiveCodeOwnerRemovals: true }));
    expect(conflict.projectApprovalSettingsUpdate.approvalSettings).toBeNull();
    expect(conflict.projectApprovalSettingsUpdate.errors).toHaveLength(1);
  });

  it("refuses a read_api token", async () => {
    const reader = await createUser(t, {}, ["read_api"]);
    const res = await graph(reader.api, UPDATE_SETTINGS, input("public", { approvalsBeforeMerge: 9 }));
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ http: { status: 403 } });
  });
});
