// Merge request approvals over /graphql: the same domain functions as REST behind every root field
// (settings, project, group and merge request rules, approval status and state, approve,
// unapprove, reset), with GitLab's errors in extensions.
import { beforeAll, describe, expect, it } from "vitest";
import { projectBot } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { gitlabError } from "../helpers/errors.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { createTeam, createTeamProject, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;

const data = (res: { body: { data?: any; errors?: any[] } }) => {
  expect(res.body.errors).toBeUndefined();
  return res.body.data;
};

const RULE_FIELDS = "id name rule_type approvals_required eligible_approvers { id } users { id } groups { id } contains_hidden_groups report_type";

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
});

describe("project configuration and rules", () => {
  it("reads and changes settings, creates, lists, updates and deletes rules", async () => {
    const project = await createTeamProject(team);
    const owner = team.owner.api;
    const settings = data(await owner.graphql(
      `mutation($id: ID!) { updateProjectApprovalSettings(id: $id, merge_requests_author_approval: true) { merge_requests_author_approval reset_approvals_on_push approvers { user { id } } } }`,
      { id: String(project.id) },
    ));
    expect(settings.updateProjectApprovalSettings).toEqual({ merge_requests_author_approval: true, reset_approvals_on_push: true, approvers: [] });
    expect(data(await owner.graphql(`query($id: ID!) { projectApprovalSettings(id: $id) { merge_requests_author_approval } }`, { id: project.path_with_namespace })))
      .toEqual({ projectApprovalSettings: { merge_requests_author_approval: true } });

    const created = data(await owner.graphql(
      `mutation($id: ID!, $users: [Int!]) { createProjectApprovalRule(id: $id, name: "Backend", approvals_required: 1, user_ids: $users) { ${RULE_FIELDS} applies_to_all_protected_branches protected_branches { id } } }`,
      { id: String(project.id), users: [team.developer.id] },
    )).createProjectApprovalRule;
    expect(created).toMatchObject({ name: "Backend", rule_type: "regular", users: [{ id: team.developer.id }], applies_to_all_protected_branches: false, protected_branches: [] });

    const listed = data(await team.developer.api.graphql(`query($id: ID!) { projectApprovalRules(id: $id) { id name } }`, { id: String(project.id) }));
    expect(listed.projectApprovalRules).toEqual([{ id: created.id, name: "Backend" }]);
    const updated = data(await owner.graphql(
      `mutation($id: ID!, $rule: Int!) { updateProjectApprovalRule(id: $id, approval_rule_id: $rule, name: "Back", approvals_required: 2) { name approvals_required users { id } } }`,
      { id: String(project.id), rule: created.id },
    ));
    expect(updated.updateProjectApprovalRule).toEqual({ name: "Back", approvals_required: 2, users: [{ id: team.developer.id }] });
    expect(data(await owner.graphql(`mutation($id: ID!, $rule: Int!) { deleteProjectApprovalRule(id: $id, approval_rule_id: $rule) }`, { id: String(project.id), rule: created.id })))
      .toEqual({ deleteProjectApprovalRule: true });
  });

  it("reports permissions and validation like REST", async () => {
    const project = await createTeamProject(team);
    const anon = await t.anon.graphql(`query($id: ID!) { projectApprovalRules(id: $id) { id } }`, { id: String(project.id) });
    expect(gitlabError(anon)).toMatchObject({ http: { status: 401 }, gitlab: { message: "401 Unauthorized" } });
    const reporter = await team.reporter.api.graphql(`query($id: ID!) { projectApprovalRules(id: $id) { id } }`, { id: String(project.id) });
    expect(gitlabError(reporter)).toMatchObject({ http: { status: 403 }, gitlab: { message: "403 Forbidden" } });
    const long = await team.owner.api.graphql(
      `mutation($id: ID!, $name: String!) { createProjectApprovalRule(id: $id, name: $name, approvals_required: 1) { id } }`,
      { id: String(project.id), name: "n".repeat(1025) },
    );
    expect(gitlabError(long)).toMatchObject({ http: { status: 400 }, gitlab: { message: { name: ["is too long (maximum is 1024 characters)"] } } });
  });
});

