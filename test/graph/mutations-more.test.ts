// More payload mutations over the REST writes' domain functions: notes, issue deletion, merge
// requests, topics, members, groups and projects. Allowed actors see their change through a
// query; refused or hidden ones get GitLab's "resource not available"; bad input lists errors.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { graph, graphData, gid, expectNotAvailable } from "../helpers/graph.js";
import { addMember, createGroup, createUser, uniq } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createBranch, createMergeRequest } from "../helpers/merge-requests.js";
import { ACCESS_LEVEL, clientOf, createTeamProject, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

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

describe("merge request writes", () => {
  const MR_FIELDS = `errors mergeRequest { iid title description state draft sourceBranch targetBranch labels { nodes { title } } assignees { nodes { username } } author { username } }`;
  const CREATE = `mutation($input: MergeRequestCreateInput!) { mergeRequestCreate(input: $input) { ${MR_FIELDS} } }`;
  const UPDATE = `mutation($input: MergeRequestUpdateInput!) { mergeRequestUpdate(input: $input) { ${MR_FIELDS} } }`;
  const DRAFT = `mutation($input: MergeRequestSetDraftInput!) { mergeRequestSetDraft(input: $input) { ${MR_FIELDS} } }`;
  const LABELS = `mutation($input: MergeRequestSetLabelsInput!) { mergeRequestSetLabels(input: $input) { ${MR_FIELDS} } }`;
  const ASSIGNEES = `mutation($input: MergeRequestSetAssigneesInput!) { mergeRequestSetAssignees(input: $input) { ${MR_FIELDS} } }`;
  const READ = `query($path: ID!, $iid: String!) { project(fullPath: $path) { mergeRequest(iid: $iid) { title description state draft labels { nodes { title } } assignees { nodes { username } } } } }`;
  const read = async (project: any, iid: string | number) =>
    (await graphData(team.owner.api, READ, { path: project.path_with_namespace, iid: String(iid) })).project.mergeRequest;
  let branch: string;
  let mr: any;
  const mrInput = (fields: Record<string, unknown> = {}) => ({ input: { projectPath: team.privateProject.path_with_namespace, iid: String(mr.iid), ...fields } });
  beforeAll(async () => {
    branch = uniq("feature");
    await createBranch(team.owner.api, team.privateProject.id, branch);
    mr = await createMergeRequest(team.owner.api, team.privateProject.id, { title: "Writable" });
  });

  it.each(["developer", "maintainer", "admin"] as Actor[])("opens a merge request in the private project as %s", async (actor) => {
    const source = uniq("feature");
    await createBranch(team.owner.api, team.privateProject.id, source);
    const input = { projectPath: team.privateProject.path_with_namespace, title: `By ${actor}`, sourceBranch: source, targetBranch: "main", description: "Why", labels: ["review"], assigneeIds: [gid("User", team.developer.id)] };
    const data = await graphData(clientOf(t, team, actor), CREATE, { input });
    expect(data.mergeRequestCreate.errors).toEqual([]);
    expect(data.mergeRequestCreate.mergeRequest).toMatchObject({
      title: `By ${actor}`, description: "Why", state: "opened", draft: false, sourceBranch: source, targetBranch: "main",
      labels: { nodes: [{ title: "review" }] }, assignees: { nodes: [{ username: team.developer.username }] },
    });
    expect(await read(team.privateProject, data.mergeRequestCreate.mergeRequest.iid)).toMatchObject({ title: `By ${actor}`, state: "opened" });
  });

  it.each(["anonymous", "nonMember", "guest", "reporter"] as Actor[])("refuses to open one as %s", async (actor) => {
    const input = { projectPath: team.privateProject.path_with_namespace, title: "Nope", sourceBranch: branch, targetBranch: "main" };
    expectNotAvailable(await graph(clientOf(t, team, actor), CREATE, { input }), "mergeRequestCreate");
  });

  it("lists a missing branch and a blank title as errors, and refuses read_api tokens", async () => {
    const input = { projectPath: team.privateProject.path_with_namespace, title: "Bad", sourceBranch: "no-such-branch", targetBranch: "main" };
    const missing = await graphData(team.developer.api, CREATE, { input });
    expect(missing.mergeRequestCreate.mergeRequest).toBeNull();
    expect(missing.mergeRequestCreate.errors.length).toBeGreaterThan(0);
    const blank = await graphData(team.developer.api, CREATE, { input: { ...input, sourceBranch: branch, title: " " } });
    expect(blank.mergeRequestCreate.mergeRequest).toBeNull();
    expect(blank.mergeRequestCreate.errors.length).toBeGreaterThan(0);
    await expectReadApiRefused(CREATE, { input });
  });

  it("changes, closes and reopens a merge request as a developer", async () => {
    const changed = await graphData(team.developer.api, UPDATE, mrInput({ title: "Rewritten", description: "New", state: "CLOSED" }));
    expect(changed.mergeRequestUpdate).toMatchObject({ errors: [], mergeRequest: { title: "Rewritten", description: "New", state: "closed" } });
    expect(await read(team.privateProject, mr.iid)).toMatchObject({ title: "Rewritten", state: "closed" });
    const reopened = await graphData(team.developer.api, UPDATE, mrInput({ state: "OPEN" }));
    expect(reopened.mergeRequestUpdate.mergeRequest.state).toBe("opened");
  });

  it.each(["anonymous", "nonMember", "guest", "reporter"] as Actor[])("refuses changes by %s", async (actor) => {
    const client = clientOf(t, team, actor);
    expectNotAvailable(await graph(client, UPDATE, mrInput({ title: "Nope" })), "mergeRequestUpdate");
    expectNotAvailable(await graph(client, DRAFT, mrInput({ draft: true })), "mergeRequestSetDraft");
    expectNotAvailable(await graph(client, LABELS, mrInput({ labels: ["x"] })), "mergeRequestSetLabels");
    expectNotAvailable(await graph(client, ASSIGNEES, mrInput({ assigneeUsernames: [] })), "mergeRequestSetAssignees");
    expect((await read(team.privateProject, mr.iid)).title).not.toBe("Nope");
  });

  it("needs a change, a visible merge request and a real iid", async () => {
    const none = await graphData(team.developer.api, UPDATE, mrInput());
    expect(none.mergeRequestUpdate.mergeRequest).toBeNull();
    expect(none.mergeRequestUpdate.errors).toHaveLength(1);
    expectNotAvailable(await graph(team.developer.api, UPDATE, mrInput({ iid: "999999", title: "x" })), "mergeRequestUpdate");
    expectNotAvailable(await graph(team.developer.api, UPDATE, mrInput({ iid: "abc", title: "x" })), "mergeRequestUpdate");
    await expectReadApiRefused(UPDATE, mrInput({ title: "x" }));
  });

  it("marks a merge request as a draft and as ready", async () => {
    const drafted = await graphData(team.developer.api, DRAFT, mrInput({ draft: true }));
    expect(drafted.mergeRequestSetDraft.mergeRequest).toMatchObject({ draft: true, title: expect.stringMatching(/^Draft: /) });
    expect((await read(team.privateProject, mr.iid)).draft).toBe(true);
    const ready = await graphData(team.developer.api, DRAFT, mrInput({ draft: false }));
    expect(ready.mergeRequestSetDraft.mergeRequest.draft).toBe(false);
    expect((await read(team.privateProject, mr.iid)).title).not.toMatch(/draft/i);
  });

  it("replaces, appends and removes labels", async () => {
    const titles = (data: any) => data.mergeRequestSetLabels.mergeRequest.labels.nodes.map((l: any) => l.title);
    expect(titles(await graphData(team.developer.api, LABELS, mrInput({ labels: ["a", "b"] })))).toEqual(["a", "b"]);
    expect(titles(await graphData(team.developer.api, LABELS, mrInput({ labels: ["c"], operationMode: "APPEND" })))).toEqual(["a", "b", "c"]);
    expect(titles(await graphData(team.developer.api, LABELS, mrInput({ labels: ["a"], operationMode: "REMOVE" })))).toEqual(["b", "c"]);
    expect((await read(team.privateProject, mr.iid)).labels.nodes).toEqual([{ title: "b" }, { title: "c" }]);
  });

  it("replaces, appends and removes assignees by username", async () => {
    const names = (data: any) => data.mergeRequestSetAssignees.mergeRequest.assignees.nodes.map((u: any) => u.username).sort();
    const set = (usernames: string[], operationMode?: string) => graphData(team.maintainer.api, ASSIGNEES, mrInput({ assigneeUsernames: usernames, operationMode }));
    expect(names(await set([team.developer.username]))).toEqual([team.developer.username]);
    expect(names(await set([team.maintainer.username], "APPEND"))).toEqual([team.developer.username, team.maintainer.username].sort());
    expect(names(await set([team.developer.username], "REMOVE"))).toEqual([team.maintainer.username]);
    // someone who cannot read the merge request is dropped, as the REST route does
    expect(names(await set([team.nonMember.username, "no-such-user"]))).toEqual([]);
    expect((await read(team.privateProject, mr.iid)).assignees.nodes).toEqual([]);
  });
});

describe("topic writes", () => {
  const CREATE = `mutation($input: TopicCreateInput!) { topicCreate(input: $input) { errors topic { id name title description } } }`;
  const UPDATE = `mutation($input: TopicUpdateInput!) { topicUpdate(input: $input) { errors topic { id name title description } } }`;
  const DELETE = `mutation($input: TopicDeleteInput!) { topicDelete(input: $input) { errors } }`;
  const READ = `query($id: ID!) { node(id: $id) { ... on Topic { name title description } } }`;
  const create = async (name = uniq("topic")) => (await graphData(t.root, CREATE, { input: { name, title: `Title ${name}` } })).topicCreate.topic;

  it("creates, changes and deletes a topic as an administrator", async () => {
    const name = uniq("topic");
    const created = await graphData(t.root, CREATE, { input: { name, title: "A topic", description: "About" } });
    expect(created.topicCreate).toMatchObject({ errors: [], topic: { name, title: "A topic", description: "About" } });
    const id = created.topicCreate.topic.id;
    const search = await graphData(t.anon, `query($s: String) { topics(search: $s) { nodes { id name } } }`, { s: name });
    expect(search.topics.nodes).toEqual([{ id, name }]);
    const updated = await graphData(t.root, UPDATE, { input: { id, title: "Renamed" } });
    expect(updated.topicUpdate).toEqual({ errors: [], topic: { id, name, title: "Renamed", description: "About" } });
    expect((await graphData(t.anon, READ, { id })).node).toEqual({ name, title: "Renamed", description: "About" });
    expect((await graphData(t.root, DELETE, { input: { id } })).topicDelete).toEqual({ errors: [] });
    expect((await graphData(t.anon, READ, { id })).node).toBeNull();
    expectNotAvailable(await graph(t.root, DELETE, { input: { id } }), "topicDelete");
  });

  it.each(["anonymous", "nonMember", "owner"] as Actor[])("refuses %s (administrators only)", async (actor) => {
    const topic = await create();
    const client = clientOf(t, team, actor);
    expectNotAvailable(await graph(client, CREATE, { input: { name: uniq("topic"), title: "x" } }), "topicCreate");
    expectNotAvailable(await graph(client, UPDATE, { input: { id: topic.id, title: "x" } }), "topicUpdate");
    expectNotAvailable(await graph(client, DELETE, { input: { id: topic.id } }), "topicDelete");
    expect((await graphData(t.anon, READ, { id: topic.id })).node.title).toBe(topic.title);
  });

  it("lists a taken name and a blank title as errors, hides unknown ids", async () => {
    const topic = await create();
    const taken = await graphData(t.root, CREATE, { input: { name: topic.name.toUpperCase(), title: "Again" } });
    expect(taken.topicCreate.topic).toBeNull();
    expect(taken.topicCreate.errors.length).toBeGreaterThan(0);
    const blank = await graphData(t.root, CREATE, { input: { name: uniq("topic"), title: " " } });
    expect(blank.topicCreate.topic).toBeNull();
    expect(blank.topicCreate.errors.length).toBeGreaterThan(0);
    const other = await create();
    const renamed = await graphData(t.root, UPDATE, { input: { id: topic.id, name: other.name } });
    expect(renamed.topicUpdate.topic).toBeNull();
    expect(renamed.topicUpdate.errors.length).toBeGreaterThan(0);
    expectNotAvailable(await graph(t.root, UPDATE, { input: { id: gid("Topic", 999_999_999), title: "x" } }), "topicUpdate");
    expectNotAvailable(await graph(t.root, DELETE, { input: { id: gid("Project", team.publicProject.id) } }), "topicDelete");
  });
});

describe.each([
  { noun: "project", pathKey: "projectPath", manager: "maintainer" as Actor, tooLow: "developer" as Actor },
  { noun: "group", pathKey: "groupPath", manager: "owner" as Actor, tooLow: "maintainer" as Actor },
])("$noun member writes", ({ noun, pathKey, manager, tooLow }) => {
  const Noun = noun[0]!.toUpperCase() + noun.slice(1);
  const ADD = `mutation($input: ${Noun}MemberAddInput!) { ${noun}MemberAdd(input: $input) { errors ${noun}Member { user { username } accessLevel { stringValue } expiresAt } } }`;
  const UPDATE = `mutation($input: ${Noun}MemberUpdateInput!) { ${noun}MemberUpdate(input: $input) { errors ${noun}Member { user { username } accessLevel { stringValue } } } }`;
  const REMOVE = `mutation($input: ${Noun}MemberRemoveInput!) { ${noun}MemberRemove(input: $input) { errors } }`;
  const READ = `query($path: ID!, $search: String) { ${noun}(fullPath: $path) { ${noun}Members(search: $search) { nodes { user { username } accessLevel { stringValue } } } } }`;
  let path: string;
  const input = (user: { id: number }, fields: Record<string, unknown> = {}) => ({ input: { [pathKey]: path, userId: gid("User", user.id), ...fields } });
  const membersNamed = async (username: string) => (await graphData(team.owner.api, READ, { path, search: username }))[noun][`${noun}Members`].nodes;

  beforeAll(async () => {
    if (noun === "project") {
      path = (await createTeamProject(team)).path_with_namespace;
      return;
    }
    const group = await createGroup(team.owner.api);
    for (const role of ["maintainer", "developer", "reporter", "guest"] as const) await addMember(team.owner.api, "groups", group.id, team[role].id, ACCESS_LEVEL[role]);
    path = group.full_path;
  });

  it(`adds, changes and removes a member as the ${manager} and as an administrator`, async () => {
    for (const actor of [manager, "admin"] as Actor[]) {
      const user = await createUser(t);
      const added = await graphData(clientOf(t, team, actor), ADD, input(user, { accessLevel: "DEVELOPER", expiresAt: "2099-01-31" }));
      expect(added[`${noun}MemberAdd`]).toEqual({ errors: [], [`${noun}Member`]: { user: { username: user.username }, accessLevel: { stringValue: "DEVELOPER" }, expiresAt: "2099-01-31T00:00:00.000Z" } });
      expect(await membersNamed(user.username)).toEqual([{ user: { username: user.username }, accessLevel: { stringValue: "DEVELOPER" } }]);
      const updated = await graphData(clientOf(t, team, actor), UPDATE, input(user, { accessLevel: "REPORTER" }));
      expect(updated[`${noun}MemberUpdate`]).toEqual({ errors: [], [`${noun}Member`]: { user: { username: user.username }, accessLevel: { stringValue: "REPORTER" } } });
      expect((await graphData(clientOf(t, team, actor), REMOVE, input(user)))[`${noun}MemberRemove`]).toEqual({ errors: [] });
      expect(await membersNamed(user.username)).toEqual([]);
    }
  });

  it.each(["anonymous", "nonMember", "guest", tooLow])("refuses %s", async (actor) => {
    const user = await createUser(t);
    const client = clientOf(t, team, actor as Actor);
    expectNotAvailable(await graph(client, ADD, input(user, { accessLevel: "GUEST" })), `${noun}MemberAdd`);
    expectNotAvailable(await graph(client, UPDATE, input(team.reporter, { accessLevel: "GUEST" })), `${noun}MemberUpdate`);
    expectNotAvailable(await graph(client, REMOVE, input(team.reporter)), `${noun}MemberRemove`);
    expect(await membersNamed(user.username)).toEqual([]);
    expect(await membersNamed(team.reporter.username)).toEqual([{ user: { username: team.reporter.username }, accessLevel: { stringValue: "REPORTER" } }]);
  });

  it("lists an existing member as an error, hides unknown members and sources, refuses read_api tokens", async () => {
    const again = await graphData(clientOf(t, team, manager), ADD, input(team.reporter, { accessLevel: "GUEST" }));
    expect(again[`${noun}MemberAdd`]).toEqual({ errors: ["Member already exists"], [`${noun}Member`]: null });
    const stranger = await createUser(t);
    expectNotAvailable(await graph(clientOf(t, team, manager), UPDATE, input(stranger, { accessLevel: "GUEST" })), `${noun}MemberUpdate`);
    expectNotAvailable(await graph(clientOf(t, team, manager), REMOVE, { input: { [pathKey]: "no/such", userId: gid("User", team.reporter.id) } }), `${noun}MemberRemove`);
    await expectReadApiRefused(REMOVE, input(team.reporter));
  });

  it("lets a member leave on their own", async () => {
    const leaver = await createUser(t);
    await graphData(clientOf(t, team, manager), ADD, input(leaver, { accessLevel: "GUEST" }));
    expect((await graphData(leaver.api, REMOVE, input(leaver)))[`${noun}MemberRemove`]).toEqual({ errors: [] });
    expect(await membersNamed(leaver.username)).toEqual([]);
  });
});

describe("group writes", () => {
  const CREATE = `mutation($input: GroupCreateInput!) { groupCreate(input: $input) { errors group { id name path fullPath description visibility } } }`;
  const UPDATE = `mutation($input: GroupUpdateInput!) { groupUpdate(input: $input) { errors group { name fullPath description visibility } } }`;
  const DELETE = `mutation($input: GroupDeleteInput!) { groupDelete(input: $input) { errors } }`;
  const READ = `query($path: ID!) { group(fullPath: $path) { name fullPath description visibility } }`;
  let group: any;
  beforeAll(async () => {
    group = await createGroup(team.owner.api);
    for (const role of ["maintainer", "developer", "guest"] as const) await addMember(team.owner.api, "groups", group.id, team[role].id, ACCESS_LEVEL[role]);
  });

  it("creates a top-level group as any signed-in user, who becomes its owner", async () => {
    const path = uniq("g");
    const data = await graphData(team.nonMember.api, CREATE, { input: { name: `Group ${path}`, path, description: "Mine", visibility: "internal" } });
    expect(data.groupCreate).toMatchObject({ errors: [], group: { name: `Group ${path}`, path, fullPath: path, description: "Mine", visibility: "internal" } });
    const renamed = await graphData(team.nonMember.api, UPDATE, { input: { fullPath: path, name: "Renamed" } });
    expect(renamed.groupUpdate).toMatchObject({ errors: [], group: { name: "Renamed" } });
    expect((await graphData(team.guest.api, READ, { path })).group).toMatchObject({ name: "Renamed", visibility: "internal" });
    expect((await graphData(t.anon, READ, { path })).group).toBeNull();
  });

  it("creates a subgroup as the parent's maintainer, refuses its developer and anonymous callers", async () => {
    const input = (path: string) => ({ input: { name: path, path, parentId: gid("Group", group.id) } });
    const path = uniq("sub");
    const data = await graphData(team.maintainer.api, CREATE, input(path));
    expect(data.groupCreate).toMatchObject({ errors: [], group: { fullPath: `${group.full_path}/${path}`, visibility: "private" } });
    expect((await graphData(team.guest.api, READ, { path: `${group.full_path}/${path}` })).group.fullPath).toBe(`${group.full_path}/${path}`);
    expectNotAvailable(await graph(team.developer.api, CREATE, input(uniq("sub"))), "groupCreate");
    expectNotAvailable(await graph(team.nonMember.api, CREATE, input(uniq("sub"))), "groupCreate");
    expectNotAvailable(await graph(t.anon, CREATE, { input: { name: "x", path: uniq("g") } }), "groupCreate");
    await expectReadApiRefused(CREATE, { input: { name: "x", path: uniq("g") } });
  });

  it("lists a taken or malformed path as errors", async () => {
    const taken = await graphData(team.nonMember.api, CREATE, { input: { name: "Taken", path: group.path } });
    expect(taken.groupCreate.group).toBeNull();
    expect(taken.groupCreate.errors.length).toBeGreaterThan(0);
    const malformed = await graphData(team.owner.api, UPDATE, { input: { fullPath: group.full_path, path: "-bad." } });
    expect(malformed.groupUpdate.group).toBeNull();
    expect(malformed.groupUpdate.errors.length).toBeGreaterThan(0);
  });

  it.each(["owner", "admin"] as Actor[])("changes the group as %s", async (actor) => {
    const data = await graphData(clientOf(t, team, actor), UPDATE, { input: { fullPath: group.full_path, description: `By ${actor}` } });
    expect(data.groupUpdate).toMatchObject({ errors: [], group: { description: `By ${actor}` } });
    expect((await graphData(team.guest.api, READ, { path: group.full_path })).group.description).toBe(`By ${actor}`);
  });

  it.each(["anonymous", "nonMember", "guest", "developer", "maintainer"] as Actor[])("refuses changes and deletion by %s", async (actor) => {
    const client = clientOf(t, team, actor);
    expectNotAvailable(await graph(client, UPDATE, { input: { fullPath: group.full_path, description: "Nope" } }), "groupUpdate");
    expectNotAvailable(await graph(client, DELETE, { input: { fullPath: group.full_path } }), "groupDelete");
    expect((await graphData(team.owner.api, READ, { path: group.full_path })).group.description).not.toBe("Nope");
  });

  it("deletes a group as its owner; unknown paths and numeric ids are not available", async () => {
    const doomed = await createGroup(team.owner.api);
    expect((await graphData(team.owner.api, DELETE, { input: { fullPath: doomed.full_path } })).groupDelete).toEqual({ errors: [] });
    expect((await graphData(team.owner.api, READ, { path: doomed.full_path })).group).toBeNull();
    expectNotAvailable(await graph(team.owner.api, DELETE, { input: { fullPath: doomed.full_path } }), "groupDelete");
    expectNotAvailable(await graph(team.owner.api, DELETE, { input: { fullPath: String(group.id) } }), "groupDelete");
  });
});

describe("project writes", () => {
  const CREATE = `mutation($input: ProjectCreateInput!) { projectCreate(input: $input) { errors project { id name path fullPath description visibility topics } } }`;
  const UPDATE = `mutation($input: ProjectUpdateInput!) { projectUpdate(input: $input) { errors project { name fullPath description visibility topics } } }`;
  const DELETE = `mutation($input: ProjectDeleteInput!) { projectDelete(input: $input) { errors } }`;
  const READ = `query($path: ID!) { project(fullPath: $path) { name description visibility topics } }`;
  let project: any;
  let group: any;
  beforeAll(async () => {
    project = await createTeamProject(team);
    group = await createGroup(team.owner.api);
    for (const role of ["developer", "reporter"] as const) await addMember(team.owner.api, "groups", group.id, team[role].id, ACCESS_LEVEL[role]);
  });

  it("creates a project in the caller's namespace and in a group as its developer", async () => {
    const path = uniq("p");
    const own = await graphData(team.nonMember.api, CREATE, { input: { name: `Project ${path}`, path, description: "Mine", visibility: "public", topics: ["graph"] } });
    expect(own.projectCreate).toMatchObject({ errors: [], project: { path, fullPath: `${team.nonMember.username}/${path}`, description: "Mine", visibility: "public", topics: ["graph"] } });
    expect((await graphData(t.anon, READ, { path: `${team.nonMember.username}/${path}` })).project).toMatchObject({ name: `Project ${path}` });
    const inGroup = await graphData(team.developer.api, CREATE, { input: { path: uniq("p"), namespacePath: group.full_path } });
    expect(inGroup.projectCreate.errors).toEqual([]);
    expect(inGroup.projectCreate.project.fullPath).toMatch(new RegExp(`^${group.full_path}/`));
  });

  it("lists a namespace the caller may not create in, a taken path and missing names as errors", async () => {
    const reporter = await graphData(team.reporter.api, CREATE, { input: { path: uniq("p"), namespacePath: group.full_path } });
    expect(reporter.projectCreate).toEqual({ errors: ["namespace is not valid"], project: null });
    const taken = await graphData(team.owner.api, CREATE, { input: { path: project.path } });
    expect(taken.projectCreate.project).toBeNull();
    expect(taken.projectCreate.errors.length).toBeGreaterThan(0);
    const nameless = await graphData(team.owner.api, CREATE, { input: {} });
    expect(nameless.projectCreate.project).toBeNull();
    expect(nameless.projectCreate.errors).toHaveLength(1);
    expectNotAvailable(await graph(t.anon, CREATE, { input: { path: uniq("p") } }), "projectCreate");
    await expectReadApiRefused(CREATE, { input: { path: uniq("p") } });
  });

  it.each(["maintainer", "owner", "admin"] as Actor[])("changes the project as %s", async (actor) => {
    const data = await graphData(clientOf(t, team, actor), UPDATE, { input: { fullPath: project.path_with_namespace, description: `By ${actor}`, topics: [actor] } });
    expect(data.projectUpdate).toMatchObject({ errors: [], project: { description: `By ${actor}`, topics: [actor] } });
    expect((await graphData(team.guest.api, READ, { path: project.path_with_namespace })).project).toMatchObject({ description: `By ${actor}`, topics: [actor] });
  });

  it("lets only owners change the visibility", async () => {
    expectNotAvailable(await graph(team.maintainer.api, UPDATE, { input: { fullPath: project.path_with_namespace, visibility: "internal" } }), "projectUpdate");
    const data = await graphData(team.owner.api, UPDATE, { input: { fullPath: project.path_with_namespace, visibility: "internal" } });
    expect(data.projectUpdate.project.visibility).toBe("internal");
    await graphData(team.owner.api, UPDATE, { input: { fullPath: project.path_with_namespace, visibility: "private" } });
  });

  it.each(["anonymous", "nonMember", "guest", "developer"] as Actor[])("refuses changes and deletion by %s", async (actor) => {
    const client = clientOf(t, team, actor);
    expectNotAvailable(await graph(client, UPDATE, { input: { fullPath: project.path_with_namespace, description: "Nope" } }), "projectUpdate");
    expectNotAvailable(await graph(client, DELETE, { input: { fullPath: project.path_with_namespace } }), "projectDelete");
    expect((await graphData(team.owner.api, READ, { path: project.path_with_namespace })).project.description).not.toBe("Nope");
  });

  it("changes the merge settings, which REST shows the same; a merge method that is none is an error", async () => {
    const input = { fullPath: project.path_with_namespace, mergeMethod: "ff", squashOption: "always", mergeCommitTemplate: "%{title}", onlyAllowMergeIfAllDiscussionsAreResolved: true };
    const SETTINGS = `mutation($input: ProjectUpdateInput!) { projectUpdate(input: $input) { errors project { mergeMethod squashOption mergeCommitTemplate squashCommitTemplate onlyAllowMergeIfAllDiscussionsAreResolved } } }`;
    const data = await graphData(team.maintainer.api, SETTINGS, { input });
    expect(data.projectUpdate).toEqual({
      errors: [],
      project: { mergeMethod: "ff", squashOption: "always", mergeCommitTemplate: "%{title}", squashCommitTemplate: null, onlyAllowMergeIfAllDiscussionsAreResolved: true },
    });
    expect((await team.maintainer.api.get(`/projects/${project.id}`)).body).toMatchObject({
      merge_method: "ff", squash_option: "always", merge_commit_template: "%{title}", only_allow_merge_if_all_discussions_are_resolved: true,
    });
    const bad = await graphData(team.maintainer.api, SETTINGS, { input: { fullPath: project.path_with_namespace, mergeMethod: "octopus" } });
    expect(bad.projectUpdate).toEqual({ errors: ["merge_method does not have a valid value"], project: null });
    expect((await team.maintainer.api.get(`/projects/${project.id}`)).body.merge_method).toBe("ff");
    await graphData(team.maintainer.api, SETTINGS, { input: { fullPath: project.path_with_namespace, mergeMethod: "merge", squashOption: "default_off", mergeCommitTemplate: null, onlyAllowMergeIfAllDiscussionsAreResolved: false } });
  });

  it("lists a malformed path as an error", async () => {
    const data = await graphData(team.owner.api, UPDATE, { input: { fullPath: project.path_with_namespace, path: "-bad" } });
    expect(data.projectUpdate.project).toBeNull();
    expect(data.projectUpdate.errors.length).toBeGreaterThan(0);
  });

  it("deletes a project as its owner, refusing its maintainer; then it is not available", async () => {
    const doomed = await createTeamProject(team);
    expectNotAvailable(await graph(team.maintainer.api, DELETE, { input: { fullPath: doomed.path_with_namespace } }), "projectDelete");
    expect((await graphData(team.owner.api, DELETE, { input: { fullPath: doomed.path_with_namespace } })).projectDelete).toEqual({ errors: [] });
    expect((await graphData(team.owner.api, READ, { path: doomed.path_with_namespace })).project).toBeNull();
    expectNotAvailable(await graph(team.owner.api, DELETE, { input: { fullPath: doomed.path_with_namespace } }), "projectDelete");
    expectNotAvailable(await graph(team.owner.api, DELETE, { input: { fullPath: String(project.id) } }), "projectDelete");
  });
});
