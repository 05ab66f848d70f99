// The public graph's searched lists find what the Search API finds: Project.issues(search:) and
// Project.mergeRequests(search:) match through the same index (FTS5 on SQLite, pg_trgm on
// PostgreSQL) as /projects/:id/search, so for each caller the graph's rows are the REST scope's
// rows, confidential issues and private projects included or hidden alike.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { graphData } from "../helpers/graph.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { ACTORS, clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
const WORD = "quokkafish";

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  const owner = team.owner.api;
  for (const project of [team.publicProject, team.privateProject]) {
    await createIssue(owner, project.id, { title: `A ${WORD} here` });
    await createIssue(owner, project.id, { title: "Described", description: `it says ${WORD.toUpperCase()} loudly` });
    await createIssue(owner, project.id, { title: `Secret ${WORD}`, confidential: true });
    await createIssue(owner, project.id, { title: "Unrelated" });
    await createMergeRequest(owner, project.id, { title: `MR with ${WORD}` });
    await createMergeRequest(owner, project.id, { title: "Other MR", description: `about ${WORD}` });
    await createMergeRequest(owner, project.id, { title: "Nothing" });
  }
});

const QUERY = `query($path: ID!, $search: String) { project(fullPath: $path) {
  issues(search: $search, first: 100) { nodes { iid } }
  mergeRequests(search: $search, first: 100) { nodes { iid } } } }`;

const iids = (rows: { iid: number | string }[]) => rows.map((row) => Number(row.iid)).sort((a, b) => a - b);

async function graphFinds(actor: Actor, project: any, search: string) {
  const data = await graphData(clientOf(t, team, actor), QUERY, { path: project.path_with_namespace, search });
  if (!data.project) return null;
  return { issues: iids(data.project.issues.nodes), mergeRequests: iids(data.project.mergeRequests?.nodes ?? []) };
}

async function restFinds(actor: Actor, project: any, search: string) {
  const client = clientOf(t, team, actor);
  const get = (scope: string) => client.get(`/projects/${project.id}/search?scope=${scope}&search=${encodeURIComponent(search)}&per_page=100`);
  const [issues, mergeRequests] = await Promise.all([get("issues"), get("merge_requests")]);
  if (issues.status === 404) return null;
  expect([issues.status, mergeRequests.status]).toEqual([200, 200]);
  return { issues: iids(issues.body), mergeRequests: iids(mergeRequests.body) };
}

describe("Project.issues(search:) and Project.mergeRequests(search:) find what /projects/:id/search finds", () => {
  const SIGNED_IN = ACTORS.filter((actor) => actor !== "anonymous");

  it.each(SIGNED_IN)("as %s, in the public and the private project", async (actor) => {
    for (const project of [team.publicProject, team.privateProject]) {
      for (const search of [WORD, WORD.slice(2, 7).toUpperCase()]) {
        const [graph, rest] = await Promise.all([graphFinds(actor, project, search), restFinds(actor, project, search)]);
        expect([project.visibility, search, graph]).toEqual([project.visibility, search, rest]);
      }
    }
  });

  it("finds titles and descriptions, in any case, and confidential issues only for those who may read them", async () => {
    expect(await graphFinds("developer", team.publicProject, WORD)).toEqual({ issues: [1, 2, 3], mergeRequests: [1, 2] });
    expect(await graphFinds("guest", team.publicProject, WORD)).toEqual({ issues: [1, 2], mergeRequests: [1, 2] });
    expect(await graphFinds("nonMember", team.privateProject, WORD)).toBeNull();
  });

  it("shows an anonymous caller the public project's open rows, as the non-member sees them", async () => {
    expect(await graphFinds("anonymous", team.publicProject, WORD)).toEqual(await graphFinds("nonMember", team.publicProject, WORD));
    expect(await graphFinds("anonymous", team.privateProject, WORD)).toBeNull();
  });

  it("takes the term literally (no wildcards on PostgreSQL, a phrase with quotes on SQLite)", async () => {
    expect(await graphFinds("owner", team.publicProject, `"${WORD}" OR x`)).toEqual({ issues: [], mergeRequests: [] });
    if (t.services.dialect === "postgresql") expect(await graphFinds("owner", team.publicProject, "quo%fish")).toEqual({ issues: [], mergeRequests: [] });
  });

  it("matches a short term (under 3 characters) as REST does: a whole title, in any case", async () => {
    for (const actor of ["developer", "admin"] as const) {
      expect(await graphFinds(actor, team.publicProject, "Un")).toEqual(await restFinds(actor, team.publicProject, "Un"));
    }
    const short = await createIssue(team.owner.api, team.publicProject.id, { title: "Zq" });
    expect((await graphFinds("guest", team.publicProject, "zQ"))?.issues).toEqual([short.iid]);
    expect((await graphFinds("guest", team.publicProject, "Un"))?.issues).toEqual([]);
  });
});
