// Merge requests over /graphql: createMergeRequest, updateMergeRequest, projectMergeRequest,
// projectMergeRequests, groupMergeRequests and mergeRequests run the same domain functions as
// REST (same rules, GitLab's errors in extensions) and agree with what REST shows.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { gitlabError } from "../helpers/errors.js";
import { uniq, type TestUser } from "../helpers/factories.js";
import { commitTo, createBranch, createMergeRequest } from "../helpers/merge-requests.js";
import { createTeam, createTeamProject } from "../helpers/team.js";

let t: TestApp;
let owner: TestUser;
let developer: TestUser;
let guest: TestUser;
let project: any;

const FIELDS = `id iid project_id title description state source_branch target_branch sha merge_status detailed_merge_status
  draft labels author { id username } assignees { id } reviewers { id } references { short relative full } web_url`;
const DETAIL = `${FIELDS} subscribed changes_count diff_refs { base_sha head_sha start_sha } user { can_merge }`;

const CREATE = `mutation($id: ID!, $title: String!, $source: String!, $target: String!, $labels: [String!], $assignees: [Int!]) {
  createMergeRequest(id: $id, title: $title, source_branch: $source, target_branch: $target, labels: $labels, assignee_ids: $assignees) { ${DETAIL} }
}`;
const UPDATE = `mutation($id: ID!, $iid: Int!, $title: String, $state_event: MergeRequestStateEvent, $target: String) {
  updateMergeRequest(id: $id, merge_request_iid: $iid, title: $title, state_event: $state_event, target_branch: $target) { ${DETAIL} closed_by { id } }
}`;
const ONE = `query($id: ID!, $iid: Int!) { projectMergeRequest(id: $id, merge_request_iid: $iid) { ${DETAIL} } }`;
const LIST = `query($id: ID!, $state: MergeRequestStateFilter, $labels: [String!], $page: Int, $per_page: Int) {
  projectMergeRequests(id: $id, state: $state, labels: $labels, page: $page, per_page: $per_page) { ${FIELDS} }
}`;
const ALL = `query($scope: String) { mergeRequests(scope: $scope) { id iid } }`;

beforeAll(async () => {
  t = await startTestApp();
  const team = await createTeam(t);
  ({ owner, developer, guest } = team);
  project = await createTeamProject(team, { visibility: "private" });
});

