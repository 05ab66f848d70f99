// Approving, unapproving and resetting a merge request's approvals: every actor on public and
// private projects, the approval status entity, GitLab's answers for approving twice, the author
// and committers, a stale sha (409), password re-authentication, unapproving without an approval
// (404), reset_approvals for project access token bots only (401 for everyone else, 202 with a
// JSON body), members of approver groups, and the "approval" domain events.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { subscribe, type ApprovalEvent } from "../../src/domain/shared/events.js";
import { approvalStatus, approve, createProjectRule, idsOf, mrPath, projectBot, setApprovalSettings } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createUser } from "../helpers/factories.js";
import { commitTo, createMergeRequest } from "../helpers/merge-requests.js";
import { protectBranch } from "../helpers/repository.js";
import { createTeamProject, createTeamWithProjects, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let privateProject: any;
let publicProject: any;

const events: ApprovalEvent[] = [];
subscribe("approval", async (_tx, event) => {
  events.push(event);
});

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  ({ privateProject, publicProject } = team);
});

beforeEach(() => {
  events.length = 0;
});

/** An MR opened by the maintainer (so the developer is not its author). */
const openMergeRequest = (project: any, overrides: Record<string, unknown> = {}) => createMergeRequest(team.maintainer.api, project.id, overrides);

describe("GET .../approvals", () => {
  it("shows the approval status of an MR without rules", async () => {
    const mr = await openMergeRequest(privateProject, { description: "About it" });
    const res = await team.developer.api.get(`${mrPath(privateProject.id, mr.iid)}/approvals`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: mr.id, iid: mr.iid, project_id: privateProject.id, title: mr.title, description: "About it", state: "opened",
      created_at: mr.created_at, updated_at: mr.updated_at, merge_status: "can_be_merged",
      approved: true, approvals_required: 0, approvals_left: 0, require_password_to_approve: false,
      approved_by: [], suggested_approvers: [], approvers: [], approver_groups: [],
      user_has_approved: false, user_can_approve: true, approval_rules_left: [], has_approval_rules: false,
      merge_request_approvers_available: true, multiple_approval_rules_available: true, invalid_approvers_rules: [],
    });
  });

  it("needs a token (401), hides private projects (404) and unknown MRs (404 Not found)", async () => {
    const mr = await openMergeRequest(publicProject);
    expect((await t.anon.get(`${mrPath(publicProject.id, mr.iid)}/approvals`)).status).toBe(401);
    expect((await team.nonMember.api.get(`${mrPath(publicProject.id, mr.iid)}/approvals`)).body).toMatchObject({ user_can_approve: false });
    const hidden = await openMergeRequest(privateProject);
    expect((await team.nonMember.api.get(`${mrPath(privateProject.id, hidden.iid)}/approvals`)).body).toEqual({ message: "404 Project Not Found" });
    expect((await team.developer.api.get(`${mrPath(privateProject.id, 99999)}/approvals`)).body).toEqual({ message: "404 Not found" });
    // guests do not read the merge requests of private projects
    expect((await team.guest.api.get(`${mrPath(privateProject.id, hidden.iid)}/approvals`)).body).toEqual({ message: "403 Forbidden" });
    expect((await team.guest.api.get(`${mrPath(publicProject.id, mr.iid)}/approvals`)).body).toMatchObject({ user_can_approve: false });
  });
});

