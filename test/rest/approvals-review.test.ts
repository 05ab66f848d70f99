// Review of the approvals area against the spec's entity tables and GitLab EE where the spec is
// silent: the exact key sets and value types of every approval entity (approval rule at project,
// group and merge request level, approval state rule, approval status, approval state, project
// configuration, user and group summaries, protected branches embedded in rules), and behaviour
// found wrong in review: code owner rules without eligible approvers, reset_approvals lookups,
// archived projects, MR rules copied with usernames, deleting a project rule, hidden groups seen
// from outside the project, who reads project rules, and PUT's applies_to_all_protected_branches.
import { beforeAll, describe, expect, it } from "vitest";
import { approvalState, approvalStatus, approve, createMergeRequestRule, createProjectRule, mrPath, projectBot } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createUser, type TestUser } from "../helpers/factories.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { protectBranch } from "../helpers/repository.js";
import { createTeam, createTeamProject, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let extra: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  extra = await createUser(t);
});

const sorted = (value: object) => Object.keys(value).sort();

const RULE_KEYS = ["approvals_required", "contains_hidden_groups", "eligible_approvers", "groups", "id", "name", "report_type", "rule_type", "users"];
const SCOPED_RULE_KEYS = [...RULE_KEYS, "applies_to_all_protected_branches", "protected_branches"].sort();
const MR_RULE_KEYS = [...RULE_KEYS, "overridden", "section", "source_rule"].sort();
const STATE_RULE_KEYS = [...MR_RULE_KEYS, "approved", "approved_by", "code_owner"].sort();
const USER_KEYS = ["avatar_url", "id", "locked", "name", "state", "username", "web_url"];
const SPEC_GROUP_FIELDS = [
  "id", "name", "path", "description", "visibility", "lfs_enabled", "avatar_url", "web_url", "request_access_enabled",
  "full_name", "full_path", "parent_id", "ldap_cn", "ldap_access",
];

/** The spec's user summary: id, name, username, state, avatar_url, web_url (GitLab's UserBasic adds locked). */
function expectUserSummary(user: any, expected: TestUser) {
  expect(sorted(user)).toEqual(USER_KEYS);
  expect(user).toMatchObject({ id: expected.id, username: expected.username, name: `User ${expected.username}`, state: "active", locked: false });
  expect(user.web_url).toBe(`http://forgeline.test/${expected.username}`);
  expect(typeof user.avatar_url === "string" || user.avatar_url === null).toBe(true);
}

/** The spec's group summary fields with their types. */
function expectGroupSummary(group: any, expected: any) {
  for (const field of SPEC_GROUP_FIELDS) expect(group, field).toHaveProperty(field);
  expect(group).toMatchObject({
    id: expected.id, name: expected.name, path: expected.path, full_path: expected.full_path, full_name: expected.name,
    visibility: expected.visibility, parent_id: null, ldap_cn: null, ldap_access: null, lfs_enabled: true,
    request_access_enabled: expect.any(Boolean), web_url: expected.web_url, avatar_url: null, description: expect.any(String),
  });
}

describe("project rule entity", () => {
  it("has exactly the ApprovalRule fields plus protected_branches and applies_to_all_protected_branches", async () => {
    const project = await createTeamProject(team);
    const group = await createGroup(team.owner.api, { visibility: "public" });
    const main = await protectBranch(team.owner.api, project.id, "main", { push_access_level: 40, merge_access_level: 30, code_owner_approval_required: true });
    const rule = await createProjectRule(team.owner.api, project.id, {
      name: "Keys", approvals_required: 2, user_ids: [team.developer.id], group_ids: [group.id], protected_branch_ids: [main.id],
    });
    for (const body of [rule, (await team.developer.api.get(`/projects/${project.id}/approval_rules/${rule.id}`)).body,
      (await team.developer.api.get(`/projects/${project.id}/approval_rules`)).body[0]]) {
      expect(sorted(body)).toEqual(SCOPED_RULE_KEYS);
      expect(body).toMatchObject({
        id: rule.id, name: "Keys", rule_type: "regular", report_type: null, approvals_required: 2, contains_hidden_groups: false, applies_to_all_protected_branches: false,
      });
      expectUserSummary(body.users[0], team.developer);
      expectGroupSummary(body.groups[0], group);
      expect(body.eligible_approvers.map((u: any) => u.id)).toEqual([team.owner.id, team.developer.id].sort((a, b) => a - b));
    }
  });

  it("embeds protected branches as the spec shows them: code_owner_approval_required in string form", async () => {
    const project = await createTeamProject(team);
    const main = await protectBranch(team.owner.api, project.id, "main", { push_access_level: 40, merge_access_level: 30, code_owner_approval_required: true });
    const release = await protectBranch(team.owner.api, project.id, "release/*");
    const rule = await createProjectRule(team.owner.api, project.id, { name: "Branches", approvals_required: 1, user_ids: [team.developer.id], protected_branch_ids: [main.id, release.id] });
    const [first, second] = rule.protected_branches;
    expect(first).toMatchObject({ id: main.id, name: "main", code_owner_approval_required: "true" });
    expect(second).toMatchObject({ id: release.id, name: "release/*", code_owner_approval_required: "false" });
    expect(first.push_access_levels).toMatchObject([{ access_level: 40, access_level_description: "Maintainers" }]);
    expect(first.merge_access_levels).toMatchObject([{ access_level: 30, access_level_description: "Developers + Maintainers" }]);
    expect(first.unprotect_access_levels).toEqual(expect.any(Array));
    const listed = (await team.developer.api.get(`/projects/${project.id}/approval_rules`)).body[0];
    expect(listed.protected_branches.map((b: any) => b.code_owner_approval_required)).toEqual(["true", "false"]);
  });
});

