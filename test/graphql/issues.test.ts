// Issues over /graphql: projectIssues, projectIssue, issues, createIssue and updateIssue run the
// same domain functions as REST (same rules; errors carry GitLab's status and body in extensions).
import { beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { gitlabError } from "../helpers/errors.js";
import { createProject, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createTeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let owner: TestUser, guest: TestUser, reporter: TestUser, stranger: TestUser;
let pub: any, priv: any;

const FIELDS = `id iid project_id title description state labels confidential web_url
  author { id username } assignees { id } assignee { id } closed_by { id } user_notes_count
  references { short relative full } _links { self project } task_completion_status { count completed_count } subscribed`;

const CREATE = `mutation($id: ID!, $title: String!, $labels: [String!], $assignee_ids: [Int!], $confidential: Boolean) {
  createIssue(id: $id, title: $title, labels: $labels, assignee_ids: $assignee_ids, confidential: $confidential) { ${FIELDS} }
}`;
const UPDATE = `mutation($id: ID!, $iid: Int!, $title: String, $state_event: IssueStateEvent) {
  updateIssue(id: $id, issue_iid: $iid, title: $title, state_event: $state_event) { ${FIELDS} }
}`;
const ONE = `query($id: ID!, $iid: Int!) { projectIssue(id: $id, issue_iid: $iid) { ${FIELDS} } }`;
const LIST = `query($id: ID!, $state: IssueStateFilter, $labels: [String!]) { projectIssues(id: $id, state: $state, labels: $labels) { iid } }`;
const ALL = `query($scope: String) { issues(scope: $scope, per_page: 100) { id references { relative } } }`;

beforeAll(async () => {
  t = await startTestApp();
  ({ owner, guest, reporter, nonMember: stranger, publicProject: pub, privateProject: priv } = await createTeamWithProjects(t));
});

describe("createIssue / updateIssue", () => {
  it("creates with labels and assignees, then retitles and closes", async () => {
    const created = await guest.api.graphql(CREATE, { id: String(priv.id), title: "From GraphQL", labels: ["b", "a"], assignee_ids: [reporter.id, stranger.id] });
    expect(created.body.errors).toBeUndefined();
    const issue = created.body.data.createIssue;
    expect(issue).toMatchObject({
      project_id: priv.id, title: "From GraphQL", state: "opened", labels: ["a", "b"], confidential: false,
      author: { id: guest.id }, assignees: [{ id: reporter.id }], assignee: { id: reporter.id }, closed_by: null,
      web_url: `${BASE_URL}/${priv.path_with_namespace}/-/issues/${issue.iid}`, user_notes_count: 0,
      references: { short: `#${issue.iid}`, relative: `#${issue.iid}`, full: `${priv.path_with_namespace}#${issue.iid}` },
      _links: { self: `${BASE_URL}/api/v4/projects/${priv.id}/issues/${issue.iid}`, project: `${BASE_URL}/api/v4/projects/${priv.id}` },
      task_completion_status: { count: 0, completed_count: 0 }, subscribed: true,
    });
    const updated = await reporter.api.graphql(UPDATE, { id: priv.path_with_namespace, iid: issue.iid, title: "Renamed", state_event: "close" });
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data.updateIssue).toMatchObject({ id: issue.id, title: "Renamed", state: "closed", closed_by: { id: reporter.id } });
  });

  it("needs a signed-in user, and answers GitLab's errors", async () => {
    const anonymous = await t.anon.graphql(CREATE, { id: String(pub.id), title: "x" });
    expect(gitlabError(anonymous)).toMatchObject({ http: { status: 401 }, gitlab: { message: "401 Unauthorized" } });
    const hidden = await stranger.api.graphql(CREATE, { id: String(priv.id), title: "x" });
    expect(gitlabError(hidden)).toMatchObject({ http: { status: 404 }, gitlab: { message: "404 Project Not Found" } });
    const blank = await owner.api.graphql(CREATE, { id: String(priv.id), title: " " });
    expect(gitlabError(blank)).toMatchObject({ http: { status: 400 }, gitlab: { message: { title: ["can't be blank"] } } });
    const issue = await createIssue(owner.api, priv.id);
    const forbidden = await guest.api.graphql(UPDATE, { id: String(priv.id), iid: issue.iid, title: "x" });
    expect(gitlabError(forbidden)).toMatchObject({ http: { status: 403 }, gitlab: { message: "403 Forbidden" } });
    const nothing = await owner.api.graphql(UPDATE, { id: String(priv.id), iid: issue.iid });
    expect(gitlabError(nothing)).toMatchObject({ http: { status: 400 } });
    expect(gitlabError(nothing).gitlab.error).toMatch(/are missing, at least one parameter must be provided$/);
  });
});

describe("projectIssue / projectIssues / issues", () => {
  it("reads by iid with the confidential rule", async () => {
    const secret = await createIssue(owner.api, pub.id, { confidential: true });
    expect((await reporter.api.graphql(ONE, { id: String(pub.id), iid: secret.iid })).body.data.projectIssue.id).toBe(secret.id);
    for (const api of [t.anon, stranger.api, guest.api]) {
      expect(gitlabError(await api.graphql(ONE, { id: String(pub.id), iid: secret.iid }))).toMatchObject({ http: { status: 404 }, gitlab: { message: "404 Not found" } });
    }
    expect(gitlabError(await t.anon.graphql(ONE, { id: String(priv.id), iid: 1 }))).toMatchObject({ gitlab: { message: "404 Project Not Found" } });
  });

  it("lists a project's issues with filters, and the caller's issues instance-wide", async () => {
    const project = await createProject(owner.api, { visibility: "public" });
    const first = await createIssue(owner.api, project.id, { labels: "x" });
    const second = await createIssue(stranger.api, project.id);
    await owner.api.put(`/projects/${project.id}/issues/${second.iid}`, { state_event: "close" });
    const all = await t.anon.graphql(LIST, { id: String(project.id) });
    expect(all.body.data.projectIssues.map((i: any) => i.iid)).toEqual([second.iid, first.iid]);
    expect((await t.anon.graphql(LIST, { id: String(project.id), state: "opened" })).body.data.projectIssues).toEqual([{ iid: first.iid }]);
    expect((await t.anon.graphql(LIST, { id: String(project.id), labels: ["x"] })).body.data.projectIssues).toEqual([{ iid: first.iid }]);
    const mine = await stranger.api.graphql(ALL, {});
    expect(mine.body.data.issues).toEqual([{ id: second.id, references: { relative: `#${second.iid}` } }]);
    expect(gitlabError(await t.anon.graphql(ALL, {}))).toMatchObject({ http: { status: 401 } });
  });
});
