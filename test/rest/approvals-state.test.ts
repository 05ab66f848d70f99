// The approval state arithmetic (GitLab's ApprovalState and ApprovalWrappedRule): several rules,
// overlapping users, group members, any_approver, zero-approver and unsatisfiable rules, the author
// and committers left out; branch scoping of project rules; resets when the source branch
// advances (reset_approvals_on_push) and selective code owner removals.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { codeOwnerPatternMatches } from "../../src/domain/merge-requests/approvals/code-owners.js";
import { subscribe, type ApprovalEvent } from "../../src/domain/shared/events.js";
import { approvalState, approvalStatus, approve, createProjectRule, idsOf, setApprovalSettings } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createUser, type TestUser } from "../helpers/factories.js";
import { commitTo, createBranch, createMergeRequest } from "../helpers/merge-requests.js";
import { commitFiles, protectBranch } from "../helpers/repository.js";
import { createTeam, createTeamProject, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let extra: TestUser;

const events: ApprovalEvent[] = [];
subscribe("approval", async (_tx, event) => {
  events.push(event);
});

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  extra = await createUser(t);
});

beforeEach(() => {
  events.length = 0;
});

async function projectWithExtra(overrides: Record<string, unknown> = {}) {
  const project = await createTeamProject(team, overrides);
  await addMember(team.owner.api, "projects", project.id, extra.id, 30);
  return project;
}

const ruleByName = (state: any, name: string) => state.rules.find((r: any) => r.name === name);

