// DELETE /users/:id (users.rb, Users::DestroyService, Users::MigrateRecordsToGhostUserService):
// contributions move to the ghost user (created on first need) or go with hard_delete; the personal
// namespace, projects, memberships and tokens go; sole owners of groups are refused unless hard
// deleted; nothing is left pointing at the deleted user.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { awardEmoji } from "../helpers/award-emoji.js";
import { addMember, createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { approve } from "../helpers/approvals.js";
import { createNote, createSnippet } from "../helpers/snippets-notes.js";
import { redPng } from "../helpers/images.js";
import { gitbeakerForm } from "../helpers/multipart.js";
import { storedAvatar } from "../helpers/stored-files.js";

let t: TestApp;
let owner: TestUser;
let project: any;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createUser(t);
  project = await createProject(owner.api, { visibility: "public", initialize_with_readme: true });
});

/** A developer of the shared project who wrote an issue, a merge request, notes, reactions and a snippet, and approved. */
async function contributor() {
  const user = await createUser(t);
  await addMember(owner.api, "projects", project.id, user.id, 30);
  const issue = await createIssue(user.api, project.id, { title: uniq("issue") });
  const ownerIssue = await createIssue(owner.api, project.id, { assignee_ids: [user.id] });
  const mr = await createMergeRequest(user.api, project.id);
  const ownerMr = await createMergeRequest(owner.api, project.id, { reviewer_ids: [user.id] });
  const note = await createNote(user.api, project.id, "issues", ownerIssue.iid, { body: "my comment" });
  await awardEmoji(user.api, { projectId: project.id, kind: "issues", ref: ownerIssue.iid }, "thumbsup");
  await awardEmoji(user.api, { projectId: project.id, kind: "issues", ref: ownerIssue.iid, noteId: note.id }, "tada");
  const snippet = await createSnippet(user.api, project.id);
  await approve(user.api, project.id, ownerMr.iid);
  const closed = await createIssue(owner.api, project.id);
  expect((await user.api.put(`/projects/${project.id}/issues/${closed.iid}`, { state_event: "close" })).status).toBe(200);
  return { user, issue, ownerIssue, mr, ownerMr, note, snippet, closed };
}

async function ghost() {
  const res = await t.root.get("/users", { query: { username: "ghost" } });
  return res.body[0];
}

/** Every column that names a user, for rows naming `userId`: must be empty after deletion. */
async function rowsNaming(userId: number) {
  const db = t.services.db;
  const counts = await Promise.all([
    db.issue.count({ where: { OR: [{ authorId: userId }, { closedById: userId }] } }),
    db.mergeRequest.count({ where: { OR: [{ authorId: userId }, { closedById: userId }, { mergedById: userId }] } }),
    db.note.count({ where: { authorId: userId } }),
    db.snippet.count({ where: { authorId: userId } }),
    db.awardEmoji.count({ where: { userId } }),
    db.approval.count({ where: { userId } }),
    db.issueAssignee.count({ where: { userId } }),
    db.mergeRequestReviewer.count({ where: { userId } }),
    db.groupMember.count({ where: { userId } }),
    db.projectMember.count({ where: { userId } }),
    db.accessToken.count({ where: { userId } }),
    db.namespace.count({ where: { ownerId: userId } }),
  ]);
  return counts.reduce((a, b) => a + b, 0);
}

