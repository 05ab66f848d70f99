// Merge request approval rules: list/get for readers, create/update/delete for whoever may update
// the MR (refused with disable_overriding_approvers_per_merge_request), approval_project_rule_id
// copying (source_rule, overridden), the rules replacing the project's in the approval state
// (approval_rules_overwritten), the any_approver rule, validation (name length, merged MRs), and
// system rules (report_approver copied at creation, code_owner) that cannot be changed.
import { beforeAll, describe, expect, it } from "vitest";
import { approvalState, createMergeRequestRule, createProjectRule, idsOf, mrPath, setApprovalSettings } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createGroup } from "../helpers/factories.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { createTeam, createTeamProject, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;

const rulesPath = (project: any, mr: any) => `${mrPath(project.id, mr.iid)}/approval_rules`;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
});

async function fixture(overrides: Record<string, unknown> = {}) {
  const project = await createTeamProject(team, overrides);
  const mr = await createMergeRequest(team.maintainer.api, project.id);
  return { project, mr };
}

describe("POST .../approval_rules", () => {
  it("creates a rule that replaces the project's rules in the approval state", async () => {
    const { project, mr } = await fixture();
    await createProjectRule(team.owner.api, project.id, { name: "Project rule", approvals_required: 1, user_ids: [team.guest.id] });
    const before = await approvalState(team.developer.api, project.id, mr.iid);
    expect(before.approval_rules_overwritten).toBe(false);
    expect(before.rules.map((r: any) => r.name)).toEqual(["Project rule"]);
    expect((await team.developer.api.get(rulesPath(project, mr))).body).toEqual([]);

    const res = await team.developer.api.post(rulesPath(project, mr), { name: "MR rule", approvals_required: 2, user_ids: [team.reporter.id, team.developer.id] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "MR rule", rule_type: "regular", approvals_required: 2, report_type: null, section: null, source_rule: null, overridden: false,
      groups: [], contains_hidden_groups: false,
    });
    expect(res.body).not.toHaveProperty("protected_branches");
    expect(idsOf(res.body.users)).toEqual([team.developer.id, team.reporter.id].sort((a, b) => a - b));
    const after = await approvalState(team.developer.api, project.id, mr.iid);
    expect(after.approval_rules_overwritten).toBe(true);
    expect(after.rules.map((r: any) => r.name)).toEqual(["MR rule"]);
    const listed = await team.guest.api.get(rulesPath({ id: project.id }, mr));
    expect(listed.status).toBe(403); // guests do not read private projects' MRs
    expect((await team.reporter.api.get(rulesPath(project, mr))).body).toEqual([res.body]);
  });

  it("copies name, users and groups from approval_project_rule_id with the approvals_required sent", async () => {
    const { project, mr } = await fixture();
    const group = await createGroup(team.owner.api, { visibility: "public" });
    const source = await createProjectRule(team.owner.api, project.id, { name: "Source", approvals_required: 1, user_ids: [team.guest.id], group_ids: [group.id] });
    // python-gitlab puts junk "id" and "merge_request_iid" in the body: the path wins
    const res = await team.developer.api.post(rulesPath(project, mr), {
      id: "project_id", merge_request_iid: "iid", name: "ignored", approvals_required: 3, approval_project_rule_id: source.id,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Source", approvals_required: 3, source_rule: { approvals_required: 1 }, overridden: true });
    expect(idsOf(res.body.users)).toEqual([team.guest.id]);
    expect(res.body.groups.map((g: any) => g.id)).toEqual([group.id]);
    const same = await createMergeRequest(team.maintainer.api, project.id);
    const copy = await createMergeRequestRule(team.developer.api, project.id, same.iid, { name: "x", approvals_required: 1, approval_project_rule_id: source.id, user_ids: [team.reporter.id] });
    expect(copy).toMatchObject({ name: "Source", overridden: true });
    expect(idsOf(copy.users)).toEqual([team.reporter.id]);
    const exact = await createMergeRequest(team.maintainer.api, project.id);
    expect(await createMergeRequestRule(team.developer.api, project.id, exact.iid, { name: "x", approvals_required: 1, approval_project_rule_id: source.id }))
      .toMatchObject({ overridden: false, source_rule: { approvals_required: 1 } });
  });

  it("refuses a project rule of another project", async () => {
    const { project, mr } = await fixture();
    const other = await createTeamProject(team);
    const foreign = await createProjectRule(team.owner.api, other.id, { name: "Foreign", approvals_required: 1, user_ids: [team.guest.id] });
    const res = await team.developer.api.post(rulesPath(project, mr), { name: "x", approvals_required: 1, approval_project_rule_id: foreign.id, user_ids: [team.guest.id] });
    expect([res.status, res.body]).toEqual([400, { message: { approval_project_rule: ["must be for the same project"] } }]);
  });

  it("makes a rule without approvers the MR's any_approver rule", async () => {
    const { project, mr } = await fixture();
    const any = await createMergeRequestRule(team.developer.api, project.id, mr.iid, { name: "Anyone", approvals_required: 2 });
    expect(any).toMatchObject({ rule_type: "any_approver", approvals_required: 2 });
    const again = await team.developer.api.post(rulesPath(project, mr), { name: "Again", approvals_required: 1 });
    expect(again.body).toEqual({ message: { rule_type: ["any-approver for the merge request already exists"] } });
    const state = await approvalState(team.developer.api, project.id, mr.iid);
    expect(state.rules).toMatchObject([{ id: any.id, name: "All Members", rule_type: "any_approver", approvals_required: 2, approved: false }]);
  });

  it("validates the name (1024 characters) and approvals_required", async () => {
    const { project, mr } = await fixture();
    const long = await team.developer.api.post(rulesPath(project, mr), { name: "z".repeat(1025), approvals_required: 1, user_ids: [team.guest.id] });
    expect(long.body).toEqual({ message: { name: ["is too long (maximum is 1024 characters)"] } });
    const many = await team.developer.api.post(rulesPath(project, mr), { name: "Many", approvals_required: 101, user_ids: [team.guest.id] });
    expect(many.body).toEqual({ message: { approvals_required: ["must be less than or equal to 100"] } });
    expect((await team.developer.api.post(rulesPath(project, mr), { approvals_required: 1 })).body).toEqual({ error: "name is missing" });
    const ok = await createMergeRequestRule(team.developer.api, project.id, mr.iid, { name: "z".repeat(1024), approvals_required: 1, user_ids: [team.guest.id] });
    expect(ok.name).toHaveLength(1024);
  });

  it("is for those who may update the MR, and refused when overriding is disabled", async () => {
    const { project, mr } = await fixture({ visibility: "public" });
    const body = { name: "Rule", approvals_required: 1, user_ids: [team.guest.id] };
    expect((await t.anon.post(rulesPath(project, mr), body)).status).toBe(401);
    for (const user of [team.reporter, team.guest, team.nonMember]) expect((await user.api.post(rulesPath(project, mr), body)).status).toBe(403);
    const privateFixture = await fixture();
    expect((await team.nonMember.api.post(rulesPath(privateFixture.project, privateFixture.mr), body)).status).toBe(404);
    expect((await team.developer.api.post(`${mrPath(project.id, 99999)}/approval_rules`, body)).body).toEqual({ message: "404 Not found" });
    expect((await t.root.post(rulesPath(project, mr), { ...body, name: "Admin" })).status).toBe(201);
    const created = await createMergeRequestRule(team.developer.api, project.id, mr.iid, body);

    await setApprovalSettings(team.owner.api, project.id, { disable_overriding_approvers_per_merge_request: true });
    for (const api of [team.developer.api, team.owner.api]) {
      expect((await api.post(rulesPath(project, mr), { ...body, name: "Other" })).body).toEqual({ message: "403 Forbidden" });
      expect((await api.put(`${rulesPath(project, mr)}/${created.id}`, { approvals_required: 2 })).status).toBe(403);
      expect((await api.delete(`${rulesPath(project, mr)}/${created.id}`)).status).toBe(403);
    }
    // the MR's own rules no longer count
    expect((await approvalState(team.developer.api, project.id, mr.iid)).approval_rules_overwritten).toBe(false);
  });
});

describe("GET .../approval_rules/:approval_rule_id", () => {
  it("shows one rule; an unknown id answers 404 Not found", async () => {
    const { project, mr } = await fixture();
    const rule = await createMergeRequestRule(team.developer.api, project.id, mr.iid, { name: "One", approvals_required: 1, user_ids: [team.guest.id] });
    expect((await team.reporter.api.get(`${rulesPath(project, mr)}/${rule.id}`)).body).toEqual(rule);
    expect((await team.reporter.api.get(`${rulesPath(project, mr)}/99999`)).body).toEqual({ message: "404 Not found" });
    expect((await t.anon.get(`${rulesPath(project, mr)}/${rule.id}`)).status).toBe(401);
  });
});

describe("PUT and DELETE .../approval_rules/:approval_rule_id", () => {
  it("updates only what is sent, replacing users; deletes with 204", async () => {
    const { project, mr } = await fixture();
    const rule = await createMergeRequestRule(team.developer.api, project.id, mr.iid, { name: "Edit", approvals_required: 1, user_ids: [team.guest.id] });
    const res = await team.developer.api.put(`${rulesPath(project, mr)}/${rule.id}`, { approvals_required: 2, usernames: [team.reporter.username] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: rule.id, name: "Edit", approvals_required: 2 });
    expect(idsOf(res.body.users)).toEqual([team.reporter.id]);
    expect((await team.developer.api.put(`${rulesPath(project, mr)}/${rule.id}`, { name: "" })).body).toEqual({ message: { name: ["can't be blank"] } });
    expect((await team.reporter.api.put(`${rulesPath(project, mr)}/${rule.id}`, { approvals_required: 3 })).status).toBe(403);
    expect((await team.developer.api.delete(`${rulesPath(project, mr)}/${rule.id}`)).status).toBe(204);
    expect((await team.developer.api.get(`${rulesPath(project, mr)}/${rule.id}`)).status).toBe(404);
    expect((await approvalState(team.developer.api, project.id, mr.iid)).approval_rules_overwritten).toBe(false);
  });

  it("cannot change or delete report_approver and code_owner rules (403 Prohibited)", async () => {
    const project = await createTeamProject(team);
    await createProjectRule(team.owner.api, project.id, {
      name: "Coverage-Check", approvals_required: 1, rule_type: "report_approver", report_type: "code_coverage", user_ids: [team.guest.id],
    });
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    const [report] = (await team.developer.api.get(rulesPath(project, mr))).body;
    expect(report).toMatchObject({ name: "Coverage-Check", rule_type: "report_approver", report_type: "code_coverage", approvals_required: 1 });
    const codeOwner = await t.services.db.approvalRule.create({
      data: { kind: "merge_request", containerId: mr.id, projectId: project.id, name: "*.md", ruleType: "code_owner", approvalsRequired: 1 },
    });
    for (const id of [report.id, codeOwner.id]) {
      const put = await team.owner.api.put(`${rulesPath(project, mr)}/${id}`, { approvals_required: 0 });
      expect([put.status, put.body]).toEqual([403, { message: ["Prohibited"] }]);
      const del = await team.owner.api.delete(`${rulesPath(project, mr)}/${id}`);
      expect([del.status, del.body]).toEqual([403, { message: ["Prohibited"] }]);
    }
    const state = await approvalState(team.developer.api, project.id, mr.iid);
    expect(state.rules.map((r: any) => [r.name, r.rule_type, r.code_owner])).toEqual([
      ["*.md", "code_owner", true], ["Coverage-Check", "report_approver", false],
    ]);
  });

  it("refuses changes on a merged MR", async () => {
    const { project, mr } = await fixture();
    await t.services.db.mergeRequest.update({ where: { id: mr.id }, data: { state: "merged" } });
    const res = await team.developer.api.post(rulesPath(project, mr), { name: "Late", approvals_required: 1, user_ids: [team.guest.id] });
    expect([res.status, res.body]).toEqual([400, { message: { merge_request: ["must not be merged"] } }]);
  });
});
