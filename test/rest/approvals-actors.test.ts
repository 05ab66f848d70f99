// Merge request approvals, the write routes not tabled elsewhere, by every actor on the team's
// private and public project: the approval configuration (POST /projects/:id/approvals,
// update_approvers: Maintainers and up), creating a project rule (admin_project), the merge
// request's own rules (POST/PUT/DELETE, update_approvers on the MR: whoever may update it),
// approve and unapprove (approve_merge_request: members who may update the MR, so not an
// administrator outside the project), and reset_approvals (project or group token bots only: 401
// for every human). Project rules' PUT/DELETE are tabled in approvals-project-rules.test.ts.
// Every row reads the state back as the project's Owner or an administrator: unchanged after a
// refusal, changed after a success.
import { beforeAll, describe, expect, it } from "vitest";
import { approvalStatus, approve, createMergeRequestRule, idsOf, mrPath, projectBot } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { ACCESS_LEVEL, ACTORS, clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

type Visibility = "private" | "public";
type Refusal = [number, object];

let t: TestApp;
let team: TeamWithProjects;
let author: TestUser; // a Developer who opens the merge requests, so that no actor is their author
let adminId: number;
const projects = {} as Record<Visibility, any>;
const mergeRequests = {} as Record<Visibility, any>;

const UNAUTHORIZED: Refusal = [401, { message: "401 Unauthorized" }];
const FORBIDDEN: Refusal = [403, { message: "403 Forbidden" }];
const PROJECT_NOT_FOUND: Refusal = [404, { message: "404 Project Not Found" }];

/** Who is refused what, by the role that the write needs; the actors not named may write. */
const refusals = {
  /** update_approvers / admin_project on the project: Maintainers, Owners, administrators. */
  maintainer: (actor: Actor, visibility: Visibility): Refusal | undefined =>
    ({
      anonymous: UNAUTHORIZED,
      nonMember: visibility === "private" ? PROJECT_NOT_FOUND : FORBIDDEN,
      guest: FORBIDDEN,
      reporter: FORBIDDEN,
      developer: FORBIDDEN,
    })[actor as string],
  /** update_merge_request: Developers and up, administrators (guests of the private project cannot even read the MR). */
  updateMergeRequest: (actor: Actor, visibility: Visibility): Refusal | undefined =>
    ({
      anonymous: UNAUTHORIZED,
      nonMember: visibility === "private" ? PROJECT_NOT_FOUND : FORBIDDEN,
      guest: FORBIDDEN,
      reporter: FORBIDDEN,
    })[actor as string],
  /** approve_merge_request: update_merge_request and membership of the project. */
  approve: (actor: Actor, visibility: Visibility): Refusal | undefined =>
    actor === "admin" ? FORBIDDEN : refusals.updateMergeRequest(actor, visibility),
};

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  author = await createUser(t);
  adminId = (await t.root.get("/user")).body.id;
  for (const visibility of ["private", "public"] as const) {
    projects[visibility] = visibility === "private" ? team.privateProject : team.publicProject;
    await addMember(team.owner.api, "projects", projects[visibility].id, author.id, ACCESS_LEVEL.developer);
    mergeRequests[visibility] = await createMergeRequest(author.api, projects[visibility].id);
  }
});

const CASES = (["private", "public"] as const).flatMap((visibility) =>
  ACTORS.map((actor) => [`${actor} on the ${visibility} project`, actor, visibility] as const));

describe("POST /projects/:id/approvals by every actor", () => {
  it.each(CASES)("%s", async (_name, actor, visibility) => {
    const path = `/projects/${projects[visibility].id}/approvals`;
    const before = (await t.root.get(path)).body;
    const change = { reset_approvals_on_push: !before.reset_approvals_on_push };
    const res = await clientOf(t, team, actor).post(path, change);
    const refusal = refusals.maintainer(actor, visibility);
    if (refusal) expect([res.status, res.body]).toEqual(refusal);
    else expect([res.status, res.body]).toEqual([201, { ...before, ...change }]);
    expect((await t.root.get(path)).body).toEqual(refusal ? before : { ...before, ...change });
  });
});