describe("rule arithmetic", () => {
  it("sums regular rules; an approver in two rules counts in both", async () => {
    const project = await projectWithExtra();
    // developer is in both rules; extra only in the second
    await createProjectRule(team.owner.api, project.id, { name: "A", approvals_required: 1, user_ids: [team.developer.id, team.maintainer.id] });
    await createProjectRule(team.owner.api, project.id, { name: "B", approvals_required: 2, user_ids: [team.developer.id, extra.id, team.owner.id] });
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    let status = await approvalStatus(team.developer.api, project.id, mr.iid);
    expect(status).toMatchObject({ approved: false, approvals_required: 3, approvals_left: 3, has_approval_rules: true, user_can_approve: true });
    expect(status.approval_rules_left.map((r: any) => r.name)).toEqual(["A", "B"]);
    // the maintainer is the author: not eligible in A (author approval is off)
    const state0 = await approvalState(team.developer.api, project.id, mr.iid);
    expect(idsOf(ruleByName(state0, "A").eligible_approvers)).toEqual([team.developer.id]);
    expect(idsOf(status.suggested_approvers)).toEqual([team.owner.id, team.developer.id, extra.id].sort((a, b) => a - b));
    expect(idsOf(status.approvers)).toEqual([team.developer.id, team.maintainer.id].sort((a, b) => a - b));

    await approve(team.developer.api, project.id, mr.iid);
    status = await approvalStatus(team.developer.api, project.id, mr.iid);
    expect(status).toMatchObject({ approved: false, approvals_required: 3, approvals_left: 1, user_has_approved: true, user_can_approve: false });
    expect(status.approval_rules_left.map((r: any) => r.name)).toEqual(["B"]);
    expect(events.map((e) => e.action)).toEqual(["approval"]);

    const state = await approvalState(team.developer.api, project.id, mr.iid);
    expect(state.approval_rules_overwritten).toBe(false);
    expect(ruleByName(state, "A")).toMatchObject({ approved: true, approvals_required: 1, source_rule: null, overridden: false, code_owner: false });
    expect(idsOf(ruleByName(state, "A").approved_by)).toEqual([team.developer.id]);
    expect(ruleByName(state, "B")).toMatchObject({ approved: false });

    await approve(extra.api, project.id, mr.iid);
    status = await approvalStatus(team.developer.api, project.id, mr.iid);
    expect(status).toMatchObject({ approved: true, approvals_left: 0, approval_rules_left: [] });
    expect(events.map((e) => e.action)).toEqual(["approval", "approved"]);
  });

  it("counts members of approver groups", async () => {
    const project = await projectWithExtra();
    const group = await createGroup(team.owner.api, { visibility: "private" });
    await addMember(team.owner.api, "groups", group.id, extra.id, 30);
    await createProjectRule(team.owner.api, project.id, { name: "Group", approvals_required: 1, group_ids: [group.id] });
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    const state = await approvalState(team.owner.api, project.id, mr.iid);
    expect(idsOf(state.rules[0].eligible_approvers)).toEqual([team.owner.id, extra.id].sort((a, b) => a - b));
    await approve(extra.api, project.id, mr.iid);
    expect(await approvalStatus(team.owner.api, project.id, mr.iid)).toMatchObject({ approved: true, approvals_left: 0 });
    // the developer cannot see the private group: it is hidden, and so is nothing else (a project member sees approvers)
    const seen = await approvalState(team.developer.api, project.id, mr.iid);
    expect(seen.rules[0]).toMatchObject({ groups: [], contains_hidden_groups: true });
    expect((await approvalStatus(team.developer.api, project.id, mr.iid)).suggested_approvers).toEqual([]);
  });

  it("takes the larger of the any_approver rule and the other rules", async () => {
    const project = await projectWithExtra();
    await createProjectRule(team.owner.api, project.id, { name: "Any", approvals_required: 2, rule_type: "any_approver" });
    await createProjectRule(team.owner.api, project.id, { name: "Devs", approvals_required: 1, user_ids: [team.developer.id] });
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    let status = await approvalStatus(team.owner.api, project.id, mr.iid);
    expect(status).toMatchObject({ approvals_required: 2, approvals_left: 2, approved: false });
    const state = await approvalState(team.owner.api, project.id, mr.iid);
    expect(state.rules.map((r: any) => [r.name, r.rule_type])).toEqual([["All Members", "any_approver"], ["Devs", "regular"]]);

    await approve(team.developer.api, project.id, mr.iid); // counts for both rules
    status = await approvalStatus(team.owner.api, project.id, mr.iid);
    expect(status).toMatchObject({ approvals_left: 1, approved: false });
    expect(status.approval_rules_left.map((r: any) => [r.name, r.rule_type])).toEqual([["All Members", "any_approver"]]);
    await approve(extra.api, project.id, mr.iid); // anyone counts for the any_approver rule
    status = await approvalStatus(team.owner.api, project.id, mr.iid);
    expect(status).toMatchObject({ approvals_left: 0, approved: true });
  });

  it("treats zero-approver rules as approved and rules short of approvers as unsatisfiable", async () => {
    const project = await projectWithExtra();
    await createProjectRule(team.owner.api, project.id, { name: "Zero", approvals_required: 0, user_ids: [team.developer.id] });
    await createProjectRule(team.owner.api, project.id, { name: "Short", approvals_required: 3, user_ids: [team.developer.id] });
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    const status = await approvalStatus(team.owner.api, project.id, mr.iid);
    expect(status).toMatchObject({ approvals_required: 3, approvals_left: 3, approved: true, approval_rules_left: [] });
    expect(status.invalid_approvers_rules.map((r: any) => r.name)).toEqual(["Short"]);
    const state = await approvalState(team.owner.api, project.id, mr.iid);
    expect(ruleByName(state, "Zero")).toMatchObject({ approved: true, approvals_required: 0 });
    expect(ruleByName(state, "Short")).toMatchObject({ approved: true, approvals_required: 3 });
    await approve(team.developer.api, project.id, mr.iid);
    expect(await approvalStatus(team.owner.api, project.id, mr.iid)).toMatchObject({ approvals_left: 2, approved: true });
  });

  it("counts the author's and committers' approvals only when allowed", async () => {
    const project = await projectWithExtra();
    await setApprovalSettings(team.owner.api, project.id, { merge_requests_author_approval: true, reset_approvals_on_push: false });
    await createProjectRule(team.owner.api, project.id, { name: "People", approvals_required: 2, user_ids: [team.maintainer.id, team.developer.id] });
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    await commitTo(team.developer.api, project.id, mr.source_branch);
    await approve(team.maintainer.api, project.id, mr.iid); // the author
    await approve(team.developer.api, project.id, mr.iid); // a committer
    expect(await approvalStatus(team.owner.api, project.id, mr.iid)).toMatchObject({ approvals_left: 0, approved: true });
    await setApprovalSettings(team.owner.api, project.id, { merge_requests_author_approval: false, merge_requests_disable_committers_approval: true });
    const status = await approvalStatus(team.owner.api, project.id, mr.iid);
    expect(status).toMatchObject({ approvals_left: 2, approved: true }); // nobody eligible is left: unsatisfiable
    expect(idsOf(status.approved_by)).toEqual([team.maintainer.id, team.developer.id]);
    expect((await approvalState(team.owner.api, project.id, mr.iid)).rules[0].eligible_approvers).toEqual([]);
  });
});

