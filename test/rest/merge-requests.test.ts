// Merge requests through /api/v4: create, read, list and update per actor (anonymous, non-member,
// guest, reporter, developer, maintainer, owner, admin) on public and private projects and with
// the merge requests feature private or disabled; GitLab's errors for bad input (missing params,
// unknown branches, same branches 422, another open MR 409, invalid state_event); the head sha
// following pushes to the source branch; list filters, scopes and pagination.
import { beforeAll, describe, expect, it } from "vitest";
import { subscribe, type MergeRequestEvent } from "../../src/domain/shared/events.js";
import { parseLinks, type ApiClient } from "../helpers/api.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, NOT_FOUND, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { commitTo, createBranch, createMergeRequest } from "../helpers/merge-requests.js";
import { createTeamProject, createTeamWithProjects, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let owner: TestUser;
let maintainer: TestUser;
let developer: TestUser;
let reporter: TestUser;
let guest: TestUser;
let stranger: TestUser;
let publicProject: any;
let privateProject: any;

const mrs = (project: any) => `/projects/${project.id}/merge_requests`;
const userBasic = (u: TestUser) => ({
  id: u.id, username: u.username, name: `User ${u.username}`, state: "active", locked: false,
  avatar_url: expect.stringContaining("https://www.gravatar.com/avatar/"), web_url: `${BASE_URL}/${u.username}`,
});

/** Actors by name with the API client each uses (root is the instance administrator). */
const actors = () => ({
  anonymous: t.anon, stranger: stranger.api, guest: guest.api, reporter: reporter.api,
  developer: developer.api, maintainer: maintainer.api, owner: owner.api, admin: t.root,
}) as Record<string, ApiClient>;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  ({ owner, maintainer, developer, reporter, guest, nonMember: stranger, publicProject, privateProject } = team);
});