describe("group rule entity", () => {
  it("has the same fields, protected branches with boolean code_owner_approval_required and inherited", async () => {
    expect((await t.root.post("/features/approval_group_rules", { value: true })).status).toBe(201);
    try {
      const group = await createGroup(team.owner.api);
      const project = await createTeamProject(team, { namespace_id: group.id });
      await protectBranch(team.owner.api, project.id, "main", { code_owner_approval_required: true });
      const res = await team.owner.api.post(`/groups/${group.id}/approval_rules`, { name: "G", approvals_required: 1, user_ids: [team.owner.id] });
      expect(res.status).toBe(201);
      expect(sorted(res.body)).toEqual(SCOPED_RULE_KEYS);
      const [branch] = res.body.protected_branches;
      expect(branch).toMatchObject({ name: "main", code_owner_approval_required: true, allow_force_push: false, inherited: false });
      expect(branch.push_access_levels[0]).toMatchObject({ id: expect.any(Number), access_level: 40, user_id: null, group_id: null });
      expectUserSummary(res.body.users[0], team.owner);
    } finally {
      await t.root.post("/features/approval_group_rules", { value: false });
    }
  });
});

describe("merge request rule and approval state entities", () => {
  it("MR rules have the ApprovalRule fields plus section, source_rule and overridden; state rules add code_owner, approved_by, approved", async () => {
    const project = await createTeamProject(team);
    const source = await createProjectRule(team.owner.api, project.id, { name: "Source", approvals_required: 1, user_ids: [team.developer.id] });
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    const rule = await createMergeRequestRule(team.developer.api, project.id, mr.iid, { name: "x", approvals_required: 1, approval_project_rule_id: source.id });
    expect(sorted(rule)).toEqual(MR_RULE_KEYS);
    expect(rule).toMatchObject({ name: "Source", section: null, source_rule: { approvals_required: 1 }, overridden: false, report_type: null });
    expect(sorted(rule.source_rule)).toEqual(["approvals_required"]);
    expect(sorted((await team.developer.api.get(`${mrPath(project.id, mr.iid)}/approval_rules`)).body[0])).toEqual(MR_RULE_KEYS);

    await approve(team.developer.api, project.id, mr.iid);
    const state = await approvalState(team.reporter.api, project.id, mr.iid);
    expect(sorted(state)).toEqual(["approval_rules_overwritten", "rules"]);
    expect(state.approval_rules_overwritten).toBe(true);
    expect(sorted(state.rules[0])).toEqual(STATE_RULE_KEYS);
    expect(state.rules[0]).toMatchObject({ id: rule.id, approved: true, code_owner: false, overridden: false, source_rule: { approvals_required: 1 } });
    expectUserSummary(state.rules[0].approved_by[0], team.developer);
  });

  it("the approval status has the MR fields and the approval fields, with users in approved_by", async () => {
    const project = await createTeamProject(team);
    await createProjectRule(team.owner.api, project.id, { name: "Devs", approvals_required: 1, user_ids: [team.developer.id] });
    const mr = await createMergeRequest(team.maintainer.api, project.id, { description: "Body" });
    await approve(team.developer.api, project.id, mr.iid);
    const status = await approvalStatus(team.reporter.api, project.id, mr.iid);
    expect(sorted(status)).toEqual([
      "approval_rules_left", "approvals_left", "approvals_required", "approved", "approved_by", "approver_groups", "approvers", "created_at",
      "description", "has_approval_rules", "id", "iid", "invalid_approvers_rules", "merge_request_approvers_available", "merge_status",
      "multiple_approval_rules_available", "project_id", "require_password_to_approve", "state", "suggested_approvers", "title",
      "updated_at", "user_can_approve", "user_has_approved",
    ]);
    expect(status).toMatchObject({
      id: mr.id, iid: mr.iid, project_id: project.id, title: mr.title, description: "Body", state: "opened", merge_status: "can_be_merged",
      approvals_required: 1, approvals_left: 0, approved: true,
    });
    expect(status.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(sorted(status.approved_by[0])).toEqual(["approved_at", "user"]);
    expectUserSummary(status.approved_by[0].user, team.developer);
    expectUserSummary(status.approvers[0].user, team.developer);
  });
});

describe("code owner rules", () => {
  it("require nothing when none of their owners may approve, and are listed as invalid on a branch that requires code owners", async () => {
    const project = await createTeamProject(team);
    await protectBranch(team.owner.api, project.id, "main", { code_owner_approval_required: true });
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    // the only owner is the MR's author, who may not approve (author approval is off)
    const rule = await t.services.db.approvalRule.create({
      data: { kind: "merge_request", containerId: mr.id, projectId: project.id, name: "*.md", ruleType: "code_owner", approvalsRequired: 0, users: { create: [{ userId: team.maintainer.id }] } },
    });
    const status = await approvalStatus(team.owner.api, project.id, mr.iid);
    expect(status).toMatchObject({ approvals_required: 0, approvals_left: 0, approved: true, approval_rules_left: [] });
    expect(status.invalid_approvers_rules).toEqual([{ id: rule.id, name: "*.md", rule_type: "code_owner" }]);
    const state = await approvalState(team.owner.api, project.id, mr.iid);
    expect(state.rules).toMatchObject([{ id: rule.id, approvals_required: 0, approved: true, eligible_approvers: [] }]);
  });

  it("need at least one approval when an owner may approve and the branch requires code owners", async () => {
    const project = await createTeamProject(team);
    await protectBranch(team.owner.api, project.id, "main", { code_owner_approval_required: true });
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    await t.services.db.approvalRule.create({
      data: { kind: "merge_request", containerId: mr.id, projectId: project.id, name: "*.md", ruleType: "code_owner", approvalsRequired: 0, users: { create: [{ userId: team.developer.id }] } },
    });
    const status = await approvalStatus(team.owner.api, project.id, mr.iid);
    expect(status).toMatchObject({ approvals_required: 1, approvals_left: 1, approved: false, invalid_approvers_rules: [] });
    await approve(team.developer.api, project.id, mr.iid);
    expect(await approvalStatus(team.owner.api, project.id, mr.iid)).toMatchObject({ approvals_left: 0, approved: true });
  });
});

describe("PUT .../reset_approvals lookups", () => {
  it("answers 404 Not found to a bot that cannot read the MR, like GitLab's MR finder", async () => {
    const project = await createTeamProject(team);
    const guestBot = await projectBot(t, team.owner.api, project.id, 10);
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    const res = await guestBot.api.put(`${mrPath(project.id, mr.iid)}/reset_approvals`);
    expect([res.status, res.body]).toEqual([404, { message: "404 Not found" }]);
  });
});

describe("archived projects", () => {
  it("refuse approving, MR rule changes and configuration changes (403), and reset (401); reading still works", async () => {
    const project = await createTeamProject(team);
    const bot = await projectBot(t, team.owner.api, project.id);
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    const rule = await createMergeRequestRule(team.developer.api, project.id, mr.iid, { name: "Before", approvals_required: 1, user_ids: [team.developer.id] });
    await approve(team.owner.api, project.id, mr.iid);
    const archived = await team.owner.api.put(`/projects/${project.id}`, { archived: true });
    expect([archived.status, archived.body.archived]).toEqual([200, true]);

    const rules = `${mrPath(project.id, mr.iid)}/approval_rules`;
    for (const api of [team.developer.api, team.owner.api]) {
      expect((await api.post(`${mrPath(project.id, mr.iid)}/approve`, {})).body).toEqual({ message: "403 Forbidden" });
      expect((await api.post(rules, { name: "After", approvals_required: 1 })).status).toBe(403);
      expect((await api.put(`${rules}/${rule.id}`, { approvals_required: 2 })).status).toBe(403);
      expect((await api.delete(`${rules}/${rule.id}`)).status).toBe(403);
    }
    expect((await team.owner.api.post(`${mrPath(project.id, mr.iid)}/unapprove`, {})).status).toBe(403);
    expect((await team.owner.api.post(`/projects/${project.id}/approvals`, { reset_approvals_on_push: false })).body).toEqual({ message: "403 Forbidden" });
    expect((await bot.api.put(`${mrPath(project.id, mr.iid)}/reset_approvals`)).status).toBe(401);

    expect((await team.owner.api.get(`/projects/${project.id}/approvals`)).status).toBe(200);
    expect(await approvalStatus(team.developer.api, project.id, mr.iid)).toMatchObject({ user_can_approve: false, approved_by: [{ user: { id: team.owner.id } }] });
    expect((await approvalState(team.developer.api, project.id, mr.iid)).rules.map((r: any) => r.id)).toEqual([rule.id]);
  });
});

describe("MR rule from a project rule", () => {
  it("copies the project rule's groups when only usernames are sent (they replace its users)", async () => {
    const project = await createTeamProject(team);
    await addMember(team.owner.api, "projects", project.id, extra.id, 30);
    const group = await createGroup(team.owner.api, { visibility: "public" });
    const source = await createProjectRule(team.owner.api, project.id, { name: "Source", approvals_required: 1, user_ids: [team.developer.id], group_ids: [group.id] });
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    const rule = await createMergeRequestRule(team.developer.api, project.id, mr.iid, {
      name: "x", approvals_required: 1, approval_project_rule_id: source.id, usernames: [extra.username],
    });
    expect(rule).toMatchObject({ name: "Source", rule_type: "regular", overridden: true });
    expect(rule.users.map((u: any) => u.id)).toEqual([extra.id]);
    expect(rule.groups.map((g: any) => g.id)).toEqual([group.id]);
  });

  it("takes no groups from the project rule when user_ids are sent", async () => {
    const project = await createTeamProject(team);
    const group = await createGroup(team.owner.api, { visibility: "public" });
    const source = await createProjectRule(team.owner.api, project.id, { name: "Source", approvals_required: 1, user_ids: [team.developer.id], group_ids: [group.id] });
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    const rule = await createMergeRequestRule(team.developer.api, project.id, mr.iid, {
      name: "x", approvals_required: 1, approval_project_rule_id: source.id, user_ids: [team.reporter.id],
    });
    expect(rule.users.map((u: any) => u.id)).toEqual([team.reporter.id]);
    expect(rule.groups).toEqual([]);
  });
});

describe("deleting a project rule", () => {
  it("removes the rules of unmerged MRs made from it, and only those", async () => {
    const project = await createTeamProject(team);
    const source = await createProjectRule(team.owner.api, project.id, { name: "Source", approvals_required: 1, user_ids: [team.developer.id] });
    const open = await createMergeRequest(team.maintainer.api, project.id);
    const merged = await createMergeRequest(team.maintainer.api, project.id);
    const derived = await createMergeRequestRule(team.developer.api, project.id, open.iid, { name: "x", approvals_required: 1, approval_project_rule_id: source.id });
    const own = await createMergeRequestRule(team.developer.api, project.id, open.iid, { name: "Own", approvals_required: 1, user_ids: [team.reporter.id] });
    const kept = await createMergeRequestRule(team.developer.api, project.id, merged.iid, { name: "x", approvals_required: 1, approval_project_rule_id: source.id });
    await t.services.db.mergeRequest.update({ where: { id: merged.id }, data: { state: "merged" } });

    expect((await team.owner.api.delete(`/projects/${project.id}/approval_rules/${source.id}`)).status).toBe(204);
    const left = (await team.developer.api.get(`${mrPath(project.id, open.iid)}/approval_rules`)).body;
    expect(left.map((r: any) => r.id)).toEqual([own.id]);
    expect(left.map((r: any) => r.id)).not.toContain(derived.id);
    const onMerged = (await team.developer.api.get(`${mrPath(project.id, merged.iid)}/approval_rules`)).body;
    expect(onMerged).toMatchObject([{ id: kept.id, name: "Source", source_rule: null }]);
  });
});

describe("hidden groups seen by someone outside the project", () => {
  it("hide the rule's eligible approvers from a non-member of a public project", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const secret = await createGroup(team.owner.api); // private: only the owner is in it
    await addMember(team.owner.api, "groups", secret.id, extra.id, 30);
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    await createMergeRequestRule(team.owner.api, project.id, mr.iid, { name: "Secret", approvals_required: 1, group_ids: [secret.id], user_ids: [team.developer.id] });
    const outsider = await team.nonMember.api.get(`${mrPath(project.id, mr.iid)}/approval_rules`);
    expect(outsider.body).toMatchObject([{ name: "Secret", groups: [], contains_hidden_groups: true, eligible_approvers: [] }]);
    expect(outsider.body[0].users.map((u: any) => u.id)).toEqual([team.developer.id]);
    const state = await approvalState(team.nonMember.api, project.id, mr.iid);
    expect(state.rules).toMatchObject([{ name: "Secret", groups: [], contains_hidden_groups: true, eligible_approvers: [] }]);
    // a project member sees the approvers but still not the group
    const member = (await team.reporter.api.get(`${mrPath(project.id, mr.iid)}/approval_rules`)).body[0];
    expect(member).toMatchObject({ groups: [], contains_hidden_groups: true });
    expect(member.eligible_approvers.map((u: any) => u.id)).toEqual([team.owner.id, team.developer.id, extra.id].sort((a, b) => a - b));
    // the owner sees everything
    const owner = (await team.owner.api.get(`${mrPath(project.id, mr.iid)}/approval_rules`)).body[0];
    expect(owner).toMatchObject({ groups: [{ id: secret.id }], contains_hidden_groups: false });
  });
});