describe("merge requests over GraphQL", () => {
  it("createMergeRequest gives the entity REST shows for the same merge request", async () => {
    const source = uniq("gql");
    await createBranch(developer.api, project.id, source);
    const res = await developer.api.graphql(CREATE, {
      id: String(project.id), title: "From GraphQL", source, target: "main", labels: ["b", "a"], assignees: [developer.id],
    });
    expect(res.body.errors).toBeUndefined();
    const created = res.body.data.createMergeRequest;
    expect(created).toMatchObject({
      iid: 1, project_id: project.id, title: "From GraphQL", state: "opened", source_branch: source, target_branch: "main",
      // a source branch with no commits of its own: GitLab's commits_status check
      merge_status: "cannot_be_merged", detailed_merge_status: "commits_status", draft: false, labels: ["a", "b"],
      author: { id: developer.id, username: developer.username }, assignees: [{ id: developer.id }], reviewers: [],
      references: { short: "!1", relative: "!1", full: `${project.path_with_namespace}!1` },
      web_url: `${project.web_url}/-/merge_requests/1`, subscribed: true, changes_count: "0", user: { can_merge: true },
    });
    const rest = await developer.api.get(`/projects/${project.id}/merge_requests/1`);
    expect(rest.body).toMatchObject(created);
  });

  it("projectMergeRequest and projectMergeRequests: the same access rules as REST", async () => {
    const mr = await createMergeRequest(developer.api, project.id, { labels: "gql-list" });
    const one = await developer.api.graphql(ONE, { id: project.path_with_namespace, iid: mr.iid });
    expect(one.body.data.projectMergeRequest).toMatchObject({ id: mr.id, sha: mr.sha, diff_refs: mr.diff_refs });
    const listed = await developer.api.graphql(LIST, { id: String(project.id), labels: ["gql-list"] });
    expect(listed.body.data.projectMergeRequests.map((m: any) => m.id)).toEqual([mr.id]);

    const byGuest = await guest.api.graphql(ONE, { id: String(project.id), iid: mr.iid });
    expect(byGuest.status).toBe(403);
    expect(gitlabError(byGuest)).toMatchObject({ http: { status: 403 }, gitlab: { message: "403 Forbidden" } });
    const anonymous = await t.anon.graphql(LIST, { id: String(project.id) });
    expect(gitlabError(anonymous).gitlab).toEqual({ message: "404 Project Not Found" });
    const missing = await developer.api.graphql(ONE, { id: String(project.id), iid: 999999 });
    expect(gitlabError(missing).gitlab).toEqual({ message: "404 Not found" });
  });

  it("updateMergeRequest closes and reopens; REST sees the change", async () => {
    const mr = await createMergeRequest(developer.api, project.id);
    const closed = await developer.api.graphql(UPDATE, { id: String(project.id), iid: mr.iid, state_event: "close", title: "Draft: closed" });
    expect(closed.body.data.updateMergeRequest).toMatchObject({ state: "closed", draft: true, title: "Draft: closed", closed_by: { id: developer.id } });
    expect((await owner.api.get(`/projects/${project.id}/merge_requests/${mr.iid}`)).body.state).toBe("closed");
    const states = await developer.api.graphql(LIST, { id: String(project.id), state: "closed" });
    expect(states.body.data.projectMergeRequests.map((m: any) => m.iid)).toContain(mr.iid);
    const reopened = await developer.api.graphql(UPDATE, { id: String(project.id), iid: mr.iid, state_event: "reopen" });
    expect(reopened.body.data.updateMergeRequest).toMatchObject({ state: "opened", closed_by: null });
  });

  it("the sha follows a commit on the source branch", async () => {
    const mr = await createMergeRequest(developer.api, project.id);
    const commit = await commitTo(developer.api, project.id, mr.source_branch);
    const one = await developer.api.graphql(ONE, { id: String(project.id), iid: mr.iid });
    expect(one.body.data.projectMergeRequest).toMatchObject({ sha: commit.id, changes_count: "2", diff_refs: { head_sha: commit.id } });
  });

  it("reports GitLab's errors in extensions", async () => {
    const mr = await createMergeRequest(developer.api, project.id);
    const vars = { id: String(project.id), title: "t", target: "main" };
    const duplicate = await developer.api.graphql(CREATE, { ...vars, source: mr.source_branch });
    expect(duplicate.status).toBe(409);
    expect(gitlabError(duplicate).gitlab).toEqual({ message: [`Another open merge request already exists for this source branch: !${mr.iid}`] });
    const same = await developer.api.graphql(CREATE, { ...vars, source: "main" });
    expect(same.status).toBe(422);
    const unknown = await developer.api.graphql(CREATE, { ...vars, source: "nowhere" });
    expect(gitlabError(unknown).gitlab).toEqual({ message: { source_branch: ["does not exist"] } });
    const byGuest = await guest.api.graphql(CREATE, { ...vars, source: mr.source_branch });
    expect(gitlabError(byGuest).gitlab).toEqual({ message: "403 Forbidden" });
    const anonymous = await t.anon.graphql(CREATE, { ...vars, source: mr.source_branch });
    expect(anonymous.status).toBe(401);
    const nothing = await developer.api.graphql(UPDATE, { id: String(project.id), iid: mr.iid });
    expect(gitlabError(nothing).gitlab.error).toMatch(/are missing, at least one parameter must be provided$/);
  });

  it("mergeRequests: the caller's own by default, anonymous callers need scope all", async () => {
    const mine = await createMergeRequest(owner.api, project.id);
    const own = await owner.api.graphql(ALL);
    expect(own.body.data.mergeRequests.map((m: any) => m.id)).toEqual([mine.id]);
    const anonymous = await t.anon.graphql(ALL);
    expect(gitlabError(anonymous).gitlab).toEqual({ message: "401 Unauthorized" });
    const everything = await t.anon.graphql(ALL, { scope: "all" });
    expect(everything.body.data.mergeRequests.map((m: any) => m.id)).not.toContain(mine.id);
  });
});
