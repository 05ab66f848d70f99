// Project approval rules: list/get for Developers and up, create/update/delete for Maintainers and
// up, on public and private projects; approvers narrowed to project members (user_ids and
// usernames merged), groups to those the caller can see, hidden groups kept on update unless
// remove_hidden_groups; protected branch scoping; the any_approver rule; GitLab's validation
// errors (name up to 1024 characters, 0..100 approvals, uniqueness, Coverage-Check); 412.
import { beforeAll, describe, expect, it } from "vitest";
import { createProjectRule, idsOf } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createUser, type TestUser } from "../helpers/factories.js";
import { protectBranch } from "../helpers/repository.js";
import { ACTORS, clientOf, createTeamProject, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let project: any;
let publicProject: any;

const rules = (projectId: number) => `/projects/${projectId}/approval_rules`;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  ({ privateProject: project, publicProject } = team);
});

describe("POST /projects/:id/approval_rules", () => {
  it("creates a regular rule with project members as approvers, users and usernames merged", async () => {
    const res = await team.maintainer.api.post(rules(project.id), {
      name: "Backend", approvals_required: 2, user_ids: [team.developer.id], usernames: [team.reporter.username.toUpperCase()],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number), name: "Backend", rule_type: "regular", report_type: null, approvals_required: 2,
      groups: [], contains_hidden_groups: false, protected_branches: [], applies_to_all_protected_branches: false,
    });
    expect(idsOf(res.body.users)).toEqual([team.developer.id, team.reporter.id].sort((a, b) => a - b));
    expect(idsOf(res.body.eligible_approvers)).toEqual(idsOf(res.body.users));
    expect(Object.keys(res.body.users[0]).sort()).toEqual(["avatar_url", "id", "locked", "name", "state", "username", "web_url"]);
  });

  it("drops users who are not members of the project and groups the caller cannot see", async () => {
    const stranger = await createUser(t);
    const secret = await createGroup(stranger.api); // private, the maintainer is not in it
    const open = await createGroup(team.maintainer.api, { visibility: "public" });
    const res = await team.maintainer.api.post(rules(project.id), {
      name: "Filtered", approvals_required: 1, user_ids: [stranger.id, team.guest.id, 999999], group_ids: [secret.id, open.id],
    });
    expect(res.status).toBe(201);
    expect(idsOf(res.body.users)).toEqual([team.guest.id]);
    expect(res.body.groups.map((g: any) => g.id)).toEqual([open.id]);
    expect(res.body.groups[0]).toMatchObject({ id: open.id, name: open.name, path: open.path, full_path: open.full_path, visibility: "public", parent_id: null });
    // group members are eligible approvers
    expect(idsOf(res.body.eligible_approvers)).toEqual([team.guest.id, team.maintainer.id].sort((a, b) => a - b));
  });

  it("accepts comma-separated ids as GitLab's CommaSeparatedToIntegerArray does", async () => {
    const res = await team.owner.api.post(rules(project.id), { name: "Commas", approvals_required: 1, user_ids: `${team.developer.id},${team.guest.id}` });
    expect(res.status).toBe(201);
    expect(idsOf(res.body.users).sort()).toEqual([team.developer.id, team.guest.id].sort());
  });

  it("makes a rule without approvers the any_approver rule, of which a project has one", async () => {
    const fresh = await createTeamProject(team);
    const any = await createProjectRule(team.owner.api, fresh.id, { name: "Anyone", approvals_required: 2 });
    expect(any).toMatchObject({ rule_type: "any_approver", name: "Anyone", approvals_required: 2, users: [], eligible_approvers: [] });
    const again = await team.owner.api.post(rules(fresh.id), { name: "Another", approvals_required: 1, rule_type: "any_approver" });
    expect([again.status, again.body]).toEqual([400, { message: { rule_type: ["any-approver for the project already exists"] } }]);
    const regular = await createProjectRule(team.owner.api, fresh.id, { name: "Anyone", approvals_required: 1, rule_type: "regular" });
    expect(regular).toMatchObject({ rule_type: "regular", name: "Anyone" }); // names are unique per rule type
  });

  it("validates like GitLab's model: name, length, approvals range, uniqueness", async () => {
    const fresh = await createTeamProject(team);
    await createProjectRule(team.owner.api, fresh.id, { name: "Taken", approvals_required: 1, user_ids: [team.developer.id] });
    const cases: [Record<string, unknown>, unknown][] = [
      [{ name: "", approvals_required: 1, user_ids: [team.developer.id] }, { message: { name: ["can't be blank"] } }],
      [{ name: "x".repeat(1025), approvals_required: 1, user_ids: [team.developer.id] }, { message: { name: ["is too long (maximum is 1024 characters)"] } }],
      [{ name: "Low", approvals_required: -1, user_ids: [team.developer.id] }, { message: { approvals_required: ["must be greater than or equal to 0"] } }],
      [{ name: "High", approvals_required: 101, user_ids: [team.developer.id] }, { message: { approvals_required: ["must be less than or equal to 100"] } }],
      [{ name: "Taken", approvals_required: 1, user_ids: [team.guest.id] }, { message: { name: ["has already been taken"] } }],
      [{ name: "Report", approvals_required: 1, rule_type: "report_approver", user_ids: [team.guest.id] }, { message: { report_type: ["can't be blank"] } }],
      [{ name: "Cov", approvals_required: 1, rule_type: "report_approver", report_type: "code_coverage" }, { message: { report_type: ["code_coverage only supports Coverage-Check name"] } }],
      [{ name: "Coverage-Check", approvals_required: 1, user_ids: [team.guest.id] }, { message: { name: ["Coverage-Check is reserved for code_coverage report type"] } }],
      [{ approvals_required: 1 }, { error: "name is missing" }],
      [{ name: "No count" }, { error: "approvals_required is missing" }],
      [{}, { error: "name is missing, approvals_required is missing" }],
      [{ name: "Type", approvals_required: 1, rule_type: "code_owner" }, { error: "rule_type does not have a valid value" }],
      [{ name: "Ids", approvals_required: 1, user_ids: ["abc"] }, { error: "user_ids is invalid" }],
    ];
    for (const [body, expected] of cases) {
      const res = await team.owner.api.post(rules(fresh.id), body);
      expect([res.status, res.body], JSON.stringify(body).slice(0, 80)).toEqual([400, expected]);
    }
    const exact = await createProjectRule(team.owner.api, fresh.id, { name: "n".repeat(1024), approvals_required: 100, user_ids: [team.guest.id] });
    expect(exact.name).toHaveLength(1024);
    const coverage = await createProjectRule(team.owner.api, fresh.id, { name: "Coverage-Check", approvals_required: 1, rule_type: "report_approver", report_type: "code_coverage", user_ids: [team.guest.id] });
    expect(coverage).toMatchObject({ rule_type: "report_approver", report_type: "code_coverage" });
  });

  it("scopes a rule to protected branches of the project, or to all of them", async () => {
    const fresh = await createTeamProject(team);
    const main = await protectBranch(team.owner.api, fresh.id, "main");
    const release = await protectBranch(team.owner.api, fresh.id, "release/*");
    const other = await protectBranch(team.owner.api, project.id, "stable");
    const scoped = await createProjectRule(team.owner.api, fresh.id, {
      name: "Scoped", approvals_required: 1, user_ids: [team.developer.id], protected_branch_ids: [release.id, other.id],
    });
    expect(scoped.protected_branches.map((b: any) => b.name)).toEqual(["release/*"]);
    expect(Object.keys(scoped.protected_branches[0]).sort()).toEqual([
      "allow_force_push", "code_owner_approval_required", "id", "inherited", "merge_access_levels", "name", "push_access_levels", "unprotect_access_levels",
    ]);
    const all = await createProjectRule(team.owner.api, fresh.id, {
      name: "All", approvals_required: 1, user_ids: [team.developer.id], applies_to_all_protected_branches: true, protected_branch_ids: [release.id],
    });
    expect(all.applies_to_all_protected_branches).toBe(true);
    expect(all.protected_branches.map((b: any) => b.id)).toEqual([main.id, release.id]);
  });

  it("is for Maintainers and up: 401, 403 and 404 otherwise", async () => {
    const body = { name: "Nope", approvals_required: 1 };
    expect((await t.anon.post(rules(publicProject.id), body)).status).toBe(401);
    for (const user of [team.developer, team.reporter, team.guest]) {
      const res = await user.api.post(rules(project.id), body);
      expect([res.status, res.body]).toEqual([403, { message: "403 Forbidden" }]);
    }
    expect((await team.nonMember.api.post(rules(publicProject.id), body)).status).toBe(403);
    expect((await team.nonMember.api.post(rules(project.id), body)).status).toBe(404);
    const admin = await t.root.post(rules(project.id), { name: "By admin", approvals_required: 0, user_ids: [team.guest.id] });
    expect(admin.status).toBe(201);
  });
});