describe("reading project rules (admin_project, or create_merge_request_in)", () => {
  it("is refused to Developers where they cannot create merge requests: archived project, merge requests disabled", async () => {
    const archived = await createTeamProject(team);
    await createProjectRule(team.owner.api, archived.id, { name: "R", approvals_required: 1, user_ids: [team.developer.id] });
    await team.owner.api.put(`/projects/${archived.id}`, { archived: true });
    const noMergeRequests = await createTeamProject(team);
    await team.owner.api.put(`/projects/${noMergeRequests.id}`, { merge_requests_access_level: "disabled" });
    for (const project of [archived, noMergeRequests]) {
      const rules = `/projects/${project.id}/approval_rules`;
      expect((await team.developer.api.get(rules)).body).toEqual({ message: "403 Forbidden" });
      for (const api of [team.maintainer.api, team.owner.api, t.root]) expect((await api.get(rules)).status).toBe(200);
    }
    const [rule] = (await team.owner.api.get(`/projects/${archived.id}/approval_rules`)).body;
    expect((await team.developer.api.get(`/projects/${archived.id}/approval_rules/${rule.id}`)).status).toBe(403);
    expect((await team.maintainer.api.get(`/projects/${archived.id}/approval_rules/${rule.id}`)).status).toBe(200);
  });
});