describe("group rules", () => {
  it("follow the approval_group_rules flag", async () => {
    const group = (await team.owner.api.post("/groups", { name: "G gql", path: `g-gql-${Date.now()}` })).body;
    const query = `query($id: ID!) { groupApprovalRules(id: $id) { id name applies_to_all_protected_branches } }`;
    expect(gitlabError(await team.owner.api.graphql(query, { id: String(group.id) }))).toMatchObject({ http: { status: 404 }, gitlab: { message: "404 Not Found" } });
    await t.root.post("/features/approval_group_rules", { value: true });
    const created = data(await team.owner.api.graphql(
      `mutation($id: ID!) { createGroupApprovalRule(id: $id, name: "Group rule", approvals_required: 1) { id rule_type } }`,
      { id: String(group.id) },
    )).createGroupApprovalRule;
    expect(created.rule_type).toBe("any_approver");
    const renamed = data(await team.owner.api.graphql(
      `mutation($id: ID!, $rule: Int!) { updateGroupApprovalRule(id: $id, approval_rule_id: $rule, name: "Renamed") { name } }`,
      { id: String(group.id), rule: created.id },
    ));
    expect(renamed.updateGroupApprovalRule).toEqual({ name: "Renamed" });
    expect(data(await team.owner.api.graphql(query, { id: String(group.id) })).groupApprovalRules)
      .toEqual([{ id: created.id, name: "Renamed", applies_to_all_protected_branches: true }]);
    await t.root.post("/features/approval_group_rules", { value: false });
  });
});

describe("merge request level", () => {
  it("creates MR rules, approves, reads the status and state, unapproves and resets", async () => {
    const project = await createTeamProject(team);
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    const vars = { id: String(project.id), iid: mr.iid };
    const rule = data(await team.developer.api.graphql(
      `mutation($id: ID!, $iid: Int!, $users: [Int!]) { createMergeRequestApprovalRule(id: $id, merge_request_iid: $iid, name: "MR", approvals_required: 1, user_ids: $users) { id name source_rule { approvals_required } overridden section } }`,
      { ...vars, users: [team.developer.id] },
    )).createMergeRequestApprovalRule;
    expect(rule).toMatchObject({ name: "MR", source_rule: null, overridden: false, section: null });

    const approved = data(await team.developer.api.graphql(
      `mutation($id: ID!, $iid: Int!) { approveMergeRequest(id: $id, merge_request_iid: $iid) { iid approved approvals_left user_has_approved approved_by { user { id } approved_at } } }`,
      vars,
    )).approveMergeRequest;
    expect(approved).toMatchObject({ iid: mr.iid, approved: true, approvals_left: 0, user_has_approved: true, approved_by: [{ user: { id: team.developer.id } }] });
    const again = await team.developer.api.graphql(`mutation($id: ID!, $iid: Int!) { approveMergeRequest(id: $id, merge_request_iid: $iid) { iid } }`, vars);
    expect(gitlabError(again)).toMatchObject({ http: { status: 401 } });
    const stale = await team.owner.api.graphql(`mutation($id: ID!, $iid: Int!) { approveMergeRequest(id: $id, merge_request_iid: $iid, sha: "abc") { iid } }`, vars);
    expect(gitlabError(stale)).toMatchObject({ http: { status: 409 }, code: "CONFLICT" });

    const state = data(await team.reporter.api.graphql(
      `query($id: ID!, $iid: Int!) { mergeRequestApprovalState(id: $id, merge_request_iid: $iid) { approval_rules_overwritten rules { name approved approved_by { id } code_owner } } }`,
      vars,
    )).mergeRequestApprovalState;
    expect(state).toEqual({ approval_rules_overwritten: true, rules: [{ name: "MR", approved: true, approved_by: [{ id: team.developer.id }], code_owner: false }] });
    const rules = data(await team.reporter.api.graphql(`query($id: ID!, $iid: Int!) { mergeRequestApprovalRules(id: $id, merge_request_iid: $iid) { id } }`, vars));
    expect(rules.mergeRequestApprovalRules).toEqual([{ id: rule.id }]);

    const unapproved = data(await team.developer.api.graphql(`mutation($id: ID!, $iid: Int!) { unapproveMergeRequest(id: $id, merge_request_iid: $iid) { approved_by { user { id } } } }`, vars));
    expect(unapproved.unapproveMergeRequest.approved_by).toEqual([]);

    await team.owner.api.post(`/projects/${project.id}/merge_requests/${mr.iid}/approve`, {});
    const human = await team.owner.api.graphql(`mutation($id: ID!, $iid: Int!) { resetMergeRequestApprovals(id: $id, merge_request_iid: $iid) }`, vars);
    expect(gitlabError(human)).toMatchObject({ http: { status: 401 } });
    const bot = await projectBot(t, team.owner.api, project.id);
    expect(data(await bot.api.graphql(`mutation($id: ID!, $iid: Int!) { resetMergeRequestApprovals(id: $id, merge_request_iid: $iid) }`, vars)))
      .toEqual({ resetMergeRequestApprovals: 202 });
    const status = data(await team.owner.api.graphql(`query($id: ID!, $iid: Int!) { mergeRequestApprovals(id: $id, merge_request_iid: $iid) { approved_by { user { id } } approvals_required } }`, vars));
    expect(status.mergeRequestApprovals).toEqual({ approved_by: [], approvals_required: 1 });
  });
});