describe("GET /projects/:id/approval_rules", () => {
  it("lists any_approver first, then regular rules by id, then report approver rules, paginated", async () => {
    const fresh = await createTeamProject(team);
    const first = await createProjectRule(team.owner.api, fresh.id, { name: "First", approvals_required: 1, user_ids: [team.developer.id] });
    const report = await createProjectRule(team.owner.api, fresh.id, { name: "License", approvals_required: 1, rule_type: "report_approver", report_type: "license_scanning", user_ids: [team.guest.id] });
    const any = await createProjectRule(team.owner.api, fresh.id, { name: "Any", approvals_required: 1 });
    const second = await createProjectRule(team.owner.api, fresh.id, { name: "Second", approvals_required: 1, user_ids: [team.guest.id] });
    const res = await team.developer.api.get(rules(fresh.id));
    expect(res.status).toBe(200);
    expect(res.body.map((r: any) => r.id)).toEqual([any.id, first.id, second.id, report.id]);
    expect(res.headers.get("x-total")).toBe("4");
    const page = await team.developer.api.get(rules(fresh.id), { query: { per_page: 2, page: 2 } });
    expect(page.body.map((r: any) => r.id)).toEqual([second.id, report.id]);
    expect(page.headers.get("x-page")).toBe("2");
    expect(page.headers.get("link")).toContain('rel="first"');
  });

  it("is for Developers and up", async () => {
    expect((await t.anon.get(rules(publicProject.id))).status).toBe(401);
    for (const user of [team.reporter, team.guest]) expect((await user.api.get(rules(project.id))).status).toBe(403);
    expect((await team.nonMember.api.get(rules(publicProject.id))).status).toBe(403);
    expect((await team.nonMember.api.get(rules(project.id))).status).toBe(404);
    for (const api of [team.developer.api, team.maintainer.api, team.owner.api, t.root]) expect((await api.get(rules(project.id))).status).toBe(200);
  });

  it("gets one rule; an unknown id or another project's rule answers 404 Not found", async () => {
    const rule = await createProjectRule(team.owner.api, project.id, { name: "One", approvals_required: 1, user_ids: [team.developer.id] });
    const res = await team.developer.api.get(`${rules(project.id)}/${rule.id}`);
    expect([res.status, res.body]).toEqual([200, rule]);
    expect((await team.owner.api.get(`${rules(publicProject.id)}/${rule.id}`)).body).toEqual({ message: "404 Not found" });
    expect((await team.owner.api.get(`${rules(project.id)}/999999`)).status).toBe(404);
    expect((await team.reporter.api.get(`${rules(project.id)}/${rule.id}`)).status).toBe(403);
    expect((await team.owner.api.get(`${rules(project.id)}/abc`)).body).toEqual({ error: "approval_rule_id is invalid" });
  });
});

