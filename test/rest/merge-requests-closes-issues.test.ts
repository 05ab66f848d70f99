// GET /projects/:id/merge_requests/:merge_request_iid/closes_issues (MergeRequest#visible_closing_issues_for):
// the issues a merge request into the default branch closes, as its title and description say, in
// its project and in others, each shown only to those who may read it (confidential issues,
// private projects); none for a merge request into another branch; 404 for a hidden merge request.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { NOT_FOUND, PROJECT_NOT_FOUND } from "../helpers/errors.js";
import { createProject } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createBranch, createMergeRequest } from "../helpers/merge-requests.js";
import { ACTORS, clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let open: any;
let confidential: any;
let elsewhere: any;
let hiddenProject: any;
let hidden: any;
let mr: any;

const closesIssues = (projectId: number, iid: number) => `/projects/${projectId}/merge_requests/${iid}/closes_issues`;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  const project = team.publicProject;
  open = await createIssue(team.owner.api, project.id, { title: "Open one" });
  confidential = await createIssue(team.owner.api, project.id, { title: "Secret one", confidential: true });
  const other = await createProject(team.owner.api, { visibility: "public" });
  elsewhere = await createIssue(team.owner.api, other.id, { title: "Elsewhere" });
  hiddenProject = await createProject(team.owner.api, { visibility: "private" });
  hidden = await createIssue(team.owner.api, hiddenProject.id, { title: "Hidden" });
  mr = await createMergeRequest(team.developer.api, project.id, {
    title: `Fixes #${confidential.iid}`,
    description: `Closes #${open.iid}, #${open.iid} and ${other.path_with_namespace}#${elsewhere.iid}.\nResolves ${hiddenProject.path_with_namespace}#${hidden.iid}; mentions #999.`,
  });
});

/** What each actor reads: the confidential issue for Planners and up and admins, the private project's for its owner and admins. */
const EXPECTED: Record<Actor, () => number[]> = {
  anonymous: () => [open.id, elsewhere.id],
  nonMember: () => [open.id, elsewhere.id],
  guest: () => [open.id, elsewhere.id],
  reporter: () => [confidential.id, open.id, elsewhere.id],
  developer: () => [confidential.id, open.id, elsewhere.id],
  maintainer: () => [confidential.id, open.id, elsewhere.id],
  owner: () => [confidential.id, open.id, elsewhere.id, hidden.id],
  admin: () => [confidential.id, open.id, elsewhere.id, hidden.id],
};

describe("GET .../merge_requests/:merge_request_iid/closes_issues", () => {
  it.each(ACTORS)("lists the issues the merge request closes that %s may read, in the order written, each once", async (actor) => {
    const res = await clientOf(t, team, actor).get(closesIssues(team.publicProject.id, mr.iid));
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((issue: any) => issue.id)).toEqual(EXPECTED[actor]());
    expect(res.headers.get("x-total")).toBe(String(EXPECTED[actor]().length));
  });

  it("answers with GitLab's Issue entity, paginated", async () => {
    const res = await team.owner.api.get(closesIssues(team.publicProject.id, mr.iid), { query: { per_page: "1", page: "2" } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ id: open.id, iid: open.iid, project_id: team.publicProject.id, title: "Open one", state: "opened" });
    expect(res.body[0]).toEqual((await team.owner.api.get(`/projects/${team.publicProject.id}/issues/${open.iid}`)).body);
    expect(res.headers.get("x-next-page")).toBe("3");
  });

  it("is empty for a merge request into another branch than the default", async () => {
    await createBranch(team.owner.api, team.publicProject.id, "release");
    const other = await createMergeRequest(team.developer.api, team.publicProject.id, { target_branch: "release", description: `Closes #${open.iid}` });
    const res = await team.owner.api.get(closesIssues(team.publicProject.id, other.iid));
    expect([res.status, res.body]).toEqual([200, []]);
  });

  it("answers 404 for a merge request nobody can see and for an unknown one", async () => {
    const secret = await createMergeRequest(team.developer.api, team.privateProject.id, { description: `Closes #${open.iid}` });
    expect((await team.nonMember.api.get(closesIssues(team.privateProject.id, secret.iid))).body).toEqual(PROJECT_NOT_FOUND);
    expect((await t.anon.get(closesIssues(team.privateProject.id, secret.iid))).body).toEqual(PROJECT_NOT_FOUND);
    expect((await team.owner.api.get(closesIssues(team.publicProject.id, 9999))).body).toEqual(NOT_FOUND);
  });
});