describe("POST /projects/:id/approval_rules by every actor", () => {
  it.each(CASES)("%s", async (_name, actor, visibility) => {
    const path = `/projects/${projects[visibility].id}/approval_rules`;
    const name = uniq(`rule-${actor}`);
    const res = await clientOf(t, team, actor).post(path, { name, approvals_required: 1, user_ids: [team.guest.id] });
    const refusal = refusals.maintainer(actor, visibility);
    if (refusal) expect([res.status, res.body]).toEqual(refusal);
    else expect([res.status, res.body.name, res.body.approvals_required, idsOf(res.body.users)]).toEqual([201, name, 1, [team.guest.id]]);
    const names = (await t.root.get(path, { query: { per_page: 100 } })).body.map((rule: any) => rule.name);
    expect(names.includes(name)).toBe(!refusal);
  });
});

describe("merge request approval rules by every actor", () => {
  const rulesPath = (visibility: Visibility) => `${mrPath(projects[visibility].id, mergeRequests[visibility].iid)}/approval_rules`;
  const ruleNames = async (visibility: Visibility) => (await t.root.get(rulesPath(visibility), { query: { per_page: 100 } })).body.map((rule: any) => rule.name);

  it.each(CASES)("POST as %s", async (_name, actor, visibility) => {
    const name = uniq(`mr-rule-${actor}`);
    const res = await clientOf(t, team, actor).post(rulesPath(visibility), { name, approvals_required: 2, user_ids: [team.reporter.id] });
    const refusal = refusals.updateMergeRequest(actor, visibility);
    if (refusal) expect([res.status, res.body]).toEqual(refusal);
    else expect([res.status, res.body.name, res.body.approvals_required, idsOf(res.body.users)]).toEqual([201, name, 2, [team.reporter.id]]);
    expect((await ruleNames(visibility)).includes(name)).toBe(!refusal);
  });

  it.each(CASES)("PUT as %s", async (_name, actor, visibility) => {
    const rule = await createMergeRequestRule(author.api, projects[visibility].id, mergeRequests[visibility].iid, {
      name: uniq(`put-${actor}`), approvals_required: 1, user_ids: [team.reporter.id],
    });
    const res = await clientOf(t, team, actor).put(`${rulesPath(visibility)}/${rule.id}`, { approvals_required: 3, user_ids: [team.developer.id] });
    const refusal = refusals.updateMergeRequest(actor, visibility);
    if (refusal) expect([res.status, res.body]).toEqual(refusal);
    else expect([res.status, res.body.name, res.body.approvals_required, idsOf(res.body.users)]).toEqual([200, rule.name, 3, [team.developer.id]]);
    const after = (await t.root.get(`${rulesPath(visibility)}/${rule.id}`)).body;
    expect([after.approvals_required, idsOf(after.users)]).toEqual(refusal ? [1, [team.reporter.id]] : [3, [team.developer.id]]);
  });

  it.each(CASES)("DELETE as %s", async (_name, actor, visibility) => {
    const rule = await createMergeRequestRule(author.api, projects[visibility].id, mergeRequests[visibility].iid, {
      name: uniq(`delete-${actor}`), approvals_required: 1, user_ids: [team.reporter.id],
    });
    const res = await clientOf(t, team, actor).delete(`${rulesPath(visibility)}/${rule.id}`);
    const refusal = refusals.updateMergeRequest(actor, visibility);
    if (refusal) expect([res.status, res.body]).toEqual(refusal);
    else expect([res.status, res.text]).toEqual([204, ""]);
    expect((await t.root.get(`${rulesPath(visibility)}/${rule.id}`)).status).toBe(refusal ? 200 : 404);
  });
});

