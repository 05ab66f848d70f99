// More payload mutations over the REST writes' domain functions: notes, issue deletion, merge
// requests, topics, members, groups and projects. Allowed actors see their change through a
// query; refused or hidden ones get GitLab's "resource not available"; bad input lists errors.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { graph, graphData, gid } from "../helpers/graph.js";
import { createUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
const NOT_AVAILABLE = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

function expectNotAvailable(res: Awaited<ReturnType<typeof graph>>, field: string) {
  expect(res.body.errors?.[0]).toMatchObject({ message: NOT_AVAILABLE, path: [field] });
  expect((res.body.data as Record<string, unknown> | undefined)?.[field] ?? null).toBeNull();
}

async function expectReadApiRefused(query: string, variables: Record<string, unknown>) {
  const reader = await createUser(t, {}, ["read_api"]);
  const res = await graph(reader.api, query, variables);
  expect(res.body.data ?? null).toBeNull();
  expect(res.body.errors?.[0]?.extensions).toMatchObject({ http: { status: 403 } });
}

describe("updateNote and destroyNote", () => {
  const CREATE = `mutation($input: CreateNoteInput!) { createNote(input: $input) { errors note { id } } }`;
  const UPDATE = `mutation($input: UpdateNoteInput!) { updateNote(input: $input) { errors note { id body } } }`;
  const DESTROY = `mutation($input: DestroyNoteInput!) { destroyNote(input: $input) { errors note { id } } }`;
  const NOTES = `query($id: ID!) { node(id: $id) { ... on Issue { notes { nodes { id body } } } } }`;
  let issue: any;
  let privateIssue: any;
  const noteBy = async (actor: Actor, on = issue) =>
    (await graphData(clientOf(t, team, actor), CREATE, { input: { noteableId: gid("Issue", on.id), body: `By ${actor}` } })).createNote.note.id as string;
  beforeAll(async () => {
    issue = await createIssue(team.owner.api, team.publicProject.id, { title: "Notes" });
    privateIssue = await createIssue(team.owner.api, team.privateProject.id, { title: "Private notes" });
  });

  it.each(["guest", "maintainer", "admin"] as Actor[])("changes the guest's note as %s (author, maintainer, admin)", async (actor) => {
    const id = await noteBy("guest");
    const data = await graphData(clientOf(t, team, actor), UPDATE, { input: { id, body: `Changed by ${actor}` } });
    expect(data.updateNote).toEqual({ errors: [], note: { id, body: `Changed by ${actor}` } });
    const notes = (await graphData(team.guest.api, NOTES, { id: gid("Issue", issue.id) })).node.notes.nodes;
    expect(notes).toContainEqual({ id, body: `Changed by ${actor}` });
  });

  it.each(["anonymous", "nonMember", "developer"] as Actor[])("refuses to change the guest's note as %s", async (actor) => {
    const id = await noteBy("guest");
    expectNotAvailable(await graph(clientOf(t, team, actor), UPDATE, { input: { id, body: "Nope" } }), "updateNote");
    expectNotAvailable(await graph(clientOf(t, team, actor), DESTROY, { input: { id } }), "destroyNote");
    expect((await graphData(team.guest.api, NOTES, { id: gid("Issue", issue.id) })).node.notes.nodes).toContainEqual({ id, body: "By guest" });
  });

  it("hides notes on hidden issues and notes that do not exist", async () => {
    const id = await noteBy("owner", privateIssue);
    expectNotAvailable(await graph(team.nonMember.api, UPDATE, { input: { id, body: "x" } }), "updateNote");
    expectNotAvailable(await graph(team.nonMember.api, DESTROY, { input: { id } }), "destroyNote");
    expectNotAvailable(await graph(team.owner.api, UPDATE, { input: { id: gid("Note", 999_999_999), body: "x" } }), "updateNote");
    expectNotAvailable(await graph(team.owner.api, UPDATE, { input: { id: gid("Issue", issue.id), body: "x" } }), "updateNote");
  });

  it("lists a blank body as an error and refuses read_api tokens", async () => {
    const id = await noteBy("developer");
    const data = await graphData(team.developer.api, UPDATE, { input: { id, body: "  " } });
    expect(data.updateNote.note).toBeNull();
    expect(data.updateNote.errors).toHaveLength(1);
    await expectReadApiRefused(UPDATE, { input: { id, body: "x" } });
    await expectReadApiRefused(DESTROY, { input: { id } });
  });

  it("deletes a note as its author, and the note is gone", async () => {
    const id = await noteBy("reporter");
    expect((await graphData(team.reporter.api, DESTROY, { input: { id } })).destroyNote).toEqual({ errors: [], note: null });
    expect((await graphData(team.guest.api, NOTES, { id: gid("Issue", issue.id) })).node.notes.nodes.map((n: any) => n.id)).not.toContain(id);
    expect((await graphData(t.anon, `query($id: ID!) { node(id: $id) { id } }`, { id })).node).toBeNull();
    expectNotAvailable(await graph(team.reporter.api, DESTROY, { input: { id } }), "destroyNote");
  });
});

describe("issueDelete", () => {
  const DELETE = `mutation($input: IssueDeleteInput!) { issueDelete(input: $input) { errors } }`;
  const READ = `query($path: ID!, $iid: String!) { project(fullPath: $path) { issue(iid: $iid) { id } } }`;
  const input = (project: any, iid: number | string) => ({ input: { projectPath: project.path_with_namespace, iid: String(iid) } });

  it.each(["owner", "admin"] as Actor[])("deletes an issue of the private project as %s", async (actor) => {
    const issue = await createIssue(team.owner.api, team.privateProject.id, { title: "Doomed" });
    expect((await graphData(clientOf(t, team, actor), DELETE, input(team.privateProject, issue.iid))).issueDelete).toEqual({ errors: [] });
    expect((await graphData(team.owner.api, READ, { path: team.privateProject.path_with_namespace, iid: String(issue.iid) })).project.issue).toBeNull();
  });

  it.each(["anonymous", "nonMember", "guest", "developer", "maintainer"] as Actor[])("refuses %s", async (actor) => {
    const issue = await createIssue(team.owner.api, team.privateProject.id, { title: "Stays" });
    expectNotAvailable(await graph(clientOf(t, team, actor), DELETE, input(team.privateProject, issue.iid)), "issueDelete");
    expect((await graphData(team.owner.api, READ, { path: team.privateProject.path_with_namespace, iid: String(issue.iid) })).project.issue).toEqual({ id: gid("Issue", issue.id) });
  });

  it("hides issues that do not exist, malformed iids and refuses read_api tokens", async () => {
    expectNotAvailable(await graph(team.owner.api, DELETE, input(team.privateProject, 999_999)), "issueDelete");
    expectNotAvailable(await graph(team.owner.api, DELETE, input(team.privateProject, "abc")), "issueDelete");
    expectNotAvailable(await graph(team.owner.api, DELETE, { input: { projectPath: "no/such", iid: "1" } }), "issueDelete");
    await expectReadApiRefused(DELETE, input(team.publicProject, 1));
  });
});
