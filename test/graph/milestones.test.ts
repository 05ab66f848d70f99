// Milestones through the public graph: Project.milestones and Group.milestones (includeAncestors,
// state, search), the milestone of an issue and a merge request, node(id:), and the Forgeline
// mutations milestoneCreate / milestoneUpdate / milestoneDelete on the REST rules.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createGroup, createProject, uniq } from "../helpers/factories.js";
import { expectNotAvailable, gid, graph, graphData } from "../helpers/graph.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

const CREATE = `mutation($input: MilestoneCreateInput!) { milestoneCreate(input: $input) { errors milestone { id iid title state dueDate startDate expired projectMilestone groupMilestone webUrl } } }`;
const UPDATE = `mutation($input: MilestoneUpdateInput!) { milestoneUpdate(input: $input) { errors milestone { id title state description } } }`;
const DELETE = `mutation($input: MilestoneDeleteInput!) { milestoneDelete(input: $input) { errors milestone { id } } }`;

describe("milestoneCreate, milestoneUpdate, milestoneDelete", () => {
  it("creates a project milestone as REST does, and REST shows it", async () => {
    const project = team.privateProject;
    const data = await graphData(team.reporter.api, CREATE, {
      input: { projectPath: project.path_with_namespace, title: "Graph 1", startDate: "2030-01-01", dueDate: "2030-02-01" },
    });
    expect(data.milestoneCreate.errors).toEqual([]);
    const m = data.milestoneCreate.milestone;
    expect(m).toMatchObject({ title: "Graph 1", state: "active", dueDate: "2030-02-01", startDate: "2030-01-01", expired: false, projectMilestone: true, groupMilestone: false });
    const id = Number(m.id.split("/").pop());
    const rest = await team.owner.api.get(`/projects/${project.id}/milestones/${id}`);
    expect(rest.body).toMatchObject({ title: "Graph 1", iid: Number(m.iid), web_url: m.webUrl });
  });

  it("answers the model's errors in the payload, and refuses guests", async () => {
    const path = team.privateProject.path_with_namespace;
    const bad = await graphData(team.owner.api, CREATE, { input: { projectPath: path, title: uniq("b"), startDate: "2030-02-01", dueDate: "2030-01-01" } });
    expect(bad.milestoneCreate.milestone).toBeNull();
    expect(bad.milestoneCreate.errors.join()).toContain("must be greater than start date");
    expectNotAvailable(await graph(team.guest.api, CREATE, { input: { projectPath: path, title: uniq("g") } }), "milestoneCreate");
  });

  const ACTORS: Record<Actor, boolean> = {
    anonymous: false, nonMember: false, guest: false, reporter: true, developer: true, maintainer: true, owner: true, admin: true,
  };
  it.each(Object.entries(ACTORS))("closing a group milestone as %s: allowed %s", async (actor, allowed) => {
    const group = await createGroup(team.owner.api, { path: uniq("gm") });
    for (const role of ["guest", "reporter", "developer", "maintainer"] as const) {
      await team.owner.api.post(`/groups/${group.id}/members`, { user_id: team[role].id, access_level: { guest: 10, reporter: 20, developer: 30, maintainer: 40 }[role] });
    }
    const created = await team.owner.api.post(`/groups/${group.id}/milestones`, { title: uniq("c") });
    const res = await graph(clientOf(t, team, actor as Actor), UPDATE, { input: { groupPath: group.full_path, id: gid("Milestone", created.body.id), stateEvent: "close" } });
    if (allowed) expect(res.body.data!.milestoneUpdate).toMatchObject({ errors: [], milestone: { state: "closed" } });
    else expectNotAvailable(res, "milestoneUpdate");
    const after = await team.owner.api.get(`/groups/${group.id}/milestones/${created.body.id}`);
    expect(after.body.state).toBe(allowed ? "closed" : "active");
  });

  it("updates values and deletes; another project's milestone id is not found", async () => {
    const project = team.privateProject;
    const m = (await team.owner.api.post(`/projects/${project.id}/milestones`, { title: uniq("u") })).body;
    const updated = await graphData(team.owner.api, UPDATE, { input: { projectPath: project.path_with_namespace, id: gid("Milestone", m.id), description: "from the graph" } });
    expect(updated.milestoneUpdate.milestone).toMatchObject({ description: "from the graph", state: "active" });
    const other = (await team.owner.api.post(`/projects/${team.publicProject.id}/milestones`, { title: uniq("o") })).body;
    expectNotAvailable(await graph(team.owner.api, DELETE, { input: { projectPath: project.path_with_namespace, id: gid("Milestone", other.id) } }), "milestoneDelete");
    const deleted = await graphData(team.owner.api, DELETE, { input: { projectPath: project.path_with_namespace, id: gid("Milestone", m.id) } });
    expect(deleted.milestoneDelete.errors).toEqual([]);
    expect((await team.owner.api.get(`/projects/${project.id}/milestones/${m.id}`)).status).toBe(404);
  });
});

