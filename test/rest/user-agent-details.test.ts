// User agent details (administrators only): the User-Agent and IP address of the request that
// created an issue or a project snippet, GET .../user_agent_detail per actor, 404s, and removal
// with the record. The peer address comes from the request's record (observability/request-scope),
// as the HTTP server's observeRequests sets it; in process the test sets it.
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient, ApiResponse } from "../helpers/api.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, NOT_FOUND, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { ACTORS, clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";
import { runInRequest } from "../../src/observability/request-scope.js";

let t: TestApp;
let team: TeamWithProjects;
let issue: any, snippet: any, bareIssue: any, bareSnippet: any;

const UA = "Mozilla/5.0 (X11; Linux x86_64) Forgeline-Test/1.0";
const IP = "203.0.113.42";
const DETAIL = { user_agent: UA, ip_address: IP, akismet_submitted: false };
const DETAIL_NOT_FOUND = { message: "404 UserAgentDetail Not Found" };

/** A request as it arrives over HTTP from `ip`. */
function fromPeer<T>(ip: string, send: () => Promise<ApiResponse<T>>) {
  return runInRequest({ correlationId: "test", method: "POST", path: "/", dbStatements: 0, dbRoundTrips: 0, dbMilliseconds: 0, remoteAddress: ip }, send);
}

const createIssue = (by: ApiClient, project: any, headers: Record<string, string> = { "User-Agent": UA }) =>
  fromPeer(IP, () => by.post(`/projects/${project.id}/issues`, { title: "Spam?" }, { headers }));
const createSnippet = (by: ApiClient, project: any, headers: Record<string, string> = { "User-Agent": UA }) =>
  fromPeer(IP, () => by.post(`/projects/${project.id}/snippets`, { title: "s", visibility: "private", file_name: "a.txt", content: "x" }, { headers }));

const issueDetail = (by: ApiClient, project: any, iid: number | string) => by.get(`/projects/${project.id}/issues/${iid}/user_agent_detail`);
const snippetDetail = (by: ApiClient, project: any, id: number | string) => by.get(`/projects/${project.id}/snippets/${id}/user_agent_detail`);

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  issue = (await createIssue(team.developer.api, team.privateProject)).body;
  snippet = (await createSnippet(team.developer.api, team.privateProject)).body;
  // without a User-Agent GitLab stores nothing (both are required)
  bareIssue = (await createIssue(team.developer.api, team.privateProject, {})).body;
  bareSnippet = (await createSnippet(team.developer.api, team.privateProject, {})).body;
});

describe("GET /projects/:id/issues/:issue_iid/user_agent_detail", () => {
  it("shows an administrator the creating request's User-Agent and IP address", async () => {
    const res = await issueDetail(t.root, team.privateProject, issue.iid);
    expect([res.status, res.body]).toEqual([200, DETAIL]);
    expect(Object.keys(res.body)).toEqual(["user_agent", "ip_address", "akismet_submitted"]);
  });

  it("also by the project's path", async () => {
    const res = await issueDetail(t.root, { id: encodeURIComponent(team.privateProject.path_with_namespace) }, issue.iid);
    expect([res.status, res.body]).toEqual([200, DETAIL]);
  });

  it.each(ACTORS.filter((a) => a !== "admin"))("refuses %s before looking anything up", async (actor: Actor) => {
    for (const iid of [issue.iid, 999999]) {
      const res = await issueDetail(clientOf(t, team, actor), team.privateProject, iid);
      expect([res.status, res.body]).toEqual(actor === "anonymous" ? [401, UNAUTHORIZED] : [403, FORBIDDEN]);
    }
  });

  it("answers 404 for an issue without a detail, an unknown issue and an unknown project", async () => {
    expect((await issueDetail(t.root, team.privateProject, bareIssue.iid)).body).toEqual(DETAIL_NOT_FOUND);
    const missing = await issueDetail(t.root, team.privateProject, 999999);
    expect(missing.status).toBe(404);
    const noProject = await issueDetail(t.root, { id: 999999 }, 1);
    expect([noProject.status, noProject.body]).toEqual([404, PROJECT_NOT_FOUND]);
  });

  it("is deleted with the issue", async () => {
    const doomed = (await createIssue(team.owner.api, team.privateProject)).body;
    expect((await issueDetail(t.root, team.privateProject, doomed.iid)).status).toBe(200);
    expect((await team.owner.api.delete(`/projects/${team.privateProject.id}/issues/${doomed.iid}`)).status).toBe(204);
    expect(await t.services.db.userAgentDetail.count({ where: { subjectType: "Issue", subjectId: doomed.id } })).toBe(0);
  });
});

describe("GET /projects/:id/snippets/:snippet_id/user_agent_detail", () => {
  it("shows an administrator the creating request's User-Agent and IP address", async () => {
    const res = await snippetDetail(t.root, team.privateProject, snippet.id);
    expect([res.status, res.body]).toEqual([200, DETAIL]);
  });

  it.each(ACTORS.filter((a) => a !== "admin"))("refuses %s (the project's own 404 first for those who cannot see it)", async (actor: Actor) => {
    const res = await snippetDetail(clientOf(t, team, actor), team.privateProject, snippet.id);
    const expected = actor === "anonymous" || actor === "nonMember" ? [404, PROJECT_NOT_FOUND] : [403, FORBIDDEN];
    expect([res.status, res.body]).toEqual(expected);
    if (actor === "anonymous") {
      const open = await snippetDetail(t.anon, team.publicProject, snippet.id);
      expect([open.status, open.body]).toEqual([401, UNAUTHORIZED]);
    }
  });

  it("answers 404 for a snippet without a detail, of another project, or unknown", async () => {
    expect((await snippetDetail(t.root, team.privateProject, bareSnippet.id)).body).toEqual(DETAIL_NOT_FOUND);
    expect((await snippetDetail(t.root, team.publicProject, snippet.id)).body).toEqual(NOT_FOUND);
    expect((await snippetDetail(t.root, team.privateProject, 999999)).body).toEqual(NOT_FOUND);
  });

  it("is deleted with the snippet and with the project", async () => {
    const doomed = (await createSnippet(team.owner.api, team.privateProject)).body;
    expect((await team.owner.api.delete(`/projects/${team.privateProject.id}/snippets/${doomed.id}`)).status).toBe(204);
    expect(await t.services.db.userAgentDetail.count({ where: { subjectType: "Snippet", subjectId: doomed.id } })).toBe(0);

    const project = (await team.owner.api.post("/projects", { name: `gone-${Date.now()}` })).body;
    const [i, s] = [(await createIssue(team.owner.api, project)).body, (await createSnippet(team.owner.api, project)).body];
    expect(await t.services.db.userAgentDetail.count({ where: { OR: [{ subjectType: "Issue", subjectId: i.id }, { subjectType: "Snippet", subjectId: s.id }] } })).toBe(2);
    expect((await t.root.delete(`/projects/${project.id}`, { query: { permanently_remove: true, full_path: project.path_with_namespace } })).status).toBeLessThan(300);
    await expect
      .poll(() => t.services.db.userAgentDetail.count({ where: { OR: [{ subjectType: "Issue", subjectId: i.id }, { subjectType: "Snippet", subjectId: s.id }] } }))
      .toBe(0);
  });
});