describe("POST .../approve", () => {
  it("records the approval (201) and answers with the approval status", async () => {
    const mr = await openMergeRequest(privateProject);
    const res = await team.developer.api.post(`${mrPath(privateProject.id, mr.iid)}/approve`, {});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: mr.id, iid: mr.iid, project_id: privateProject.id, approved: true, user_has_approved: true, user_can_approve: false });
    expect(idsOf(res.body.approved_by)).toEqual([team.developer.id]);
    expect(res.body.approved_by[0]).toEqual({ user: expect.objectContaining({ id: team.developer.id, username: team.developer.username }), approved_at: expect.any(String) });
    expect(events).toEqual([{ action: "approved", projectId: privateProject.id, mergeRequestId: mr.id, actorId: team.developer.id, userIds: [team.developer.id], cause: "api" }]);
    const status = await approvalStatus(team.maintainer.api, privateProject.id, mr.iid);
    expect(idsOf(status.approved_by)).toEqual([team.developer.id]);
    expect(status).toMatchObject({ user_has_approved: false });
  });

  it("answers 401 to a second approval by the same user", async () => {
    const mr = await openMergeRequest(privateProject);
    await approve(team.developer.api, privateProject.id, mr.iid);
    const again = await team.developer.api.post(`${mrPath(privateProject.id, mr.iid)}/approve`, {});
    expect([again.status, again.body]).toEqual([401, { message: "401 Unauthorized" }]);
  });

  it("lets the author approve only when merge_requests_author_approval is on", async () => {
    const project = await createTeamProject(team);
    const mr = await openMergeRequest(project);
    const refused = await team.maintainer.api.post(`${mrPath(project.id, mr.iid)}/approve`, {});
    expect(refused.status).toBe(401);
    expect((await approvalStatus(team.maintainer.api, project.id, mr.iid)).user_can_approve).toBe(false);
    await setApprovalSettings(team.owner.api, project.id, { merge_requests_author_approval: true });
    expect((await approvalStatus(team.maintainer.api, project.id, mr.iid)).user_can_approve).toBe(true);
    await approve(team.maintainer.api, project.id, mr.iid);
  });

  it("refuses committers when merge_requests_disable_committers_approval is on", async () => {
    const project = await createTeamProject(team);
    const mr = await openMergeRequest(project);
    await commitTo(team.developer.api, project.id, mr.source_branch);
    await setApprovalSettings(team.owner.api, project.id, { merge_requests_disable_committers_approval: true, reset_approvals_on_push: false });
    expect((await team.developer.api.post(`${mrPath(project.id, mr.iid)}/approve`, {})).status).toBe(401);
    expect((await team.reporter.api.post(`${mrPath(project.id, mr.iid)}/approve`, {})).status).toBe(403);
    await approve(team.owner.api, project.id, mr.iid);
    await setApprovalSettings(team.owner.api, project.id, { merge_requests_disable_committers_approval: false });
    await approve(team.developer.api, project.id, mr.iid);
  });

  it("checks sha against the head of the source branch (409, nothing recorded)", async () => {
    const mr = await openMergeRequest(privateProject);
    const head = (await team.developer.api.get(mrPath(privateProject.id, mr.iid))).body.sha;
    const stale = await team.developer.api.post(`${mrPath(privateProject.id, mr.iid)}/approve`, { sha: "0".repeat(40) });
    expect([stale.status, stale.body]).toEqual([409, { message: `SHA does not match HEAD of source branch: ${head}` }]);
    expect((await approvalStatus(team.developer.api, privateProject.id, mr.iid)).approved_by).toEqual([]);
    expect(events).toEqual([]);
    await approve(team.developer.api, privateProject.id, mr.iid, { sha: head });
  });

  it("asks for the account password when re-authentication is required", async () => {
    const project = await createTeamProject(team);
    await setApprovalSettings(team.owner.api, project.id, { require_reauthentication_to_approve: true });
    const mr = await openMergeRequest(project);
    expect((await approvalStatus(team.developer.api, project.id, mr.iid)).require_password_to_approve).toBe(true);
    const path = `${mrPath(project.id, mr.iid)}/approve`;
    expect((await team.developer.api.post(path, {})).status).toBe(401);
    expect((await team.developer.api.post(path, { approval_password: "wrong-password" })).status).toBe(401);
    const ok = await team.developer.api.post(path, { approval_password: "password-123456" });
    expect(ok.status).toBe(201);
  });

  it("is for members who may update the MR: 401, 403, 404 otherwise", async () => {
    const mr = await openMergeRequest(publicProject);
    const path = `${mrPath(publicProject.id, mr.iid)}/approve`;
    expect((await t.anon.post(path, {})).status).toBe(401);
    for (const user of [team.reporter, team.guest, team.nonMember]) {
      const res = await user.api.post(path, {});
      expect([res.status, res.body]).toEqual([403, { message: "403 Forbidden" }]);
    }
    // an administrator who is not a member of the project is not a project member (GitLab's can_approve?)
    expect((await t.root.post(path, {})).status).toBe(403);
    const hidden = await openMergeRequest(privateProject);
    expect((await team.nonMember.api.post(`${mrPath(privateProject.id, hidden.iid)}/approve`, {})).status).toBe(404);
    for (const api of [team.developer.api, team.maintainer.api, team.owner.api]) {
      const target = await createMergeRequest(team.owner.api, publicProject.id); // authored by the owner
      if (api === team.owner.api) await setApprovalSettings(team.owner.api, publicProject.id, { merge_requests_author_approval: true });
      expect((await api.post(`${mrPath(publicProject.id, target.iid)}/approve`, {})).status).toBe(201);
    }
  });

  it("lets members of an approver group of a rule on the target's protected branch approve", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const main = await protectBranch(team.owner.api, project.id, "main");
    const group = await createGroup(team.owner.api, { visibility: "public" });
    const outsider = await createUser(t);
    await addMember(team.owner.api, "groups", group.id, outsider.id, 15);
    const mr = await openMergeRequest(project);
    expect((await outsider.api.post(`${mrPath(project.id, mr.iid)}/approve`, {})).status).toBe(403);
    await createProjectRule(team.owner.api, project.id, { name: "Group", approvals_required: 1, group_ids: [group.id], protected_branch_ids: [main.id] });
    const res = await outsider.api.post(`${mrPath(project.id, mr.iid)}/approve`, {});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ approved: true, approvals_left: 0 });
  });
});