/** Reading merge requests, per actor: [actor, status on the public project, status on the private one]. */
const READ_STATUSES: [string, number, number][] = [
  ["anonymous", 200, 404],
  ["stranger", 200, 404],
  ["guest", 200, 403],
  ["reporter", 200, 200],
  ["developer", 200, 200],
  ["maintainer", 200, 200],
  ["owner", 200, 200],
  ["admin", 200, 200],
];
describe("POST /projects/:id/merge_requests", () => {
  it("opens a merge request: 201 with GitLab's MergeRequest entity", async () => {
    const source = uniq("feature");
    const main = (await developer.api.get(`/projects/${publicProject.id}/repository/branches/main`)).body.commit.id;
    const pushed = await commitTo(developer.api, publicProject.id, source, undefined, "main");
    const res = await developer.api.post(mrs(publicProject), {
      title: "Add a feature", source_branch: source, target_branch: "main", description: "Does it\n\n- [x] code\n- [ ] docs",
      assignee_ids: [developer.id, reporter.id], reviewer_ids: [maintainer.id], labels: "backend, api", squash: true,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    const iid = res.body.iid;
    // assignees in user id order (the team's users are created concurrently: any ids)
    const assignees = [developer, reporter].sort((a, b) => a.id - b.id).map(userBasic);
    expect(res.body).toMatchObject({
      id: expect.any(Number), iid, project_id: publicProject.id, title: "Add a feature", description: "Does it\n\n- [x] code\n- [ ] docs",
      state: "opened", merged_by: null, merge_user: null, merged_at: null, closed_by: null, closed_at: null,
      target_branch: "main", source_branch: source, user_notes_count: 0,
      author: userBasic(developer), assignees, assignee: assignees[0],
      reviewers: [userBasic(maintainer)], source_project_id: publicProject.id, target_project_id: publicProject.id,
      labels: ["api", "backend"], draft: false, work_in_progress: false, milestone: null, merge_when_pipeline_succeeds: false,
      merge_status: "can_be_merged", detailed_merge_status: "mergeable", sha: pushed.id, merge_commit_sha: null, squash_commit_sha: null,
      discussion_locked: null, should_remove_source_branch: null, force_remove_source_branch: true,
      reference: `!${iid}`,
      references: { short: `!${iid}`, relative: `!${iid}`, full: `${publicProject.path_with_namespace}!${iid}` },
      web_url: `${publicProject.web_url}/-/merge_requests/${iid}`,
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      squash: true, task_completion_status: { count: 2, completed_count: 1 }, has_conflicts: false, blocking_discussions_resolved: true,
      subscribed: true, changes_count: "1", diff_refs: { base_sha: main, head_sha: pushed.id, start_sha: main },
      merge_error: null, first_contribution: false, user: { can_merge: true },
    });
    expect(Date.parse(res.body.created_at)).not.toBeNaN();
    expect((await t.anon.get(`${mrs(publicProject)}/${iid}`)).body).toMatchObject({ id: res.body.id, title: "Add a feature", subscribed: false });
  });

  it("numbers merge requests per project (iid) and marks Draft titles", async () => {
    const project = await createTeamProject(team, { visibility: "private" });
    const first = await createMergeRequest(developer.api, project.id, { title: "Draft: first" });
    const second = await createMergeRequest(developer.api, project.id, { title: "[Draft] second" });
    const third = await createMergeRequest(developer.api, project.id, { title: "(draft) third" });
    expect([first.iid, second.iid, third.iid]).toEqual([1, 2, 3]);
    for (const mr of [first, second, third]) expect(mr).toMatchObject({ draft: true, work_in_progress: true, detailed_merge_status: "draft_status" });
  });

  it.each([
    ["anonymous", 401, UNAUTHORIZED, 401, UNAUTHORIZED],
    ["stranger", 403, FORBIDDEN, 404, PROJECT_NOT_FOUND],
    ["guest", 403, FORBIDDEN, 403, FORBIDDEN],
    ["reporter", 403, FORBIDDEN, 403, FORBIDDEN],
    ["developer", 201, null, 201, null],
    ["maintainer", 201, null, 201, null],
    ["owner", 201, null, 201, null],
    ["admin", 201, null, 201, null],
  ])("as %s: public %s %j, private %s %j", async (actor, publicStatus, publicBody, privateStatus, privateBody) => {
    for (const [project, status, body] of [[publicProject, publicStatus, publicBody], [privateProject, privateStatus, privateBody]] as const) {
      const source = uniq("feature");
      await createBranch(owner.api, project.id, source);
      const res = await actors()[actor]!.post(mrs(project), { title: `By ${actor}`, source_branch: source, target_branch: "main" });
      expect(res.status, `${actor} ${project.visibility}: ${res.text}`).toBe(status);
      if (body) expect(res.body).toEqual(body);
      else expect(res.body).toMatchObject({ title: `By ${actor}`, source_branch: source, state: "opened" });
    }
  });

  it("needs the merge requests feature: 403 when it is disabled, even for the owner and admins", async () => {
    const project = await createTeamProject(team, { visibility: "public", merge_requests_access_level: "disabled" });
    await createBranch(owner.api, project.id, "topic");
    for (const api of [owner.api, t.root]) {
      const res = await api.post(mrs(project), { title: "t", source_branch: "topic", target_branch: "main" });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
  });

  describe("bad input", () => {
    it.each([
      [{}, "title is missing, source_branch is missing, target_branch is missing"],
      [{ source_branch: "a", target_branch: "main" }, "title is missing"],
      [{ title: "t", target_branch: "main" }, "source_branch is missing"],
      [{ title: "t", source_branch: "a" }, "target_branch is missing"],
      [{ title: "t", source_branch: "a", target_branch: "main", assignee_ids: "x" }, "assignee_ids is invalid"],
      [{ title: "t", source_branch: "a", target_branch: "main", squash: "maybe" }, "squash is invalid"],
    ])("%j: 400 %s", async (body, error) => {
      const res = await developer.api.post(mrs(publicProject), body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error });
    });

    it("unknown branches: 400 with the errors by field", async () => {
      const source = uniq("feature");
      await createBranch(developer.api, publicProject.id, source);
      const cases: [Record<string, string>, Record<string, string[]>][] = [
        [{ source_branch: "no-such-branch", target_branch: "main" }, { source_branch: ["does not exist"] }],
        [{ source_branch: source, target_branch: "no-such-target" }, { target_branch: ["does not exist"] }],
        [{ source_branch: "gone-a", target_branch: "gone-b" }, { source_branch: ["does not exist"], target_branch: ["does not exist"] }],
        [{ source_branch: "bad..name", target_branch: "main" }, { source_branch: ["is invalid", "does not exist"] }],
      ];
      for (const [branches, errors] of cases) {
        const res = await developer.api.post(mrs(publicProject), { title: "t", ...branches });
        expect(res.status, JSON.stringify(branches)).toBe(400);
        expect(res.body).toEqual({ message: errors });
      }
    });

    it("a blank or too long title and a too long description: 400 by field", async () => {
      const source = uniq("feature");
      await createBranch(developer.api, publicProject.id, source);
      const blank = await developer.api.post(mrs(publicProject), { title: "  ", source_branch: source, target_branch: "main" });
      expect(blank.status).toBe(400);
      expect(blank.body).toEqual({ message: { title: ["can't be blank"] } });
      const long = await developer.api.post(mrs(publicProject), {
        title: "x".repeat(256), description: "d".repeat(1_048_577), source_branch: source, target_branch: "main",
      });
      expect(long.status).toBe(400);
      expect(long.body).toEqual({
        message: { title: ["is too long (maximum is 255 characters)"], description: ["is too long (maximum is 1048576 characters)"] },
      });
    });

    it("the same source and target branch: 422", async () => {
      const res = await developer.api.post(mrs(publicProject), { title: "t", source_branch: "main", target_branch: "main" });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: ["You can't use same project/branch for source and target"] });
    });

    it("another open merge request for the same branches: 409 naming it; allowed again once it is closed", async () => {
      const open = await createMergeRequest(developer.api, publicProject.id);
      const again = { title: "again", source_branch: open.source_branch, target_branch: "main" };
      const res = await developer.api.post(mrs(publicProject), again);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: [`Another open merge request already exists for this source branch: !${open.iid}`] });
      expect((await developer.api.put(`${mrs(publicProject)}/${open.iid}`, { state_event: "close" })).status).toBe(200);
      const later = await developer.api.post(mrs(publicProject), again);
      expect(later.status).toBe(201);
      expect(later.body.iid).toBe(open.iid + 1);
    });
  });

  it("keeps only assignees and reviewers who can read the project's merge requests", async () => {
    const res = await createMergeRequest(developer.api, privateProject.id, {
      assignee_ids: [stranger.id, reporter.id, 999999, guest.id], reviewer_ids: `${maintainer.id},${stranger.id}`,
    });
    expect(res.assignees.map((u: any) => u.id)).toEqual([reporter.id]);
    expect(res.reviewers.map((u: any) => u.id)).toEqual([maintainer.id]);
    const single = await createMergeRequest(developer.api, privateProject.id, { assignee_id: owner.id, assignee_ids: [reporter.id] });
    expect(single.assignees.map((u: any) => u.id)).toEqual([owner.id]);
  });
});

