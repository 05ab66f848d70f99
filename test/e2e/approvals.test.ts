// Merge request approvals against the real server process, driven by @gitbeaker/rest 43.8:
// MergeRequestApprovals.editConfiguration / showConfiguration (project and MR), createApprovalRule /
// allApprovalRules / showApprovalRule / editApprovalRule / removeApprovalRule (project and MR
// level), approve (sha, approvalPassword), unapprove, showApprovalState; raw requester calls for
// what gitbeaker lacks (group rules, one MR rule, reset_approvals); the errors it surfaces.
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { failure } from "./helpers/gitbeaker.js";
import { restClient } from "./helpers/rest.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });
const branchName = (prefix: string) => uniqueName(prefix).replace(/_/g, "-");

async function setup() {
  const root = gitlab();
  const [owner, dev, reviewer] = await Promise.all([createUser(suite.server), createUser(suite.server), createUser(suite.server)]);
  const project = await gitlab(owner.token).Projects.create({ name: uniqueName("gbap"), visibility: "private", initializeWithReadme: true });
  await root.ProjectMembers.add(project.id, 30, { userId: dev.id });
  await root.ProjectMembers.add(project.id, 30, { userId: reviewer.id });
  const source = branchName("feature");
  await gitlab(dev.token).Branches.create(project.id, source, "main");
  const mr = await gitlab(dev.token).MergeRequests.create(project.id, source, "main", "Needs approval");
  return { owner, dev, reviewer, project, mr, source };
}

