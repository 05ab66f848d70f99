// Project issues through /api/v4: create, read, update (fields, state_event close/reopen), the
// project list and GET /issues, per actor (anonymous, non-member, guest, planner, reporter,
// developer, maintainer, owner, admin) on public and private projects; GitLab's confidential
// issue rule, silently dropped metadata params, assignee filtering, issues feature settings,
// filters, pagination, validation texts and the "issue" domain events.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subscribe, type IssueEvent } from "../../src/domain/shared/events.js";
import { parseLinks, type ApiClient } from "../helpers/api.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, NOT_FOUND, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { addMember, createProject, createUser, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { ACCESS_LEVEL, createTeam, createTeamProject, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let owner: TestUser, maintainer: TestUser, developer: TestUser, reporter: TestUser, planner: TestUser, guest: TestUser, stranger: TestUser;
let pub: any, priv: any;

const AT_LEAST_ONE =
  "assignee_id, assignee_ids, confidential, description, discussion_locked, due_date, labels, add_labels, remove_labels, " +
  "milestone_id, state_event, title are missing, at least one parameter must be provided";

const events: IssueEvent[] = [];
let recording = true;
subscribe("issue", async (_tx, event) => {
  if (recording) events.push(event);
});
afterAll(() => {
  recording = false;
});

const issuesPath = (project: any) => `/projects/${project.id}/issues`;
const issuePath = (project: any, iid: number) => `/projects/${project.id}/issues/${iid}`;
const iidsOf = (body: any[]) => body.map((i) => i.iid);

/** A project of the team (guest..maintainer members) with a Planner as well. */
async function projectWithMembers(overrides: Record<string, unknown> = {}): Promise<any> {
  const project = await createTeamProject(team, overrides);
  await addMember(owner.api, "projects", project.id, planner.id, ACCESS_LEVEL.planner);
  return project;
}

/** Every actor with a client; `member` says whether they belong to the projects above. */
const actors = () => ({
  anonymous: t.anon, stranger: stranger.api, guest: guest.api, planner: planner.api, reporter: reporter.api,
  developer: developer.api, maintainer: maintainer.api, owner: owner.api, admin: t.root,
});

beforeAll(async () => {
  t = await startTestApp();
  [team, planner] = await Promise.all([createTeam(t), createUser(t)]);
  ({ owner, maintainer, developer, reporter, guest, nonMember: stranger } = team);
  pub = await projectWithMembers({ visibility: "public" });
  priv = await projectWithMembers({ visibility: "private" });
});

