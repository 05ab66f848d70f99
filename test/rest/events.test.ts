// The Events API over /api/v4: what the domain records (projects created, members joining and
// leaving, issues and merge requests opened, closed, reopened, merged and approved, comments,
// pushes of branches and tags) and the three lists: the caller's events (and scope=all), a user's
// contribution events, a project's events, with GitLab's filters, orders, entities and read rules
// per actor (private projects, confidential issues, internal notes, code for Reporters and up in a
// private project, a blocked user's events).
import { beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { createUser, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { commitTo, createBranch, createMergeRequest } from "../helpers/merge-requests.js";
import { gitOf } from "../helpers/git.js";
import { repairPendingRefUpdates } from "../../src/domain/repository/reconcile.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let pub: any, priv: any;
let openIssue: any, secret: any, privIssue: any, mr: any, comment: any, internalComment: any, privComment: any;
let pushCommit: any;

const USER_NOT_FOUND = { message: "404 User Not Found" };
const kinds = (body: any[]) => body.map((e) => `${e.action_name}:${e.target_type ?? "-"}:${e.target_id ?? e.project_id}`);

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  pub = team.publicProject;
  priv = team.privateProject;
  const p = `/projects/${pub.id}`;
  openIssue = await createIssue(team.developer.api, pub.id, { title: "Public issue" });
  expect((await team.owner.api.put(`${p}/issues/${openIssue.iid}`, { state_event: "close" })).status).toBe(200);
  expect((await team.owner.api.put(`${p}/issues/${openIssue.iid}`, { state_event: "reopen" })).status).toBe(200);
  secret = await createIssue(team.owner.api, pub.id, { title: "Secret issue", confidential: true });
  comment = (await team.guest.api.post(`${p}/issues/${openIssue.iid}/notes`, { body: "A comment" })).body;
  internalComment = (await team.reporter.api.post(`${p}/issues/${openIssue.iid}/notes`, { body: "Internal", internal: true })).body;
  pushCommit = await commitTo(team.developer.api, pub.id, "main", "pushed.txt");
  mr = await createMergeRequest(team.developer.api, pub.id, { title: "A merge request" });
  expect((await team.maintainer.api.post(`${p}/merge_requests/${mr.iid}/approve`, {})).status).toBe(201);
  privIssue = await createIssue(team.owner.api, priv.id, { title: "Private issue" });
  privComment = (await team.owner.api.post(`/projects/${priv.id}/issues/${privIssue.iid}/notes`, { body: "Private comment" })).body;
  await commitTo(team.owner.api, priv.id, "main", "private.txt");
});