describe("PUT /projects/:id/approval_rules/:approval_rule_id", () => {
  it("takes applies_to_all_protected_branches as false when it is not sent (GitLab's declared default)", async () => {
    const project = await createTeamProject(team);
    const main = await protectBranch(team.owner.api, project.id, "main");
    const rule = await createProjectRule(team.owner.api, project.id, { name: "All", approvals_required: 1, user_ids: [team.developer.id], applies_to_all_protected_branches: true });
    expect(rule.protected_branches.map((b: any) => b.id)).toEqual([main.id]);
    const res = await team.owner.api.put(`/projects/${project.id}/approval_rules/${rule.id}`, { name: "All", approvals_required: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ applies_to_all_protected_branches: false, protected_branches: [], approvals_required: 2 });
    const scoped = await team.owner.api.put(`/projects/${project.id}/approval_rules/${rule.id}`, { name: "All", approvals_required: 2, protected_branch_ids: [main.id] });
    expect(scoped.body).toMatchObject({ applies_to_all_protected_branches: false, protected_branches: [{ id: main.id }] });
    const kept = await team.owner.api.put(`/projects/${project.id}/approval_rules/${rule.id}`, { name: "All", approvals_required: 1 });
    expect(kept.body).toMatchObject({ applies_to_all_protected_branches: false, protected_branches: [{ id: main.id }] });
  });
});
