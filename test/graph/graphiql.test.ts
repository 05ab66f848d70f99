// GraphiQL on the public graph (/api/graphql): served to browsers with its assets bundled, with a
// token header to fill in and a default query whose operations run as they stand.
import { Kind, parse, print } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_GRAPH_PATH } from "../../src/app.js";
import { PUBLIC_GRAPHIQL } from "../../src/graph/graphiql.js";
import { ROOT_TOKEN, startTestApp, type TestApp } from "../helpers/app.js";
import { createIssue } from "../helpers/issues.js";
import { createTeam, createTeamProject, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let project: any;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  project = await createTeamProject(team, { visibility: "private" });
  const issue = await createIssue(team.owner.api, project.id);
  expect((await team.developer.api.post(`/projects/${project.id}/issues/${issue.iid}/award_emoji`, { name: "rocket" })).status).toBe(201);
});

/** Runs one operation of the default query, as GraphiQL sends it. */
async function runExample(token: string | undefined, operationName: string, variables: Record<string, unknown>) {
  return post(token, { query: PUBLIC_GRAPHIQL.defaultQuery, operationName, variables });
}

/** Runs one operation of the default query as GraphiQL sends it: that operation alone, no variables. */
async function runExampleAlone(token: string, operationName: string) {
  const operation = parse(PUBLIC_GRAPHIQL.defaultQuery!).definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === operationName)!;
  return post(token, { query: print(operation), operationName });
}

async function post(token: string | undefined, params: Record<string, unknown>) {
  const headers: Record<string, string> = { "Content-Type": "application/json", ...(token && { "PRIVATE-TOKEN": token }) };
  const body = JSON.stringify(params);
  const res = await t.app.fetch(new Request(`http://forgeline.test${PUBLIC_GRAPH_PATH}`, { method: "POST", headers, body }));
  return (await res.json()) as { data?: any; errors?: unknown[] };
}

describe("GraphiQL on the public graph", () => {
  it("is served to browsers with the examples and the token header, its assets bundled (no CDN)", async () => {
    const res = await t.app.fetch(new Request(`http://forgeline.test${PUBLIC_GRAPH_PATH}`, { headers: { Accept: "text/html" } }));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Forgeline GraphQL");
    expect(html).toContain("query ProjectOverview");
    expect(html).toContain("PRIVATE-TOKEN");
    expect(html).not.toMatch(/unpkg\.com|jsdelivr/);
  });

  it("runs each example operation for a signed-in developer of a private project", async () => {
    const token = team.developer.token;
    const me = await runExample(token, "Me", {});
    expect(me).toEqual({ data: { currentUser: expect.objectContaining({ username: team.developer.username }) } });

    const overview = await runExample(token, "ProjectOverview", { fullPath: project.path_with_namespace });
    expect(overview.errors).toBeUndefined();
    expect(overview.data.project.nameWithNamespace).toBe(project.name_with_namespace);
    expect(overview.data.project.issues.count).toBe(1);
    expect(overview.data.project.issues.nodes[0].awardEmoji.nodes).toEqual([{ name: "rocket", user: { username: team.developer.username } }]);

    const opened = await runExample(token, "OpenIssue", { projectPath: project.path_with_namespace });
    expect(opened.data.createIssue.errors).toEqual([]);
    expect(opened.data.createIssue.issue.iid).toBe("2");
  });

  it("runs each example alone without variables, as GraphiQL sends it: the defaults name root/example", async () => {
    expect((await t.root.post("/projects", { name: "example", path: "example" })).body.path_with_namespace).toBe("root/example");
    const overview = await runExampleAlone(ROOT_TOKEN, "ProjectOverview");
    expect(overview).toEqual({ data: { project: expect.objectContaining({ nameWithNamespace: "Administrator / example" }) } });
    const opened = await runExampleAlone(ROOT_TOKEN, "OpenIssue");
    expect(opened).toEqual({ data: { createIssue: { issue: expect.objectContaining({ iid: "1" }), errors: [] } } });
    const issues = (await t.root.get("/projects/root%2Fexample/issues")).body;
    expect(issues.map((issue: any) => issue.title)).toEqual(["Opened from GraphiQL"]);
  });

  it("shows an anonymous caller nothing of the private project, and lets no one write without a token", async () => {
    expect(await runExample(undefined, "Me", {})).toEqual({ data: { currentUser: null } });
    expect(await runExample(undefined, "ProjectOverview", { fullPath: project.path_with_namespace })).toEqual({ data: { project: null } });
    const refused = await runExample(undefined, "OpenIssue", { projectPath: project.path_with_namespace });
    expect(refused.data?.createIssue ?? null).toBeNull();
    expect(refused.errors?.length).toBeGreaterThan(0);
    expect((await t.root.get(`/projects/${project.id}/issues`)).body).toHaveLength(2);
  });
});