describe("branch scoping of project rules", () => {
  it("applies rules scoped to protected branches matching the target, and all-protected rules to protected targets", async () => {
    const project = await projectWithExtra();
    const main = await protectBranch(team.owner.api, project.id, "main");
    const release = await protectBranch(team.owner.api, project.id, "release/*");
    await createBranch(team.owner.api, project.id, "release/1");
    await createBranch(team.owner.api, project.id, "develop");
    await createProjectRule(team.owner.api, project.id, { name: "Main", approvals_required: 1, user_ids: [team.developer.id], protected_branch_ids: [main.id] });
    await createProjectRule(team.owner.api, project.id, { name: "Release", approvals_required: 1, user_ids: [team.developer.id], protected_branch_ids: [release.id] });
    await createProjectRule(team.owner.api, project.id, { name: "Protected", approvals_required: 1, user_ids: [extra.id], applies_to_all_protected_branches: true });
    await createProjectRule(team.owner.api, project.id, { name: "Everywhere", approvals_required: 1, user_ids: [team.owner.id] });
    const names = async (target: string) => {
      const mr = await createMergeRequest(team.maintainer.api, project.id, { target_branch: target });
      return (await approvalState(team.owner.api, project.id, mr.iid)).rules.map((r: any) => r.name);
    };
    expect(await names("main")).toEqual(["Main", "Protected", "Everywhere"]);
    expect(await names("release/1")).toEqual(["Release", "Protected", "Everywhere"]);
    expect(await names("develop")).toEqual(["Everywhere"]);
  });

  it("leaves out all-protected rules while the project protects nothing", async () => {
    const project = await projectWithExtra();
    await createProjectRule(team.owner.api, project.id, { name: "Protected", approvals_required: 1, user_ids: [extra.id], applies_to_all_protected_branches: true });
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    expect((await approvalState(team.owner.api, project.id, mr.iid)).rules).toEqual([]);
  });

  it("follows the project rule's scoping for an MR rule copied from it and left unchanged", async () => {
    const project = await projectWithExtra();
    const release = await protectBranch(team.owner.api, project.id, "release/*");
    const source = await createProjectRule(team.owner.api, project.id, { name: "Release", approvals_required: 1, user_ids: [team.developer.id], protected_branch_ids: [release.id] });
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    const path = `/projects/${project.id}/merge_requests/${mr.iid}/approval_rules`;
    const copy = await team.developer.api.post(path, { name: "Release", approvals_required: 1, approval_project_rule_id: source.id });
    expect(copy.body).toMatchObject({ overridden: false });
    let state = await approvalState(team.owner.api, project.id, mr.iid);
    expect(state).toEqual({ approval_rules_overwritten: false, rules: [] });
    await team.developer.api.put(`${path}/${copy.body.id}`, { approvals_required: 2 });
    state = await approvalState(team.owner.api, project.id, mr.iid);
    expect(state.approval_rules_overwritten).toBe(true);
    expect(state.rules.map((r: any) => [r.name, r.approvals_required, r.overridden, r.source_rule])).toEqual([["Release", 2, true, { approvals_required: 1 }]]);
  });
});