describe("what is recorded", () => {
  it("a project's events, newest first: created, members joined, issues, comments, pushes, merge requests and approvals", async () => {
    const res = await t.root.get(`/projects/${pub.id}/events?per_page=100`);
    expect(res.status).toBe(200);
    const ids = res.body.map((e: any) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const seen = [...kinds(res.body)].reverse();
    const mrBranchPush = res.body.find((e: any) => e.push_data?.ref === mr.source_branch);
    expect(mrBranchPush.push_data.action).toBe("created");
    // the README of the new project is its first push, the default branch created
    expect(res.body.at(-2).push_data).toMatchObject({ action: "created", ref: "main", commit_from: null, commit_count: 1 });
    expect(seen).toEqual([
      `created:-:${pub.id}`, `pushed new:-:${pub.id}`,
      `joined:-:${pub.id}`, `joined:-:${pub.id}`, `joined:-:${pub.id}`, `joined:-:${pub.id}`,
      `opened:Issue:${openIssue.id}`, `closed:Issue:${openIssue.id}`, `opened:Issue:${openIssue.id}`,
      `opened:Issue:${secret.id}`,
      `commented on:Note:${comment.id}`, `commented on:Note:${internalComment.id}`,
      `pushed to:-:${pub.id}`,
      `pushed new:-:${pub.id}`,
      `opened:MergeRequest:${mr.id}`,
      `approved:MergeRequest:${mr.id}`,
    ]);
    // the members joined as themselves; the owner's personal project has no joined event of its own
    const joined = res.body.filter((e: any) => e.action_name === "joined").map((e: any) => e.author_id).sort();
    expect(joined).toEqual([team.maintainer.id, team.developer.id, team.reporter.id, team.guest.id].sort());
  });

  it("GitLab's Event entity: an issue event, a comment with its note, a push with its push data", async () => {
    const res = await t.root.get(`/projects/${pub.id}/events?per_page=100`);
    const author = (user: TestUser) => ({
      id: user.id, username: user.username, name: `User ${user.username}`, state: "active", locked: false,
      avatar_url: expect.any(String), web_url: `${BASE_URL}/${user.username}`,
    });
    const closed = res.body.find((e: any) => e.action_name === "closed");
    expect(closed).toEqual({
      id: expect.any(Number), project_id: pub.id, action_name: "closed", target_id: openIssue.id, target_iid: openIssue.iid,
      target_type: "Issue", author_id: team.owner.id, target_title: "Public issue", created_at: expect.stringMatching(/Z$/),
      author: author(team.owner), imported: false, imported_from: "none", author_username: team.owner.username,
    });
    expect(Object.keys(closed)).toEqual([
      "id", "project_id", "action_name", "target_id", "target_iid", "target_type", "author_id", "target_title", "created_at",
      "author", "imported", "imported_from", "author_username",
    ]);
    const commented = res.body.find((e: any) => e.target_id === comment.id && e.target_type === "Note");
    expect(commented).toMatchObject({ action_name: "commented on", target_type: "Note", target_iid: comment.id, target_title: null, author_id: team.guest.id });
    expect(commented.note).toMatchObject({ id: comment.id, body: "A comment", noteable_id: openIssue.id, noteable_type: "Issue", noteable_iid: openIssue.iid });
    expect(Object.keys(commented)).toContain("note");
    const push = res.body.find((e: any) => e.action_name === "pushed to");
    expect(push).toMatchObject({ target_id: null, target_iid: null, target_type: null, target_title: null, author_id: team.developer.id });
    expect(push.push_data).toEqual({
      commit_count: 1, action: "pushed", ref_type: "branch", commit_from: expect.stringMatching(/^[0-9a-f]{40}$/), commit_to: pushCommit.id,
      ref: "main", commit_title: "Add pushed.txt", ref_count: null,
    });
    expect(Object.keys(push).indexOf("push_data")).toBe(Object.keys(push).indexOf("imported_from") + 1);
    const created = res.body.find((e: any) => e.action_name === "created");
    expect(created).toMatchObject({ target_id: null, target_type: null, author_id: team.owner.id });
    expect(created).not.toHaveProperty("push_data");
    expect(created).not.toHaveProperty("note");
  });

  it("merges (accepted), a member who leaves, branch and tag pushes (pushed new, deleted), a bulk push", async () => {
    const user = await createUser(t);
    const project = (await user.api.post("/projects", { name: "Scratch", initialize_with_readme: true })).body;
    const p = `/projects/${project.id}`;
    const member = await createUser(t);
    expect((await user.api.post(`${p}/members`, { user_id: member.id, access_level: 30 })).status).toBe(201);
    expect((await member.api.delete(`${p}/members/${member.id}`)).status).toBe(204);
    const merged = await createMergeRequest(user.api, project.id);
    expect((await user.api.put(`${p}/merge_requests/${merged.iid}/merge`, {})).status).toBe(200);
    expect((await user.api.post(`${p}/repository/tags`, { tag_name: "v1", ref: "main" })).status).toBe(201);
    await createBranch(user.api, project.id, "doomed");
    expect((await user.api.delete(`${p}/repository/branches/doomed`)).status).toBe(204);
    const events = (await user.api.get(`${p}/events?sort=asc&per_page=100`)).body;
    expect(events.filter((e: any) => e.author_id === member.id).map((e: any) => e.action_name)).toEqual(["joined", "left"]);
    expect(events.find((e: any) => e.action_name === "accepted")).toMatchObject({ target_type: "MergeRequest", target_id: merged.id, target_title: merged.title });
    const tag = events.find((e: any) => e.push_data?.ref_type === "tag");
    expect(tag).toMatchObject({ action_name: "pushed new", push_data: { action: "created", ref: "v1", commit_from: null, commit_count: 1, ref_count: null } });
    const removed = events.find((e: any) => e.action_name === "deleted" && e.push_data.ref === "doomed");
    expect(removed.push_data).toMatchObject({ action: "removed", ref_type: "branch", ref: "doomed", commit_to: null, commit_count: 0 });
    expect(removed.push_data.commit_from).toMatch(/^[0-9a-f]{40}$/);

    // four new branches in one push are one bulk event (push_event_activities_limit 3): moved by
    // git alone and recorded with their pusher, as a push that crashed before its rows is repaired
    const total = Number((await user.api.get(`${p}/events`)).headers.get("x-total"));
    const git = gitOf(t, project.id);
    const head = git.text("rev-parse", "refs/heads/main");
    for (const branch of ["b1", "b2", "b3", "b4"]) git.text("update-ref", `refs/heads/${branch}`, head);
    await t.services.db.pendingRefUpdate.create({ data: { projectId: project.id, actorId: user.id, createdAt: new Date(Date.now() - 120_000) } });
    expect(await repairPendingRefUpdates(t.services)).toBe(1);
    const after = await user.api.get(`${p}/events`);
    expect(Number(after.headers.get("x-total"))).toBe(total + 1);
    expect(after.body[0]).toMatchObject({
      action_name: "pushed new", author_id: user.id,
      push_data: { commit_count: 0, action: "created", ref_type: "branch", commit_from: null, commit_to: null, ref: null, commit_title: null, ref_count: 4 },
    });
    // three are three events of their own
    for (const branch of ["c1", "c2", "c3"]) git.text("update-ref", `refs/heads/${branch}`, head);
    await t.services.db.pendingRefUpdate.create({ data: { projectId: project.id, actorId: user.id, createdAt: new Date(Date.now() - 120_000) } });
    expect(await repairPendingRefUpdates(t.services)).toBe(1);
    const three = (await user.api.get(`${p}/events?per_page=3`)).body;
    expect(three.map((e: any) => e.push_data.ref).sort()).toEqual(["c1", "c2", "c3"]);
    expect(three.map((e: any) => e.push_data.ref_count)).toEqual([null, null, null]);
  });

  it("a push of several commits: counted, titled by the newest; a new branch counts what the default branch lacks", async () => {
    const user = await createUser(t);
    const project = (await user.api.post("/projects", { name: "Counted", initialize_with_readme: true })).body;
    const git = gitOf(t, project.id);
    const identity = ["-c", "user.name=Pusher", "-c", "user.email=pusher@example.com"];
    const commitOn = (parent: string, message: string) => git.text(...identity, "commit-tree", `${parent}^{tree}`, "-p", parent, "-m", message);
    const base = git.text("rev-parse", "refs/heads/main");
    let head = base;
    for (const n of [1, 2, 3]) head = commitOn(head, `Step ${n}`);
    git.text("update-ref", "refs/heads/main", head, base);
    const topic = commitOn(commitOn(head, "Topic 1"), "Topic 2\n\nwith a body");
    git.text("update-ref", "refs/heads/topic", topic);
    await t.services.db.pendingRefUpdate.create({ data: { projectId: project.id, actorId: user.id, createdAt: new Date(Date.now() - 120_000) } });
    expect(await repairPendingRefUpdates(t.services)).toBe(1);
    const pushes = (await user.api.get(`/projects/${project.id}/events?action=pushed&per_page=2`)).body.map((e: any) => e.push_data);
    expect(pushes.find((d: any) => d.ref === "main")).toEqual({
      commit_count: 3, action: "pushed", ref_type: "branch", commit_from: base, commit_to: head, ref: "main", commit_title: "Step 3", ref_count: null,
    });
    expect(pushes.find((d: any) => d.ref === "topic")).toEqual({
      commit_count: 2, action: "created", ref_type: "branch", commit_from: null, commit_to: topic, ref: "topic", commit_title: "Topic 2", ref_count: null,
    });
  });
});

describe("GET /events", () => {
  it("401 without a token", async () => {
    const res = await t.anon.get("/events");
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it("the caller's own events, in every project they can see, newest first", async () => {
    const res = await team.guest.api.get("/events");
    expect(res.status).toBe(200);
    expect(kinds(res.body)).toEqual([`commented on:Note:${comment.id}`, `joined:-:${priv.id}`, `joined:-:${pub.id}`]);
    expect(res.headers.get("x-total")).toBe("3");
  });

  it("scope=all: every event of the projects the caller is a member of, under their read rules", async () => {
    const guest = (await team.guest.api.get("/events?scope=all&per_page=100")).body;
    const reporter = (await team.reporter.api.get("/events?scope=all&per_page=100")).body;
    const nonMember = (await team.nonMember.api.get("/events?scope=all&per_page=100")).body;
    expect(nonMember).toEqual([]);
    // Guests see no confidential issue, no internal note and no code of the private project
    expect(guest.some((e: any) => e.target_id === secret.id && e.target_type === "Issue")).toBe(false);
    expect(guest.some((e: any) => e.target_id === internalComment.id)).toBe(false);
    expect(guest.some((e: any) => e.project_id === priv.id && e.action_name === "pushed to")).toBe(false);
    expect(guest.some((e: any) => e.project_id === pub.id && e.action_name === "pushed to")).toBe(true);
    expect(guest.some((e: any) => e.target_id === privComment.id)).toBe(true);
    for (const hidden of [secret.id, internalComment.id]) expect(reporter.some((e: any) => e.target_id === hidden)).toBe(true);
    expect(reporter.some((e: any) => e.project_id === priv.id && e.action_name === "pushed to")).toBe(true);
  });

  it("a read_user token may read it", async () => {
    const reader = await createUser(t, {}, ["read_user"]);
    expect((await reader.api.get("/events")).status).toBe(200);
    expect((await reader.api.get(`/users/${team.owner.id}/events`)).status).toBe(200);
  });
});

describe("GET /users/:id/events", () => {
  const visible = async (actor: Actor) => {
    const res = await clientOf(t, team, actor).get(`/users/${team.owner.id}/events?per_page=100`);
    expect(res.status).toBe(200);
    return res.body;
  };

  it.each(["anonymous", "nonMember"] as const)("as %s: the owner's events in the public project only, without the confidential issue", async (actor) => {
    const body = await visible(actor);
    expect(body.every((e: any) => e.project_id === pub.id)).toBe(true);
    expect(kinds(body)).toEqual([`opened:Issue:${openIssue.id}`, `closed:Issue:${openIssue.id}`, `pushed new:-:${pub.id}`, `created:-:${pub.id}`]);
  });

  it.each(["guest", "reporter", "developer", "maintainer", "owner", "admin"] as const)("as %s: the private project's too, by their read rules", async (actor) => {
    const body = await visible(actor);
    const expected = [
      `pushed to:-:${priv.id}`, `commented on:Note:${privComment.id}`, `opened:Issue:${privIssue.id}`,
      `opened:Issue:${secret.id}`, `opened:Issue:${openIssue.id}`, `closed:Issue:${openIssue.id}`,
      `pushed new:-:${priv.id}`, `created:-:${priv.id}`, `pushed new:-:${pub.id}`, `created:-:${pub.id}`,
    ].filter((k) => actor !== "guest" || !k.startsWith(`pushed to:-:${priv.id}`) && k !== `pushed new:-:${priv.id}` && k !== `opened:Issue:${secret.id}`);
    expect(kinds(body)).toEqual(expected);
  });

  it("by username (any case), and 404 User Not Found for nobody", async () => {
    const byName = await t.root.get(`/users/${team.guest.username.toUpperCase()}/events`);
    expect(byName.status).toBe(200);
    expect(byName.body.map((e: any) => e.id)).toEqual((await t.root.get(`/users/${team.guest.id}/events`)).body.map((e: any) => e.id));
    for (const ref of ["999999", "no-such-user", "99999999999999"]) {
      const res = await t.root.get(`/users/${ref}/events`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(USER_NOT_FOUND);
    }
  });

  it("a blocked user's events: none for others, all for administrators", async () => {
    const blocked = await createUser(t);
    await createIssue(blocked.api, pub.id);
    expect((await t.root.post(`/users/${blocked.id}/block`)).status).toBe(201);
    const other = await team.owner.api.get(`/users/${blocked.id}/events`);
    expect(other.status).toBe(200);
    expect(other.body).toEqual([]);
    expect((await t.anon.get(`/users/${blocked.id}/events`)).body).toEqual([]);
    expect((await t.root.get(`/users/${blocked.id}/events`)).body.map((e: any) => e.action_name)).toEqual(["opened"]);
  });
});

describe("GET /projects/:id/events", () => {
  it.each(["anonymous", "nonMember"] as const)("a private project as %s: 404 Project Not Found", async (actor) => {
    const res = await clientOf(t, team, actor).get(`/projects/${priv.id}/events`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(PROJECT_NOT_FOUND);
  });

  it.each([
    ["anonymous", false, false], ["nonMember", false, false], ["guest", false, false], ["reporter", true, true],
    ["developer", true, true], ["maintainer", true, true], ["owner", true, true], ["admin", true, true],
  ] as const)("the public project as %s: confidential issue %s, internal note %s", async (actor, confidential, internal) => {
    const body = (await clientOf(t, team, actor).get(`/projects/${pub.id}/events?per_page=100`)).body;
    expect(body.some((e: any) => e.target_id === secret.id && e.target_type === "Issue")).toBe(confidential);
    expect(body.some((e: any) => e.target_id === internalComment.id)).toBe(internal);
    expect(body.some((e: any) => e.target_id === comment.id)).toBe(true);
    expect(body.some((e: any) => e.action_name === "pushed to")).toBe(true);
  });

  it("the author of a confidential issue sees its events", async () => {
    const author = await createUser(t);
    const issue = await createIssue(author.api, pub.id, { confidential: true });
    const body = (await author.api.get(`/projects/${pub.id}/events?target_type=issue`)).body;
    expect(body.some((e: any) => e.target_id === issue.id)).toBe(true);
    expect((await team.guest.api.get(`/projects/${pub.id}/events?target_type=issue`)).body.some((e: any) => e.target_id === issue.id)).toBe(false);
  });

  it("hidden rows still count in the total and the page (GitLab filters the page after paging)", async () => {
    const guest = await team.guest.api.get(`/projects/${pub.id}/events?per_page=100`);
    const admin = await t.root.get(`/projects/${pub.id}/events?per_page=100`);
    expect(guest.headers.get("x-total")).toBe(admin.headers.get("x-total"));
    expect(guest.body.length).toBeLessThan(admin.body.length);
  });

  it("the private project as guest: no pushes (no code below Reporter)", async () => {
    const body = (await team.guest.api.get(`/projects/${priv.id}/events`)).body;
    expect(kinds(body)).toEqual([`commented on:Note:${privComment.id}`, `opened:Issue:${privIssue.id}`, ...kinds(body).slice(2)]);
    expect(body.some((e: any) => e.action_name === "pushed to")).toBe(false);
  });
});

describe("filters", () => {
  const p = () => `/projects/${pub.id}/events?per_page=100`;
  const list = async (query: string) => {
    const res = await t.root.get(`${p()}&${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it("action and target_type (note: plain comments, as GitLab's Note class)", async () => {
    expect(kinds(await list("action=closed"))).toEqual([`closed:Issue:${openIssue.id}`]);
    expect(kinds(await list("action=reopened"))).toEqual([`opened:Issue:${openIssue.id}`]);
    expect((await list("action=joined")).length).toBe(4);
    expect(kinds(await list("target_type=note"))).toEqual([`commented on:Note:${internalComment.id}`, `commented on:Note:${comment.id}`]);
    expect((await list("target_type=merge_request")).every((e: any) => e.target_type === "MergeRequest")).toBe(true);
    expect(await list("target_type=milestone")).toEqual([]);
    const mine = (body: any[]) => body.filter((e) => [secret.id, openIssue.id].includes(e.target_id));
    expect(kinds(mine(await list("action=created&target_type=issue")))).toEqual([`opened:Issue:${secret.id}`, `opened:Issue:${openIssue.id}`]);
    expect((await list("action=created&target_type=issue")).every((e: any) => e.target_type === "Issue" && e.action_name === "opened")).toBe(true);
  });

  it("sort asc and desc by id; pages", async () => {
    const asc = (await list("sort=asc")).map((e: any) => e.id);
    const desc = (await list("sort=desc")).map((e: any) => e.id);
    expect(asc).toEqual([...desc].reverse());
    const second = await t.root.get(`/projects/${pub.id}/events?per_page=2&page=2&sort=asc`);
    expect(second.body.map((e: any) => e.id)).toEqual(asc.slice(2, 4));
    expect(second.headers.get("x-total")).toBe(String(asc.length));
  });

  it("before and after: whole days, exclusive", async () => {
    const [closed] = await list("action=closed");
    await t.services.db.event.update({ where: { id: closed.id }, data: { createdAt: new Date("2020-03-10T12:00:00Z") } });
    expect(kinds(await list("before=2020-03-11"))).toEqual([`closed:Issue:${openIssue.id}`]);
    expect(await list("before=2020-03-10")).toEqual([]);
    expect((await list("after=2020-03-10")).some((e: any) => e.id === closed.id)).toBe(false);
    expect((await list("after=2020-03-09&before=2020-03-11")).map((e: any) => e.id)).toEqual([closed.id]);
  });

  it.each([
    ["action=bogus", "action does not have a valid value"],
    ["target_type=issues", "target_type does not have a valid value"],
    ["before=yesterday", "before is invalid"],
    ["after=2020-13-45", "after is invalid"],
    ["sort=sideways", "sort does not have a valid value"],
  ])("400 for %s", async (query, error) => {
    for (const path of [`/projects/${pub.id}/events?${query}`, `/events?${query}`, `/users/${team.owner.id}/events?${query}`]) {
      const res = await t.root.get(path);
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual({ error });
    }
  });
});

describe("deleted targets", () => {
  it("an issue's events and its comments' events go with it; a deleted comment's event goes too", async () => {
    const issue = await createIssue(team.owner.api, pub.id);
    const note = (await team.owner.api.post(`/projects/${pub.id}/issues/${issue.iid}/notes`, { body: "bye" })).body;
    const other = (await team.owner.api.post(`/projects/${pub.id}/issues/${openIssue.iid}/notes`, { body: "gone soon" })).body;
    expect(await t.services.db.event.count({ where: { targetId: issue.id, targetType: "Issue" } })).toBe(1);
    expect(await t.services.db.event.count({ where: { targetId: note.id, targetType: "Note" } })).toBe(1);
    expect((await team.owner.api.delete(`/projects/${pub.id}/issues/${openIssue.iid}/notes/${other.id}`)).status).toBe(204);
    expect(await t.services.db.event.count({ where: { targetId: other.id, targetType: "Note" } })).toBe(0);
    expect((await team.owner.api.delete(`/projects/${pub.id}/issues/${issue.iid}`)).status).toBe(204);
    expect(await t.services.db.event.count({ where: { targetId: issue.id, targetType: "Issue" } })).toBe(0);
    expect(await t.services.db.event.count({ where: { targetId: note.id, targetType: "Note" } })).toBe(0);
  });
});
