// Contribution events through the public graph: Project.events and UserCore.events (a Forgeline
// extension) show each caller what the Events API shows them (confidential issues, private
// projects, a blocked user's events), with the action and target type filters, both orders and
// cursor pages.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { graph, graphData } from "../helpers/graph.js";
import { createUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { ACTORS, clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let secret: any, open: any;

const PROJECT_EVENTS = `query($path: ID!, $action: EventAction, $targetType: EventTargetType, $sort: EventSort, $first: Int, $after: String) {
  project(fullPath: $path) { events(action: $action, targetType: $targetType, sort: $sort, first: $first, after: $after) {
    count pageInfo { hasNextPage endCursor } nodes { id action createdAt author { username } project { fullPath } } } } }`;
const USER_EVENTS = `query($username: String!) { user(username: $username) { events { count nodes { id action project { id } } } } }`;

const numericId = (gid: string) => Number(gid.split("/").pop());

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  const p = `/projects/${team.publicProject.id}`;
  open = await createIssue(team.developer.api, team.publicProject.id, { title: "Open issue" });
  expect((await team.owner.api.put(`${p}/issues/${open.iid}`, { state_event: "close" })).status).toBe(200);
  secret = await createIssue(team.owner.api, team.publicProject.id, { title: "Secret", confidential: true });
  await createIssue(team.owner.api, team.privateProject.id, { title: "Private issue" });
});

describe("Project.events", () => {
  it.each(ACTORS)("shows %s exactly the rows GET /projects/:id/events shows them, of the public project", async (actor: Actor) => {
    const client = clientOf(t, team, actor);
    const rest = await client.get(`/projects/${team.publicProject.id}/events?per_page=100`);
    expect(rest.status).toBe(200);
    const data = await graphData(client, PROJECT_EVENTS, { path: team.publicProject.path_with_namespace, first: 100 });
    const nodes = data.project.events.nodes;
    expect(nodes.map((e: any) => numericId(e.id))).toEqual(rest.body.map((e: any) => e.id));
    // the confidential issue's creation is shown to Reporters and up (and its author, the owner)
    const seesSecret = ["reporter", "developer", "maintainer", "owner", "admin"].includes(actor);
    expect(rest.body.some((e: any) => e.target_type === "Issue" && e.target_id === secret.id)).toBe(seesSecret);
    expect(nodes[0].project.fullPath).toBe(team.publicProject.path_with_namespace);
  });

  it.each(ACTORS)("of a private project: %s", async (actor: Actor) => {
    const data = await graphData(clientOf(t, team, actor), PROJECT_EVENTS, { path: team.privateProject.path_with_namespace });
    if (actor === "anonymous" || actor === "nonMember") expect(data.project).toBeNull();
    else expect(data.project.events.nodes.map((e: any) => e.action)).toContain("CREATED");
  });

  it("filters by action and target type, orders both ways and pages by cursor", async () => {
    const path = team.publicProject.path_with_namespace;
    const closed = await graphData(team.owner.api, PROJECT_EVENTS, { path, action: "CLOSED" });
    expect(closed.project.events.nodes.map((e: any) => [e.action, e.author.username])).toEqual([["CLOSED", team.owner.username]]);
    const issues = await graphData(team.owner.api, PROJECT_EVENTS, { path, targetType: "ISSUE" });
    expect(issues.project.events.nodes.map((e: any) => e.action)).toEqual(["CREATED", "CLOSED", "CREATED"]);
    const desc = (await graphData(team.owner.api, PROJECT_EVENTS, { path })).project.events.nodes.map((e: any) => e.id);
    const asc = (await graphData(team.owner.api, PROJECT_EVENTS, { path, sort: "CREATED_ASC" })).project.events.nodes.map((e: any) => e.id);
    expect(asc).toEqual([...desc].reverse());
    const first = (await graphData(team.owner.api, PROJECT_EVENTS, { path, first: 2 })).project.events;
    expect(first.nodes.map((e: any) => e.id)).toEqual(desc.slice(0, 2));
    expect(first.pageInfo.hasNextPage).toBe(true);
    const next = (await graphData(team.owner.api, PROJECT_EVENTS, { path, first: 2, after: first.pageInfo.endCursor })).project.events;
    expect(next.nodes.map((e: any) => e.id)).toEqual(desc.slice(2, 4));
    expect(next.count).toBe(desc.length);
    // the day filters are the API's: nothing was created after today ended, everything before tomorrow began
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const later = await graphData(team.owner.api, `query($path: ID!, $at: Time) { project(fullPath: $path) { events(createdAfter: $at) { count } } }`, { path, at: new Date().toISOString() });
    expect(later.project.events.count).toBe(0);
    const earlier = await graphData(team.owner.api, `query($path: ID!, $at: Time) { project(fullPath: $path) { events(createdBefore: $at) { count } } }`, { path, at: tomorrow });
    expect(earlier.project.events.count).toBe(desc.length);
  });

  it("refuses an action the enum does not have", async () => {
    const res = await graph(team.owner.api, PROJECT_EVENTS, { path: team.publicProject.path_with_namespace, action: "OPENED" });
    expect(res.body.errors?.[0]?.message).toMatch(/EventAction/);
  });
});

describe("UserCore.events", () => {
  it("lists a user's events in the projects the caller can see", async () => {
    const own = await graphData(team.owner.api, USER_EVENTS, { username: team.owner.username });
    const projects = new Set(own.user.events.nodes.map((e: any) => e.project.id));
    expect(projects.size).toBe(2);
    const seen = await graphData(team.nonMember.api, USER_EVENTS, { username: team.owner.username });
    const rest = await team.nonMember.api.get(`/users/${team.owner.id}/events?per_page=100`);
    expect(seen.user.events.nodes.map((e: any) => numericId(e.id))).toEqual(rest.body.map((e: any) => e.id));
    expect(new Set(seen.user.events.nodes.map((e: any) => e.project.id)).size).toBe(1);
  });

  it("shows a blocked user's events to themselves and administrators only", async () => {
    const user = await createUser(t);
    await createIssue(team.owner.api, team.publicProject.id, { title: "before the block" });
    await user.api.post(`/projects/${team.publicProject.id}/issues`, { title: "by the blocked user" });
    expect((await t.root.post(`/users/${user.id}/block`, {})).status).toBe(201);
    const admin = await graphData(t.root, USER_EVENTS, { username: user.username });
    expect(admin.user.events.count).toBe(1);
    const other = await graphData(team.developer.api, USER_EVENTS, { username: user.username });
    expect(other.user?.events.count ?? 0).toBe(0);
  });
});