describe("approvals when the source branch advances", () => {
  it("resets every approval with reset_approvals_on_push (the default)", async () => {
    const project = await projectWithExtra();
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    await approve(team.developer.api, project.id, mr.iid);
    await approve(team.owner.api, project.id, mr.iid);
    events.length = 0;
    await commitTo(team.maintainer.api, project.id, mr.source_branch);
    expect((await approvalStatus(team.owner.api, project.id, mr.iid)).approved_by).toEqual([]);
    expect(events).toEqual([{
      action: "reset", projectId: project.id, mergeRequestId: mr.id, actorId: team.maintainer.id, userIds: [team.developer.id, team.owner.id], cause: "push",
    }]);
    // a push to the target branch changes nothing
    await approve(team.developer.api, project.id, mr.iid);
    await commitTo(team.owner.api, project.id, "main");
    expect(idsOf((await approvalStatus(team.owner.api, project.id, mr.iid)).approved_by)).toEqual([team.developer.id]);
  });

  it("keeps approvals when reset_approvals_on_push is off", async () => {
    const project = await projectWithExtra();
    await setApprovalSettings(team.owner.api, project.id, { reset_approvals_on_push: false });
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    await approve(team.developer.api, project.id, mr.iid);
    await commitTo(team.maintainer.api, project.id, mr.source_branch);
    expect(idsOf((await approvalStatus(team.owner.api, project.id, mr.iid)).approved_by)).toEqual([team.developer.id]);
    expect(events.map((e) => e.action)).toEqual(["approved"]);
  });

  it("removes only the approvals of code owners whose files changed (selective_code_owner_removals)", async () => {
    const project = await projectWithExtra();
    await setApprovalSettings(team.owner.api, project.id, { reset_approvals_on_push: false, selective_code_owner_removals: true });
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    const owners = await t.services.db.approvalRule.create({
      data: { kind: "merge_request", containerId: mr.id, projectId: project.id, name: "/docs/", ruleType: "code_owner", approvalsRequired: 1, users: { create: [{ userId: team.developer.id }] } },
    });
    await t.services.db.approvalRule.create({
      data: { kind: "merge_request", containerId: mr.id, projectId: project.id, name: "*.rb", ruleType: "code_owner", approvalsRequired: 1, users: { create: [{ userId: extra.id }] } },
    });
    expect(owners.ruleType).toBe("code_owner");
    await approve(team.developer.api, project.id, mr.iid);
    await approve(extra.api, project.id, mr.iid);
    await approve(team.owner.api, project.id, mr.iid);
    events.length = 0;

    await commitFiles(team.maintainer.api, project.id, mr.source_branch, [{ action: "create", file_path: "src/app.js", content: "x\n" }]);
    expect(idsOf((await approvalStatus(team.owner.api, project.id, mr.iid)).approved_by)).toEqual([team.developer.id, extra.id, team.owner.id]);

    await commitFiles(team.maintainer.api, project.id, mr.source_branch, [{ action: "create", file_path: "docs/guide/intro.md", content: "x\n" }]);
    expect(idsOf((await approvalStatus(team.owner.api, project.id, mr.iid)).approved_by)).toEqual([extra.id, team.owner.id]);
    expect(events).toEqual([{ action: "unapproval", projectId: project.id, mergeRequestId: mr.id, actorId: team.maintainer.id, userIds: [team.developer.id], cause: "push" }]);

    await commitFiles(team.maintainer.api, project.id, mr.source_branch, [{ action: "create", file_path: "lib/deep/thing.rb", content: "x\n" }]);
    expect(idsOf((await approvalStatus(team.owner.api, project.id, mr.iid)).approved_by)).toEqual([team.owner.id]);
  });
});

describe("CODEOWNERS patterns of code owner rules", () => {
  it.each([
    ["/docs/", "docs/a.md", true],
    ["/docs/", "src/docs/a.md", false],
    ["docs/", "src/docs/a.md", true],
    ["docs/", "src/docs", false],
    ["*.md", "README.md", true],
    ["*.md", "deep/in/tree/notes.md", true],
    ["*.md", "README.mdx", false],
    ["/app/*.rb", "app/model.rb", true],
    ["/app/*.rb", "app/models/user.rb", false],
    ["/app/**/*.rb", "app/models/user.rb", true],
    ["lib", "lib/thing.rb", true],
    ["lib", "src/lib/thing.rb", true],
    ["/lib", "src/lib/thing.rb", false],
    ["README?", "READMES", true],
    ["*", "anything/at/all.txt", true],
    ["/", "any.txt", true],
  ])("%s on %s: %s", (pattern, path, expected) => {
    expect(codeOwnerPatternMatches(pattern, path)).toBe(expected);
  });
});

describe("the approval configuration kept between requests", () => {
  it("a group approver whose membership expires stops being eligible then, though nothing was written", async () => {
    const project = await projectWithExtra();
    const group = await createGroup(team.owner.api, { visibility: "public" });
    const member = await createUser(t);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const added = await t.root.post(`/groups/${group.id}/members`, { user_id: member.id, access_level: 30, expires_at: tomorrow });
    expect(added.status, added.text).toBe(201);
    const rule = await createProjectRule(team.owner.api, project.id, { name: "Group", approvals_required: 1, group_ids: [group.id] });
    expect(idsOf(rule.groups)).toEqual([group.id]);
    const mr = await createMergeRequest(team.maintainer.api, project.id);
    const eligible = async () => idsOf(ruleByName(await approvalState(team.developer.api, project.id, mr.iid), "Group").eligible_approvers);
    const members = [team.owner.id, member.id].sort((a, b) => a - b);
    expect(await eligible()).toEqual(members);
    expect(await eligible()).toEqual(members); // answered from the cache
    const clock = t.services.now;
    t.services.now = () => new Date(Date.now() + 3 * 86_400_000);
    try {
      expect(await eligible()).toEqual([team.owner.id]);
    } finally {
      t.services.now = clock;
    }
  });
});
