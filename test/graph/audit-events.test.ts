// Audit events in the public graph (a Forgeline extension: GitLab's graph has no audit event list):
// Project.auditEvents and Group.auditEvents with the REST API's rules and rows.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createUser } from "../helpers/factories.js";
import { graphData } from "../helpers/graph.js";
import { ACTORS, clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let group: any;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  group = await createGroup(team.owner.api, { visibility: "public" });
  for (const [user, level] of [[team.maintainer, 40], [team.developer, 30], [team.reporter, 20], [team.guest, 10]] as const) {
    await addMember(team.owner.api, "groups", group.id, user.id, level);
  }
  const p = team.publicProject;
  expect((await team.maintainer.api.post(`/projects/${p.id}/protected_branches`, { name: "graph-*" })).status).toBe(201);
  expect((await team.developer.api.post(`/projects/${p.id}/protected_branches`, { name: "dev-*" })).status).toBe(403);
});

const PROJECT = `query($path: ID!, $after: Time) { project(fullPath: $path) { auditEvents(first: 100, createdAfter: $after) {
  count nodes { id eventName entityType entityId authorId author { username } details createdAt } } } }`;
const GROUP = `query($path: ID!) { group(fullPath: $path) { auditEvents(first: 100) { count nodes { id eventName authorId details } } } }`;

describe("Project.auditEvents and Group.auditEvents", () => {
  it("answers the rows REST answers, newest first, details as JSON text", async () => {
    const p = team.publicProject;
    const data = await graphData(team.owner.api, PROJECT, { path: p.path_with_namespace });
    const rest = (await team.owner.api.get(`/projects/${p.id}/audit_events`, { query: { per_page: 100 } })).body;
    const nodes = data.project.auditEvents.nodes;
    expect(data.project.auditEvents.count).toBe(rest.length);
    expect(nodes.map((n: any) => Number(n.id))).toEqual(rest.map((e: any) => e.id));
    expect(nodes.map((n: any) => JSON.parse(n.details))).toEqual(rest.map((e: any) => e.details));
    const branch = nodes.find((n: any) => n.eventName === "protected_branch_created");
    expect(branch).toMatchObject({ entityType: "Project", entityId: p.id, authorId: team.maintainer.id, author: { username: team.maintainer.username } });
    const none = await graphData(team.owner.api, PROJECT, { path: p.path_with_namespace, after: "2999-01-01T00:00:00Z" });
    expect(none.project.auditEvents.nodes).toEqual([]);
  });

  // Developers and above; below Maintainer (project) or Owner (group) only one's own events
  const SEES: Record<Actor, "none" | "own" | "all"> = {
    anonymous: "none", nonMember: "none", guest: "none", reporter: "none", developer: "own", maintainer: "all", owner: "all", admin: "all",
  };
  it.each(ACTORS)("a public project's events as %s", async (actor) => {
    const data = await graphData(clientOf(t, team, actor), PROJECT, { path: team.publicProject.path_with_namespace });
    const authors = new Set(data.project.auditEvents.nodes.map((n: any) => n.authorId));
    if (SEES[actor] === "none") expect(data.project.auditEvents.nodes).toEqual([]);
    if (SEES[actor] === "own") expect([...authors].every((id) => id === team.developer.id)).toBe(true);
    if (SEES[actor] === "all") expect(authors.has(team.maintainer.id)).toBe(true);
  });

  it("shows a group's Owner every event and its Maintainer only their own (none here)", async () => {
    const user = await createUser(t);
    await addMember(team.owner.api, "groups", group.id, user.id, 20);
    const owner = await graphData(team.owner.api, GROUP, { path: group.full_path });
    const created = owner.group.auditEvents.nodes.filter((n: any) => n.eventName === "member_created");
    expect(created.length).toBeGreaterThanOrEqual(5);
    const mine = created.find((n: any) => JSON.parse(n.details).target_id === user.id);
    expect(JSON.parse(mine.details)).toMatchObject({ add: "user_access", as: "Reporter", target_id: user.id, entity_path: group.full_path });
    const maintainer = await graphData(team.maintainer.api, GROUP, { path: group.full_path });
    expect(maintainer.group.auditEvents).toEqual({ count: 0, nodes: [] });
    const guest = await graphData(team.guest.api, GROUP, { path: group.full_path });
    expect(guest.group.auditEvents).toEqual({ count: 0, nodes: [] });
  });
});