describe("POST /projects/:id/issues", () => {
  it("creates an issue: 201 with GitLab's Issue entity", async () => {
    const res = await developer.api.post(issuesPath(priv), {
      title: "Broken build", description: "It fails\n\n- [x] look\n- [ ] fix", labels: "bug,backend", due_date: "2030-05-01",
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    const { id, iid, created_at, updated_at } = res.body;
    const self = `${BASE_URL}/api/v4/projects/${priv.id}/issues/${iid}`;
    expect(res.body).toEqual({
      id, iid, project_id: priv.id, title: "Broken build", description: "It fails\n\n- [x] look\n- [ ] fix", state: "opened",
      created_at, updated_at, closed_at: null, closed_by: null, labels: ["backend", "bug"], milestone: null, assignees: [],
      author: expect.objectContaining({ id: developer.id, username: developer.username, state: "active" }),
      type: "ISSUE", assignee: null, user_notes_count: 0, merge_requests_count: 0, due_date: "2030-05-01",
      confidential: false, discussion_locked: null, issue_type: "issue",
      web_url: `${BASE_URL}/${priv.path_with_namespace}/-/issues/${iid}`,
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      task_completion_status: { count: 2, completed_count: 1 }, weight: null, blocking_issues_count: 0,
      has_tasks: false, task_status: "1 of 2 checklist items completed",
      _links: { self, notes: `${self}/notes`, award_emoji: `${self}/award_emoji`, project: `${BASE_URL}/api/v4/projects/${priv.id}`, closed_as_duplicate_of: null },
      references: { short: `#${iid}`, relative: `#${iid}`, full: `${priv.path_with_namespace}#${iid}` },
      severity: "UNKNOWN", subscribed: true, moved_to_id: null, imported: false, imported_from: "none", service_desk_reply_to: null,
      epic_iid: null, epic: null, iteration: null,
      // added by the emoji reactions area
      ...(res.body.upvotes !== undefined ? { upvotes: 0, downvotes: 0 } : {}),
      ...(res.body.award_emoji !== undefined ? { award_emoji: res.body.award_emoji } : {}),
    });
    expect(created_at).toBe(updated_at);
    expect((await developer.api.get(issuePath(priv, iid))).body).toEqual(res.body);
  });

  it("numbers iids per project and ids globally", async () => {
    const projectA = await createProject(owner.api);
    const projectB = await createProject(owner.api);
    const a1 = await createIssue(owner.api, projectA.id);
    const b1 = await createIssue(owner.api, projectB.id);
    const a2 = await createIssue(owner.api, projectA.path_with_namespace);
    expect([a1.iid, b1.iid, a2.iid]).toEqual([1, 1, 2]);
    expect(b1.id).toBeGreaterThan(a1.id);
    expect(a2.id).toBeGreaterThan(b1.id);
  });

  it("lets every member and admin create in a private project", async () => {
    for (const [name, api] of Object.entries({ guest: guest.api, planner: planner.api, reporter: reporter.api, developer: developer.api, maintainer: maintainer.api, owner: owner.api, admin: t.root })) {
      const res = await api.post(issuesPath(priv), { title: `by ${name}` });
      expect(res.status, name).toBe(201);
      expect(res.body.title).toBe(`by ${name}`);
    }
  });

  it("answers 401 anonymously, 404 to non-members of a private project, 201 to non-members of a public one", async () => {
    expect(await t.anon.post(issuesPath(pub), { title: "x" })).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await stranger.api.post(issuesPath(priv), { title: "x" })).toMatchObject({ status: 404, body: PROJECT_NOT_FOUND });
    const res = await stranger.api.post(issuesPath(pub), { title: "Outside report" });
    expect(res.status).toBe(201);
    expect(res.body.author.id).toBe(stranger.id);
  });

  it("answers 401 anonymously even without params", async () => {
    expect(await t.anon.post(issuesPath(pub), {})).toMatchObject({ status: 401, body: UNAUTHORIZED });
  });

  it.each([
    ["no title", {}, { error: "title is missing" }],
    ["a non-boolean confidential", { title: "x", confidential: "maybe" }, { error: "confidential is invalid" }],
    ["non-integer assignee_ids", { title: "x", assignee_ids: ["me"] }, { error: "assignee_ids is invalid" }],
  ])("answers Grape's 400 for %s", async (_case, body, expected) => {
    const res = await developer.api.post(issuesPath(priv), body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });

  it.each([
    ["a blank title", { title: "   " }, { title: ["can't be blank"] }],
    ["a 256-character title", { title: "t".repeat(256) }, { title: ["is too long (maximum is 255 characters)"] }],
    ["a too long description", { title: "ok", description: "d".repeat(1_048_577) }, { description: ["is too long (maximum is 1048576 characters)"] }],
  ])("answers the model's 400 for %s", async (_case, body, expected) => {
    const res = await developer.api.post(issuesPath(priv), body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: expected });
  });

  it("checks params before the project (400 from a non-member of a private project)", async () => {
    expect(await stranger.api.post(issuesPath(priv), {})).toMatchObject({ status: 400, body: { error: "title is missing" } });
  });

  it("takes labels as a comma-separated string or an array, trims, dedupes and sorts them", async () => {
    const fromString = await createIssue(developer.api, priv.id, { labels: " zeta , alpha,,Beta,alpha" });
    expect(fromString.labels).toEqual(["Beta", "alpha", "zeta"]);
    const fromArray = await createIssue(developer.api, priv.id, { labels: ["b", "a"], add_labels: "c", remove_labels: ["b"] });
    expect(fromArray.labels).toEqual(["a", "c"]);
    const form = await developer.api.post(issuesPath(priv), undefined, { form: new URLSearchParams({ title: "form", "labels[]": "x" }) });
    expect(form.status, form.text).toBe(201);
    expect(form.body.labels).toEqual(["x"]);
  });

  it("keeps only assignees who can read the project's issues", async () => {
    const issue = await createIssue(owner.api, priv.id, { assignee_ids: [guest.id, stranger.id, 999999, reporter.id] });
    expect(issue.assignees.map((a: any) => a.id).sort()).toEqual([guest.id, reporter.id].sort());
    expect(issue.assignee.id).toBe(Math.min(guest.id, reporter.id));
    const onlyOutsiders = await createIssue(owner.api, priv.id, { assignee_ids: [stranger.id] });
    expect(onlyOutsiders.assignees).toEqual([]);
    const publicIssue = await createIssue(owner.api, pub.id, { assignee_ids: `${stranger.id}` });
    expect(publicIssue.assignees.map((a: any) => a.id)).toEqual([stranger.id]);
    const legacy = await createIssue(owner.api, priv.id, { assignee_id: developer.id });
    expect(legacy.assignees.map((a: any) => a.id)).toEqual([developer.id]);
  });

  it("drops the metadata a non-member may not set, but keeps confidential", async () => {
    const res = await stranger.api.post(issuesPath(pub), {
      title: "Security report", confidential: true, labels: "security", assignee_ids: [stranger.id], due_date: "2031-01-01", discussion_locked: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ confidential: true, labels: [], assignees: [], due_date: null, discussion_locked: null });
  });

  it("lets a guest member set metadata on a new issue", async () => {
    const issue = await createIssue(guest.api, priv.id, { labels: "triage", assignee_ids: [guest.id], confidential: true, due_date: "2031-02-03" });
    expect(issue).toMatchObject({ labels: ["triage"], confidential: true, due_date: "2031-02-03" });
    expect(issue.assignees.map((a: any) => a.id)).toEqual([guest.id]);
  });

  it("stores no due date for an invalid one", async () => {
    expect((await createIssue(developer.api, priv.id, { due_date: "2030-02-30" })).due_date).toBeNull();
  });

  it("answers 403 when issues are disabled, private to members, or the project is archived", async () => {
    const disabled = await projectWithMembers({ visibility: "public", issues_access_level: "disabled" });
    for (const api of [owner.api, t.root, stranger.api]) {
      expect(await api.post(issuesPath(disabled), { title: "x" })).toMatchObject({ status: 403, body: FORBIDDEN });
    }
    const membersOnly = await projectWithMembers({ visibility: "public", issues_access_level: "private" });
    expect(await stranger.api.post(issuesPath(membersOnly), { title: "x" })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect((await guest.api.post(issuesPath(membersOnly), { title: "x" })).status).toBe(201);
    const archived = await projectWithMembers({ visibility: "public" });
    expect((await owner.api.put(`/projects/${archived.id}`, { archived: true })).status).toBe(200);
    expect(await owner.api.post(issuesPath(archived), { title: "x" })).toMatchObject({ status: 403, body: FORBIDDEN });
  });

  it("publishes an 'open' event with what the issue was created with", async () => {
    events.length = 0;
    const issue = await createIssue(reporter.api, priv.id, { title: "Evented", labels: "a", assignee_ids: [guest.id] });
    expect(events).toEqual([
      {
        action: "open", projectId: priv.id, issue: expect.objectContaining({ id: issue.id, iid: issue.iid, assignees: [{ issueId: issue.id, userId: guest.id }] }), actorId: reporter.id,
        changes: expect.objectContaining({ title: { previous: null, current: "Evented" } }),
      },
    ]);
    // the issue carries its labels (a new name became a project label); the changes of an open are
    // the columns set, as GitLab reports them (association changes only for updates)
    expect((events[0] as any).issue.labels).toEqual([expect.objectContaining({ title: "a", color: "#6699cc", projectId: priv.id, groupId: null })]);
    expect(events[0]!.changes).not.toHaveProperty("state");
    expect(events[0]!.changes).not.toHaveProperty("labels");
    expect(events[0]!.changes).not.toHaveProperty("assignees");
  });
});

describe("GET /projects/:id/issues/:issue_iid", () => {
  it("shows a public project's issue to everyone, a private project's to members and admins only", async () => {
    const open = await createIssue(owner.api, pub.id, { title: "Public" });
    const hidden = await createIssue(owner.api, priv.id, { title: "Private" });
    for (const [name, api] of Object.entries(actors())) {
      const res = await api.get(issuePath(pub, open.iid));
      expect(res.status, name).toBe(200);
      expect(res.body).toMatchObject({ id: open.id, title: "Public" });
      const other = await api.get(issuePath(priv, hidden.iid));
      if (name === "anonymous" || name === "stranger") expect(other, name).toMatchObject({ status: 404, body: PROJECT_NOT_FOUND });
      else expect(other.status, name).toBe(200);
    }
  });

  it("shows an internal project's issues to every signed-in user, not anonymously", async () => {
    const internal = await projectWithMembers({ visibility: "internal" });
    const issue = await createIssue(stranger.api, internal.id, { title: "Internal" });
    expect(issue.author.id).toBe(stranger.id);
    expect((await stranger.api.get(issuePath(internal, issue.iid))).status).toBe(200);
    expect(iidsOf((await stranger.api.get(issuesPath(internal))).body)).toEqual([issue.iid]);
    expect(await t.anon.get(issuePath(internal, issue.iid))).toMatchObject({ status: 404, body: PROJECT_NOT_FOUND });
  });

  it("answers 404 Not found for an unknown iid and 400 for a non-integer one", async () => {
    expect(await owner.api.get(issuePath(priv, 99999))).toMatchObject({ status: 404, body: NOT_FOUND });
    const res = await owner.api.get(`/projects/${priv.id}/issues/abc`);
    expect(res).toMatchObject({ status: 400, body: { error: "issue_iid is invalid" } });
  });

  it("shows a confidential issue to Planners and above, its author, its assignees and admins only", async () => {
    const issue = await createIssue(stranger.api, pub.id, { title: "Leak", confidential: true });
    expect((await owner.api.put(issuePath(pub, issue.iid), { assignee_ids: [developer.id] })).status).toBe(200);
    const readers = ["stranger", "planner", "reporter", "developer", "maintainer", "owner", "admin"];
    for (const [name, api] of Object.entries(actors())) {
      const res = await api.get(issuePath(pub, issue.iid));
      if (readers.includes(name)) expect(res.status, name).toBe(200);
      else expect(res, name).toMatchObject({ status: 404, body: NOT_FOUND });
    }
    const assigned = await createIssue(owner.api, priv.id, { confidential: true, assignee_ids: [guest.id] });
    expect((await guest.api.get(issuePath(priv, assigned.iid))).status).toBe(200);
    expect(await guest.api.put(issuePath(priv, assigned.iid), { assignee_ids: [] })).toMatchObject({ status: 200 });
    expect(await guest.api.get(issuePath(priv, assigned.iid))).toMatchObject({ status: 200 });
  });

  it("hides every issue when the feature is disabled, and from non-members when it is private", async () => {
    const project = await projectWithMembers({ visibility: "public" });
    const issue = await createIssue(owner.api, project.id);
    expect((await owner.api.put(`/projects/${project.id}`, { issues_access_level: "private" })).status).toBe(200);
    for (const [name, api] of Object.entries(actors())) {
      const res = await api.get(issuePath(project, issue.iid));
      if (name === "anonymous" || name === "stranger") expect(res, name).toMatchObject({ status: 404, body: NOT_FOUND });
      else expect(res.status, name).toBe(200);
    }
    expect((await owner.api.put(`/projects/${project.id}`, { issues_access_level: "disabled" })).status).toBe(200);
    for (const [name, api] of Object.entries(actors())) {
      expect(await api.get(issuePath(project, issue.iid)), name).toMatchObject({ status: 404, body: NOT_FOUND });
    }
  });

  it("counts comments (not system notes) in user_notes_count", async () => {
    const issue = await createIssue(owner.api, priv.id);
    const note = (system: boolean) => ({ projectId: priv.id, noteableType: "Issue", noteableId: issue.id, authorId: owner.id, body: "hi", system });
    await t.services.db.note.createMany({ data: [note(false), note(false), note(true)] });
    expect((await owner.api.get(issuePath(priv, issue.iid))).body.user_notes_count).toBe(2);
  });

  it("finds the project by its full path", async () => {
    const issue = await createIssue(owner.api, priv.id);
    const res = await owner.api.get(`/projects/${encodeURIComponent(priv.path_with_namespace)}/issues/${issue.iid}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(issue.id);
  });
});

describe("PUT /projects/:id/issues/:issue_iid", () => {
  it("updates title and description for Planners and above, the author and admins", async () => {
    for (const [name, api] of Object.entries({ planner: planner.api, reporter: reporter.api, developer: developer.api, maintainer: maintainer.api, owner: owner.api, admin: t.root })) {
      const issue = await createIssue(guest.api, priv.id);
      const res = await api.put(issuePath(priv, issue.iid), { title: `retitled by ${name}`, description: "new" });
      expect(res.status, name).toBe(200);
      expect(res.body).toMatchObject({ id: issue.id, title: `retitled by ${name}`, description: "new" });
    }
    const own = await createIssue(guest.api, priv.id);
    expect((await guest.api.put(issuePath(priv, own.iid), { title: "mine" })).body.title).toBe("mine");
  });

  it("answers 401 anonymously, 404 to non-members of a private project, 403 to others who may not update", async () => {
    const inPrivate = await createIssue(owner.api, priv.id);
    const inPublic = await createIssue(owner.api, pub.id);
    expect(await t.anon.put(issuePath(pub, inPublic.iid), { title: "x" })).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await stranger.api.put(issuePath(priv, inPrivate.iid), { title: "x" })).toMatchObject({ status: 404, body: PROJECT_NOT_FOUND });
    expect(await stranger.api.put(issuePath(pub, inPublic.iid), { title: "x" })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await guest.api.put(issuePath(priv, inPrivate.iid), { title: "x" })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await owner.api.put(issuePath(priv, 99999), { title: "x" })).toMatchObject({ status: 404, body: NOT_FOUND });
  });

  it("lets a non-member update their own issue in a public project, and an assignee theirs", async () => {
    const own = await createIssue(stranger.api, pub.id);
    expect((await stranger.api.put(issuePath(pub, own.iid), { title: "edited" })).body.title).toBe("edited");
    const assigned = await createIssue(owner.api, priv.id, { assignee_ids: [guest.id] });
    expect((await guest.api.put(issuePath(priv, assigned.iid), { title: "assignee edit" })).body.title).toBe("assignee edit");
  });

  it("answers 403 to a guest for a confidential issue they may not read", async () => {
    const issue = await createIssue(owner.api, priv.id, { confidential: true });
    expect(await guest.api.put(issuePath(priv, issue.iid), { title: "x" })).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await stranger.api.put(issuePath(pub, (await createIssue(owner.api, pub.id, { confidential: true })).iid), { title: "x" }))
      .toMatchObject({ status: 403, body: FORBIDDEN });
  });

  it("ignores the metadata an author without admin_issue sends", async () => {
    const issue = await createIssue(guest.api, priv.id, { labels: "keep" });
    const res = await guest.api.put(issuePath(priv, issue.iid), {
      title: "only this", labels: "other", confidential: true, assignee_ids: [guest.id], due_date: "2032-01-01", discussion_locked: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: "only this", labels: ["keep"], confidential: false, assignees: [], due_date: null, discussion_locked: null });
  });

  it("lets Planners and above change labels, assignees, confidentiality, due date and lock", async () => {
    const issue = await createIssue(guest.api, priv.id, { labels: "a,b" });
    const res = await planner.api.put(issuePath(priv, issue.iid), {
      add_labels: "c", remove_labels: "a", assignee_ids: [developer.id, stranger.id], confidential: true, due_date: "2032-01-01", discussion_locked: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ labels: ["b", "c"], confidential: true, due_date: "2032-01-01", discussion_locked: true });
    expect(res.body.assignees.map((a: any) => a.id)).toEqual([developer.id]);
    const cleared = await planner.api.put(issuePath(priv, issue.iid), { labels: "", assignee_ids: [0], due_date: "" });
    expect(cleared.body).toMatchObject({ labels: [], assignees: [], due_date: null });
  });

  it("closes and reopens with state_event, recording who closed it and when", async () => {
    const issue = await createIssue(guest.api, priv.id);
    const closed = await guest.api.put(issuePath(priv, issue.iid), { state_event: "close" });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ state: "closed", closed_by: { id: guest.id, username: guest.username } });
    expect(Date.parse(closed.body.closed_at)).toBeGreaterThanOrEqual(Date.parse(issue.created_at));
    const again = await reporter.api.put(issuePath(priv, issue.iid), { state_event: "close" });
    expect(again.body).toMatchObject({ state: "closed", closed_by: { id: guest.id }, closed_at: closed.body.closed_at });
    const reopened = await reporter.api.put(issuePath(priv, issue.iid), { state_event: "reopen" });
    expect(reopened.body).toMatchObject({ state: "opened", closed_at: null, closed_by: null });
  });

  it("does not reopen an issue whose discussion is locked", async () => {
    const issue = await createIssue(owner.api, priv.id, { discussion_locked: true });
    await owner.api.put(issuePath(priv, issue.iid), { state_event: "close" });
    const res = await owner.api.put(issuePath(priv, issue.iid), { state_event: "reopen" });
    expect(res.body.state).toBe("closed");
  });

  it.each([
    ["an invalid state_event", { state_event: "delete" }, { error: "state_event does not have a valid value" }],
    ["no params", {}, { error: AT_LEAST_ONE }],
    ["only unknown params", { weight: 3 }, { error: AT_LEAST_ONE }],
    ["a non-boolean discussion_locked", { discussion_locked: "sure" }, { error: "discussion_locked is invalid" }],
  ])("answers Grape's 400 for %s", async (_case, body, expected) => {
    const issue = await createIssue(owner.api, priv.id);
    const res = await owner.api.put(issuePath(priv, issue.iid), body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });

  it("answers 400 before looking at the project or issue", async () => {
    expect(await stranger.api.put(issuePath(priv, 99999), { state_event: "open" }))
      .toMatchObject({ status: 400, body: { error: "state_event does not have a valid value" } });
    expect(await t.anon.put(issuePath(priv, 1), { state_event: "open" })).toMatchObject({ status: 401 });
  });

  it("answers the model's 400 for a blank title", async () => {
    const issue = await createIssue(owner.api, priv.id);
    expect(await owner.api.put(issuePath(priv, issue.iid), { title: "" })).toMatchObject({ status: 400, body: { message: { title: ["can't be blank"] } } });
  });

  it("answers 403 when the issues feature is disabled", async () => {
    const project = await projectWithMembers({ visibility: "public" });
    const issue = await createIssue(owner.api, project.id);
    await owner.api.put(`/projects/${project.id}`, { issues_access_level: "disabled" });
    expect(await owner.api.put(issuePath(project, issue.iid), { title: "x" })).toMatchObject({ status: 403, body: FORBIDDEN });
  });

  it("publishes close then update events with GitLab-style changes, and none when nothing changes", async () => {
    const issue = await createIssue(owner.api, priv.id, { title: "Before" });
    events.length = 0;
    const res = await developer.api.put(issuePath(priv, issue.iid), { state_event: "close", title: "After", labels: "x" });
    expect(res.status).toBe(200);
    expect(events.map((e) => e.action)).toEqual(["close", "update"]);
    expect(events[0]).toMatchObject({ projectId: priv.id, issue: { id: issue.id, state: "closed" }, actorId: developer.id });
    expect(events[0]!.changes).toMatchObject({
      state: { previous: "opened", current: "closed" },
      closed_by_id: { previous: null, current: developer.id },
      closed_at: { previous: null, current: res.body.closed_at },
    });
    expect(events[1]!.changes).toMatchObject({ title: { previous: "Before", current: "After" }, labels: { previous: [], current: [expect.objectContaining({ title: "x" })] } });
    expect(events[1]!.changes).not.toHaveProperty("state");
    events.length = 0;
    const unchanged = await developer.api.put(issuePath(priv, issue.iid), { title: "After", state_event: "close" });
    expect(unchanged.body.updated_at).toBe(res.body.updated_at);
    expect(events).toEqual([]);
  });
});

describe("GET /projects/:id/issues", () => {
  let project: any;
  let plain: any, labelled: any, closed: any, secret: any, strangerSecret: any;

  beforeAll(async () => {
    project = await projectWithMembers({ visibility: "public" });
    plain = await createIssue(owner.api, project.id, { title: "Plain crash", description: "stack trace" });
    labelled = await createIssue(developer.api, project.id, { title: "Labelled", labels: "bug,ui", assignee_ids: [reporter.id] });
    closed = await createIssue(reporter.api, project.id, { title: "Done thing", labels: "bug" });
    await reporter.api.put(issuePath(project, closed.iid), { state_event: "close" });
    secret = await createIssue(owner.api, project.id, { title: "Secret", confidential: true, assignee_ids: [guest.id] });
    strangerSecret = await createIssue(stranger.api, project.id, { title: "Stranger secret", confidential: true });
  });

  const list = (api: ApiClient, query: Record<string, string | number | boolean> = {}) => api.get(issuesPath(project), { query });

  it("lists newest first; confidential issues only for those who may read them", async () => {
    const everything = [strangerSecret.iid, secret.iid, closed.iid, labelled.iid, plain.iid];
    const open = [closed.iid, labelled.iid, plain.iid];
    const expected: Record<string, number[]> = {
      anonymous: open, stranger: [strangerSecret.iid, ...open], guest: [secret.iid, ...open], planner: everything, reporter: everything,
      developer: everything, maintainer: everything, owner: everything, admin: everything,
    };
    for (const [name, api] of Object.entries(actors())) {
      const res = await list(api);
      expect(res.status, name).toBe(200);
      expect(iidsOf(res.body), name).toEqual(expected[name]);
    }
  });

  it("answers 404 for a private project the caller cannot see", async () => {
    expect(await t.anon.get(issuesPath(priv))).toMatchObject({ status: 404, body: PROJECT_NOT_FOUND });
    expect(await stranger.api.get(issuesPath(priv))).toMatchObject({ status: 404, body: PROJECT_NOT_FOUND });
  });

  it("lists nothing when the issues feature is disabled", async () => {
    const disabled = await projectWithMembers({ visibility: "public" });
    await createIssue(owner.api, disabled.id);
    await owner.api.put(`/projects/${disabled.id}`, { issues_access_level: "disabled" });
    const res = await owner.api.get(issuesPath(disabled));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get("x-total")).toBe("0");
  });

  it.each([
    ["state=opened", { state: "opened" }, () => [labelled.iid, plain.iid]],
    ["state=closed", { state: "closed" }, () => [closed.iid]],
    ["labels=bug", { labels: "bug" }, () => [closed.iid, labelled.iid]],
    ["labels=bug,ui (all of them)", { labels: "bug,ui" }, () => [labelled.iid]],
    ["labels=None", { labels: "None" }, () => [plain.iid]],
    ["labels=No Label (the older spelling of None)", { labels: "No Label" }, () => [plain.iid]],
    ["labels=Any", { labels: "Any" }, () => [closed.iid, labelled.iid]],
    ["labels=BUG (label titles match case-sensitively)", { labels: "BUG" }, () => []],
    ["labels=bu (whole titles only)", { labels: "bu" }, () => []],
    ["search in title or description", { search: "trace" }, () => [plain.iid]],
    ["search in title only", { search: "trace", in: "title" }, () => []],
    ["search with `in` naming neither column searches both", { search: "trace", in: "body" }, () => [plain.iid]],
    ["author_id", { author_id: 0 }, () => []],
    ["assignee_id=None", { assignee_id: "None" }, () => [closed.iid, plain.iid]],
    ["assignee_id=Any", { assignee_id: "any" }, () => [labelled.iid]],
    ["milestone=None", { milestone: "None" }, () => [closed.iid, labelled.iid, plain.iid]],
    ["milestone=v1", { milestone: "v1" }, () => []],
    ["order_by=title sort=asc", { order_by: "title", sort: "asc" }, () => [closed.iid, labelled.iid, plain.iid]],
    ["sort=asc", { sort: "asc" }, () => [plain.iid, labelled.iid, closed.iid]],
    ["confidential=false", { confidential: false }, () => [closed.iid, labelled.iid, plain.iid]],
  ])("filters by %s", async (_case, query, expected) => {
    const res = await list(t.anon, query);
    expect(res.status, res.text).toBe(200);
    expect(iidsOf(res.body)).toEqual(expected());
  });

  it("order_by=due_date puts issues without a due date last, ascending and descending", async () => {
    const other = await projectWithMembers({ visibility: "public" });
    const none = await createIssue(owner.api, other.id);
    const late = await createIssue(owner.api, other.id, { due_date: "2031-06-01" });
    const early = await createIssue(owner.api, other.id, { due_date: "2030-01-01" });
    const order = async (sort: string) => iidsOf((await owner.api.get(issuesPath(other), { query: { order_by: "due_date", sort } })).body);
    expect(await order("asc")).toEqual([early.iid, late.iid, none.iid]);
    expect(await order("desc")).toEqual([late.iid, early.iid, none.iid]);
  });

  it("counts only the issues that carry the labels exactly (X-Total and pages agree)", async () => {
    const other = await projectWithMembers({ visibility: "public" });
    const [bug, upper, both] = [
      await createIssue(owner.api, other.id, { labels: "bug" }),
      await createIssue(owner.api, other.id, { labels: "Bug" }),
      await createIssue(owner.api, other.id, { labels: "Bug,bug" }),
    ];
    const res = await owner.api.get(issuesPath(other), { query: { labels: "Bug", per_page: 1 } });
    expect(iidsOf(res.body)).toEqual([both.iid]);
    expect(res.headers.get("x-total")).toBe("2");
    expect(iidsOf((await owner.api.get(issuesPath(other), { query: { labels: "Bug", per_page: 1, page: 2 } })).body)).toEqual([upper.iid]);
    expect(iidsOf((await owner.api.get(issuesPath(other), { query: { labels: "bug" } })).body)).toEqual([both.iid, bug.iid]);
    const everywhere = (await owner.api.get("/issues", { query: { labels: "Bug", scope: "created_by_me", per_page: 100 } })).body.map((i: any) => i.id);
    expect(everywhere).toEqual(expect.arrayContaining([both.id, upper.id]));
    expect(everywhere).not.toContain(bug.id);
  });

  it("filters by author, assignee, iids[] and scope for a signed-in user", async () => {
    expect(iidsOf((await list(owner.api, { author_id: developer.id })).body)).toEqual([labelled.iid]);
    expect(iidsOf((await list(owner.api, { author_username: reporter.username })).body)).toEqual([closed.iid]);
    expect(iidsOf((await list(owner.api, { assignee_id: guest.id })).body)).toEqual([secret.iid]);
    expect(iidsOf((await list(owner.api, { assignee_username: reporter.username })).body)).toEqual([labelled.iid]);
    expect(iidsOf((await list(owner.api, { confidential: true })).body)).toEqual([strangerSecret.iid, secret.iid]);
    const byIids = await owner.api.get(`${issuesPath(project)}?iids[]=${plain.iid}&iids[]=${closed.iid}`);
    expect(iidsOf(byIids.body)).toEqual([closed.iid, plain.iid]);
    expect(iidsOf((await list(reporter.api, { scope: "created_by_me" })).body)).toEqual([closed.iid]);
    expect(iidsOf((await list(reporter.api, { scope: "assigned-to-me" })).body)).toEqual([labelled.iid]);
  });

  it("filters by created and updated time", async () => {
    const all = [plain, labelled, closed, secret, strangerSecret];
    const at = Date.parse(labelled.created_at);
    const after = await list(owner.api, { created_after: labelled.created_at, sort: "asc" });
    expect(iidsOf(after.body)).toEqual(all.filter((i) => Date.parse(i.created_at) >= at).map((i) => i.iid));
    expect(iidsOf(after.body)).toContain(labelled.iid);
    const before = await list(owner.api, { created_before: labelled.created_at });
    expect(iidsOf(before.body)).toEqual(all.filter((i) => Date.parse(i.created_at) <= at).map((i) => i.iid).reverse());
    expect(iidsOf(before.body)).not.toContain(strangerSecret.iid);
    expect(iidsOf((await list(owner.api, { updated_after: "2999-01-01T00:00:00Z" })).body)).toEqual([]);
  });

  it.each([
    [{ state: "open" }, "state does not have a valid value"],
    [{ order_by: "weight" }, "order_by does not have a valid value"],
    [{ sort: "up" }, "sort does not have a valid value"],
    [{ scope: "mine" }, "scope does not have a valid value"],
    [{ assignee_id: "someone" }, "assignee_id should be an integer, none, or any, however got someone"],
    [{ author_id: 1, author_username: "root" }, "author_id, author_username are mutually exclusive"],
    [{ assignee_id: 1, assignee_username: "root" }, "assignee_id, assignee_username are mutually exclusive"],
    [{ author_id: "me" }, "author_id is invalid"],
    [{ created_after: "yesterday" }, "created_after is invalid"],
  ])("answers 400 for %j", async (query, error) => {
    const res = await list(t.anon, query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
  });

  it("paginates with GitLab's headers and Link", async () => {
    const res = await list(owner.api, { per_page: 2, page: 2 });
    expect(iidsOf(res.body)).toEqual([closed.iid, labelled.iid]);
    expect(Object.fromEntries(["x-total", "x-total-pages", "x-page", "x-per-page", "x-next-page", "x-prev-page"].map((h) => [h, res.headers.get(h)])))
      .toEqual({ "x-total": "5", "x-total-pages": "3", "x-page": "2", "x-per-page": "2", "x-next-page": "3", "x-prev-page": "1" });
    const links = parseLinks(res.headers.get("link"));
    expect(Object.keys(links)).toEqual(["prev", "next", "first", "last"]);
    expect(links.next).toContain(`/api/v4/projects/${project.id}/issues?`);
    expect(new URL(links.next!).searchParams.get("page")).toBe("3");
  });

  it("gives references relative to the project and the user note count of each issue", async () => {
    const res = await list(t.anon, { search: "Plain" });
    expect(res.body[0]).toMatchObject({ references: { short: `#${plain.iid}`, relative: `#${plain.iid}` }, user_notes_count: 0 });
  });
});

describe("GET /issues", () => {
  let mine: any, assigned: any, publicOther: any, privateOther: any, confidentialPublic: any;
  let outsider: TestUser;

  beforeAll(async () => {
    outsider = await createUser(t);
    mine = await createIssue(outsider.api, pub.id, { title: "Stranger's own" });
    assigned = await createIssue(owner.api, pub.id, { title: "For the outsider", assignee_ids: [outsider.id] });
    publicOther = await createIssue(owner.api, pub.id, { title: "Someone else's" });
    privateOther = await createIssue(owner.api, priv.id, { title: "Private one" });
    confidentialPublic = await createIssue(owner.api, pub.id, { title: "Confidential public", confidential: true });
  });

  const ids = (body: any[]) => body.map((i) => i.id);

  it("answers 401 anonymously unless scope=all, which lists public non-confidential issues", async () => {
    expect(await t.anon.get("/issues")).toMatchObject({ status: 401, body: UNAUTHORIZED });
    const res = await t.anon.get("/issues", { query: { scope: "all", per_page: 100 } });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(expect.arrayContaining([mine.id, assigned.id, publicOther.id]));
    expect(ids(res.body)).not.toContain(privateOther.id);
    expect(ids(res.body)).not.toContain(confidentialPublic.id);
  });

  it("lists the caller's own issues by default, and assigned_to_me on request", async () => {
    const own = await outsider.api.get("/issues", { query: { per_page: 100 } });
    expect(own.body.every((i: any) => i.author.id === outsider.id)).toBe(true);
    expect(ids(own.body)).toContain(mine.id);
    expect(ids(own.body)).not.toContain(assigned.id);
    const assignedToMe = await outsider.api.get("/issues", { query: { scope: "assigned_to_me" } });
    expect(ids(assignedToMe.body)).toEqual([assigned.id]);
  });

  it("shows members their private projects' issues and confidential ones by role", async () => {
    const forGuest = ids((await guest.api.get("/issues", { query: { scope: "all", per_page: 100 } })).body);
    expect(forGuest).toContain(privateOther.id);
    expect(forGuest).not.toContain(confidentialPublic.id);
    const forReporter = ids((await reporter.api.get("/issues", { query: { scope: "all", per_page: 100 } })).body);
    expect(forReporter).toEqual(expect.arrayContaining([privateOther.id, confidentialPublic.id]));
    const forStranger = ids((await outsider.api.get("/issues", { query: { scope: "all", per_page: 100 } })).body);
    expect(forStranger).not.toContain(privateOther.id);
    expect(forStranger).not.toContain(confidentialPublic.id);
    const forAdmin = ids((await t.root.get("/issues", { query: { scope: "all", per_page: 100 } })).body);
    expect(forAdmin).toEqual(expect.arrayContaining([privateOther.id, confidentialPublic.id]));
  });

  it("gives references relative to nothing (Issue#to_reference(nil) is the short form), since no project frames the list", async () => {
    const res = await outsider.api.get("/issues", { query: { search: "Stranger's own" } });
    expect(res.body[0].references).toEqual({ short: `#${mine.iid}`, relative: `#${mine.iid}`, full: `${pub.path_with_namespace}#${mine.iid}` });
  });

  it("leaves out archived projects unless non_archived=false", async () => {
    const project = await createProject(outsider.api, { visibility: "public" });
    const issue = await createIssue(outsider.api, project.id);
    await outsider.api.put(`/projects/${project.id}`, { archived: true });
    expect(ids((await outsider.api.get("/issues", { query: { per_page: 100 } })).body)).not.toContain(issue.id);
    expect(ids((await outsider.api.get("/issues", { query: { per_page: 100, non_archived: false } })).body)).toContain(issue.id);
  });
});

describe("X-Total stays exact while counts are kept between requests", () => {
  // the count of a list is kept until an issue or an assignment changes (domain/shared/caches.ts)
  const total = async (client: ApiClient, project: any, query = "") =>
    (await client.get(`${issuesPath(project)}?per_page=1${query}`, { raw: true })).headers.get("x-total");

  it("follows creation, closing, confidentiality and assignment at once", async () => {
    const project = await projectWithMembers({ visibility: "public" });
    const first = await createIssue(owner.api, project.id, { title: "first" });
    const second = await createIssue(owner.api, project.id, { title: "second" });
    for (let i = 0; i < 2; i++) expect(await total(stranger.api, project)).toBe("2"); // the second from the cache
    expect(await total(stranger.api, project, "&state=opened")).toBe("2");
    expect(await total(stranger.api, project, `&assignee_id=${developer.id}`)).toBe("0");

    await createIssue(owner.api, project.id, { title: "third" });
    expect(await total(stranger.api, project)).toBe("3");

    expect((await owner.api.put(issuePath(project, first.iid), { state_event: "close" })).status).toBe(200);
    expect(await total(stranger.api, project, "&state=opened")).toBe("2");

    expect((await owner.api.put(issuePath(project, second.iid), { confidential: true })).status).toBe(200);
    expect(await total(stranger.api, project)).toBe("2");
    expect(await total(owner.api, project)).toBe("3");

    expect((await owner.api.put(issuePath(project, first.iid), { assignee_ids: [developer.id] })).status).toBe(200);
    expect(await total(stranger.api, project, `&assignee_id=${developer.id}`)).toBe("1");

    expect((await owner.api.put(issuePath(project, first.iid), { assignee_ids: [] })).status).toBe(200);
    expect(await total(stranger.api, project, `&assignee_id=${developer.id}`)).toBe("0");
  });
});

describe("the labels filter follows label changes", () => {
  // names are filtered through the issue's links to label records, which its writes keep
  it("after replacing, adding and removing labels", async () => {
    const project = await projectWithMembers({ visibility: "public" });
    const issue = await createIssue(developer.api, project.id, { title: "Relabelled", labels: "bug,ui" });
    const iidsWith = async (labels: string) => iidsOf((await stranger.api.get(`${issuesPath(project)}?labels=${encodeURIComponent(labels)}`)).body);
    expect(await iidsWith("bug,ui")).toEqual([issue.iid]);
    expect((await developer.api.put(issuePath(project, issue.iid), { add_labels: "Docs", remove_labels: "bug" })).status).toBe(200);
    expect(await iidsWith("bug")).toEqual([]);
    expect(await iidsWith("ui,Docs")).toEqual([issue.iid]);
    expect(await iidsWith("docs")).toEqual([]);
    expect((await developer.api.put(issuePath(project, issue.iid), { labels: "" })).status).toBe(200);
    expect(await iidsWith("ui")).toEqual([]);
    expect(await iidsWith("None")).toEqual([issue.iid]);
  });
});
