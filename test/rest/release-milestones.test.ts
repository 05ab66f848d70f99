// Releases linked to milestones (GitLab's milestones / milestone_ids of Releases::CreateService and
// UpdateService): the project's and its group's milestones by title or id, GitLab's 400s for the
// others, the Release entity's `milestones` (Entities::MilestoneWithStats with issue_stats) per
// actor, replacing and clearing them on update, and a deleted milestone unlinked.
import { beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject, uniq } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { ACCESS_LEVEL, ACTORS, clientOf, createTeam, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let group: any, project: any, hidden: any, elsewhere: any;
let v1: any, v2: any, g1: any, foreign: any;

const releases = (p = project) => `/projects/${p.id}/releases`;

const MILESTONE_KEYS = ["id", "iid", "project_id", "title", "description", "state", "created_at", "updated_at", "due_date", "start_date", "expired", "web_url", "issue_stats"];

async function milestoneOf(path: string, title: string) {
  const res = await team.owner.api.post(`${path}/milestones`, { title });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  group = await createGroup(team.owner.api, { visibility: "public" });
  for (const [who, level] of [["maintainer", ACCESS_LEVEL.maintainer], ["developer", ACCESS_LEVEL.developer], ["reporter", ACCESS_LEVEL.reporter], ["guest", ACCESS_LEVEL.guest]] as const) {
    await addMember(team.owner.api, "groups", group.id, team[who].id, level);
  }
  project = await createProject(team.owner.api, { namespace_id: group.id, visibility: "private", initialize_with_readme: true });
  // public, but its issues and merge requests are for members only: read_milestone is not everyone's
  hidden = await createProject(team.owner.api, {
    namespace_id: group.id, visibility: "public", initialize_with_readme: true, issues_access_level: "private", merge_requests_access_level: "private",
  });
  elsewhere = await createProject(team.owner.api, { visibility: "private" });
  v1 = await milestoneOf(`/projects/${project.id}`, "v1");
  v2 = await milestoneOf(`/projects/${project.id}`, "v2");
  g1 = await milestoneOf(`/groups/${group.id}`, "g1");
  foreign = await milestoneOf(`/projects/${elsewhere.id}`, "other");
  await createIssue(team.owner.api, project.id, { milestone_id: v1.id });
  const closed = await createIssue(team.owner.api, project.id, { milestone_id: v1.id });
  expect((await team.owner.api.put(`/projects/${project.id}/issues/${closed.iid}`, { state_event: "close" })).status).toBe(200);
});

describe("creating a release with milestones", () => {
  it("refuses titles and ids that are not the project's or its group's (400, GitLab's texts), and bad params", async () => {
    const api = team.developer.api;
    let res = await api.post(releases(), { tag_name: "bad", ref: "main", milestones: ["v1", "nope", "other"] });
    expect([res.status, res.body]).toEqual([400, { message: "Milestone(s) not found: nope, other" }]);
    res = await api.post(releases(), { tag_name: "bad", ref: "main", milestone_ids: [v1.id, foreign.id] });
    expect([res.status, res.body]).toEqual([400, { message: `Milestone id(s) not found: ${foreign.id}` }]);
    res = await api.post(releases(), { tag_name: "bad", ref: "main", milestone_ids: ["abc"] });
    expect([res.status, res.body]).toEqual([400, { error: "milestone_ids is invalid" }]);
    res = await api.post(releases(), { tag_name: "bad", ref: "main", milestones: ["v1"], milestone_ids: [v1.id] });
    expect([res.status, res.body]).toEqual([400, { error: "milestones, milestone_ids Cannot specify milestones and milestone_ids at the same time" }]);
    // nothing was created: neither the tag nor a release
    expect((await team.owner.api.get(`/projects/${project.id}/repository/tags/bad`)).status).toBe(404);
    expect((await team.owner.api.get(releases())).body).toEqual([]);
    // a Reporter may not create one at all, with or without milestones
    expect((await team.reporter.api.post(releases(), { tag_name: "bad", ref: "main", milestones: ["v1"] })).status).toBe(403);
  });

  it("links the project's and the group's milestones by title, shown with GitLab's MilestoneWithStats", async () => {
    const res = await team.developer.api.post(releases(), { tag_name: "r1", ref: "main", milestones: ["g1", "v1"] });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body)).toEqual([
      "name", "tag_name", "description", "created_at", "released_at", "author", "commit", "upcoming_release", "milestones", "commit_path", "tag_path", "assets", "evidences", "_links",
    ]);
    const [first, second] = res.body.milestones;
    expect(Object.keys(first)).toEqual(MILESTONE_KEYS);
    expect(first).toMatchObject({
      id: v1.id, iid: v1.iid, project_id: project.id, title: "v1", state: "active",
      web_url: `${BASE_URL}/${project.path_with_namespace}/-/milestones/${v1.iid}`, issue_stats: { total: 2, closed: 1 },
    });
    expect(Object.keys(second)).toEqual(MILESTONE_KEYS.map((key) => (key === "project_id" ? "group_id" : key)));
    expect(second).toMatchObject({ id: g1.id, group_id: group.id, title: "g1", issue_stats: { total: 0, closed: 0 } });
  });

  it("links milestones by id (comma-separated too)", async () => {
    const res = await team.maintainer.api.post(releases(), { tag_name: "r2", ref: "main", milestone_ids: `${v2.id},${g1.id}` });
    expect(res.status, res.text).toBe(201);
    expect(res.body.milestones.map((m: any) => m.title)).toEqual(["v2", "g1"]);
  });

  it("leaves `milestones` out of a release without any", async () => {
    const res = await team.owner.api.post(releases(), { tag_name: "r3", ref: "main", milestones: [] });
    expect(res.status, res.text).toBe(201);
    expect(res.body).not.toHaveProperty("milestones");
  });
});