describe("DELETE /users/:id without hard_delete", () => {
  it("answers 204 and moves issues, merge requests, notes, reactions and snippets to the ghost user", async () => {
    const c = await contributor();
    const res = await t.root.delete(`/users/${c.user.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    const g = await ghost();
    expect(g).toMatchObject({ username: "ghost", name: "Ghost User", state: "active" });
    const ghostUser = await t.services.db.user.findUnique({ where: { id: g.id } });
    expect(ghostUser).toMatchObject({ userType: "ghost", email: "ghost@example.com" });
    expect((await t.root.get(`/users/${g.id}`)).body.bot).toBe(false);

    const issue = await owner.api.get(`/projects/${project.id}/issues/${c.issue.iid}`);
    expect(issue.body.author).toMatchObject({ id: g.id, username: "ghost" });
    const mr = await owner.api.get(`/projects/${project.id}/merge_requests/${c.mr.iid}`);
    expect(mr.body.author).toMatchObject({ id: g.id, username: "ghost" });
    const notes = await owner.api.get(`/projects/${project.id}/issues/${c.ownerIssue.iid}/notes`);
    expect(notes.body.find((n: any) => n.id === c.note.id).author).toMatchObject({ id: g.id });
    const emoji = await owner.api.get(`/projects/${project.id}/issues/${c.ownerIssue.iid}/award_emoji`);
    expect(emoji.body.map((e: any) => [e.name, e.user.id])).toEqual([["thumbsup", g.id]]);
    const noteEmoji = await owner.api.get(`/projects/${project.id}/issues/${c.ownerIssue.iid}/notes/${c.note.id}/award_emoji`);
    expect(noteEmoji.body.map((e: any) => e.user.id)).toEqual([g.id]);
    const snippet = await owner.api.get(`/projects/${project.id}/snippets/${c.snippet.id}`);
    expect(snippet.body.author).toMatchObject({ id: g.id });

    // what only named the user goes: assignment, review request, approval, "closed by"
    const assigned = await owner.api.get(`/projects/${project.id}/issues/${c.ownerIssue.iid}`);
    expect(assigned.body.assignees).toEqual([]);
    const reviewed = await owner.api.get(`/projects/${project.id}/merge_requests/${c.ownerMr.iid}`);
    expect(reviewed.body.reviewers).toEqual([]);
    const approvals = await owner.api.get(`/projects/${project.id}/merge_requests/${c.ownerMr.iid}/approvals`);
    expect(approvals.body.approved_by).toEqual([]);
    const closed = await owner.api.get(`/projects/${project.id}/issues/${c.closed.iid}`);
    expect(closed.body).toMatchObject({ state: "closed", closed_by: null });

    expect(await rowsNaming(c.user.id)).toBe(0);
    expect((await t.root.get(`/users/${c.user.id}`)).status).toBe(404);
  });

  it("reuses the one ghost user, and keeps a reaction the ghost already has once", async () => {
    const first = await contributor();
    const second = await contributor();
    expect((await t.root.delete(`/users/${first.user.id}`)).status).toBe(204);
    expect((await t.root.delete(`/users/${second.user.id}`)).status).toBe(204);
    expect(await t.services.db.user.count({ where: { userType: "ghost" } })).toBe(1);
    const emoji = await owner.api.get(`/projects/${project.id}/issues/${second.ownerIssue.iid}/award_emoji`);
    expect(emoji.body.map((e: any) => e.name)).toEqual(["thumbsup"]);
  });

  it("deletes the personal namespace with its projects, ends memberships and revokes the tokens at once", async () => {
    const user = await createUser(t);
    const own = await createProject(user.api, { path: "mine" });
    await createIssue(user.api, own.id);
    const group = await createGroup(t.root);
    await addMember(t.root, "groups", group.id, user.id, 30);
    expect((await user.api.get("/user")).status).toBe(200); // the token is cached now
    expect((await t.root.delete(`/users/${user.id}`)).status).toBe(204);
    expect((await user.api.get("/user")).status).toBe(401);
    expect((await t.root.get(`/projects/${own.id}`)).status).toBe(404);
    expect((await t.root.get(`/namespaces/${user.username}`)).status).toBe(404);
    const members = await t.root.get(`/groups/${group.id}/members`);
    expect(members.body.map((m: any) => m.id)).not.toContain(user.id);
    expect(await t.services.db.project.count({ where: { id: own.id } })).toBe(0);
    expect(await rowsNaming(user.id)).toBe(0);
    // the username is free again
    expect((await t.root.post("/users", { username: user.username, name: "Again", email: `${uniq("again")}@example.com`, password: "password-123456" })).status).toBe(201);
  });

  it("removes the user's avatar", async () => {
    const user = await createUser(t);
    const res = await t.root.put(`/users/${user.id}`, undefined, { form: gitbeakerForm({}, redPng(), "me.png", "image/png", "avatar") });
    expect(res.status, res.text).toBe(200);
    expect((await t.root.delete(`/users/${user.id}`)).status).toBe(204);
    expect(await storedAvatar(t, res.body.avatar_url)).toBeNull();
  });

  it("answers 409 for the sole owner of a group (users.rb, User#solo_owned_groups), deleting nothing", async () => {
    const user = await createUser(t);
    const group = await createGroup(user.api);
    const res = await t.root.delete(`/users/${user.id}`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: "User cannot be removed while is the sole-owner of a group" });
    expect((await user.api.get("/user")).status).toBe(200);
    // a second owner (here: of an ancestor) lifts the refusal
    const sub = await createGroup(user.api, { parent_id: group.id });
    const coOwner = await createUser(t);
    await addMember(user.api, "groups", group.id, coOwner.id, 50);
    expect((await t.root.delete(`/users/${user.id}`)).status).toBe(204);
    expect((await t.root.get(`/groups/${sub.id}`)).status).toBe(200);
  });

  it("honours If-Unmodified-Since (destroy_conditionally!)", async () => {
    const user = await createUser(t);
    const res = await t.root.delete(`/users/${user.id}`, { headers: { "If-Unmodified-Since": "Thu, 01 Jan 2000 00:00:00 GMT" } });
    expect(res.status).toBe(412);
    expect(res.body).toEqual({ message: "412 Precondition Failed" });
  });
});

describe("DELETE /users/:id?hard_delete=true", () => {
  it("deletes the user's contributions instead of moving them", async () => {
    const c = await contributor();
    const ghostsBefore = await t.services.db.user.count({ where: { userType: "ghost" } });
    const res = await t.root.delete(`/users/${c.user.id}`, { query: { hard_delete: true } });
    expect(res.status).toBe(204);
    expect((await owner.api.get(`/projects/${project.id}/issues/${c.issue.iid}`)).status).toBe(404);
    expect((await owner.api.get(`/projects/${project.id}/merge_requests/${c.mr.iid}`)).status).toBe(404);
    expect((await owner.api.get(`/projects/${project.id}/snippets/${c.snippet.id}`)).status).toBe(404);
    const notes = await owner.api.get(`/projects/${project.id}/issues/${c.ownerIssue.iid}/notes`);
    expect(notes.body.map((n: any) => n.id)).not.toContain(c.note.id);
    expect((await owner.api.get(`/projects/${project.id}/issues/${c.ownerIssue.iid}/award_emoji`)).body).toEqual([]);
    expect(await rowsNaming(c.user.id)).toBe(0);
    // no orphans of the deleted issue and merge request
    expect(await t.services.db.note.count({ where: { noteableType: "Issue", noteableId: c.issue.id } })).toBe(0);
    expect(await t.services.db.awardEmoji.count({ where: { awardableType: "Note", awardableId: c.note.id } })).toBe(0);
    expect(await t.services.db.user.count({ where: { userType: "ghost" } })).toBe(ghostsBefore);
  });

  it("deletes the groups the user solely owns, with their projects", async () => {
    const user = await createUser(t);
    const group = await createGroup(user.api);
    const sub = await createGroup(user.api, { parent_id: group.id });
    const inside = await createProject(user.api, { namespace_id: sub.id });
    expect((await t.root.delete(`/users/${user.id}`, { query: { hard_delete: "true" } })).status).toBe(204);
    expect((await t.root.get(`/groups/${group.id}`)).status).toBe(404);
    expect((await t.root.get(`/groups/${sub.id}`)).status).toBe(404);
    expect((await t.root.get(`/projects/${inside.id}`)).status).toBe(404);
  });
});

describe("who may delete users", () => {
  it("401 anonymous, 403 users (themselves too), 404 unknown users, 403 for the ghost user", async () => {
    const user = await createUser(t);
    expect((await t.anon.delete(`/users/${user.id}`)).status).toBe(401);
    expect((await owner.api.delete(`/users/${user.id}`)).body).toEqual({ message: "403 Forbidden" });
    expect((await user.api.delete(`/users/${user.id}`)).body).toEqual({ message: "403 Forbidden" });
    expect((await t.root.delete("/users/999999")).body).toEqual({ message: "404 User Not Found" });
    expect((await t.root.delete(`/users/${user.id}`, { query: { hard_delete: "sometimes" } })).body).toEqual({ error: "hard_delete is invalid" });
    const g = await ghost();
    expect((await t.root.delete(`/users/${g.id}`)).status).toBe(403);
    expect((await t.root.get(`/users/${user.id}`)).status).toBe(200);
  });

  it("is the GraphQL mutation deleteUser too", async () => {
    const user = await createUser(t);
    const res = await t.root.graphql(`mutation { deleteUser(id: ${user.id}) }`);
    expect(res.body.data).toEqual({ deleteUser: true });
    expect(await t.services.db.user.count({ where: { id: user.id } })).toBe(0);
  });
});
