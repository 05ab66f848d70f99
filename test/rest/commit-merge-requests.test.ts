// GET /projects/:id/repository/commits/:sha/merge_requests: the merge requests whose commits hold
// the commit (its source head has it, its target did not), or whose merge or squash commit it is,
// newest first, paginated, filtered by state, and only for callers who may read merge requests.
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../helpers/api.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { uniq } from "../helpers/factories.js";
import { commitTo, createMergeRequest } from "../helpers/merge-requests.js";
import { createTeam, createTeamProject, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let project: any;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  project = await createTeamProject(team, { visibility: "public", initialize_with_readme: true });
});

const mergeRequestsOf = (sha: string, by: ApiClient = team.reporter.api, query = "", p = project) =>
  by.get(`/projects/${p.id}/repository/commits/${sha}/merge_requests${query}`);
const iidsOf = async (sha: string, query = "") => {
  const res = await mergeRequestsOf(sha, team.reporter.api, query);
  expect(res.status, res.text).toBe(200);
  return res.body.map((mr: any) => mr.iid);
};
const headOf = async (branch: string) => (await t.root.get(`/projects/${project.id}/repository/branches/${branch}`)).body.commit.id;

describe("the merge requests of a commit", () => {
  it("lists an open merge request for each commit of its source branch, as the MergeRequestBasic entity", async () => {
    const mr = await createMergeRequest(team.developer.api, project.id);
    const second = await commitTo(team.developer.api, project.id, mr.source_branch);
    const first = (await t.root.get(`/projects/${project.id}/repository/commits/${second.parent_ids[0]}`)).body;
    const res = await mergeRequestsOf(second.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([expect.objectContaining({ id: mr.id, iid: mr.iid, project_id: project.id, title: mr.title, state: "opened", source_branch: mr.source_branch })]);
    expect(res.headers.get("x-total")).toBe("1");
    expect(await iidsOf(first.id)).toEqual([mr.iid]);
    expect(await iidsOf(mr.source_branch)).toEqual([mr.iid]); // a branch name names its head
  });

  it("lists a merged merge request for its merge commit and for its own commits, not for commits its target had", async () => {
    const mainBefore = await headOf("main");
    const mr = await createMergeRequest(team.developer.api, project.id);
    const commit = await t.root.get(`/projects/${project.id}/repository/commits/${mr.source_branch}`);
    const merged = await team.maintainer.api.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`);
    expect(merged.status, merged.text).toBe(200);
    expect(await iidsOf(merged.body.merge_commit_sha)).toEqual([mr.iid]);
    expect(await iidsOf(commit.body.id)).toEqual([mr.iid]);
    expect(await iidsOf(commit.body.id, "?state=opened")).toEqual([]);
    expect(await iidsOf(commit.body.id, "?state=merged")).toEqual([mr.iid]);
    expect(await iidsOf(mainBefore)).not.toContain(mr.iid);
  });

  it("lists a squash-merged merge request for its squash commit", async () => {
    const mr = await createMergeRequest(team.developer.api, project.id);
    await commitTo(team.developer.api, project.id, mr.source_branch);
    const merged = await team.maintainer.api.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { squash: true });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.squash_commit_sha).toBeTruthy();
    expect(await iidsOf(merged.body.squash_commit_sha)).toEqual([mr.iid]);
  });

  it("lists nothing for an unrelated commit; several merge requests newest first, paginated", async () => {
    const unrelated = await commitTo(team.developer.api, project.id, uniq("lonely"), undefined, "main");
    expect(await iidsOf(unrelated.id)).toEqual([]);
    const older = await createMergeRequest(team.developer.api, project.id);
    // a second merge request into main from a branch on top of the first one's source
    const stacked = uniq("stacked");
    await commitTo(team.developer.api, project.id, stacked, undefined, older.source_branch);
    const top = await createMergeRequest(team.developer.api, project.id, { source_branch: stacked, createSourceBranch: false });
    const shared = await headOf(older.source_branch);
    expect(await iidsOf(shared)).toEqual([top.iid, older.iid]);
    const page = await mergeRequestsOf(shared, team.reporter.api, "?per_page=1&page=2");
    expect(page.body.map((mr: any) => mr.iid)).toEqual([older.iid]);
    expect(page.headers.get("x-total")).toBe("2");
  });

  it("an unknown commit is a 404", async () => {
    const res = await mergeRequestsOf("0123456789abcdef0123456789abcdef01234567");
    expect([res.status, res.body]).toEqual([404, { message: "404 Commit Not Found" }]);
  });

  it("is hidden from callers who may not read merge requests", async () => {
    const membersOnly = await createTeamProject(team, { visibility: "public", initialize_with_readme: true, merge_requests_access_level: "private" });
    const mr = await createMergeRequest(team.developer.api, membersOnly.id);
    const sha = (await t.root.get(`/projects/${membersOnly.id}/repository/commits/${mr.source_branch}`)).body.id;
    // a members-only feature wants a Reporter for merge requests (GitLab's PRIVATE_FEATURES_MIN_ACCESS_LEVEL)
    for (const by of [t.anon, team.nonMember.api, team.guest.api]) {
      expect(await mergeRequestsOf(sha, by, "", membersOnly).then((res) => [res.status, res.body])).toEqual([403, { message: "403 Forbidden" }]);
    }
    expect((await mergeRequestsOf(sha, team.reporter.api, "", membersOnly)).body.map((m: any) => m.iid)).toEqual([mr.iid]);
    const secret = await createTeamProject(team, { visibility: "private", initialize_with_readme: true });
    const secretMr = await createMergeRequest(team.developer.api, secret.id);
    const secretSha = (await t.root.get(`/projects/${secret.id}/repository/commits/${secretMr.source_branch}`)).body.id;
    expect((await mergeRequestsOf(secretSha, t.anon, "", secret)).status).toBe(404);
    expect((await mergeRequestsOf(secretSha, team.nonMember.api, "", secret)).status).toBe(404);
    expect((await mergeRequestsOf(secretSha, team.reporter.api, "", secret)).body.map((m: any) => m.iid)).toEqual([secretMr.iid]);
  });
});