describe("reading milestones", () => {
  it("lists a project's milestones with its groups' when asked, and an issue's and a merge request's milestone", async () => {
    const group = await createGroup(team.owner.api, { path: uniq("rg") });
    const project = await createProject(team.owner.api, { namespace_id: group.id });
    const groupM = (await team.owner.api.post(`/groups/${group.id}/milestones`, { title: uniq("G"), due_date: "2030-01-01" })).body;
    const own = (await team.owner.api.post(`/projects/${project.id}/milestones`, { title: uniq("P") })).body;
    await team.owner.api.put(`/projects/${project.id}/milestones/${own.id}`, { state_event: "close" });
    const query = `query($path: ID!, $anc: Boolean, $state: MilestoneStateEnum) { project(fullPath: $path) {
      milestones(includeAncestors: $anc, state: $state) { count nodes { id title groupMilestone } } } }`;
    const plain = await graphData(team.owner.api, query, { path: project.path_with_namespace });
    expect(plain.project.milestones.nodes.map((n: any) => n.title)).toEqual([own.title]);
    const withGroups = await graphData(team.owner.api, query, { path: project.path_with_namespace, anc: true });
    expect(withGroups.project.milestones.nodes.map((n: any) => n.title)).toEqual([groupM.title, own.title]);
    const active = await graphData(team.owner.api, query, { path: project.path_with_namespace, anc: true, state: "active" });
    expect(active.project.milestones.count).toBe(1);
    const issue = await createIssue(team.owner.api, project.id, { milestone_id: groupM.id });
    const mr = await createMergeRequest(team.owner.api, project.id, { milestone_id: own.id });
    const items = await graphData(team.owner.api, `query($path: ID!, $iid: String!, $mr: String!) { project(fullPath: $path) {
      issue(iid: $iid) { milestone { id title groupMilestone } } mergeRequest(iid: $mr) { milestone { title projectMilestone } } } }`,
      { path: project.path_with_namespace, iid: String(issue.iid), mr: String(mr.iid) });
    expect(items.project.issue.milestone).toEqual({ id: gid("Milestone", groupM.id), title: groupM.title, groupMilestone: true });
    expect(items.project.mergeRequest.milestone).toEqual({ title: own.title, projectMilestone: true });
    const group2 = await graphData(team.owner.api, `query($path: ID!) { group(fullPath: $path) { milestones { nodes { title } } } }`, { path: group.full_path });
    expect(group2.group.milestones.nodes.map((n: any) => n.title)).toEqual([groupM.title]);
  });

  it("resolves node(id:) for those who may read the project, not for others", async () => {
    const m = (await team.owner.api.post(`/projects/${team.privateProject.id}/milestones`, { title: uniq("n") })).body;
    const query = `query($id: ID!) { node(id: $id) { ... on Milestone { title } } }`;
    expect((await graphData(team.guest.api, query, { id: gid("Milestone", m.id) })).node).toEqual({ title: m.title });
    expect((await graphData(team.nonMember.api, query, { id: gid("Milestone", m.id) })).node).toBeNull();
  });
});