describe("GET /projects/:id/merge_requests/:merge_request_iid", () => {
  let publicMr: any;
  let privateMr: any;
  beforeAll(async () => {
    publicMr = await createMergeRequest(developer.api, publicProject.id);
    privateMr = await createMergeRequest(developer.api, privateProject.id);
  });

  it.each(READ_STATUSES)("as %s: public %s, private %s", async (actor, publicStatus, privateStatus) => {
    const api = actors()[actor]!;
    const pub = await api.get(`${mrs(publicProject)}/${publicMr.iid}`);
    expect(pub.status).toBe(publicStatus);
    expect(pub.body).toMatchObject({ id: publicMr.id, iid: publicMr.iid, title: publicMr.title });
    const priv = await api.get(`${mrs(privateProject)}/${privateMr.iid}`);
    expect(priv.status).toBe(privateStatus);
    if (privateStatus === 200) expect(priv.body).toMatchObject({ id: privateMr.id, title: privateMr.title });
    else expect(priv.body).toEqual(privateStatus === 404 ? PROJECT_NOT_FOUND : FORBIDDEN);
  });

  it("answers 404 for an unknown iid and 400 for one that is not an integer", async () => {
    const missing = await developer.api.get(`${mrs(publicProject)}/999999`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);
    const invalid = await developer.api.get(`${mrs(publicProject)}/abc`);
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: "merge_request_iid is invalid" });
  });

  it("finds the project by its full path", async () => {
    const res = await t.anon.get(`/projects/${encodeURIComponent(publicProject.path_with_namespace)}/merge_requests/${publicMr.iid}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(publicMr.id);
  });

  it("merge requests for members only in a public project: Reporters and above read them, others get 403", async () => {
    const project = await createTeamProject(team, { visibility: "public", merge_requests_access_level: "private" });
    const mr = await createMergeRequest(developer.api, project.id);
    const expected: Record<string, number> = { anonymous: 403, stranger: 403, guest: 403, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 };
    for (const [actor, api] of Object.entries(actors())) {
      expect((await api.get(`${mrs(project)}/${mr.iid}`)).status, actor).toBe(expected[actor]);
      expect((await api.get(mrs(project))).status, actor).toBe(expected[actor]);
    }
  });

  it("counts the non-system notes of the merge request", async () => {
    const mr = await createMergeRequest(developer.api, publicProject.id);
    const note = { projectId: publicProject.id, noteableType: "MergeRequest", noteableId: mr.id, authorId: developer.id };
    await t.services.db.note.createMany({ data: [{ ...note, body: "one" }, { ...note, body: "two" }, { ...note, body: "changed the title", system: true }] });
    expect((await t.anon.get(`${mrs(publicProject)}/${mr.iid}`)).body.user_notes_count).toBe(2);
    const listed = (await t.anon.get(mrs(publicProject), { query: { iids: String(mr.iid) } })).body;
    expect(listed.map((m: any) => m.user_notes_count)).toEqual([2]);
  });
});

describe("the head sha follows the source branch", () => {
  it("a commit pushed to the source branch becomes the MR's sha and head of its diff refs", async () => {
    const mr = await createMergeRequest(developer.api, publicProject.id);
    const main = mr.diff_refs.start_sha;
    const first = await commitTo(developer.api, publicProject.id, mr.source_branch, "docs/one.md");
    const second = await commitTo(developer.api, publicProject.id, mr.source_branch, "docs/two.md");
    const res = await t.anon.get(`${mrs(publicProject)}/${mr.iid}`);
    expect(res.body).toMatchObject({
      sha: second.id, changes_count: "3", merge_status: "can_be_merged", detailed_merge_status: "mergeable",
      diff_refs: { base_sha: main, head_sha: second.id, start_sha: main },
    });
    expect(first.id).not.toBe(second.id);
    expect((await t.anon.get(mrs(publicProject), { query: { iids: String(mr.iid) } })).body[0].sha).toBe(second.id);
  });

  it("a commit to the target branch moves neither the MR's sha nor its diff_refs (those of its latest diff version)", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const mr = await createMergeRequest(developer.api, project.id);
    const onSource = await commitTo(developer.api, project.id, mr.source_branch);
    await commitTo(developer.api, project.id, "main");
    const res = await t.anon.get(`${mrs(project)}/${mr.iid}`);
    expect(res.body.sha).toBe(onSource.id);
    // GitLab's RefreshService takes no new version for a push to the target alone
    expect(res.body.diff_refs).toEqual({ base_sha: mr.diff_refs.base_sha, head_sha: onSource.id, start_sha: mr.diff_refs.start_sha });
  });

  it("a deleted source branch leaves the last sha and makes the MR unmergeable; closed MRs stay as they were", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const mr = await createMergeRequest(developer.api, project.id);
    const closed = await createMergeRequest(developer.api, project.id, { source_branch: "closed-one" });
    await developer.api.put(`${mrs(project)}/${closed.iid}`, { state_event: "close" });
    const pushed = await commitTo(developer.api, project.id, mr.source_branch);
    for (const branch of [mr.source_branch, "closed-one"]) {
      const removed = await developer.api.delete(`/projects/${project.id}/repository/branches/${branch}`);
      expect(removed.status, removed.text).toBe(204);
    }
    const res = await t.anon.get(`${mrs(project)}/${mr.iid}`);
    expect(res.body).toMatchObject({ sha: pushed.id, merge_status: "cannot_be_merged", detailed_merge_status: "commits_status", has_conflicts: true });
    expect((await t.anon.get(`${mrs(project)}/${closed.iid}`)).body).toMatchObject({ merge_status: "can_be_merged", detailed_merge_status: "not_open" });
  });

  it("a deleted target branch makes its open MRs unmergeable until the branch is back", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    await createBranch(developer.api, project.id, "release");
    const mr = await createMergeRequest(developer.api, project.id, { target_branch: "release" });
    await developer.api.delete(`/projects/${project.id}/repository/branches/release`);
    expect((await t.anon.get(`${mrs(project)}/${mr.iid}`)).body).toMatchObject({ merge_status: "cannot_be_merged", detailed_merge_status: "conflict" });
    await createBranch(developer.api, project.id, "release");
    expect((await t.anon.get(`${mrs(project)}/${mr.iid}`)).body).toMatchObject({ merge_status: "can_be_merged", detailed_merge_status: "mergeable" });
  });
});

describe("PUT /projects/:id/merge_requests/:merge_request_iid", () => {
  it("changes title, description, target branch, labels, squash and the source-branch removal", async () => {
    const mr = await createMergeRequest(developer.api, publicProject.id, { labels: "one,two" });
    await createBranch(developer.api, publicProject.id, "next-target");
    const url = `${mrs(publicProject)}/${mr.iid}`;
    const res = await maintainer.api.put(url, {
      title: "Draft: renamed", description: "new text", target_branch: "next-target", squash: true, remove_source_branch: false,
      add_labels: "three", remove_labels: "one",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: mr.id, title: "Draft: renamed", description: "new text", target_branch: "next-target", draft: true, squash: true,
      force_remove_source_branch: false, labels: ["three", "two"], author: userBasic(developer),
    });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(mr.updated_at));
    // the labels filter follows the change (the merge request's label links, written with the change)
    const iidsWith = async (labels: string) => (await t.anon.get(`${mrs(publicProject)}?labels=${labels}&state=all`)).body.map((m: any) => m.iid);
    expect(await iidsWith("three,two")).toContain(mr.iid);
    expect(await iidsWith("one")).not.toContain(mr.iid);
    expect((await maintainer.api.put(url, { labels: "" })).body.labels).toEqual([]);
    expect(await iidsWith("two")).not.toContain(mr.iid);
    expect((await t.anon.get(url)).body).toMatchObject({ title: "Draft: renamed", target_branch: "next-target" });
  });

  it("closes and reopens (state_event): closed_by and closed_at while closed", async () => {
    const mr = await createMergeRequest(developer.api, publicProject.id);
    const url = `${mrs(publicProject)}/${mr.iid}`;
    const closed = await maintainer.api.put(url, { state_event: "close" });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ state: "closed", closed_by: userBasic(maintainer), detailed_merge_status: "not_open" });
    expect(Date.parse(closed.body.closed_at)).not.toBeNaN();
    const again = await maintainer.api.put(url, { state_event: "close" });
    expect(again.body).toMatchObject({ state: "closed", closed_at: closed.body.closed_at });
    const reopened = await developer.api.put(url, { state_event: "reopen" });
    expect(reopened.body).toMatchObject({ state: "opened", closed_by: null, closed_at: null, merge_status: "can_be_merged" });
  });

  it("assignees and reviewers: replaced, readers only, 0 or empty unassigns", async () => {
    const mr = await createMergeRequest(developer.api, privateProject.id, { assignee_ids: [developer.id], reviewer_ids: [reporter.id] });
    const url = `${mrs(privateProject)}/${mr.iid}`;
    const res = await developer.api.put(url, { assignee_ids: [maintainer.id, stranger.id], reviewer_ids: [owner.id, reporter.id] });
    expect(res.body.assignees.map((u: any) => u.id)).toEqual([maintainer.id]);
    expect(res.body.reviewers.map((u: any) => u.id).sort()).toEqual([owner.id, reporter.id].sort());
    expect((await developer.api.put(url, { assignee_id: reporter.id })).body.assignees.map((u: any) => u.id)).toEqual([reporter.id]);
    expect((await developer.api.put(url, { assignee_ids: [0] })).body).toMatchObject({ assignees: [], assignee: null });
    expect((await developer.api.put(url, { reviewer_ids: "" })).body.reviewers).toEqual([]);
  });

  it.each([
    ["anonymous", 401, 401],
    ["stranger", 403, 404],
    ["guest", 403, 403],
    ["reporter", 403, 403],
    ["developer", 200, 200],
    ["maintainer", 200, 200],
    ["owner", 200, 200],
    ["admin", 200, 200],
  ])("as %s: public %s, private %s", async (actor, publicStatus, privateStatus) => {
    for (const [project, status] of [[publicProject, publicStatus], [privateProject, privateStatus]] as const) {
      const mr = await createMergeRequest(maintainer.api, project.id);
      const res = await actors()[actor]!.put(`${mrs(project)}/${mr.iid}`, { title: `Edited by ${actor}` });
      expect(res.status, `${actor} ${project.visibility}`).toBe(status);
      if (status === 200) expect(res.body.title).toBe(`Edited by ${actor}`);
      else expect(res.body).toEqual(status === 401 ? UNAUTHORIZED : status === 404 ? PROJECT_NOT_FOUND : FORBIDDEN);
    }
  });

  it("the author or an assignee below Developer may edit, but their metadata changes are dropped", async () => {
    const mr = await createMergeRequest(developer.api, publicProject.id, { assignee_ids: [guest.id], labels: "kept" });
    expect(mr.assignees.map((u: any) => u.id)).toEqual([guest.id]);
    const res = await guest.api.put(`${mrs(publicProject)}/${mr.iid}`, { title: "Guest edit", labels: "mine", assignee_ids: [guest.id, reporter.id] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ title: "Guest edit", labels: ["kept"] });
    expect(res.body.assignees.map((u: any) => u.id)).toEqual([guest.id]);
    const closed = await guest.api.put(`${mrs(publicProject)}/${mr.iid}`, { state_event: "close" });
    expect(closed.body.state).toBe("closed");
  });

  describe("bad input", () => {
    let url: string;
    beforeAll(async () => {
      url = `${mrs(publicProject)}/${(await createMergeRequest(developer.api, publicProject.id)).iid}`;
    });

    it.each([
      [{}, "assignee_id, assignee_ids, reviewer_ids, description, labels, add_labels, remove_labels, milestone_id, remove_source_branch, allow_collaboration, squash, target_branch, title, state_event, discussion_locked are missing, at least one parameter must be provided"],
      [{ state_event: "merge" }, "state_event does not have a valid value"],
      [{ title: "" }, "title is empty"],
      [{ title: "   " }, "title is empty"],
      [{ target_branch: "" }, "target_branch is empty"],
      [{ discussion_locked: "sometimes" }, "discussion_locked is invalid"],
    ])("%j: 400 %s", async (body, error) => {
      const res = await developer.api.put(url, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error });
    });

    it("unknown iid: 404 Not found", async () => {
      const res = await developer.api.put(`${mrs(publicProject)}/999999`, { title: "x" });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    });

    it("target branch equal to the source: 422; a target that does not exist is allowed and unmergeable", async () => {
      const mr = (await t.anon.get(url)).body;
      const same = await developer.api.put(url, { target_branch: mr.source_branch });
      expect(same.status).toBe(422);
      expect(same.body).toEqual({ message: ["You can't use same project/branch for source and target"] });
      const gone = await developer.api.put(url, { target_branch: "not-there-yet" });
      expect(gone.status).toBe(200);
      expect(gone.body).toMatchObject({ target_branch: "not-there-yet", merge_status: "cannot_be_merged", has_conflicts: true });
      const invalid = await developer.api.put(url, { target_branch: "bad..name" });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toEqual({ message: { target_branch: ["is invalid"] } });
    });

    it("reopening while another MR for the same branches is open: 409", async () => {
      const first = await createMergeRequest(developer.api, publicProject.id);
      await developer.api.put(`${mrs(publicProject)}/${first.iid}`, { state_event: "close" });
      const second = await createMergeRequest(developer.api, publicProject.id, { source_branch: first.source_branch, createSourceBranch: false });
      const res = await developer.api.put(`${mrs(publicProject)}/${first.iid}`, { state_event: "reopen" });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: [`Another open merge request already exists for this source branch: !${second.iid}`] });
      expect((await t.anon.get(`${mrs(publicProject)}/${first.iid}`)).body.state).toBe("closed");
    });
  });
});

describe("GET /projects/:id/merge_requests", () => {
  let project: any;
  let a: any;
  let b: any;
  let c: any;
  beforeAll(async () => {
    project = await createTeamProject(team, { visibility: "public" });
    a = await createMergeRequest(developer.api, project.id, { title: "Alpha widget", labels: "bug", assignee_ids: [developer.id], reviewer_ids: [reporter.id] });
    b = await createMergeRequest(maintainer.api, project.id, { title: "Draft: beta", description: "about the widget", target_branch: "main" });
    c = await createMergeRequest(developer.api, project.id, { title: "Gamma", labels: "bug,ui" });
    await developer.api.put(`${mrs(project)}/${c.iid}`, { state_event: "close" });
  });

  const iidsOf = async (query: Record<string, string | number> = {}, api: ApiClient = t.anon) => {
    const res = await api.get(mrs(project), { query });
    expect(res.status, res.text).toBe(200);
    return res.body.map((mr: any) => mr.iid);
  };

  it("lists every state, newest first, as MergeRequestBasic (no single-MR fields)", async () => {
    const res = await t.anon.get(mrs(project));
    expect(res.body.map((mr: any) => mr.iid)).toEqual([c.iid, b.iid, a.iid]);
    expect(res.body[2]).toMatchObject({ id: a.id, title: "Alpha widget", labels: ["bug"], state: "opened", references: { relative: `!${a.iid}` } });
    expect(res.body[2]).not.toHaveProperty("diff_refs");
    expect(res.body[2]).not.toHaveProperty("changes_count");
  });

  it.each([
    [{ state: "opened" }, () => [b.iid, a.iid]],
    [{ state: "closed" }, () => [c.iid]],
    [{ state: "merged" }, () => []],
    [{ order_by: "title", sort: "asc" }, () => [a.iid, b.iid, c.iid]],
    [{ sort: "asc" }, () => [a.iid, b.iid, c.iid]],
    [{ labels: "bug" }, () => [c.iid, a.iid]],
    [{ labels: "bug,ui" }, () => [c.iid]],
    [{ labels: "None" }, () => [b.iid]],
    [{ labels: "Any" }, () => [c.iid, a.iid]],
    [{ author_id: "maintainer" }, () => [b.iid]],
    [{ author_username: "maintainer" }, () => [b.iid]],
    [{ assignee_id: "developer" }, () => [a.iid]],
    [{ assignee_id: "None" }, () => [c.iid, b.iid]],
    [{ assignee_id: "any" }, () => [a.iid]],
    [{ reviewer_id: "reporter" }, () => [a.iid]],
    [{ reviewer_username: "reporter" }, () => [a.iid]],
    [{ search: "widget" }, () => [b.iid, a.iid]],
    [{ search: "widget", in: "title" }, () => [a.iid]],
    [{ wip: "yes" }, () => [b.iid]],
    [{ wip: "no" }, () => [c.iid, a.iid]],
    [{ target_branch: "main" }, () => [c.iid, b.iid, a.iid]],
    [{ target_branch: "other" }, () => []],
  ])("filters %j", async (query, expected) => {
    const people: Record<string, TestUser> = { developer, maintainer, reporter };
    const resolved = Object.fromEntries(Object.entries(query).map(([key, value]) => {
      const person = people[value];
      if (!person) return [key, value];
      return [key, key.endsWith("_username") ? person.username : person.id];
    }));
    expect(await iidsOf(resolved)).toEqual(expected());
  });

  it("filters by source branch, iids and scope", async () => {
    expect(await iidsOf({ source_branch: b.source_branch })).toEqual([b.iid]);
    expect(await t.anon.get(mrs(project), { query: { "iids[]": a.iid } }).then((r) => r.body.map((m: any) => m.iid))).toEqual([a.iid]);
    expect(await iidsOf({ scope: "created_by_me" }, maintainer.api)).toEqual([b.iid]);
    expect(await iidsOf({ scope: "assigned-to-me" }, developer.api)).toEqual([a.iid]);
    expect(await iidsOf({ scope: "all" }, developer.api)).toEqual([c.iid, b.iid, a.iid]);
    expect(await iidsOf({ created_after: a.created_at, created_before: b.created_at })).toEqual([b.iid, a.iid]);
  });

  it.each([
    [{ state: "draft" }, "state does not have a valid value"],
    [{ order_by: "size" }, "order_by does not have a valid value"],
    [{ sort: "up" }, "sort does not have a valid value"],
    [{ scope: "mine" }, "scope does not have a valid value"],
    [{ wip: "maybe" }, "wip does not have a valid value"],
    [{ author_id: "x" }, "author_id is invalid"],
    [{ assignee_id: "someone" }, "assignee_id should be an integer, none, or any, however got someone"],
    [{ author_id: 1, author_username: "root" }, "author_id, author_username are mutually exclusive"],
    [{ created_after: "yesterday" }, "created_after is invalid"],
  ])("bad filter %j: 400", async (query, error) => {
    const res = await t.anon.get(mrs(project), { query });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
  });

  it("paginates with GitLab's headers and Link", async () => {
    const res = await t.anon.get(mrs(project), { query: { per_page: 2 } });
    expect(res.body.map((mr: any) => mr.iid)).toEqual([c.iid, b.iid]);
    expect(res.headers.get("x-total")).toBe("3");
    expect(res.headers.get("x-total-pages")).toBe("2");
    expect(res.headers.get("x-page")).toBe("1");
    expect(res.headers.get("x-per-page")).toBe("2");
    expect(res.headers.get("x-next-page")).toBe("2");
    expect(res.headers.get("x-prev-page")).toBe("");
    const next = parseLinks(res.headers.get("link")).next!;
    expect(next).toContain(`/api/v4/projects/${project.id}/merge_requests?`);
    const page2 = await t.anon.get(next.replace("http://forgeline.test/api/v4", ""), { raw: true });
    expect(page2.body.map((mr: any) => mr.iid)).toEqual([a.iid]);
  });

  it.each(READ_STATUSES)("as %s: public %s, private %s", async (actor, publicStatus, privateStatus) => {
    const api = actors()[actor]!;
    expect((await api.get(mrs(publicProject))).status).toBe(publicStatus);
    const priv = await api.get(mrs(privateProject));
    expect(priv.status).toBe(privateStatus);
    if (privateStatus === 200) expect(priv.body.length).toBeGreaterThan(0);
    else expect(priv.body).toEqual(privateStatus === 404 ? PROJECT_NOT_FOUND : FORBIDDEN);
  });
});

describe("GET /merge_requests and GET /groups/:id/merge_requests", () => {
  let author: TestUser;
  let mine: any;
  let hidden: any;
  beforeAll(async () => {
    author = await createUser(t);
    const open = await createProject(author.api, { visibility: "public" });
    const closedOff = await createProject(author.api, { visibility: "private" });
    mine = await createMergeRequest(author.api, open.id, { assignee_ids: [author.id] });
    hidden = await createMergeRequest(author.api, closedOff.id);
  });

  it("needs a token unless scope=all; scope=all shows anonymous callers public merge requests only", async () => {
    const res = await t.anon.get("/merge_requests");
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    const all = await t.anon.get("/merge_requests", { query: { scope: "all", per_page: 100 } });
    expect(all.status).toBe(200);
    const ids = all.body.map((mr: any) => mr.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(hidden.id);
  });

  it("defaults to the caller's own merge requests (created_by_me) across their projects", async () => {
    const res = await author.api.get("/merge_requests");
    expect(res.body.map((mr: any) => mr.id)).toEqual([hidden.id, mine.id]);
    expect(res.body[0].references.relative).toBe(`!${hidden.iid}`);
    expect((await author.api.get("/merge_requests", { query: { scope: "assigned_to_me" } })).body.map((mr: any) => mr.id)).toEqual([mine.id]);
    expect((await stranger.api.get("/merge_requests")).body.map((mr: any) => mr.id)).not.toContain(mine.id);
    const seen = (await stranger.api.get("/merge_requests", { query: { scope: "all", author_id: author.id } })).body.map((mr: any) => mr.id);
    expect(seen).toEqual([mine.id]);
    const admin = (await t.root.get("/merge_requests", { query: { scope: "all", author_id: author.id } })).body.map((mr: any) => mr.id);
    expect(admin).toEqual([hidden.id, mine.id]);
  });

  it("lists a group's merge requests with references relative to the group", async () => {
    const group = await createGroup(owner.api, { visibility: "public" });
    const inGroup = await createProject(owner.api, { namespace_id: group.id, visibility: "public" });
    const mr = await createMergeRequest(owner.api, inGroup.id);
    const res = await t.anon.get(`/groups/${group.id}/merge_requests`);
    expect(res.status).toBe(200);
    expect(res.body.map((m: any) => m.id)).toEqual([mr.id]);
    expect(res.body[0]).toMatchObject({ reference: `${inGroup.path}!${mr.iid}`, references: { relative: `${inGroup.path}!${mr.iid}` } });
    expect((await t.anon.get("/groups/999999/merge_requests")).body).toEqual({ message: "404 Group Not Found" });
  });
});

describe("rules merge requests share with issues", () => {
  it("labels: stored once and listed in GitLab's (bytewise) order; the filter matches titles exactly", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const mr = await createMergeRequest(developer.api, project.id, { labels: "zeta, Beta ,alpha,zeta" });
    expect(mr.labels).toEqual(["Beta", "alpha", "zeta"]);
    const url = `${mrs(project)}/${mr.iid}`;
    expect((await developer.api.put(url, { add_labels: "Alpha", remove_labels: "zeta" })).body.labels).toEqual(["Alpha", "Beta", "alpha"]);
    const bare = await createMergeRequest(developer.api, project.id);
    const iids = async (labels: string) => (await t.anon.get(mrs(project), { query: { labels } })).body.map((m: any) => m.iid);
    expect(await iids("alpha")).toEqual([mr.iid]);
    expect(await iids("ALPHA")).toEqual([]);
    expect(await iids("alph")).toEqual([]);
    expect(await iids("Alpha,Beta")).toEqual([mr.iid]);
    expect(await iids("No Label")).toEqual([bare.iid]);
    expect(await iids("None")).toEqual([bare.iid]);
    expect(await iids("Any")).toEqual([mr.iid]);
    const page = await t.anon.get(mrs(project), { query: { labels: "Beta", per_page: 1 } });
    expect(page.headers.get("x-total")).toBe("1");
  });

  it("people are listed by user id, whatever order they were given in", async () => {
    const [first, second] = [developer, reporter].sort((a, b) => a.id - b.id);
    const mr = await createMergeRequest(developer.api, privateProject.id, { assignee_ids: [second.id, first.id], reviewer_ids: [second.id, first.id] });
    expect(mr.assignees.map((u: any) => u.id)).toEqual([first.id, second.id]);
    expect(mr.assignee.id).toBe(first.id);
    expect(mr.reviewers.map((u: any) => u.id)).toEqual([first.id, second.id]);
  });

  it("a locked discussion cannot be reopened (state_event reopen leaves it closed), as for issues", async () => {
    const mr = await createMergeRequest(developer.api, publicProject.id);
    const url = `${mrs(publicProject)}/${mr.iid}`;
    await developer.api.put(url, { state_event: "close", discussion_locked: true });
    const res = await maintainer.api.put(url, { state_event: "reopen" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: "closed", discussion_locked: true });
    const unlocked = await maintainer.api.put(url, { discussion_locked: false });
    expect(unlocked.body).toMatchObject({ state: "closed", discussion_locked: false });
    expect((await maintainer.api.put(url, { state_event: "reopen" })).body).toMatchObject({ state: "opened" });
  });

  it("an archived project takes no new merge requests and no changes (403), but still shows them", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const mr = await createMergeRequest(developer.api, project.id);
    const source = uniq("feature");
    await createBranch(developer.api, project.id, source);
    expect((await owner.api.put(`/projects/${project.id}`, { archived: true })).status).toBe(200);
    for (const api of [developer.api, owner.api, t.root]) {
      const created = await api.post(mrs(project), { title: "Late", source_branch: source, target_branch: "main" });
      expect(created).toMatchObject({ status: 403, body: FORBIDDEN });
      expect(await api.put(`${mrs(project)}/${mr.iid}`, { title: "Late" })).toMatchObject({ status: 403, body: FORBIDDEN });
    }
    expect(await t.anon.get(`${mrs(project)}/${mr.iid}`)).toMatchObject({ status: 200, body: { title: mr.title } });
  });
});

describe("the merge_request domain event", () => {
  const events: MergeRequestEvent[] = [];
  subscribe("merge_request", async (_tx, event) => {
    events.push(event);
  });

  it("open on create; update, close and reopen on PUT; nothing when the PUT changes nothing", async () => {
    events.length = 0;
    const mr = await createMergeRequest(developer.api, privateProject.id, { title: "Evented" });
    const url = `${mrs(privateProject)}/${mr.iid}`;
    await developer.api.put(url, { title: "Evented, renamed" });
    await maintainer.api.put(url, { state_event: "close" });
    await maintainer.api.put(url, { state_event: "close" });
    await developer.api.put(url, { state_event: "reopen", title: "Evented, reopened" });
    const base = { projectId: privateProject.id, mergeRequestId: mr.id };
    expect(events.map(({ changes, ...event }) => event)).toEqual([
      { ...base, action: "open", actorId: developer.id },
      { ...base, action: "update", actorId: developer.id },
      { ...base, action: "close", actorId: maintainer.id },
      { ...base, action: "reopen", actorId: developer.id },
    ]);
    expect(events[1]!.changes.title).toEqual({ previous: "Evented", current: "Evented, renamed" });
    expect(events[2]!.changes.state).toEqual({ previous: "opened", current: "closed" });
    expect(events[3]!.changes).toMatchObject({ state: { previous: "closed", current: "opened" }, title: { previous: "Evented, renamed", current: "Evented, reopened" } });
  });
});