describe("PUT /projects/:id/approval_rules/:approval_rule_id", () => {
  it("replaces users and groups when sent and keeps the rest", async () => {
    const group = await createGroup(team.owner.api, { visibility: "public" });
    const rule = await createProjectRule(team.owner.api, project.id, {
      name: "Replace", approvals_required: 1, user_ids: [team.developer.id, team.guest.id], group_ids: [group.id],
    });
    const res = await team.maintainer.api.put(`${rules(project.id)}/${rule.id}`, { name: "Replaced", approvals_required: 3, user_ids: [team.reporter.id] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: rule.id, name: "Replaced", approvals_required: 3 });
    expect(idsOf(res.body.users)).toEqual([team.reporter.id]);
    expect(res.body.groups.map((g: any) => g.id)).toEqual([group.id]);
    const cleared = await team.maintainer.api.put(`${rules(project.id)}/${rule.id}`, { name: "Replaced", approvals_required: 3, group_ids: [] });
    expect(cleared.body.groups).toEqual([]);
    expect(idsOf(cleared.body.users)).toEqual([team.reporter.id]);
  });

  it("keeps groups hidden from the caller unless remove_hidden_groups is true", async () => {
    const hiddenOwner: TestUser = team.owner;
    const secret = await createGroup(hiddenOwner.api); // private; the maintainer is not a member
    const visible = await createGroup(team.maintainer.api, { visibility: "public" });
    const rule = await createProjectRule(hiddenOwner.api, project.id, { name: "Hidden", approvals_required: 1, group_ids: [secret.id] });
    expect(rule.groups.map((g: any) => g.id)).toEqual([secret.id]);
    const seen = await team.maintainer.api.get(`${rules(project.id)}/${rule.id}`);
    expect(seen.body).toMatchObject({ groups: [], contains_hidden_groups: true });
    expect(idsOf(seen.body.eligible_approvers)).toEqual([hiddenOwner.id]); // a project member sees them

    const kept = await team.maintainer.api.put(`${rules(project.id)}/${rule.id}`, { name: "Hidden", approvals_required: 1, group_ids: [visible.id] });
    expect(kept.body).toMatchObject({ contains_hidden_groups: true });
    expect(kept.body.groups.map((g: any) => g.id)).toEqual([visible.id]);
    const asOwner = await hiddenOwner.api.get(`${rules(project.id)}/${rule.id}`);
    expect(asOwner.body.groups.map((g: any) => g.id).sort()).toEqual([secret.id, visible.id].sort());

    const removed = await team.maintainer.api.put(`${rules(project.id)}/${rule.id}`, {
      name: "Hidden", approvals_required: 1, group_ids: [visible.id], remove_hidden_groups: true,
    });
    expect(removed.body).toMatchObject({ contains_hidden_groups: false });
    expect((await hiddenOwner.api.get(`${rules(project.id)}/${rule.id}`)).body.groups.map((g: any) => g.id)).toEqual([visible.id]);
  });

  it("requires name and approvals_required (as the spec states) and validates", async () => {
    const rule = await createProjectRule(team.owner.api, project.id, { name: "Strict", approvals_required: 1, user_ids: [team.guest.id] });
    const missing = await team.owner.api.put(`${rules(project.id)}/${rule.id}`, { approvals_required: 2 });
    expect([missing.status, missing.body]).toEqual([400, { error: "name is missing" }]);
    const long = await team.owner.api.put(`${rules(project.id)}/${rule.id}`, { name: "y".repeat(1025), approvals_required: 2 });
    expect(long.body).toEqual({ message: { name: ["is too long (maximum is 1024 characters)"] } });
    expect((await team.owner.api.put(`${rules(project.id)}/999999`, { name: "x", approvals_required: 1 })).body).toEqual({ message: "404 Not found" });
    expect((await team.developer.api.put(`${rules(project.id)}/${rule.id}`, { name: "x", approvals_required: 1 })).status).toBe(403);
    expect((await t.anon.put(`${rules(project.id)}/${rule.id}`, { name: "x", approvals_required: 1 })).status).toBe(401);
  });

  it("changes the branch scoping", async () => {
    const fresh = await createTeamProject(team);
    const main = await protectBranch(team.owner.api, fresh.id, "main");
    const rule = await createProjectRule(team.owner.api, fresh.id, { name: "Scope", approvals_required: 1, user_ids: [team.guest.id] });
    const scoped = await team.owner.api.put(`${rules(fresh.id)}/${rule.id}`, { name: "Scope", approvals_required: 1, protected_branch_ids: [main.id] });
    expect(scoped.body.protected_branches.map((b: any) => b.id)).toEqual([main.id]);
    const all = await team.owner.api.put(`${rules(fresh.id)}/${rule.id}`, { name: "Scope", approvals_required: 1, applies_to_all_protected_branches: true });
    expect(all.body).toMatchObject({ applies_to_all_protected_branches: true });
    expect(all.body.protected_branches.map((b: any) => b.id)).toEqual([main.id]);
  });
});