describe("POST .../unapprove", () => {
  it("removes the caller's approval (201); without one it answers 404", async () => {
    const project = await createTeamProject(team);
    await createProjectRule(team.owner.api, project.id, { name: "Two", approvals_required: 2 });
    const mr = await openMergeRequest(project);
    const path = `${mrPath(project.id, mr.iid)}/unapprove`;
    const none = await team.developer.api.post(path, {});
    expect([none.status, none.body]).toEqual([404, { message: "404 Not Found" }]);
    await approve(team.developer.api, project.id, mr.iid);
    await approve(team.owner.api, project.id, mr.iid);
    events.length = 0;
    const res = await team.developer.api.post(path, {});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: mr.id, iid: mr.iid, user_has_approved: false });
    expect(idsOf(res.body.approved_by)).toEqual([team.owner.id]);
    expect(events.map((e) => [e.action, e.userIds])).toEqual([["unapproved", [team.developer.id]]]);
    expect((await team.developer.api.post(path, {})).status).toBe(404);
  });

  it("refuses those who may not approve", async () => {
    const mr = await openMergeRequest(publicProject);
    const path = `${mrPath(publicProject.id, mr.iid)}/unapprove`;
    expect((await t.anon.post(path, {})).status).toBe(401);
    expect((await team.guest.api.post(path, {})).status).toBe(403);
    expect((await team.nonMember.api.post(path, {})).status).toBe(403);
  });
});

describe("PUT .../reset_approvals", () => {
  it("clears every approval for a project bot (202 with a JSON body)", async () => {
    const project = await createTeamProject(team);
    const bot = await projectBot(t, team.owner.api, project.id);
    const mr = await openMergeRequest(project);
    await approve(team.developer.api, project.id, mr.iid);
    await approve(team.owner.api, project.id, mr.iid);
    events.length = 0;
    const res = await bot.api.put(`${mrPath(project.id, mr.iid)}/reset_approvals`);
    expect(res.status).toBe(202);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toBe(202);
    expect((await approvalStatus(team.owner.api, project.id, mr.iid)).approved_by).toEqual([]);
    expect(events).toEqual([{
      action: "reset", projectId: project.id, mergeRequestId: mr.id, actorId: bot.id, userIds: [team.developer.id, team.owner.id], cause: "api",
    }]);
  });

  it("answers 401 to humans (owners and administrators too) and to bots of other projects", async () => {
    const mr = await openMergeRequest(publicProject);
    await approve(team.developer.api, publicProject.id, mr.iid);
    const path = `${mrPath(publicProject.id, mr.iid)}/reset_approvals`;
    for (const api of [t.anon, team.owner.api, team.maintainer.api, team.developer.api, t.root]) {
      const res = await api.put(path);
      expect([res.status, res.body]).toEqual([401, { message: "401 Unauthorized" }]);
    }
    const otherProject = await createTeamProject(team);
    const stranger = await projectBot(t, team.owner.api, otherProject.id);
    expect((await stranger.api.put(path)).status).toBe(401);
    const guestBot = await projectBot(t, team.owner.api, publicProject.id, 10);
    expect((await guestBot.api.put(path)).status).toBe(401);
    expect(idsOf((await approvalStatus(team.owner.api, publicProject.id, mr.iid)).approved_by)).toEqual([team.developer.id]);
  });
});
