// Project and group milestones over /api/v4 (GitLab's ProjectMilestones and GroupMilestones APIs):
// the Milestone entity, who may read and manage them, GitLab's validations and list filters, and
// milestones on issues and merge requests (milestone_id, the entities' milestone, the filters, a
// milestone's issues and merge requests, deleting one).
import { beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, NOT_FOUND, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { addMember, createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

const ENTITY_KEYS = ["id", "iid", "project_id", "title", "description", "state", "created_at", "updated_at", "due_date", "start_date", "expired", "web_url"];

async function milestone(projectId: number, fields: Record<string, unknown> = {}) {
  const res = await team.owner.api.post(`/projects/${projectId}/milestones`, { title: uniq("v"), ...fields });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const failed = (verb: string, errors: string) => ({ message: `Failed to ${verb} milestone ${errors}` });

describe("POST /projects/:id/milestones", () => {
  it("answers GitLab's Milestone entity, iids counted per project", async () => {
    const project = team.privateProject;
    const res = await team.owner.api.post(`/projects/${project.id}/milestones`, {
      title: "Release 1.0", description: "First", start_date: "2030-01-01", due_date: "2030-02-01",
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(ENTITY_KEYS);
    expect(res.body).toMatchObject({
      project_id: project.id, title: "Release 1.0", description: "First", state: "active",
      due_date: "2030-02-01", start_date: "2030-01-01", expired: false,
      web_url: `${BASE_URL}/${project.path_with_namespace}/-/milestones/${res.body.iid}`,
    });
    const next = await milestone(project.id);
    expect(next.iid).toBe(res.body.iid + 1);
    const elsewhere = await milestone(team.publicProject.id);
    expect(elsewhere.iid).toBe(1);
  });

  it("shows no description when none was given, and a past due date as expired", async () => {
    const body = await milestone(team.publicProject.id, { due_date: "2001-01-01" });
    expect(body).toMatchObject({ description: null, start_date: null, due_date: "2001-01-01", expired: true });
  });

  it("strips HTML and spaces from the title, and keeps no date it cannot read", async () => {
    const body = await milestone(team.publicProject.id, { title: `  <b>${"sprint"}</b> &amp; more  `, due_date: "2030-02-30" });
    expect(body.title).toBe("sprint & more");
    expect(body.due_date).toBeNull();
  });

  it("refuses a due date not after the start date, a blank title, a title used in the project or its groups", async () => {
    const api = team.owner.api;
    const path = `/projects/${team.privateProject.id}/milestones`;
    const dates = await api.post(path, { title: uniq("d"), start_date: "2030-02-01", due_date: "2030-02-01" });
    expect([dates.status, dates.body]).toEqual([400, failed("create", '{:due_date=>["must be greater than start date"]}')]);
    const blank = await api.post(path, { title: "  " });
    expect([blank.status, blank.body]).toEqual([400, failed("create", `{:title=>["can't be blank"]}`)]);
    const missing = await api.post(path, { description: "x" });
    expect([missing.status, missing.body]).toEqual([400, { error: "title is missing" }]);
    const taken = await milestone(team.privateProject.id);
    const again = await api.post(path, { title: taken.title });
    expect([again.status, again.body]).toEqual([400, failed("create", '{:title=>["already being used for another group or project milestone."]}')]);
    // other projects may use the title
    await milestone(team.publicProject.id, { title: taken.title });
  });

  const CREATE: Record<Actor, number> = {
    anonymous: 401, nonMember: 404, guest: 403, reporter: 201, developer: 201, maintainer: 201, owner: 201, admin: 201,
  };
  it.each(Object.entries(CREATE))("on a private project, %s gets %i", async (actor, status) => {
    const res = await clientOf(t, team, actor as Actor).post(`/projects/${team.privateProject.id}/milestones`, { title: uniq("m") });
    expect(res.status).toBe(status);
    if (status === 401) expect(res.body).toEqual(UNAUTHORIZED);
    if (status === 404) expect(res.body).toEqual(PROJECT_NOT_FOUND);
    if (status === 403) expect(res.body).toEqual(FORBIDDEN);
  });

  it("on a public project a signed-in non-member may read but not create", async () => {
    const created = await milestone(team.publicProject.id);
    const api = team.nonMember.api;
    expect((await api.get(`/projects/${team.publicProject.id}/milestones/${created.id}`)).status).toBe(200);
    expect((await api.post(`/projects/${team.publicProject.id}/milestones`, { title: uniq("m") })).status).toBe(403);
  });
});

describe("GET /projects/:id/milestones and /milestones/:milestone_id", () => {
  const READ: Record<Actor, number> = {
    anonymous: 401, nonMember: 404, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200,
  };
  it.each(Object.entries(READ))("on a private project, %s gets %i", async (actor, status) => {
    const created = await milestone(team.privateProject.id);
    const api = clientOf(t, team, actor as Actor);
    const list = await api.get(`/projects/${team.privateProject.id}/milestones`);
    const one = await api.get(`/projects/${team.privateProject.id}/milestones/${created.id}`);
    expect([list.status, one.status]).toEqual([status, status]);
    if (status === 200) expect(one.body).toEqual(created);
  });

  it("anonymous callers get 401 even on a public project (GitLab authenticates these routes)", async () => {
    expect((await t.anon.get(`/projects/${team.publicProject.id}/milestones`)).body).toEqual(UNAUTHORIZED);
  });

  it("finds a milestone by its id among the project's own: another project's id, an unknown one or too big one is 404 Not found", async () => {
    const other = await milestone(team.publicProject.id);
    for (const id of [other.id, 999_999, 99_999_999_999]) {
      const res = await team.owner.api.get(`/projects/${team.privateProject.id}/milestones/${id}`);
      expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    }
  });

  it("refuses both without issues and merge requests (403), and lists with either", async () => {
    const project = await createProject(team.owner.api, { issues_access_level: "disabled", merge_requests_access_level: "disabled" });
    const res = await team.owner.api.get(`/projects/${project.id}/milestones`);
    expect([res.status, res.body]).toEqual([403, FORBIDDEN]);
    const withMrs = await createProject(team.owner.api, { issues_access_level: "disabled" });
    expect((await team.owner.api.get(`/projects/${withMrs.id}/milestones`)).status).toBe(200);
  });

  it("orders by due date (none last), then newest first, and filters as GitLab's finder", async () => {
    const project = await createProject(team.owner.api);
    const api = team.owner.api;
    const base = `/projects/${project.id}/milestones`;
    const late = await (await api.post(base, { title: "Late release", due_date: "2031-05-01" })).body;
    const early = await (await api.post(base, { title: "Early bird", due_date: "2030-05-01", description: "the alpha" })).body;
    const none1 = await (await api.post(base, { title: "Someday" })).body;
    const none2 = await (await api.post(base, { title: "Maybe" })).body;
    await api.put(`${base}/${none1.id}`, { state_event: "close" });
    const ids = async (query: Record<string, string | number | boolean> = {}) => (await api.get(base, { query })).body.map((m: any) => m.id);
    expect(await ids()).toEqual([early.id, late.id, none2.id, none1.id]);
    expect(await ids({ state: "closed" })).toEqual([none1.id]);
    expect(await ids({ state: "active" })).toEqual([early.id, late.id, none2.id]);
    expect(await ids({ "iids[]": early.iid })).toEqual([early.id]);
    expect(await ids({ title: "Maybe" })).toEqual([none2.id]);
    expect(await ids({ title: "maybe" })).toEqual([]);
    expect(await ids({ search: "ALPHA" })).toEqual([early.id]);
    expect(await ids({ search: "re" })).toEqual([late.id]);
    expect(await ids({ updated_after: "2999-01-01T00:00:00Z" })).toEqual([]);
    expect(await ids({ updated_before: "2999-01-01T00:00:00Z" })).toHaveLength(4);
    const bad = await api.get(base, { query: { state: "opened" } });
    expect([bad.status, bad.body]).toEqual([400, { error: "state does not have a valid value" }]);
    const both = await api.get(base, { query: { include_ancestors: true, include_parent_milestones: true } });
    expect([both.status, both.body]).toEqual([400, { error: "include_ancestors, include_parent_milestones are mutually exclusive" }]);
  });
});

describe("PUT and DELETE /projects/:id/milestones/:milestone_id", () => {
  it("closes and reactivates, changes values, and refuses what POST refuses", async () => {
    const created = await milestone(team.privateProject.id, { start_date: "2030-01-01" });
    const path = `/projects/${team.privateProject.id}/milestones/${created.id}`;
    const api = team.reporter.api;
    const closed = await api.put(path, { state_event: "close", description: "done" });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ state: "closed", description: "done", title: created.title });
    expect((await api.put(path, { state_event: "activate" })).body.state).toBe("active");
    const dates = await api.put(path, { due_date: "2029-12-31" });
    expect([dates.status, dates.body]).toEqual([400, failed("update", '{:due_date=>["must be greater than start date"]}')]);
    const nothing = await api.put(path, {});
    expect([nothing.status, nothing.body]).toEqual([400, { error: "title, description, start_date, due_date, state_event are missing, at least one parameter must be provided" }]);
    const event = await api.put(path, { state_event: "reopen" });
    expect([event.status, event.body]).toEqual([400, { error: "state_event does not have a valid value" }]);
    const cleared = await api.put(path, { start_date: "" });
    expect(cleared.body.start_date).toBeNull();
    expect((await team.owner.api.get(path)).body).toEqual(cleared.body);
  });

  const WRITE: Record<Actor, number> = {
    anonymous: 401, nonMember: 404, guest: 403, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200,
  };
  it.each(Object.entries(WRITE))("updating on a private project, %s gets %i", async (actor, status) => {
    const created = await milestone(team.privateProject.id);
    const res = await clientOf(t, team, actor as Actor).put(`/projects/${team.privateProject.id}/milestones/${created.id}`, { title: uniq("n") });
    expect(res.status).toBe(status);
  });

  it.each(Object.entries(WRITE))("deleting on a private project, %s gets %i (204 for 200)", async (actor, status) => {
    const created = await milestone(team.privateProject.id);
    const res = await clientOf(t, team, actor as Actor).delete(`/projects/${team.privateProject.id}/milestones/${created.id}`);
    expect(res.status).toBe(status === 200 ? 204 : status);
    const after = await team.owner.api.get(`/projects/${team.privateProject.id}/milestones/${created.id}`);
    expect(after.status).toBe(status === 200 ? 404 : 200);
  });

  it("a guest is refused before the milestone is looked up (403 for an unknown id too)", async () => {
    const res = await team.guest.api.put(`/projects/${team.privateProject.id}/milestones/999999`, { title: "x" });
    expect([res.status, res.body]).toEqual([403, FORBIDDEN]);
  });
});

describe("group milestones", () => {
  let group: any;
  let subgroup: any;
  let project: any;
  let subProject: any;
  const members: Record<string, TestUser> = {};

  beforeAll(async () => {
    group = await createGroup(team.owner.api, { path: uniq("msg") });
    subgroup = await createGroup(team.owner.api, { path: uniq("sub"), parent_id: group.id });
    project = await createProject(team.owner.api, { namespace_id: group.id });
    subProject = await createProject(team.owner.api, { namespace_id: subgroup.id });
    for (const [role, level] of [["guest", 10], ["reporter", 20]] as const) {
      members[role] = await createUser(t);
      await addMember(team.owner.api, "groups", group.id, members[role]!.id, level);
    }
  });

  it("creates with group_id in the entity and the group's page as web_url; reporters may, guests may not", async () => {
    const res = await members.reporter!.api.post(`/groups/${group.id}/milestones`, { title: uniq("g") });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(ENTITY_KEYS.map((key) => (key === "project_id" ? "group_id" : key)));
    expect(res.body).toMatchObject({ group_id: group.id, iid: 1, web_url: `${BASE_URL}/groups/${group.full_path}/-/milestones/1` });
    const guest = await members.guest!.api.post(`/groups/${group.id}/milestones`, { title: uniq("g") });
    expect([guest.status, guest.body]).toEqual([403, FORBIDDEN]);
    expect((await members.guest!.api.get(`/groups/${group.id}/milestones/${res.body.id}`)).body).toEqual(res.body);
    expect((await team.nonMember.api.get(`/groups/${group.id}/milestones`)).status).toBe(404);
    expect((await t.anon.get(`/groups/${group.id}/milestones`)).status).toBe(401);
  });

  it("keeps titles unique across the hierarchy: a group's title is taken below it and above it", async () => {
    const top = await (await team.owner.api.post(`/groups/${group.id}/milestones`, { title: uniq("top") })).body;
    const inProject = await team.owner.api.post(`/projects/${subProject.id}/milestones`, { title: top.title });
    expect([inProject.status, inProject.body]).toEqual([400, failed("create", '{:title=>["already being used for another group or project milestone."]}')]);
    const projectTitle = await milestone(subProject.id);
    const inGroup = await team.owner.api.post(`/groups/${group.id}/milestones`, { title: projectTitle.title });
    expect(inGroup.status).toBe(400);
    const sub = await team.owner.api.post(`/groups/${subgroup.id}/milestones`, { title: top.title });
    expect(sub.status).toBe(400);
  });

  it("lists a subgroup's or a project's milestones with their ancestors' when asked (iids are then ignored)", async () => {
    const top = await (await team.owner.api.post(`/groups/${group.id}/milestones`, { title: uniq("a") })).body;
    const below = await (await team.owner.api.post(`/groups/${subgroup.id}/milestones`, { title: uniq("b") })).body;
    const own = await milestone(subProject.id);
    const ids = async (path: string, query: Record<string, string | number | boolean> = {}) => {
      const res = await team.owner.api.get(path, { query });
      expect(res.status, res.text).toBe(200);
      return res.body.map((m: any) => m.id);
    };
    expect(await ids(`/groups/${subgroup.id}/milestones`)).toEqual([below.id]);
    expect(await ids(`/groups/${subgroup.id}/milestones`, { include_ancestors: true })).toContain(top.id);
    const projectOwn = await ids(`/projects/${subProject.id}/milestones`);
    expect(projectOwn).toContain(own.id);
    expect(projectOwn).not.toContain(top.id);
    expect(projectOwn).not.toContain(below.id);
    const all = await ids(`/projects/${subProject.id}/milestones`, { include_ancestors: true, "iids[]": own.iid });
    expect(all).toEqual(expect.arrayContaining([top.id, below.id, own.id]));
    expect(await ids(`/projects/${subProject.id}/milestones`, { include_parent_milestones: true })).toEqual(expect.arrayContaining([top.id, below.id]));
  });

  it("lets the group's projects and its subgroups' projects use the milestone; another group's is ignored", async () => {
    const top = await (await team.owner.api.post(`/groups/${group.id}/milestones`, { title: uniq("use") })).body;
    const issue = await createIssue(team.owner.api, subProject.id, { milestone_id: top.id });
    expect(issue.milestone).toEqual(top);
    const elsewhere = await createGroup(team.owner.api, { path: uniq("else") });
    const foreign = await (await team.owner.api.post(`/groups/${elsewhere.id}/milestones`, { title: uniq("f") })).body;
    const ignored = await createIssue(team.owner.api, project.id, { milestone_id: foreign.id });
    expect(ignored.milestone).toBeNull();
    const listed = await team.owner.api.get(`/groups/${group.id}/milestones/${top.id}/issues`);
    // GitLab's finder looks at the group's own projects only
    expect(listed.body).toEqual([]);
    const direct = await createIssue(team.owner.api, project.id, { milestone_id: top.id });
    expect((await team.owner.api.get(`/groups/${group.id}/milestones/${top.id}/issues`)).body.map((i: any) => i.id)).toEqual([direct.id]);
  });
});

describe("milestones on issues and merge requests", () => {
  it("sets, changes and unsets an issue's milestone (0 or an unknown id unsets), and shows it in the entity", async () => {
    const project = team.privateProject;
    const first = await milestone(project.id);
    const second = await milestone(project.id);
    const issue = await createIssue(team.developer.api, project.id, { milestone_id: first.id });
    expect(issue.milestone).toEqual(first);
    const path = `/projects/${project.id}/issues/${issue.iid}`;
    expect((await team.developer.api.put(path, { milestone_id: second.id })).body.milestone).toEqual(second);
    expect((await team.developer.api.put(path, { milestone_id: 0 })).body.milestone).toBeNull();
    await team.developer.api.put(path, { milestone_id: second.id });
    expect((await team.developer.api.put(path, { milestone_id: 999_999 })).body.milestone).toBeNull();
  });

  it("lets a guest set it when opening an issue, not later (set_issue_metadata), nor a non-member on a public project", async () => {
    const m = await milestone(team.privateProject.id);
    const issue = await createIssue(team.guest.api, team.privateProject.id, { milestone_id: m.id });
    expect(issue.milestone).toEqual(m);
    const kept = await team.guest.api.put(`/projects/${team.privateProject.id}/issues/${issue.iid}`, { milestone_id: 0, title: "renamed" });
    expect(kept.body.milestone).toEqual(m);
    const pub = await milestone(team.publicProject.id);
    const outsider = await createIssue(team.nonMember.api, team.publicProject.id, { milestone_id: pub.id });
    expect(outsider.milestone).toBeNull();
  });

  it("filters issue lists by title, None, Any, Started, Upcoming, and refuses other milestone_id values", async () => {
    const project = await createProject(team.owner.api);
    const api = team.owner.api;
    const started = await (await api.post(`/projects/${project.id}/milestones`, { title: "Now", start_date: "2001-01-01" })).body;
    const soon = await (await api.post(`/projects/${project.id}/milestones`, { title: "Soon", due_date: "2998-01-01" })).body;
    await api.post(`/projects/${project.id}/milestones`, { title: "Later", due_date: "2999-01-01" });
    const a = await createIssue(api, project.id, { milestone_id: started.id });
    const b = await createIssue(api, project.id, { milestone_id: soon.id });
    const c = await createIssue(api, project.id);
    const ids = async (query: Record<string, string | number | boolean>) => (await api.get(`/projects/${project.id}/issues`, { query })).body.map((i: any) => i.id).sort();
    expect(await ids({ milestone: "Now" })).toEqual([a.id]);
    expect(await ids({ milestone: "None" })).toEqual([c.id]);
    expect(await ids({ milestone: "any" })).toEqual([a.id, b.id].sort());
    expect(await ids({ milestone_id: "None" })).toEqual([c.id]);
    expect(await ids({ milestone_id: "Any" })).toEqual([a.id, b.id].sort());
    expect(await ids({ milestone_id: "Started" })).toEqual([a.id]);
    expect(await ids({ milestone_id: "Upcoming" })).toEqual([b.id]);
    expect(await ids({ milestone: "Unknown" })).toEqual([]);
    const bad = await api.get(`/projects/${project.id}/issues`, { query: { milestone_id: "5" } });
    expect([bad.status, bad.body]).toEqual([400, { error: "milestone_id does not have a valid value" }]);
    const both = await api.get(`/projects/${project.id}/issues`, { query: { milestone_id: "Any", milestone: "Now" } });
    expect([both.status, both.body]).toEqual([400, { error: "milestone_id, milestone are mutually exclusive" }]);
    expect((await api.get(`/issues`, { query: { milestone: "Now", scope: "all" } })).body.map((i: any) => i.id)).toContain(a.id);
  });

  it("lists a milestone's issues as the project's list shows them: a guest does not see others' confidential ones", async () => {
    const project = team.privateProject;
    const m = await milestone(project.id);
    const open = await createIssue(team.owner.api, project.id, { milestone_id: m.id });
    const secret = await createIssue(team.owner.api, project.id, { milestone_id: m.id, confidential: true });
    await createIssue(team.owner.api, project.id);
    const path = `/projects/${project.id}/milestones/${m.id}/issues`;
    expect((await team.reporter.api.get(path)).body.map((i: any) => i.id).sort()).toEqual([open.id, secret.id].sort());
    expect((await team.guest.api.get(path)).body.map((i: any) => i.id)).toEqual([open.id]);
    expect((await team.nonMember.api.get(path)).status).toBe(404);
  });

  it("sets a merge request's milestone (Developers), filters merge requests by it and lists the milestone's", async () => {
    const project = team.privateProject;
    const m = await milestone(project.id);
    const mr = await createMergeRequest(team.developer.api, project.id, { milestone_id: m.id });
    expect(mr.milestone).toEqual(m);
    const other = await createMergeRequest(team.developer.api, project.id);
    expect(other.milestone).toBeNull();
    const byTitle = await team.owner.api.get(`/projects/${project.id}/merge_requests`, { query: { milestone: m.title } });
    expect(byTitle.body.map((x: any) => x.id)).toEqual([mr.id]);
    const listed = await team.owner.api.get(`/projects/${project.id}/milestones/${m.id}/merge_requests`);
    expect(listed.body.map((x: any) => x.id)).toEqual([mr.id]);
    const updated = await team.developer.api.put(`/projects/${project.id}/merge_requests/${other.iid}`, { milestone_id: m.id });
    expect(updated.body.milestone).toEqual(m);
    expect((await team.developer.api.put(`/projects/${project.id}/merge_requests/${other.iid}`, { milestone_id: 0 })).body.milestone).toBeNull();
  });

  it("deleting a milestone takes it off its issues and merge requests", async () => {
    const project = team.privateProject;
    const m = await milestone(project.id);
    const issue = await createIssue(team.owner.api, project.id, { milestone_id: m.id });
    const mr = await createMergeRequest(team.owner.api, project.id, { milestone_id: m.id });
    expect((await team.owner.api.delete(`/projects/${project.id}/milestones/${m.id}`)).status).toBe(204);
    expect((await team.owner.api.get(`/projects/${project.id}/issues/${issue.iid}`)).body.milestone).toBeNull();
    expect((await team.owner.api.get(`/projects/${project.id}/merge_requests/${mr.iid}`)).body.milestone).toBeNull();
  });
});

describe("resource milestone events", () => {
  it("records add and remove on issues and merge requests and lists them to whoever may read them", async () => {
    const project = team.privateProject;
    const first = await milestone(project.id);
    const second = await milestone(project.id);
    const issue = await createIssue(team.developer.api, project.id);
    const path = `/projects/${project.id}/issues/${issue.iid}`;
    await team.developer.api.put(path, { milestone_id: first.id });
    await team.developer.api.put(path, { milestone_id: second.id });
    await team.developer.api.put(path, { state_event: "close", milestone_id: 0 });
    const res = await team.guest.api.get(`${path}/resource_milestone_events`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body[0])).toEqual(["id", "user", "created_at", "resource_type", "resource_id", "milestone", "action", "state"]);
    expect(res.body.map((e: any) => [e.action, e.milestone?.id, e.state, e.resource_type, e.resource_id, e.user.id])).toEqual([
      ["add", first.id, "opened", "Issue", issue.id, team.developer.id],
      ["add", second.id, "opened", "Issue", issue.id, team.developer.id],
      ["remove", second.id, "closed", "Issue", issue.id, team.developer.id],
    ]);
    const one = await team.guest.api.get(`${path}/resource_milestone_events/${res.body[1].id}`);
    expect(one.body).toEqual(res.body[1]);
    expect((await team.guest.api.get(`${path}/resource_milestone_events/999999`)).body).toEqual(NOT_FOUND);
    expect((await team.nonMember.api.get(`${path}/resource_milestone_events`)).status).toBe(404);
    expect((await t.anon.get(`/projects/${team.publicProject.id}/issues/1/resource_milestone_events`)).status).toBe(401);

    const mr = await createMergeRequest(team.developer.api, project.id);
    await team.developer.api.put(`/projects/${project.id}/merge_requests/${mr.iid}`, { milestone_id: first.id });
    await team.owner.api.delete(`/projects/${project.id}/milestones/${first.id}`);
    const mrEvents = await team.reporter.api.get(`/projects/${project.id}/merge_requests/${mr.iid}/resource_milestone_events`);
    // deleting the milestone took it off, and GitLab deletes a milestone's events with it (ON DELETE CASCADE)
    expect([mrEvents.status, mrEvents.body, mrEvents.headers.get("x-total")]).toEqual([200, [], "0"]);
    // GitLab finds the merge request as its notes do: a guest of a private project may not read it
    const hidden = await team.guest.api.get(`/projects/${project.id}/merge_requests/${mr.iid}/resource_milestone_events`);
    expect([hidden.status, hidden.body]).toEqual([404, NOT_FOUND]);
  });

  it("records an add event when an issue or a merge request is created with a milestone, none without", async () => {
    const project = team.privateProject;
    const m = await milestone(project.id);
    const issue = await createIssue(team.developer.api, project.id, { milestone_id: m.id });
    const mr = await createMergeRequest(team.developer.api, project.id, { milestone_id: m.id });
    for (const [kind, created] of [["issues", issue], ["merge_requests", mr]] as const) {
      const res = await team.reporter.api.get(`/projects/${project.id}/${kind}/${created.iid}/resource_milestone_events`);
      expect(res.body.map((e: any) => [e.action, e.milestone.id, e.state, e.resource_id, e.user.id])).toEqual([["add", m.id, "opened", created.id, team.developer.id]]);
    }
    const plain = await createIssue(team.developer.api, project.id);
    expect((await team.reporter.api.get(`/projects/${project.id}/issues/${plain.iid}/resource_milestone_events`)).body).toEqual([]);
  });

  it("shows no event of a deleted milestone, in the list or by id, and keeps the others", async () => {
    const project = team.privateProject;
    const [kept, doomed] = [await milestone(project.id), await milestone(project.id)];
    const issue = await createIssue(team.developer.api, project.id, { milestone_id: doomed.id });
    const path = `/projects/${project.id}/issues/${issue.iid}`;
    expect((await team.developer.api.put(path, { milestone_id: kept.id })).status).toBe(200);
    const before = (await team.reporter.api.get(`${path}/resource_milestone_events`)).body;
    expect(before.map((e: any) => [e.action, e.milestone.id])).toEqual([["add", doomed.id], ["add", kept.id]]);
    expect((await team.owner.api.delete(`/projects/${project.id}/milestones/${doomed.id}`)).status).toBe(204);
    const after = await team.reporter.api.get(`${path}/resource_milestone_events`);
    expect([after.body.map((e: any) => e.id), after.headers.get("x-total")]).toEqual([[before[1].id], "1"]);
    const gone = await team.reporter.api.get(`${path}/resource_milestone_events/${before[0].id}`);
    expect([gone.status, gone.body]).toEqual([404, NOT_FOUND]);
    expect((await team.reporter.api.get(`${path}/resource_milestone_events/${before[1].id}`)).body).toEqual(before[1]);
  });

  it("answers 404 Not found for another issuable's event, an unknown or a non-numeric id, and an unknown issuable", async () => {
    const project = team.privateProject;
    const m = await milestone(project.id);
    const a = await createIssue(team.developer.api, project.id, { milestone_id: m.id });
    const b = await createIssue(team.developer.api, project.id, { milestone_id: m.id });
    const pathA = `/projects/${project.id}/issues/${a.iid}/resource_milestone_events`;
    const [other] = (await team.reporter.api.get(`/projects/${project.id}/issues/${b.iid}/resource_milestone_events`)).body;
    for (const id of [other.id, 2147483647, 99999999999, "abc"]) {
      const res = await team.reporter.api.get(`${pathA}/${id}`);
      expect([id, res.status, res.body]).toEqual([id, 404, NOT_FOUND]);
    }
    for (const path of [`issues/999999`, `merge_requests/999999`]) {
      const res = await team.reporter.api.get(`/projects/${project.id}/${path}/resource_milestone_events`);
      expect([path, res.status, res.body]).toEqual([path, 404, NOT_FOUND]);
    }
  });

  type Row = [number, object | null];
  const OK: Row = [200, null];
  /** The list and the one event, as the actor gets them: the body on a refusal, else the event ids. */
  async function seen(actor: Actor, path: string, eventId: number) {
    const client = clientOf(t, team, actor);
    const [list, one] = [await client.get(path), await client.get(`${path}/${eventId}`)];
    return [[list.status, list.status === 200 ? list.body.map((e: any) => e.id) : list.body], [one.status, one.status === 200 ? one.body.id : one.body]];
  }
  const expected = ([status, body]: Row, eventId: number) => [[status, body ?? [eventId]], [status, body ?? eventId]];

  /** A milestone set on a new issue or merge request of the project (one "add" event), by its owner. */
  async function issuableWithEvent(project: any, kind: "issues" | "merge_requests", fields: Record<string, unknown> = {}) {
    const m = await milestone(project.id);
    const created = kind === "issues" ? await createIssue(team.owner.api, project.id, fields) : await createMergeRequest(team.owner.api, project.id, fields);
    const base = `/projects/${project.id}/${kind}/${created.iid}`;
    expect((await team.owner.api.put(base, { milestone_id: m.id })).status).toBe(200);
    const path = `${base}/resource_milestone_events`;
    const events = (await team.owner.api.get(path)).body;
    expect(events.map((e: any) => [e.action, e.milestone.id])).toEqual([["add", m.id]]);
    return { path, eventId: events[0].id as number };
  }

  const CASES: { name: string; project: () => any; kind: "issues" | "merge_requests"; fields?: Record<string, unknown>; table: Record<Actor, Row> }[] = [
    {
      name: "a private project's issue", project: () => team.privateProject, kind: "issues",
      table: { anonymous: [401, UNAUTHORIZED], nonMember: [404, PROJECT_NOT_FOUND], guest: OK, reporter: OK, developer: OK, maintainer: OK, owner: OK, admin: OK },
    },
    {
      name: "a private project's merge request", project: () => team.privateProject, kind: "merge_requests",
      table: { anonymous: [401, UNAUTHORIZED], nonMember: [404, PROJECT_NOT_FOUND], guest: [404, NOT_FOUND], reporter: OK, developer: OK, maintainer: OK, owner: OK, admin: OK },
    },
    {
      name: "a public project's issue", project: () => team.publicProject, kind: "issues",
      table: { anonymous: [401, UNAUTHORIZED], nonMember: OK, guest: OK, reporter: OK, developer: OK, maintainer: OK, owner: OK, admin: OK },
    },
    {
      name: "a public project's merge request", project: () => team.publicProject, kind: "merge_requests",
      table: { anonymous: [401, UNAUTHORIZED], nonMember: OK, guest: OK, reporter: OK, developer: OK, maintainer: OK, owner: OK, admin: OK },
    },
    {
      name: "a public project's confidential issue", project: () => team.publicProject, kind: "issues", fields: { confidential: true },
      table: { anonymous: [401, UNAUTHORIZED], nonMember: [404, NOT_FOUND], guest: [404, NOT_FOUND], reporter: OK, developer: OK, maintainer: OK, owner: OK, admin: OK },
    },
    {
      name: "a private project's confidential issue", project: () => team.privateProject, kind: "issues", fields: { confidential: true },
      table: { anonymous: [401, UNAUTHORIZED], nonMember: [404, PROJECT_NOT_FOUND], guest: [404, NOT_FOUND], reporter: OK, developer: OK, maintainer: OK, owner: OK, admin: OK },
    },
  ];
  for (const c of CASES) {
    it(`on ${c.name}, every actor gets GitLab's answer for the list and one event`, async () => {
      const { path, eventId } = await issuableWithEvent(c.project(), c.kind, c.fields);
      for (const actor of Object.keys(c.table) as Actor[]) {
        expect([actor, ...(await seen(actor, path, eventId))]).toEqual([actor, ...expected(c.table[actor], eventId)]);
      }
    });
  }

  it("shows a confidential issue's events to a guest who is its assignee, as its notes are", async () => {
    const { path, eventId } = await issuableWithEvent(team.publicProject, "issues", { confidential: true, assignee_ids: [team.guest.id] });
    expect(await seen("guest", path, eventId)).toEqual(expected(OK, eventId));
    expect(await seen("nonMember", path, eventId)).toEqual(expected([404, NOT_FOUND], eventId));
  });
});

describe("milestone hooks", () => {
  it("queues a milestone hook on create, close, reopen and delete of a project milestone (hooks with milestone_events), none for group milestones", async () => {
    const group = await createGroup(team.owner.api, { path: uniq("hk") });
    const project = await createProject(team.owner.api, { namespace_id: group.id });
    const hook = await team.owner.api.post(`/projects/${project.id}/hooks`, { url: "https://hooks.example.com/m", milestone_events: true, push_events: false });
    expect(hook.status, hook.text).toBe(201);
    const quiet = await team.owner.api.post(`/projects/${project.id}/hooks`, { url: "https://hooks.example.com/q", push_events: false });
    const base = `/projects/${project.id}/milestones`;
    const m = (await team.owner.api.post(base, { title: "Hooked", due_date: "2030-03-01" })).body;
    await team.owner.api.put(`${base}/${m.id}`, { state_event: "close" });
    await team.owner.api.put(`${base}/${m.id}`, { state_event: "activate" });
    await team.owner.api.put(`${base}/${m.id}`, { description: "no hook for an edit" });
    await team.owner.api.delete(`${base}/${m.id}`);
    await team.owner.api.post(`/groups/${group.id}/milestones`, { title: uniq("grp") });
    const deliveries = await t.services.db.webHookDelivery.findMany({ where: { hookId: { in: [hook.body.id, quiet.body.id] } }, orderBy: { id: "asc" } });
    expect(deliveries.map((d) => [d.hookId, d.trigger])).toEqual(Array(4).fill([hook.body.id, "milestone_hooks"]));
    const payloads = deliveries.map((d) => JSON.parse(d.payload));
    expect(payloads.map((p) => p.action)).toEqual(["create", "close", "reopen", "delete"]);
    expect(Object.keys(payloads[0])).toEqual(["object_kind", "event_type", "project", "object_attributes", "action"]);
    expect(payloads[1]).toMatchObject({
      object_kind: "milestone", event_type: "milestone", project: { id: project.id, path_with_namespace: project.path_with_namespace },
      object_attributes: { id: m.id, iid: m.iid, title: "Hooked", state: "closed", due_date: "2030-03-01", start_date: null, project_id: project.id },
    });
    expect(Object.keys(payloads[1].object_attributes)).toEqual(["id", "iid", "title", "description", "state", "created_at", "updated_at", "due_date", "start_date", "project_id"]);
    expect(payloads[1].object_attributes.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  });
});
