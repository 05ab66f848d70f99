// Project approval configuration: GET/POST /projects/:id/approvals for every actor on public and
// private projects, every field of GitLab's ApprovalSettings entity (deprecated ones included),
// partial updates, the selective_code_owner_removals / reset_approvals_on_push rule, the newer
// require_reauthentication_to_approve name winning over the deprecated one, and bad input.
import { beforeAll, describe, expect, it } from "vitest";
import { setApprovalSettings } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createTeamProject, createTeamWithProjects, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let privateProject: any;
let publicProject: any;

const DEFAULTS = {
  approvers: [],
  approver_groups: [],
  approvals_before_merge: 0,
  reset_approvals_on_push: true,
  selective_code_owner_removals: false,
  disable_overriding_approvers_per_merge_request: false,
  merge_requests_author_approval: false,
  merge_requests_disable_committers_approval: false,
  require_password_to_approve: false,
  require_reauthentication_to_approve: false,
};

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  ({ privateProject, publicProject } = team);
});

describe("GET /projects/:id/approvals", () => {
  it("shows GitLab's defaults to Maintainers, Owners and administrators", async () => {
    for (const api of [team.maintainer.api, team.owner.api, t.root]) {
      const res = await api.get(`/projects/${privateProject.id}/approvals`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.body).toEqual(DEFAULTS);
    }
  });

  it("answers 401 without a token, 403 below Maintainer, 404 on a private project the caller cannot see", async () => {
    expect((await t.anon.get(`/projects/${publicProject.id}/approvals`)).body).toEqual({ message: "401 Unauthorized" });
    for (const user of [team.developer, team.reporter, team.guest]) {
      const res = await user.api.get(`/projects/${privateProject.id}/approvals`);
      expect([res.status, res.body]).toEqual([403, { message: "403 Forbidden" }]);
    }
    expect((await team.nonMember.api.get(`/projects/${publicProject.id}/approvals`)).status).toBe(403);
    const hidden = await team.nonMember.api.get(`/projects/${privateProject.id}/approvals`);
    expect([hidden.status, hidden.body]).toEqual([404, { message: "404 Project Not Found" }]);
  });

  it("finds the project by its full path", async () => {
    const res = await team.owner.api.get(`/projects/${encodeURIComponent(privateProject.path_with_namespace)}/approvals`);
    expect(res.status).toBe(200);
  });
});

describe("POST /projects/:id/approvals", () => {
  it("changes only the settings sent and answers 201 with the whole configuration", async () => {
    const project = await createTeamProject(team);
    const res = await team.maintainer.api.post(`/projects/${project.id}/approvals`, {
      approvals_before_merge: 2,
      merge_requests_author_approval: true,
      disable_overriding_approvers_per_merge_request: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ...DEFAULTS, approvals_before_merge: 2, merge_requests_author_approval: true, disable_overriding_approvers_per_merge_request: true });
    const next = await setApprovalSettings(team.owner.api, project.id, { merge_requests_disable_committers_approval: true, reset_approvals_on_push: false });
    expect(next).toEqual({
      ...DEFAULTS, approvals_before_merge: 2, merge_requests_author_approval: true, disable_overriding_approvers_per_merge_request: true,
      merge_requests_disable_committers_approval: true, reset_approvals_on_push: false,
    });
    expect((await team.maintainer.api.get(`/projects/${project.id}/approvals`)).body).toEqual(next);
  });

  it("keeps both password names in step; the newer one wins when both are sent", async () => {
    const project = await createTeamProject(team);
    expect(await setApprovalSettings(team.owner.api, project.id, { require_password_to_approve: true })).toMatchObject({
      require_password_to_approve: true, require_reauthentication_to_approve: true,
    });
    expect(await setApprovalSettings(team.owner.api, project.id, { require_password_to_approve: true, require_reauthentication_to_approve: false })).toMatchObject({
      require_password_to_approve: false, require_reauthentication_to_approve: false,
    });
  });

  it("allows selective_code_owner_removals only with reset_approvals_on_push off", async () => {
    const project = await createTeamProject(team);
    const refused = await team.owner.api.post(`/projects/${project.id}/approvals`, { selective_code_owner_removals: true });
    expect([refused.status, refused.body]).toEqual([400, {
      message: { base: ["selective_code_owner_removals can only be enabled when reset_approvals_on_push is disabled"] },
    }]);
    const both = await team.owner.api.post(`/projects/${project.id}/approvals`, { selective_code_owner_removals: true, reset_approvals_on_push: true });
    expect(both.status).toBe(400);
    const ok = await setApprovalSettings(team.owner.api, project.id, { selective_code_owner_removals: true, reset_approvals_on_push: false });
    expect(ok).toMatchObject({ selective_code_owner_removals: true, reset_approvals_on_push: false });
    const back = await team.owner.api.post(`/projects/${project.id}/approvals`, { reset_approvals_on_push: true });
    expect(back.status).toBe(400);
    expect((await team.owner.api.get(`/projects/${project.id}/approvals`)).body).toMatchObject({ reset_approvals_on_push: false });
  });

  it("needs at least one setting, valid booleans and integers", async () => {
    const empty = await team.owner.api.post(`/projects/${privateProject.id}/approvals`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatch(/are missing, at least one parameter must be provided$/);
    const bad = await team.owner.api.post(`/projects/${privateProject.id}/approvals`, { reset_approvals_on_push: "maybe" });
    expect([bad.status, bad.body]).toEqual([400, { error: "reset_approvals_on_push is invalid" }]);
    const notInt = await team.owner.api.post(`/projects/${privateProject.id}/approvals`, { approvals_before_merge: "two" });
    expect([notInt.status, notInt.body]).toEqual([400, { error: "approvals_before_merge is invalid" }]);
  });

  it("refuses anonymous callers (401), Developers and below (403), and hides private projects (404)", async () => {
    const body = { reset_approvals_on_push: false };
    expect((await t.anon.post(`/projects/${publicProject.id}/approvals`, body)).status).toBe(401);
    for (const user of [team.developer, team.reporter, team.guest]) {
      expect((await user.api.post(`/projects/${privateProject.id}/approvals`, body)).status).toBe(403);
    }
    expect((await team.nonMember.api.post(`/projects/${publicProject.id}/approvals`, body)).status).toBe(403);
    expect((await team.nonMember.api.post(`/projects/${privateProject.id}/approvals`, body)).status).toBe(404);
    expect((await team.owner.api.get(`/projects/${privateProject.id}/approvals`)).body).toEqual(DEFAULTS);
  });
});