describe("approving by every actor", () => {
  const approvedBy = async (visibility: Visibility) => idsOf((await approvalStatus(team.owner.api, projects[visibility].id, mergeRequests[visibility].iid)).approved_by);
  const userOf = (actor: Actor) => (actor === "admin" ? adminId : actor === "anonymous" ? 0 : team[actor].id);
  /** Someone else who approves, whose approval a refused unapprove must leave. */
  const otherOf = (actor: Actor) => (actor === "maintainer" ? team.owner : team.maintainer);

  it.each(CASES)("POST .../approve as %s", async (_name, actor, visibility) => {
    const before = await approvedBy(visibility);
    expect(before).not.toContain(userOf(actor));
    const res = await clientOf(t, team, actor).post(`${mrPath(projects[visibility].id, mergeRequests[visibility].iid)}/approve`, {});
    const refusal = refusals.approve(actor, visibility);
    if (refusal) {
      expect([res.status, res.body]).toEqual(refusal);
      expect(await approvedBy(visibility)).toEqual(before);
    } else {
      expect([res.status, res.body.user_has_approved, idsOf(res.body.approved_by)]).toEqual([201, true, [...before, userOf(actor)]]);
      expect(await approvedBy(visibility)).toEqual([...before, userOf(actor)]);
      // leave the MR as it was for the next row
      expect((await clientOf(t, team, actor).post(`${mrPath(projects[visibility].id, mergeRequests[visibility].iid)}/unapprove`, {})).status).toBe(201);
    }
  });

  it.each(CASES)("POST .../unapprove as %s", async (_name, actor, visibility) => {
    const { id: projectId } = projects[visibility];
    const { iid } = mergeRequests[visibility];
    const refusal = refusals.approve(actor, visibility);
    // someone else's approval, which a refused unapprove must leave, and the caller's own when it may approve
    await approve(otherOf(actor).api, projectId, iid);
    if (!refusal) await approve(clientOf(t, team, actor), projectId, iid);
    const before = await approvedBy(visibility);
    const res = await clientOf(t, team, actor).post(`${mrPath(projectId, iid)}/unapprove`, {});
    if (refusal) {
      expect([res.status, res.body]).toEqual(refusal);
      expect(await approvedBy(visibility)).toEqual(before);
    } else {
      expect([res.status, res.body.user_has_approved]).toEqual([201, false]);
      expect(await approvedBy(visibility)).toEqual(before.filter((id) => id !== userOf(actor)));
    }
    // the other approval goes again before the next row
    expect((await otherOf(actor).api.post(`${mrPath(projectId, iid)}/unapprove`, {})).status).toBe(201);
    expect(await approvedBy(visibility)).toEqual([]);
  });
});

describe("PUT .../reset_approvals by every actor", () => {
  /** GitLab looks the MR up through the finder (a guest of the private project cannot see it), then refuses every human. */
  const refusal = (actor: Actor, visibility: Visibility): Refusal => {
    if (actor === "nonMember" && visibility === "private") return PROJECT_NOT_FOUND;
    if (actor === "guest" && visibility === "private") return [404, { message: "404 Not found" }];
    return UNAUTHORIZED;
  };

  it.each(CASES)("%s", async (_name, actor, visibility) => {
    const { id: projectId } = projects[visibility];
    const { iid } = mergeRequests[visibility];
    await approve(team.developer.api, projectId, iid);
    const res = await clientOf(t, team, actor).put(`${mrPath(projectId, iid)}/reset_approvals`);
    expect([res.status, res.body]).toEqual(refusal(actor, visibility));
    expect(await approvalStatus(team.owner.api, projectId, iid)).toMatchObject({ approved_by: [{ user: { id: team.developer.id } }] });
    expect((await team.developer.api.post(`${mrPath(projectId, iid)}/unapprove`, {})).status).toBe(201);
  });

  it.each(["private", "public"] as const)("a Developer token bot of the %s project resets them (202)", async (visibility) => {
    const { id: projectId } = projects[visibility];
    const mr = await createMergeRequest(author.api, projectId);
    await approve(team.developer.api, projectId, mr.iid);
    await approve(team.owner.api, projectId, mr.iid);
    const bot = await projectBot(t, team.owner.api, projectId);
    const res = await bot.api.put(`${mrPath(projectId, mr.iid)}/reset_approvals`);
    expect([res.status, res.body]).toEqual([202, 202]);
    expect((await approvalStatus(team.owner.api, projectId, mr.iid)).approved_by).toEqual([]);
  });
});
