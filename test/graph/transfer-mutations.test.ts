// Moves on the public graph: groupTransfer and projectTransfer (Owners and administrators, into
// where they may create), and topicsMerge (administrators), over the REST transfer and topic
// merge rules; effects checked through REST.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject, uniq } from "../helpers/factories.js";
import { expectNotAvailable, gid, graph, graphData } from "../helpers/graph.js";
import { ACCESS_LEVEL, clientOf, createTeam, createTeamProject, type Actor, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
});

const MOVERS: Actor[] = ["owner", "admin"];
const NON_MOVERS: Actor[] = ["anonymous", "nonMember", "guest", "reporter", "developer", "maintainer"];

/** A private group of the team's owner with the other roles as members. */
async function teamGroup(overrides: Record<string, unknown> = {}) {
  const group = await createGroup(team.owner.api, overrides);
  for (const role of ["maintainer", "developer", "reporter", "guest"] as const) {
    await addMember(team.owner.api, "groups", group.id, team[role].id, ACCESS_LEVEL[role]);
  }
  return group;
}

const restGroup = async (id: number) => (await t.root.get(`/groups/${id}`)).body;
const restProject = async (id: number) => (await t.root.get(`/projects/${id}`)).body;

describe("groupTransfer", () => {
  const TRANSFER = `mutation($input: GroupTransferInput!) { groupTransfer(input: $input) { errors group { id fullPath parent { fullPath } } } }`;
  const input = (group: any, parent?: any) => ({ input: { fullPath: group.full_path, ...(parent ? { parentId: gid("Group", parent.id) } : {}) } });

  it.each(MOVERS)("moves a group with its projects under another group as %s", async (actor) => {
    const [group, target] = [await teamGroup(), await teamGroup()];
    const project = await createProject(team.owner.api, { namespace_id: group.id });
    const res = await graphData(clientOf(t, team, actor), TRANSFER, input(group, target));
    const fullPath = `${target.full_path}/${group.path}`;
    expect(res.groupTransfer).toEqual({ errors: [], group: { id: gid("Group", group.id), fullPath, parent: { fullPath: target.full_path } } });
    expect(await restGroup(group.id)).toMatchObject({ full_path: fullPath, parent_id: target.id });
    expect((await restProject(project.id)).path_with_namespace).toBe(`${fullPath}/${project.path}`);
  });

  it("makes a subgroup top-level without a parentId", async () => {
    const sub = await createGroup(team.owner.api, { parent_id: (await teamGroup()).id });
    const res = await graphData(team.owner.api, TRANSFER, input(sub));
    expect(res.groupTransfer).toEqual({ errors: [], group: { id: gid("Group", sub.id), fullPath: sub.path, parent: null } });
    expect(await restGroup(sub.id)).toMatchObject({ full_path: sub.path, parent_id: null });
  });

  it.each(NON_MOVERS)("refuses %s without moving the group", async (actor) => {
    const [group, target] = [await teamGroup(), await teamGroup()];
    expectNotAvailable(await graph(clientOf(t, team, actor), TRANSFER, input(group, target)), "groupTransfer");
    expect((await restGroup(group.id)).full_path).toBe(group.full_path);
  });

  it("refuses missing and hidden groups, and a parent id of another type", async () => {
    const group = await teamGroup();
    const hidden = await createGroup(team.nonMember.api);
    expectNotAvailable(await graph(team.owner.api, TRANSFER, input(group, hidden)), "groupTransfer");
    expectNotAvailable(await graph(team.owner.api, TRANSFER, input(group, { id: 99999999 })), "groupTransfer");
    expectNotAvailable(await graph(team.owner.api, TRANSFER, { input: { fullPath: group.full_path, parentId: gid("Project", group.id) } }), "groupTransfer");
    expectNotAvailable(await graph(team.owner.api, TRANSFER, { input: { fullPath: "no-such-group" } }), "groupTransfer");
    expectNotAvailable(await graph(team.owner.api, TRANSFER, { input: { fullPath: String(group.id) } }), "groupTransfer");
    expect((await restGroup(group.id)).full_path).toBe(group.full_path);
  });

  it("lists the transfer rules' refusals in errors", async () => {
    const group = await teamGroup();
    const sub = await createGroup(team.owner.api, { parent_id: group.id });
    const weakTarget = await createGroup(team.nonMember.api);
    await addMember(team.nonMember.api, "groups", weakTarget.id, team.owner.id, ACCESS_LEVEL.developer);
    const cases: [any, any, string][] = [
      [group, undefined, "Group is already a root group."],
      [sub, group, "Group is already associated to the parent group."],
      [group, sub, "Cannot transfer group to one of its subgroup."],
      [group, weakTarget, "You don't have enough permissions."],
    ];
    for (const [moved, parent, reason] of cases) {
      expect((await graphData(team.owner.api, TRANSFER, input(moved, parent))).groupTransfer).toEqual({ errors: [`Transfer failed: ${reason}`], group: null });
    }
    expect((await restGroup(group.id)).full_path).toBe(group.full_path);
    expect((await restGroup(sub.id)).full_path).toBe(sub.full_path);
  });
});