describe("DELETE /projects/:id/approval_rules/:approval_rule_id", () => {
  it("deletes with 204 for Maintainers; 412 when modified since; 404 afterwards", async () => {
    const rule = await createProjectRule(team.owner.api, project.id, { name: "Gone", approvals_required: 1, user_ids: [team.guest.id] });
    expect((await team.developer.api.delete(`${rules(project.id)}/${rule.id}`)).status).toBe(403);
    const stale = await team.maintainer.api.delete(`${rules(project.id)}/${rule.id}`, { headers: { "If-Unmodified-Since": "Thu, 01 Jan 2015 00:00:00 GMT" } });
    expect([stale.status, stale.body]).toEqual([412, { message: "412 Precondition Failed" }]);
    const res = await team.maintainer.api.delete(`${rules(project.id)}/${rule.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await team.maintainer.api.delete(`${rules(project.id)}/${rule.id}`)).body).toEqual({ message: "404 Not found" });
  });
});

describe("members of approver groups", () => {
  it("are listed once, active only, with direct users", async () => {
    const group = await createGroup(team.owner.api, { visibility: "internal" });
    const member = await createUser(t);
    await addMember(team.owner.api, "groups", group.id, member.id, 30);
    await addMember(team.owner.api, "groups", group.id, team.developer.id, 30);
    const rule = await createProjectRule(team.owner.api, project.id, { name: "Group rule", approvals_required: 2, group_ids: [group.id], user_ids: [team.developer.id] });
    expect(idsOf(rule.eligible_approvers)).toEqual([team.owner.id, team.developer.id, member.id].sort((a, b) => a - b));
  });
});

/** What each actor gets from a Maintainer-only write on the private project (GitLab's answers). */
const WRITE_REFUSALS: Partial<Record<Actor, [number, object]>> = {
  anonymous: [401, { message: "401 Unauthorized" }],
  nonMember: [404, { message: "404 Project Not Found" }],
  guest: [403, { message: "403 Forbidden" }],
  reporter: [403, { message: "403 Forbidden" }],
  developer: [403, { message: "403 Forbidden" }],
};

describe("writes to one rule, by every actor", () => {
  it.each(ACTORS)("PUT as %s: Maintainers and up change it, the others get GitLab's refusal and change nothing", async (actor) => {
    const rule = await createProjectRule(team.owner.api, project.id, { name: `Put ${actor}`, approvals_required: 1, user_ids: [team.guest.id] });
    const res = await clientOf(t, team, actor).put(`${rules(project.id)}/${rule.id}`, { name: `Renamed ${actor}`, approvals_required: 2 });
    const refusal = WRITE_REFUSALS[actor];
    if (refusal) expect([res.status, res.body]).toEqual(refusal);
    else expect([res.status, res.body.name, res.body.approvals_required]).toEqual([200, `Renamed ${actor}`, 2]);
    const after = (await t.root.get(`${rules(project.id)}/${rule.id}`)).body;
    expect([after.name, after.approvals_required]).toEqual(refusal ? [`Put ${actor}`, 1] : [`Renamed ${actor}`, 2]);
  });

  it.each(ACTORS)("DELETE as %s: Maintainers and up delete it, the others get GitLab's refusal and it stays", async (actor) => {
    const rule = await createProjectRule(team.owner.api, project.id, { name: `Delete ${actor}`, approvals_required: 1, user_ids: [team.guest.id] });
    const res = await clientOf(t, team, actor).delete(`${rules(project.id)}/${rule.id}`);
    const refusal = WRITE_REFUSALS[actor];
    if (refusal) expect([res.status, res.body]).toEqual(refusal);
    else expect([res.status, res.text]).toEqual([204, ""]);
    expect((await t.root.get(`${rules(project.id)}/${rule.id}`)).status).toBe(refusal ? 200 : 404);
  });
});