describe("reading a release's milestones", () => {
  beforeAll(async () => {
    const created = await team.developer.api.post(releases(hidden), { tag_name: "h1", ref: "main", milestones: ["g1"] });
    expect(created.status, created.text).toBe(201);
  });

  it.each(ACTORS)("as %s: the private project's releases show their milestones to every member", async (actor) => {
    const res = await clientOf(t, team, actor).get(releases());
    if (actor === "anonymous" || actor === "nonMember") {
      expect(res.status).toBe(404);
      return;
    }
    expect(res.status).toBe(200);
    expect(res.body.map((r: any) => [r.name.startsWith("Release-") ? "hidden" : r.name, (r.milestones ?? []).map((m: any) => m.title)])).toEqual(
      actor === "guest" ? [["hidden", []], ["hidden", ["v2", "g1"]], ["hidden", ["v1", "g1"]]] : [["r3", []], ["r2", ["v2", "g1"]], ["r1", ["v1", "g1"]]],
    );
  });

  it.each(ACTORS)("as %s: a public project whose issues and merge requests are for members shows its milestones to members only", async (actor) => {
    const res = await clientOf(t, team, actor).get(`${releases(hidden)}/h1`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.tag_name).toBe("h1");
    if (actor === "anonymous" || actor === "nonMember") expect(res.body).not.toHaveProperty("milestones");
    else expect(res.body.milestones.map((m: any) => m.title)).toEqual(["g1"]);
  });

  it("the group's releases show the milestones, simple=true does not", async () => {
    const full = await team.reporter.api.get(`/groups/${group.id}/releases`);
    expect(full.status).toBe(200);
    expect(full.body.find((r: any) => r.tag_name === "r1").milestones.map((m: any) => m.title)).toEqual(["v1", "g1"]);
    const simple = await team.reporter.api.get(`/groups/${group.id}/releases`, { query: { simple: true } });
    expect(simple.body.every((r: any) => !("milestones" in r))).toBe(true);
  });
});

describe("updating a release's milestones", () => {
  it("replaces them by title or id, refuses unknown ones (400), and clears them with an empty list", async () => {
    const api = team.developer.api;
    let res = await api.put(`${releases()}/r1`, { milestones: ["v2", "missing"] });
    expect([res.status, res.body]).toEqual([400, { message: "Milestone(s) not found: missing" }]);
    res = await api.put(`${releases()}/r1`, { milestone_ids: [foreign.id] });
    expect([res.status, res.body]).toEqual([400, { message: `Milestone id(s) not found: ${foreign.id}` }]);
    expect((await api.get(`${releases()}/r1`)).body.milestones.map((m: any) => m.title)).toEqual(["v1", "g1"]);
    expect((await team.reporter.api.put(`${releases()}/r1`, { milestones: ["v2"] })).status).toBe(403);
    res = await api.put(`${releases()}/r1`, { milestones: ["v2"] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.milestones.map((m: any) => m.title)).toEqual(["v2"]);
    res = await api.put(`${releases()}/r1`, { milestone_ids: [v1.id, v2.id] });
    expect(res.body.milestones.map((m: any) => m.title)).toEqual(["v1", "v2"]);
    res = await api.put(`${releases()}/r1`, { name: "Renamed" });
    expect([res.body.name, res.body.milestones.map((m: any) => m.title)]).toEqual(["Renamed", ["v1", "v2"]]);
    res = await api.put(`${releases()}/r1`, { milestones: [] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).not.toHaveProperty("milestones");
  });

  it("a deleted milestone is unlinked from its releases, the releases stay", async () => {
    const gone = await milestoneOf(`/projects/${project.id}`, uniq("gone"));
    const created = await team.developer.api.post(releases(), { tag_name: "r4", ref: "main", milestone_ids: [gone.id, v1.id] });
    expect(created.body.milestones.map((m: any) => m.id)).toEqual([v1.id, gone.id]);
    expect((await team.owner.api.delete(`/projects/${project.id}/milestones/${gone.id}`)).status).toBe(204);
    const after = await team.developer.api.get(`${releases()}/r4`);
    expect(after.status).toBe(200);
    expect(after.body.milestones.map((m: any) => m.id)).toEqual([v1.id]);
    // a group milestone too
    expect((await team.owner.api.delete(`/groups/${group.id}/milestones/${g1.id}`)).status).toBe(204);
    expect((await team.developer.api.get(`${releases()}/r2`)).body.milestones.map((m: any) => m.title)).toEqual(["v2"]);
  });
});