describe("projectTransfer", () => {
  const TRANSFER = `mutation($input: ProjectTransferInput!) { projectTransfer(input: $input) { errors project { id fullPath namespace { fullPath } } } }`;
  const input = (project: any, namespacePath: string) => ({ input: { fullPath: project.path_with_namespace, namespacePath } });

  it.each(MOVERS)("moves a project into a group and back to a personal namespace as %s", async (actor) => {
    const [project, target] = [await createTeamProject(team), await teamGroup()];
    const moved = await graphData(clientOf(t, team, actor), TRANSFER, input(project, target.full_path));
    const fullPath = `${target.full_path}/${project.path}`;
    expect(moved.projectTransfer).toEqual({ errors: [], project: { id: gid("Project", project.id), fullPath, namespace: { fullPath: target.full_path } } });
    expect((await restProject(project.id)).path_with_namespace).toBe(fullPath);

    const back = await graphData(clientOf(t, team, actor), TRANSFER, { input: { fullPath, namespacePath: team.owner.username } });
    expect(back.projectTransfer.project).toMatchObject({ fullPath: project.path_with_namespace, namespace: { fullPath: team.owner.username } });
    expect((await restProject(project.id)).path_with_namespace).toBe(project.path_with_namespace);
  });

  it.each(NON_MOVERS)("refuses %s without moving the project", async (actor) => {
    const [project, target] = [await createTeamProject(team), await teamGroup()];
    expectNotAvailable(await graph(clientOf(t, team, actor), TRANSFER, input(project, target.full_path)), "projectTransfer");
    expect((await restProject(project.id)).path_with_namespace).toBe(project.path_with_namespace);
  });

  it("refuses missing and hidden namespaces and projects", async () => {
    const project = await createTeamProject(team);
    const hidden = await createGroup(team.nonMember.api);
    for (const namespacePath of [hidden.full_path, "no-such-namespace", String((await teamGroup()).id)]) {
      expectNotAvailable(await graph(team.owner.api, TRANSFER, input(project, namespacePath)), "projectTransfer");
    }
    expectNotAvailable(await graph(team.owner.api, TRANSFER, { input: { fullPath: "no/such", namespacePath: team.owner.username } }), "projectTransfer");
    expect((await restProject(project.id)).path_with_namespace).toBe(project.path_with_namespace);
  });

  it("lists the transfer rules' refusals in errors", async () => {
    const project = await createTeamProject(team);
    const weakTarget = await createGroup(team.nonMember.api);
    await addMember(team.nonMember.api, "groups", weakTarget.id, team.owner.id, ACCESS_LEVEL.developer);
    const clashing = await teamGroup();
    await createProject(team.owner.api, { namespace_id: clashing.id, path: project.path });
    const cases: [string, string][] = [
      [team.owner.username, "Project is already in this namespace."],
      [weakTarget.full_path, "You don't have permission to transfer projects into that namespace."],
      [clashing.full_path, "Project with same name or path in target namespace already exists"],
    ];
    for (const [namespacePath, reason] of cases) {
      const res = (await graphData(team.owner.api, TRANSFER, input(project, namespacePath))).projectTransfer;
      expect(res.project).toBeNull();
      expect(res.errors).toHaveLength(1);
      expect(res.errors[0]).toMatch(/^Failed to transfer project /);
      expect(res.errors[0]).toContain(reason);
    }
    expect((await restProject(project.id)).path_with_namespace).toBe(project.path_with_namespace);
  });
});

describe("topicsMerge", () => {
  const MERGE = `mutation($input: TopicsMergeInput!) { topicsMerge(input: $input) { errors topic { id name } } }`;
  const input = (source: { id: number }, target: { id: number }) => ({ input: { sourceTopicId: gid("Topic", source.id), targetTopicId: gid("Topic", target.id) } });

  async function createTopic() {
    const name = uniq("topic");
    const res = await t.root.post("/topics", { name, title: `Title of ${name}` });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  it("moves the source's projects to the target and deletes the source as an administrator", async () => {
    const [source, target] = [await createTopic(), await createTopic()];
    const onlySource = await createProject(team.owner.api, { topics: [source.name] });
    const both = await createProject(team.owner.api, { topics: [source.name, target.name] });
    const res = await graphData(t.root, MERGE, input(source, target));
    expect(res.topicsMerge).toEqual({ errors: [], topic: { id: gid("Topic", target.id), name: target.name } });
    expect((await t.anon.get(`/topics/${source.id}`)).status).toBe(404);
    expect((await restProject(onlySource.id)).topics).toEqual([target.name]);
    expect((await restProject(both.id)).topics).toEqual([target.name]);
    expect((await t.anon.get(`/topics/${target.id}`)).body.total_projects_count).toBe(2);
  });

  it.each(["anonymous", "owner"] as Actor[])("refuses %s (not an administrator) and keeps both topics", async (actor) => {
    const [source, target] = [await createTopic(), await createTopic()];
    expectNotAvailable(await graph(clientOf(t, team, actor), MERGE, input(source, target)), "topicsMerge");
    expect((await t.anon.get(`/topics/${source.id}`)).status).toBe(200);
  });

  it("lists a merge into itself in errors; missing and malformed ids are not available", async () => {
    const topic = await createTopic();
    expect((await graphData(t.root, MERGE, input(topic, topic))).topicsMerge).toEqual({ errors: ["The source topic and the target topic are identical."], topic: null });
    expectNotAvailable(await graph(t.root, MERGE, input(topic, { id: 99999999 })), "topicsMerge");
    expectNotAvailable(await graph(t.root, MERGE, { input: { sourceTopicId: gid("Project", topic.id), targetTopicId: gid("Topic", topic.id) } }), "topicsMerge");
    expectNotAvailable(await graph(t.root, MERGE, { input: { sourceTopicId: "nonsense", targetTopicId: gid("Topic", topic.id) } }), "topicsMerge");
    expect((await t.anon.get(`/topics/${topic.id}`)).status).toBe(200);
  });
});
