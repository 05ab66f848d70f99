// mergeRequestApprovalRuleCreate, mergeRequestApprovalRuleUpdate and mergeRequestApprovalRuleDelete
// on the public graph per actor (public and private projects), the rules seen through
// MergeRequest.approvalState afterwards, refusals as GitLab's "resource not available" (also when
// the project forbids overriding approvers), bad input in `errors`, read_api tokens refused.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createMergeRequestRule, createProjectRule, setApprovalSettings } from "../helpers/approvals.js";
import { createProject, createUser, uniq } from "../helpers/factories.js";
import { graph, graphData, gid, expectNotAvailable } from "../helpers/graph.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let mrs: Record<"public" | "private", any>;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  mrs = {
    public: await createMergeRequest(team.developer.api, team.publicProject.id),
    private: await createMergeRequest(team.developer.api, team.privateProject.id),
  };
});

const RULE_FIELDS = "id name approvalsRequired eligibleApprovers { username }";
const CREATE = `mutation($input: MergeRequestApprovalRuleCreateInput!) { mergeRequestApprovalRuleCreate(input: $input) { errors approvalRule { ${RULE_FIELDS} } } }`;
const UPDATE = `mutation($input: MergeRequestApprovalRuleUpdateInput!) { mergeRequestApprovalRuleUpdate(input: $input) { errors approvalRule { ${RULE_FIELDS} } } }`;
const DELETE = `mutation($input: MergeRequestApprovalRuleDeleteInput!) { mergeRequestApprovalRuleDelete(input: $input) { errors approvalRule { id } } }`;
const STATE = `query($path: ID!, $iid: String!) { project(fullPath: $path) { mergeRequest(iid: $iid) {
  approvalState { approvalRulesOverwritten rules { ${RULE_FIELDS} } } } } }`;

const VISIBILITIES = ["public", "private"] as const;
type Visibility = (typeof VISIBILITIES)[number];
const projectOf = (visibility: Visibility) => (visibility === "public" ? team.publicProject : team.privateProject);
const rulesOf = async (visibility: Visibility) =>
  (await graphData(team.owner.api, STATE, { path: projectOf(visibility).path_with_namespace, iid: String(mrs[visibility].iid) }))
    .project.mergeRequest.approvalState.rules;

const REFUSED: Actor[] = ["anonymous", "nonMember", "guest", "reporter"];
const ALLOWED: Actor[] = ["developer", "maintainer", "owner", "admin"];
const newRule = (visibility: Visibility) =>
  createMergeRequestRule(team.developer.api, projectOf(visibility).id, mrs[visibility].iid, { name: uniq("mr-rule"), approvals_required: 1, user_ids: [team.maintainer.id] });

describe("mergeRequestApprovalRuleCreate", () => {
  const input = (visibility: Visibility, fields: Record<string, unknown> = {}) => ({
    input: {
      projectPath: projectOf(visibility).path_with_namespace,
      iid: String(mrs[visibility].iid),
      name: uniq("mr-rule"),
      approvalsRequired: 1,
      userIds: [gid("User", team.maintainer.id)],
      ...fields,
    },
  });

  it.each(ALLOWED)("creates a rule on both merge requests as %s (author or Developer up)", async (actor) => {
    for (const visibility of VISIBILITIES) {
      const vars = input(visibility);
      const data = await graphData(clientOf(t, team, actor), CREATE, vars);
      expect(data.mergeRequestApprovalRuleCreate.errors).toEqual([]);
      const rule = data.mergeRequestApprovalRuleCreate.approvalRule;
      expect(rule).toMatchObject({ name: vars.input.name, approvalsRequired: 1, eligibleApprovers: [{ username: team.maintainer.username }] });
      expect(await rulesOf(visibility)).toContainEqual(rule);
    }
  });

  it.each(REFUSED)("refuses %s on both merge requests", async (actor) => {
    for (const visibility of VISIBILITIES) {
      const vars = input(visibility);
      expectNotAvailable(await graph(clientOf(t, team, actor), CREATE, vars), "mergeRequestApprovalRuleCreate");
      expect((await rulesOf(visibility)).map((r: any) => r.name)).not.toContain(vars.input.name);
    }
  });

  it("copies a project rule's approvers", async () => {
    const projectRule = await createProjectRule(team.owner.api, team.publicProject.id, { name: uniq("source"), approvals_required: 1, user_ids: [team.owner.id] });
    const data = await graphData(team.developer.api, CREATE, input("public", { userIds: undefined, approvalProjectRuleId: gid("ApprovalProjectRule", projectRule.id) }));
    expect(data.mergeRequestApprovalRuleCreate).toMatchObject({ errors: [], approvalRule: { name: projectRule.name, eligibleApprovers: [{ username: team.owner.username }] } });
  });

  it("lists bad input in errors and refuses unknown merge requests", async () => {
    const negative = await graphData(team.developer.api, CREATE, input("public", { approvalsRequired: -1 }));
    expect(negative.mergeRequestApprovalRuleCreate).toEqual({ approvalRule: null, errors: ["approvals_required must be greater than or equal to 0"] });
    expectNotAvailable(await graph(t.root, CREATE, input("public", { iid: "999999" })), "mergeRequestApprovalRuleCreate");
    expectNotAvailable(await graph(t.root, CREATE, input("public", { iid: "abc" })), "mergeRequestApprovalRuleCreate");
  });

  it("refuses everyone when the project forbids overriding approvers", async () => {
    const project = await createProject(team.owner.api, { visibility: "public" });
    const mr = await createMergeRequest(team.owner.api, project.id);
    await setApprovalSettings(team.owner.api, project.id, { disable_overriding_approvers_per_merge_request: true });
    const vars = { input: { projectPath: project.path_with_namespace, iid: String(mr.iid), name: "x", approvalsRequired: 1 } };
    expectNotAvailable(await graph(team.owner.api, CREATE, vars), "mergeRequestApprovalRuleCreate");
  });

  it("refuses a read_api token", async () => {
    const reader = await createUser(t, {}, ["read_api"]);
    const res = await graph(reader.api, CREATE, input("public"));
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ http: { status: 403 } });
  });
});

