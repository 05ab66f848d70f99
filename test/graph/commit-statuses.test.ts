// Commit statuses on the public graph: commitStatusCreate (who may post, the domain's refusals in
// the payload's errors) and Commit.statuses / Commit.latestPipeline through Project.branches, read
// by every actor as REST's read_commit_status allows.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { expectNotAvailable, graph, graphData } from "../helpers/graph.js";
import { ACTORS, clientOf, createTeamProject, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;

const CREATE = `mutation($input: CommitStatusCreateInput!) {
  commitStatusCreate(input: $input) { errors commitStatus { id sha ref status name targetUrl description coverage pipelineId startedAt finishedAt author { username } } }
}`;
const COMMIT = `query($path: ID!) { project(fullPath: $path) { branches(search: "main") { nodes { name commit {
  sha latestPipeline { iid ref status source webUrl } statuses { count nodes { name status author { username } } }
} } } } }`;

const headOf = async (project: any) => (await t.root.get(`/projects/${project.id}/repository/branches/main`)).body.commit.id;
const create = (actor: Actor, project: any, fields: Record<string, unknown>) =>
  graph(clientOf(t, team, actor), CREATE, { input: { projectPath: project.path_with_namespace, ...fields } });
const commitOf = async (actor: Actor, project: any) =>
  (await graphData(clientOf(t, team, actor), COMMIT, { path: project.path_with_namespace })).project?.branches?.nodes.find((branch: any) => branch.name === "main")?.commit;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

describe("commitStatusCreate", () => {
  it("posts a status and moves it on, as REST does", async () => {
    const project = await createTeamProject(team);
    const sha = await headOf(project);
    const first = await create("developer", project, { sha, state: "RUNNING", name: "ci", targetUrl: "https://ci.example.com/1", coverage: 80.5 });
    expect(first.body.data.commitStatusCreate).toMatchObject({
      errors: [],
      commitStatus: { sha, ref: "main", status: "running", name: "ci", targetUrl: "https://ci.example.com/1", coverage: 80.5, finishedAt: null, author: { username: team.developer.username } },
    });
    expect(first.body.data.commitStatusCreate.commitStatus.startedAt).not.toBeNull();
    const done = await create("developer", project, { sha, state: "SUCCESS", name: "ci" });
    expect(done.body.data.commitStatusCreate.commitStatus).toMatchObject({ id: first.body.data.commitStatusCreate.commitStatus.id, status: "success" });
    const rest = await t.root.get(`/projects/${project.id}/repository/commits/${sha}/statuses`);
    expect(rest.body.map((s: any) => [s.name, s.status])).toEqual([["ci", "success"]]);
  });

  it("lists a refused transition and a bad target_url in errors, with no status", async () => {
    const project = await createTeamProject(team);
    const sha = await headOf(project);
    await create("developer", project, { sha, state: "PENDING" });
    const again = await create("developer", project, { sha, state: "PENDING" });
    expect(again.body.data.commitStatusCreate).toEqual({ errors: ["Cannot transition status via :enqueue from :pending"], commitStatus: null });
    const badUrl = await create("developer", project, { sha, state: "SUCCESS", name: "x", targetUrl: "ftp://example.com" });
    expect(badUrl.body.data.commitStatusCreate.commitStatus).toBeNull();
    expect(badUrl.body.data.commitStatusCreate.errors).toHaveLength(1);
    expect(badUrl.body.data.commitStatusCreate.errors[0]).toContain("Only allowed schemes are http, https");
  });

  it.each(["anonymous", "nonMember", "guest", "reporter"] as const)("is not available to %s on a private project", async (actor) => {
    const sha = await headOf(team.privateProject);
    expectNotAvailable(await create(actor, team.privateProject, { sha, state: "SUCCESS" }), "commitStatusCreate");
  });
});

describe("Commit.statuses and Commit.latestPipeline", () => {
  let priv: any, pub: any;
  beforeAll(async () => {
    priv = await createTeamProject(team);
    pub = await createTeamProject(team, { visibility: "public" });
    for (const project of [priv, pub]) {
      const sha = await headOf(project);
      for (const name of ["build", "test"]) await create("maintainer", project, { sha, state: name === "build" ? "SUCCESS" : "FAILED", name });
    }
  });

  // a private project's guests see no branches (read_code), the others no project
  const expected: Record<Actor, { priv: "all" | "noCommit"; pub: "all" }> = {
    anonymous: { priv: "noCommit", pub: "all" },
    nonMember: { priv: "noCommit", pub: "all" },
    guest: { priv: "noCommit", pub: "all" },
    reporter: { priv: "all", pub: "all" },
    developer: { priv: "all", pub: "all" },
    maintainer: { priv: "all", pub: "all" },
    owner: { priv: "all", pub: "all" },
    admin: { priv: "all", pub: "all" },
  };
  it.each(ACTORS)("as %s", async (actor) => {
    for (const [key, project] of [["priv", priv], ["pub", pub]] as const) {
      const commit = await commitOf(actor, project);
      const want = expected[actor][key];
      if (want === "noCommit") {
        expect(commit ?? null, key).toBeNull();
        continue;
      }
      expect(commit.latestPipeline, key).toMatchObject({ iid: 1, ref: "main", status: "failed", source: "external", webUrl: `${project.web_url}/-/pipelines/${(await t.root.get(`/projects/${project.id}/repository/commits/${commit.sha}`)).body.last_pipeline.id}` });
      expect(commit.statuses, key).toEqual({
        count: 2,
        nodes: [{ name: "build", status: "success", author: { username: team.maintainer.username } }, { name: "test", status: "failed", author: { username: team.maintainer.username } }],
      });
    }
  });
});