describe("gitbeaker MergeRequestApprovals", () => {
  it("project configuration and rules: edit, show, create, all, show one, edit, remove", async () => {
    const { owner, dev, reviewer, project } = await setup();
    const api = gitlab(owner.token);
    const config = await api.MergeRequestApprovals.editConfiguration(project.id, { resetApprovalsOnPush: false, mergeRequestsAuthorApproval: true });
    expect(config).toMatchObject({ reset_approvals_on_push: false, merge_requests_author_approval: true, approvers: [], approver_groups: [], approvals_before_merge: 0 });
    expect(await api.MergeRequestApprovals.showConfiguration(project.id)).toEqual(config);

    const rule = await api.MergeRequestApprovals.createApprovalRule(project.id, "Reviewers", 1, { userIds: [reviewer.id, dev.id], usernames: [owner.username] });
    expect(rule).toMatchObject({ name: "Reviewers", approvals_required: 1, rule_type: "regular", applies_to_all_protected_branches: false });
    expect((rule.users as any[]).map((u) => u.id).sort()).toEqual([owner.id, dev.id, reviewer.id].sort());
    expect((await api.MergeRequestApprovals.allApprovalRules(project.id)).map((r) => r.id)).toEqual([rule.id]);
    expect(await api.MergeRequestApprovals.showApprovalRule(project.id, rule.id as number)).toEqual(rule);
    const edited = await api.MergeRequestApprovals.editApprovalRule(project.id, rule.id as number, "Reviewers!", 2, { userIds: [reviewer.id] });
    expect(edited).toMatchObject({ name: "Reviewers!", approvals_required: 2, users: [{ id: reviewer.id }] });
    await api.MergeRequestApprovals.removeApprovalRule(project.id, rule.id as number);
    expect(await api.MergeRequestApprovals.allApprovalRules(project.id)).toEqual([]);

    expect(await failure(gitlab(dev.token).MergeRequestApprovals.createApprovalRule(project.id, "Nope", 1))).toEqual({ status: 403, message: "403 Forbidden" });
    expect(await failure(api.MergeRequestApprovals.createApprovalRule(project.id, "x".repeat(1025), 1))).toEqual({
      status: 400, message: JSON.stringify({ name: ["is too long (maximum is 1024 characters)"] }),
    });
    expect(await failure(api.MergeRequestApprovals.editConfiguration(project.id, { selectiveCodeOwnerRemovals: true, resetApprovalsOnPush: true }))).toEqual({
      status: 400, message: JSON.stringify({ base: ["selective_code_owner_removals can only be enabled when reset_approvals_on_push is disabled"] }),
    });
  });

  it("merge request rules, approve, unapprove, approval state and reset", async () => {
    const { owner, dev, reviewer, project, mr } = await setup();
    const ownerApi = gitlab(owner.token);
    const projectRule = await ownerApi.MergeRequestApprovals.createApprovalRule(project.id, "Project", 1, { userIds: [reviewer.id] });
    const mrRule = await gitlab(dev.token).MergeRequestApprovals.createApprovalRule(project.id, "ignored", 2, {
      mergerequestIId: mr.iid, approvalProjectRuleId: projectRule.id,
    } as { mergerequestIId: number });
    expect(mrRule).toMatchObject({ name: "Project", approvals_required: 2, source_rule: { approvals_required: 1 }, overridden: true, users: [{ id: reviewer.id }] });
    expect((await ownerApi.MergeRequestApprovals.allApprovalRules(project.id, { mergerequestIId: mr.iid })).map((r) => r.id)).toEqual([mrRule.id]);
    const one = await ownerApi.requester.get(`projects/${project.id}/merge_requests/${mr.iid}/approval_rules/${mrRule.id}`);
    expect((one as any).body).toMatchObject({ id: mrRule.id });
    const edited = await gitlab(dev.token).MergeRequestApprovals.editApprovalRule(project.id, mrRule.id as number, "Project", 1, { mergerequestIId: mr.iid, userIds: [reviewer.id, owner.id] });
    expect(edited).toMatchObject({ approvals_required: 1 });

    const reviewerApi = gitlab(reviewer.token);
    const head = (await reviewerApi.MergeRequests.show(project.id, mr.iid)).sha as string;
    expect(await failure(reviewerApi.MergeRequestApprovals.approve(project.id, mr.iid, { sha: "f".repeat(40) }))).toEqual({
      status: 409, message: `SHA does not match HEAD of source branch: ${head}`,
    });
    const approved = await reviewerApi.MergeRequestApprovals.approve(project.id, mr.iid, { sha: head });
    expect(approved).toMatchObject({ iid: mr.iid, project_id: project.id, approved: true, approvals_left: 0, user_has_approved: true });
    expect(await failure(reviewerApi.MergeRequestApprovals.approve(project.id, mr.iid))).toEqual({ status: 401, message: "401 Unauthorized" });
    const status = await ownerApi.MergeRequestApprovals.showConfiguration(project.id, { mergerequestIId: mr.iid });
    expect((status.approved_by as any[]).map((a) => a.user.id)).toEqual([reviewer.id]);

    const state = await ownerApi.MergeRequestApprovals.showApprovalState(project.id, mr.iid);
    expect(state).toMatchObject({ approval_rules_overwritten: true, rules: [{ id: mrRule.id, approved: true, approved_by: [{ id: reviewer.id }] }] });

    const unapproved = await reviewerApi.MergeRequestApprovals.unapprove(project.id, mr.iid);
    expect(unapproved).toMatchObject({ approved: false, approved_by: [] });
    expect(await failure(reviewerApi.MergeRequestApprovals.unapprove(project.id, mr.iid))).toEqual({ status: 404, message: "404 Not Found" });

    await reviewerApi.MergeRequestApprovals.approve(project.id, mr.iid);
    expect(await failure(ownerApi.requester.put(`projects/${project.id}/merge_requests/${mr.iid}/reset_approvals`, { body: {} }))).toEqual({ status: 401, message: "401 Unauthorized" });
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const token = await ownerApi.ProjectAccessTokens.create(project.id, "bot", ["api"] as any, expiresAt, { accessLevel: 30 } as any);
    const reset = await gitlab(token.token as string).requester.put(`projects/${project.id}/merge_requests/${mr.iid}/reset_approvals`, { body: {} });
    expect([(reset as any).status, (reset as any).body]).toEqual([202, 202]);
    expect((await ownerApi.MergeRequestApprovals.showConfiguration(project.id, { mergerequestIId: mr.iid })).approved_by).toEqual([]);

    await gitlab(dev.token).MergeRequestApprovals.removeApprovalRule(project.id, mrRule.id as number, { mergerequestIId: mr.iid });
    expect((await ownerApi.MergeRequestApprovals.showApprovalState(project.id, mr.iid)).approval_rules_overwritten).toBe(false);
  });

  it("password re-authentication and group rules (raw calls)", async () => {
    const { owner, reviewer, project, mr } = await setup();
    await gitlab(owner.token).MergeRequestApprovals.editConfiguration(project.id, { requireReauthenticationToApprove: true } as Record<string, unknown>);
    const reviewerApi = gitlab(reviewer.token);
    expect(await failure(reviewerApi.MergeRequestApprovals.approve(project.id, mr.iid, { approvalPassword: "nope" }))).toEqual({ status: 401, message: "401 Unauthorized" });
    expect(await reviewerApi.MergeRequestApprovals.approve(project.id, mr.iid, { approvalPassword: "password-123456" })).toMatchObject({ user_has_approved: true });

    const root = gitlab();
    const group = await gitlab(owner.token).Groups.create(uniqueName("gbag"), branchName("gbag").toLowerCase());
    expect(await failure(gitlab(owner.token).requester.get(`groups/${group.id}/approval_rules`))).toEqual({ status: 404, message: "404 Not Found" });
    await restClient(suite.server).post("/features/approval_group_rules", { value: true });
    try {
      const created = await gitlab(owner.token).requester.post(`groups/${group.id}/approval_rules`, { body: { name: "G", approvals_required: 1 } });
      expect((created as any).body).toMatchObject({ name: "G", rule_type: "any_approver", applies_to_all_protected_branches: true });
      const listed = (await root.requester.get(`groups/${group.id}/approval_rules`)) as any;
      expect(listed.body.map((r: any) => r.name)).toEqual(["G"]);
    } finally {
      await restClient(suite.server).post("/features/approval_group_rules", { value: false });
    }
  });
});