describe("mergeRequestApprovalRuleUpdate", () => {
  let rules: Record<Visibility, any>;
  beforeAll(async () => {
    rules = { public: await newRule("public"), private: await newRule("private") };
  });
  const input = (visibility: Visibility, fields: Record<string, unknown>) => ({ input: { id: gid("ApprovalMergeRequestRule", rules[visibility].id), ...fields } });

  it.each(ALLOWED)("changes the rule as %s, as the query shows", async (actor) => {
    for (const visibility of VISIBILITIES) {
      const name = uniq(`by-${actor}`);
      const data = await graphData(clientOf(t, team, actor), UPDATE, input(visibility, { name, approvalsRequired: 2, userIds: [gid("User", team.owner.id)] }));
      expect(data.mergeRequestApprovalRuleUpdate.errors).toEqual([]);
      const expected = { id: gid("ApprovalMergeRequestRule", rules[visibility].id), name, approvalsRequired: 2, eligibleApprovers: [{ username: team.owner.username }] };
      expect(data.mergeRequestApprovalRuleUpdate.approvalRule).toEqual(expected);
      expect(await rulesOf(visibility)).toContainEqual(expected);
    }
  });

  it.each(REFUSED)("refuses %s", async (actor) => {
    for (const visibility of VISIBILITIES) {
      expectNotAvailable(await graph(clientOf(t, team, actor), UPDATE, input(visibility, { name: "nope" })), "mergeRequestApprovalRuleUpdate");
    }
    expect((await rulesOf("public")).map((r: any) => r.name)).not.toContain("nope");
  });

  it("lists bad input in errors and refuses ids of other types", async () => {
    const data = await graphData(team.developer.api, UPDATE, input("public", { approvalsRequired: 101 }));
    expect(data.mergeRequestApprovalRuleUpdate).toEqual({ approvalRule: null, errors: ["approvals_required must be less than or equal to 100"] });
    expectNotAvailable(await graph(t.root, UPDATE, { input: { id: gid("ApprovalMergeRequestRule", 999999), name: "x" } }), "mergeRequestApprovalRuleUpdate");
    const projectRule = await createProjectRule(team.owner.api, team.publicProject.id, { name: uniq("project"), approvals_required: 1, user_ids: [team.owner.id] });
    expectNotAvailable(await graph(t.root, UPDATE, { input: { id: gid("ApprovalMergeRequestRule", projectRule.id), name: "x" } }), "mergeRequestApprovalRuleUpdate");
  });
});

describe("mergeRequestApprovalRuleDelete", () => {
  it.each(ALLOWED)("deletes the private merge request's rule as %s", async (actor) => {
    const rule = await newRule("private");
    const data = await graphData(clientOf(t, team, actor), DELETE, { input: { id: gid("ApprovalMergeRequestRule", rule.id) } });
    expect(data.mergeRequestApprovalRuleDelete).toEqual({ errors: [], approvalRule: null });
    expect((await rulesOf("private")).map((r: any) => r.id)).not.toContain(gid("ApprovalMergeRequestRule", rule.id));
    expectNotAvailable(await graph(clientOf(t, team, actor), DELETE, { input: { id: gid("ApprovalMergeRequestRule", rule.id) } }), "mergeRequestApprovalRuleDelete");
  });

  it.each(REFUSED)("refuses %s", async (actor) => {
    const rule = await newRule("public");
    expectNotAvailable(await graph(clientOf(t, team, actor), DELETE, { input: { id: gid("ApprovalMergeRequestRule", rule.id) } }), "mergeRequestApprovalRuleDelete");
    expect((await rulesOf("public")).map((r: any) => r.id)).toContain(gid("ApprovalMergeRequestRule", rule.id));
  });

  it("refuses a read_api token", async () => {
    const reader = await createUser(t, {}, ["read_api"]);
    const rule = await newRule("public");
    const res = await graph(reader.api, DELETE, { input: { id: gid("ApprovalMergeRequestRule", rule.id) } });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ http: { status: 403 } });
    expect((await rulesOf("public")).map((r: any) => r.id)).toContain(gid("ApprovalMergeRequestRule", rule.id));
  });
});
