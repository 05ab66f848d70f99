// Commit statuses through /api/v4 (GitLab's Commit Statuses API): posting a status from outside CI
// (states and the transitions GitLab refuses, the ref GitLab picks, name/context, target_url,
// coverage, pipeline_id, protected refs), who may post and read (every actor, public and private
// projects, the repository feature), the list's filters, order and pages, and the commit entity's
// status and last_pipeline derived from the statuses.
import { beforeAll, describe, expect, it } from "vitest";
import { parseLinks } from "../helpers/api.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { commitFile, createBranch, protectBranch } from "../helpers/repository.js";
import { ACTORS, clientOf, createTeamProject, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let priv: any, pub: any;

const api = (actor: Actor) => clientOf(t, team, actor);
const COMMIT_NOT_FOUND = { message: "404 Commit Not Found" };
const headOf = async (p: any, branch = "main") => (await t.root.get(`/projects/${p.id}/repository/branches/${encodeURIComponent(branch)}`)).body.commit.id;
const post = (actor: Actor, p: any, sha: string, body: Record<string, unknown>) => api(actor).post(`/projects/${p.id}/statuses/${sha}`, body);
const list = (actor: Actor, p: any, sha: string, query = "") => api(actor).get(`/projects/${p.id}/repository/commits/${sha}/statuses${query}`);

/** A fresh project of the team with a commit of its own on main (statuses start from none). */
async function freshProject(visibility = "private") {
  const project = await createTeamProject(team, { visibility });
  return { project, sha: await headOf(project) };
}

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  ({ privateProject: priv, publicProject: pub } = team);
});

describe("POST /projects/:id/statuses/:sha", () => {
  it("creates a status in a new external pipeline: GitLab's CommitStatus entity, ref the branch holding the commit, name default", async () => {
    const { project, sha } = await freshProject();
    const before = Date.now();
    const res = await post("developer", project, sha, { state: "pending", target_url: "https://ci.example.com/builds/1", description: "Queued", coverage: 12.5 });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body)).toEqual([
      "id", "sha", "ref", "status", "name", "target_url", "description", "created_at", "started_at", "finished_at",
      "allow_failure", "coverage", "pipeline_id", "author",
    ]);
    expect(res.body).toMatchObject({
      sha, ref: "main", status: "pending", name: "default", target_url: "https://ci.example.com/builds/1", description: "Queued",
      started_at: null, finished_at: null, allow_failure: false, coverage: 12.5,
    });
    expect(Date.parse(res.body.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(res.body.author).toMatchObject({ id: team.developer.id, username: team.developer.username, web_url: `${BASE_URL}/${team.developer.username}` });
    expect(typeof res.body.pipeline_id).toBe("number");
  });

  it("moves a pending status of the same name and ref through running to success, keeping one status and one pipeline", async () => {
    const { project, sha } = await freshProject();
    const pending = (await post("developer", project, sha, { state: "pending", name: "build" })).body;
    const running = await post("developer", project, sha, { state: "running", name: "build" });
    expect(running.status, running.text).toBe(201);
    expect([running.body.id, running.body.status, running.body.pipeline_id]).toEqual([pending.id, "running", pending.pipeline_id]);
    expect(running.body.started_at).not.toBeNull();
    expect(running.body.finished_at).toBeNull();
    const done = await post("developer", project, sha, { state: "success", name: "build", description: "All green" });
    expect([done.body.id, done.body.status, done.body.description]).toEqual([pending.id, "success", "All green"]);
    expect(done.body.started_at).toBe(running.body.started_at);
    expect(Date.parse(done.body.finished_at)).toBeGreaterThanOrEqual(Date.parse(done.body.started_at));
    const all = await list("reporter", project, sha, "?all=true");
    expect(all.body.map((s: any) => [s.id, s.status])).toEqual([[pending.id, "success"]]);
  });

  it.each([
    ["pending", "pending", "Cannot transition status via :enqueue from :pending"],
    ["running", "pending", "Cannot transition status via :enqueue from :running"],
    ["running", "running", "Cannot transition status via :run from :running"],
    ["running", "skipped", "Cannot transition status via :skip from :running"],
  ])("refuses %s then %s with GitLab's 400, leaving the status as it was", async (first, second, message) => {
    const { project, sha } = await freshProject();
    await post("developer", project, sha, { state: "pending", name: "ci" });
    if (first === "running") await post("developer", project, sha, { state: "running", name: "ci" });
    const res = await post("developer", project, sha, { state: second, name: "ci" });
    expect([res.status, res.body]).toEqual([400, { message }]);
    expect((await list("reporter", project, sha, "?all=true")).body.map((s: any) => s.status)).toEqual([first]);
  });

  it("starts a new status after a finished one and retries the older: the list shows the latest unless all", async () => {
    const { project, sha } = await freshProject();
    const first = (await post("developer", project, sha, { state: "failed", name: "lint" })).body;
    expect(first.finished_at).not.toBeNull();
    const second = (await post("developer", project, sha, { state: "success", name: "lint" })).body;
    expect(second.id).not.toBe(first.id);
    expect(second.pipeline_id).toBe(first.pipeline_id);
    expect((await list("reporter", project, sha)).body.map((s: any) => s.id)).toEqual([second.id]);
    expect((await list("reporter", project, sha, "?all=true")).body.map((s: any) => s.id)).toEqual([first.id, second.id]);
  });

  it("another user's running status of the same name is not theirs to move: a new status starts", async () => {
    const { project, sha } = await freshProject();
    const mine = (await post("developer", project, sha, { state: "running", name: "deploy" })).body;
    const theirs = await post("maintainer", project, sha, { state: "running", name: "deploy" });
    expect(theirs.status, theirs.text).toBe(201);
    expect(theirs.body.id).not.toBe(mine.id);
    expect(theirs.body.author.id).toBe(team.maintainer.id);
  });

  it("concurrent first statuses of a sha share one pipeline", async () => {
    const { project, sha } = await freshProject();
    const results = await Promise.all(["a", "b", "c", "d", "e"].map((name) => post("developer", project, sha, { state: "success", name })));
    expect(results.map((res) => res.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(results.map((res) => res.body.pipeline_id)).size).toBe(1);
    expect((await t.root.get(`/projects/${project.id}/repository/commits/${sha}`)).body.last_pipeline).toMatchObject({ iid: 1, status: "success" });
  });

  it("takes `context` for the name, `name` before it; an empty name is refused", async () => {
    const { project, sha } = await freshProject();
    expect((await post("developer", project, sha, { state: "success", context: "ci/jenkins" })).body.name).toBe("ci/jenkins");
    expect((await post("developer", project, sha, { state: "success", context: "ctx", name: "named" })).body.name).toBe("named");
    const blank = await post("developer", project, sha, { state: "success", name: "" });
    expect([blank.status, blank.body]).toEqual([400, { message: { name: ["can't be blank"] } }]);
  });

  it("keeps statuses of other refs apart: `ref` given makes a pipeline of its own; without it the newest pipeline's ref", async () => {
    const { project, sha } = await freshProject();
    await createBranch(team.owner.api, project.id, "feature", "main");
    const onMain = (await post("developer", project, sha, { state: "success", ref: "main" })).body;
    const onFeature = (await post("developer", project, sha, { state: "success", ref: "feature" })).body;
    expect(onFeature.ref).toBe("feature");
    expect(onFeature.pipeline_id).not.toBe(onMain.pipeline_id);
    const unnamed = (await post("developer", project, sha, { state: "pending", name: "other" })).body;
    expect([unnamed.ref, unnamed.pipeline_id]).toEqual(["feature", onFeature.pipeline_id]);
    expect((await list("reporter", project, sha, "?ref=main")).body.map((s: any) => s.id)).toEqual([onMain.id]);
  });

  it("posts into the pipeline `pipeline_id` names, and answers 404 for a pipeline of another sha or ref", async () => {
    const { project, sha } = await freshProject();
    const first = (await post("developer", project, sha, { state: "success", name: "a" })).body;
    const second = (await post("developer", project, sha, { state: "success", name: "b", pipeline_id: first.pipeline_id })).body;
    expect(second.pipeline_id).toBe(first.pipeline_id);
    const other = await commitFile(team.owner.api, project.id, "main");
    const wrongSha = await post("developer", project, other.id, { state: "success", pipeline_id: first.pipeline_id });
    expect([wrongSha.status, wrongSha.body]).toEqual([404, { message: "404 Pipeline for pipeline_id, sha and ref Not Found" }]);
    const wrongRef = await post("developer", project, sha, { state: "success", ref: "elsewhere", pipeline_id: first.pipeline_id });
    expect([wrongRef.status, wrongRef.body]).toEqual([404, { message: "404 Pipeline for pipeline_id, sha and ref Not Found" }]);
    expect((await list("reporter", project, other.id)).body).toEqual([]);
  });

  it("answers GitLab's errors for a missing or invalid state, coverage, pipeline_id and target_url, and writes nothing", async () => {
    const { project, sha } = await freshProject();
    const cases: [Record<string, unknown>, object][] = [
      [{}, { error: "state is missing" }],
      [{ state: "error" }, { error: "state does not have a valid value" }],
      [{ state: "success", coverage: "lots" }, { error: "coverage is invalid" }],
      [{ state: "success", pipeline_id: "x" }, { error: "pipeline_id is invalid" }],
      [{ state: "success", target_url: "ftp://ci.example.com/1" }, { message: { target_url: ["is blocked: Only allowed schemes are http, https"] } }],
      [{ state: "success", target_url: "not a url" }, { message: { target_url: ["is blocked: URI is invalid"] } }],
      [{ state: "success", target_url: `https://ci.example.com/${"x".repeat(250)}` }, { message: { target_url: ["is too long (maximum is 255 characters)"] } }],
    ];
    for (const [body, error] of cases) {
      const res = await post("developer", project, sha, body);
      expect([res.status, res.body], JSON.stringify(body)).toEqual([400, error]);
    }
    expect((await list("reporter", project, sha, "?all=true")).body).toEqual([]);
    expect((await t.root.get(`/projects/${project.id}/repository/commits/${sha}`)).body.last_pipeline).toBeNull();
  });

  it("answers 404 Commit Not Found for an unknown sha and 404 References for commit Not Found for a commit on no branch", async () => {
    const unknown = await post("developer", priv, "0123456789abcdef0123456789abcdef01234567", { state: "success" });
    expect([unknown.status, unknown.body]).toEqual([404, COMMIT_NOT_FOUND]);
    const { project } = await freshProject();
    await createBranch(team.owner.api, project.id, "lonely", "main");
    const lonely = await commitFile(team.owner.api, project.id, "lonely");
    expect((await team.owner.api.delete(`/projects/${project.id}/repository/branches/lonely`)).status).toBe(204);
    const res = await post("developer", project, lonely.id, { state: "success" });
    expect([res.status, res.body]).toEqual([404, { message: "404 References for commit Not Found" }]);
    expect((await post("developer", project, lonely.id, { state: "success", ref: "gone" })).status).toBe(201);
  });

  it("accepts a branch name for the sha and stores the commit's full sha", async () => {
    const { project, sha } = await freshProject();
    const res = await post("developer", project, "main", { state: "success" });
    expect([res.status, res.body.sha]).toEqual([201, sha]);
  });

  describe("who may post", () => {
    const expected: Record<Actor, { priv: [number, object | null]; pub: [number, object | null] }> = {
      anonymous: { priv: [401, UNAUTHORIZED], pub: [401, UNAUTHORIZED] },
      nonMember: { priv: [404, PROJECT_NOT_FOUND], pub: [403, FORBIDDEN] },
      guest: { priv: [403, FORBIDDEN], pub: [403, FORBIDDEN] },
      reporter: { priv: [403, FORBIDDEN], pub: [403, FORBIDDEN] },
      developer: { priv: [201, null], pub: [201, null] },
      maintainer: { priv: [201, null], pub: [201, null] },
      owner: { priv: [201, null], pub: [201, null] },
      admin: { priv: [201, null], pub: [201, null] },
    };
    it.each(ACTORS)("%s", async (actor) => {
      for (const [key, project] of [["priv", priv], ["pub", pub]] as const) {
        const sha = await headOf(project);
        const res = await post(actor, project, sha, { state: "success", name: `by-${actor}` });
        const [status, body] = expected[actor][key];
        expect(res.status, `${key}: ${res.text}`).toBe(status);
        if (body) expect(res.body).toEqual(body);
        else expect(res.body.name).toBe(`by-${actor}`);
      }
    });

    it("refuses a Developer a protected branch they may neither push nor merge to (403), and lets a Maintainer", async () => {
      const { project, sha } = await freshProject();
      await createBranch(team.owner.api, project.id, "release", "main");
      await protectBranch(team.owner.api, project.id, "release", { push_access_level: 40, merge_access_level: 40 });
      const refused = await post("developer", project, sha, { state: "success", ref: "release" });
      expect([refused.status, refused.body]).toEqual([403, FORBIDDEN]);
      expect((await post("maintainer", project, sha, { state: "success", ref: "release" })).status).toBe(201);
      await createBranch(team.owner.api, project.id, "merge-only", "main");
      await protectBranch(team.owner.api, project.id, "merge-only", { push_access_level: 40, merge_access_level: 30 });
      expect((await post("developer", project, sha, { state: "success", ref: "merge-only" })).status).toBe(201);
      expect((await list("reporter", project, sha, "?ref=release")).body.map((s: any) => s.author.id)).toEqual([team.maintainer.id]);
    });

    it("refuses everyone on an archived project and when the repository is disabled", async () => {
      const { project, sha } = await freshProject();
      // no archive endpoint yet: archived as GitLab's archive would leave it
      await t.services.db.project.update({ where: { id: project.id }, data: { archived: true } });
      t.forgetCaches();
      expect([(await post("maintainer", project, sha, { state: "success" })).status]).toEqual([403]);
      expect((await list("maintainer", project, sha)).status).toBe(200);
      const other = await freshProject();
      expect((await team.owner.api.put(`/projects/${other.project.id}`, { repository_access_level: "disabled" })).status).toBe(200);
      expect((await post("maintainer", other.project, other.sha, { state: "success" })).status).toBe(403);
    });
  });
});

describe("GET /projects/:id/repository/commits/:sha/statuses", () => {
  let project: any, sha: string;
  let statuses: any[];
  beforeAll(async () => {
    ({ project, sha } = await freshProject());
    await createBranch(team.owner.api, project.id, "feature", "main");
    statuses = [];
    for (const [name, ref, state] of [["b", "main", "success"], ["a", "main", "running"], ["c", "feature", "failed"], ["a", "main", "success"]]) {
      statuses.push((await post("developer", project, sha, { state, name, ref })).body);
    }
  });

  it("lists the latest statuses by id ascending, with the filters GitLab has", async () => {
    const ids = (res: any) => res.body.map((s: any) => s.id);
    // "a" running then success is one status moved on
    expect(statuses[3].id).toBe(statuses[1].id);
    expect(ids(await list("reporter", project, sha))).toEqual([statuses[0].id, statuses[1].id, statuses[2].id]);
    expect(ids(await list("reporter", project, sha, "?sort=desc"))).toEqual([statuses[2].id, statuses[1].id, statuses[0].id]);
    expect(ids(await list("reporter", project, sha, "?ref=feature"))).toEqual([statuses[2].id]);
    expect(ids(await list("reporter", project, sha, "?name=b"))).toEqual([statuses[0].id]);
    expect(ids(await list("reporter", project, sha, "?stage=external"))).toHaveLength(3);
    expect(ids(await list("reporter", project, sha, "?stage=test"))).toEqual([]);
    expect(ids(await list("reporter", project, sha, `?pipeline_id=${statuses[2].pipeline_id}`))).toEqual([statuses[2].id]);
    expect(ids(await list("reporter", project, sha, "?order_by=pipeline_id&sort=desc"))).toEqual([statuses[2].id, statuses[1].id, statuses[0].id]);
    expect(ids(await list("reporter", project, sha, "?ref=&name="))).toHaveLength(3);
  });

  it("pages with GitLab's headers", async () => {
    const res = await list("reporter", project, sha, "?per_page=2&page=2");
    expect(res.body.map((s: any) => s.id)).toEqual([statuses[2].id]);
    expect([res.headers.get("x-total"), res.headers.get("x-total-pages"), res.headers.get("x-page"), res.headers.get("x-prev-page")]).toEqual(["3", "2", "2", "1"]);
    expect(Object.keys(parseLinks(res.headers.get("link")))).toEqual(expect.arrayContaining(["prev", "first", "last"]));
  });

  it("answers 400 for bad order_by, sort and pipeline_id, 404 for an unknown commit", async () => {
    for (const [query, error] of [["?order_by=name", "order_by does not have a valid value"], ["?sort=up", "sort does not have a valid value"], ["?pipeline_id=x", "pipeline_id is invalid"]]) {
      const res = await list("reporter", project, sha, query);
      expect([res.status, res.body], query).toEqual([400, { error }]);
    }
    const res = await list("reporter", project, "0123456789abcdef0123456789abcdef01234567");
    expect([res.status, res.body]).toEqual([404, COMMIT_NOT_FOUND]);
  });

  describe("who may read", () => {
    const expected: Record<Actor, { priv: [number, object | null]; pub: [number, object | null] }> = {
      anonymous: { priv: [401, UNAUTHORIZED], pub: [401, UNAUTHORIZED] },
      nonMember: { priv: [404, PROJECT_NOT_FOUND], pub: [200, null] },
      guest: { priv: [403, FORBIDDEN], pub: [200, null] },
      reporter: { priv: [200, null], pub: [200, null] },
      developer: { priv: [200, null], pub: [200, null] },
      maintainer: { priv: [200, null], pub: [200, null] },
      owner: { priv: [200, null], pub: [200, null] },
      admin: { priv: [200, null], pub: [200, null] },
    };
    let seeded: Record<string, { sha: string; id: number }>;
    beforeAll(async () => {
      seeded = {};
      for (const [key, p] of [["priv", priv], ["pub", pub]] as const) {
        const head = await headOf(p);
        seeded[key] = { sha: head, id: (await post("maintainer", p, head, { state: "success", name: "read-check" })).body.id };
      }
    });
    it.each(ACTORS)("%s", async (actor) => {
      for (const [key, p] of [["priv", priv], ["pub", pub]] as const) {
        const res = await list(actor, p, seeded[key]!.sha, "?name=read-check");
        const [status, body] = expected[actor][key];
        expect(res.status, `${key}: ${res.text}`).toBe(status);
        if (body) expect(res.body).toEqual(body);
        else expect(res.body.map((s: any) => s.id)).toEqual([seeded[key]!.id]);
      }
    });

    it("a public project's repository for members only: non-members 403, guests may", async () => {
      const { project: p, sha: head } = await freshProject("public");
      expect((await team.owner.api.put(`/projects/${p.id}`, { repository_access_level: "private" })).status).toBe(200);
      expect((await list("nonMember", p, head)).status).toBe(403);
      expect((await list("guest", p, head)).status).toBe(200);
    });
  });
});

describe("the commit entity's status and last_pipeline", () => {
  const detail = async (actor: Actor, p: any, sha: string) => (await api(actor).get(`/projects/${p.id}/repository/commits/${sha}`)).body;

  it("are null without statuses", async () => {
    const { project, sha } = await freshProject();
    expect(await detail("reporter", project, sha)).toMatchObject({ status: null, last_pipeline: null });
  });

  it("show the newest pipeline of the sha: GitLab's PipelineBasic and its composite status", async () => {
    const { project, sha } = await freshProject("public");
    const first = (await post("developer", project, sha, { state: "success", name: "a" })).body;
    const commit = await detail("nonMember", project, sha);
    expect(Object.keys(commit.last_pipeline)).toEqual(["id", "iid", "project_id", "sha", "ref", "status", "source", "created_at", "updated_at", "web_url"]);
    expect(commit.last_pipeline).toMatchObject({
      id: first.pipeline_id, iid: 1, project_id: project.id, sha, ref: "main", status: "success", source: "external",
      web_url: `${project.web_url}/-/pipelines/${first.pipeline_id}`,
    });
    expect(commit.status).toBe("success");
    expect((await detail("anonymous", project, sha)).status).toBe("success");
    // a second ref's pipeline is newer: it is the one shown
    await createBranch(team.owner.api, project.id, "feature", "main");
    const other = (await post("developer", project, sha, { state: "pending", ref: "feature" })).body;
    expect((await detail("reporter", project, sha)).last_pipeline).toMatchObject({ id: other.pipeline_id, iid: 2, ref: "feature", status: "pending" });
  });

  // Gitlab::Ci::Status::Composite over the latest statuses
  it.each([
    [["success", "skipped"], "success"],
    [["skipped", "skipped"], "skipped"],
    [["success", "canceled"], "canceled"],
    [["pending", "skipped"], "pending"],
    [["pending", "success"], "running"],
    [["running", "failed"], "running"],
    [["success", "failed"], "failed"],
    [["canceled", "failed"], "failed"],
  ])("statuses %j make the pipeline %s", async (states, expectedStatus) => {
    const { project, sha } = await freshProject();
    for (const [i, state] of (states as string[]).entries()) {
      if (state === "running") await post("developer", project, sha, { state: "pending", name: `job${i}` });
      await post("developer", project, sha, { state, name: `job${i}` });
    }
    expect((await detail("reporter", project, sha)).status).toBe(expectedStatus);
  });

  it("follows a retried status: only the latest of a name counts", async () => {
    const { project, sha } = await freshProject();
    await post("developer", project, sha, { state: "failed", name: "flaky" });
    expect((await detail("reporter", project, sha)).status).toBe("failed");
    await post("developer", project, sha, { state: "success", name: "flaky" });
    expect((await detail("reporter", project, sha)).status).toBe("success");
  });
});
