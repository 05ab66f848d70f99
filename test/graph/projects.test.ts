// The public graph's read side: entry points per actor, connections walked both ways, node
// lookups of hidden objects, a fixed statement count for a nested page, and the limits.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject, createUser } from "../helpers/factories.js";
import { graph, graphData, gid } from "../helpers/graph.js";
import { createIssue } from "../helpers/issues.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let issues: any[];
let confidential: any;
let privateIssue: any;

const ACTORS: Actor[] = ["anonymous", "nonMember", "guest", "developer", "maintainer", "owner", "admin"];
const MEMBERS: Actor[] = ["guest", "developer", "maintainer", "owner", "admin"];

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  issues = [];
  for (let i = 0; i < 5; i++) issues.push(await createIssue(team.owner.api, team.publicProject.id, { title: `Issue ${i}`, labels: i % 2 ? "bug" : "ui" }));
  confidential = await createIssue(team.owner.api, team.publicProject.id, { title: "Secret", confidential: true });
  privateIssue = await createIssue(team.owner.api, team.privateProject.id, { title: "Private" });
});

const projectQuery = `query($path: ID!) { project(fullPath: $path) { id fullPath visibility } }`;

describe("project(fullPath:)", () => {
  it.each(ACTORS)("shows the public project to %s", async (actor) => {
    const data = await graphData(clientOf(t, team, actor), projectQuery, { path: team.publicProject.path_with_namespace });
    expect(data.project).toEqual({ id: gid("Project", team.publicProject.id), fullPath: team.publicProject.path_with_namespace, visibility: "public" });
  });

  it.each(ACTORS)("shows the private project to members and admins only (%s)", async (actor) => {
    const data = await graphData(clientOf(t, team, actor), projectQuery, { path: team.privateProject.path_with_namespace });
    expect(data.project?.id ?? null).toBe(MEMBERS.includes(actor) ? gid("Project", team.privateProject.id) : null);
  });

  it("answers null for a missing path and for a numeric id given as a path", async () => {
    expect(await graphData(t.root, projectQuery, { path: "nobody/nothing" })).toEqual({ project: null });
    expect(await graphData(t.root, projectQuery, { path: String(team.publicProject.id) })).toEqual({ project: null });
  });
});

const ISSUE_PAGE = `query($path: ID!, $first: Int, $last: Int, $after: String, $before: String) {
  project(fullPath: $path) { issues(first: $first, last: $last, after: $after, before: $before, state: opened) {
    count pageInfo { hasNextPage hasPreviousPage startCursor endCursor } nodes { iid title confidential } } } }`;

async function walk(actor: Actor, direction: "forward" | "backward"): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 10; guard++) {
    const vars = direction === "forward" ? { first: 2, after: cursor } : { last: 2, before: cursor };
    const data: any = await graphData(clientOf(t, team, actor), ISSUE_PAGE, { path: team.publicProject.path_with_namespace, ...vars });
    const page = data.project.issues;
    const iids = page.nodes.map((n: any) => n.iid);
    if (direction === "forward") seen.push(...iids);
    else seen.unshift(...iids);
    const more = direction === "forward" ? page.pageInfo.hasNextPage : page.pageInfo.hasPreviousPage;
    if (!more) return seen;
    cursor = direction === "forward" ? page.pageInfo.endCursor : page.pageInfo.startCursor;
  }
  throw new Error("the connection never ended");
}

describe("Project.issues", () => {
  const newestFirst = () => [...issues].reverse().map((i) => String(i.iid));

  it.each(["anonymous", "guest"] as Actor[])("walks to the end both ways, without the confidential issue for %s", async (actor) => {
    expect(await walk(actor, "forward")).toEqual(newestFirst());
    expect(await walk(actor, "backward")).toEqual(newestFirst());
    const data = await graphData(clientOf(t, team, actor), ISSUE_PAGE, { path: team.publicProject.path_with_namespace, first: 1 });
    expect(data.project.issues.count).toBe(5);
  });

  it.each(["developer", "owner", "admin"] as Actor[])("includes the confidential issue for %s", async (actor) => {
    const all = [String(confidential.iid), ...newestFirst()];
    expect(await walk(actor, "forward")).toEqual(all);
    expect(await walk(actor, "backward")).toEqual(all);
  });

  it("filters by label, search and sorts", async () => {
    const data = await graphData(t.anon, `query($path: ID!) { project(fullPath: $path) {
      bug: issues(labelName: ["bug"], sort: CREATED_ASC) { count nodes { iid } }
      found: issues(search: "Issue 3") { nodes { title } } } }`, { path: team.publicProject.path_with_namespace });
    expect(data.project.bug).toEqual({ count: 2, nodes: [{ iid: String(issues[1].iid) }, { iid: String(issues[3].iid) }] });
    expect(data.project.found.nodes).toEqual([{ title: "Issue 3" }]);
  });

  it.each([
    ["a cursor it did not issue", { first: 1, after: "bogus" }, "Invalid cursor"],
    ["an offset cursor around a non-number", { first: 1, after: Buffer.from("OffsetConnection:x").toString("base64") }, "Invalid cursor"],
    ["a negative first", { first: -1 }, 'Argument "first" must be a non-negative integer'],
  ])("refuses %s", async (_name, vars, message) => {
    const res = await graph(t.anon, ISSUE_PAGE, { path: team.publicProject.path_with_namespace, ...vars });
    expect(res.body.errors?.[0]?.message).toBe(message);
    expect(res.body.data?.project ?? null).toBeNull();
  });

  it("answers first: 0 with an empty page that knows there is more", async () => {
    const data = await graphData(t.anon, ISSUE_PAGE, { path: team.publicProject.path_with_namespace, first: 0 });
    expect(data.project.issues).toMatchObject({ count: 5, nodes: [], pageInfo: { hasNextPage: true, hasPreviousPage: false } });
  });

  it("reads one issue by iid, null when hidden", async () => {
    const q = `query($path: ID!, $iid: String!) { project(fullPath: $path) { issue(iid: $iid) { title } } }`;
    const vars = { path: team.publicProject.path_with_namespace, iid: String(confidential.iid) };
    expect((await graphData(team.guest.api, q, vars)).project.issue).toBeNull();
    expect((await graphData(team.developer.api, q, vars)).project.issue).toEqual({ title: "Secret" });
  });
});

describe("node(id:) and nodes(ids:)", () => {
  const nodeQuery = `query($id: ID!) { node(id: $id) { __typename id ... on Issue { title } ... on Project { fullPath } } }`;

  it("finds what the caller may see", async () => {
    const data = await graphData(team.guest.api, nodeQuery, { id: gid("Issue", privateIssue.id) });
    expect(data.node).toEqual({ __typename: "Issue", id: gid("Issue", privateIssue.id), title: "Private" });
  });

  it.each([
    ["a private project", () => gid("Project", team.privateProject.id)],
    ["an issue of a private project", () => gid("Issue", privateIssue.id)],
    ["a confidential issue", () => gid("Issue", confidential.id)],
    ["a missing issue", () => gid("Issue", 999_999)],
    ["an id beyond the column", () => gid("Issue", 99_999_999_999)],
    ["an unknown type", () => gid("Pipeline", 1)],
    ["another app's id", () => `gid://gitlab/Project/${team.publicProject.id}`],
    ["a malformed id", () => "not-an-id"],
  ])("is null for %s hidden from a non-member, without an error", async (_name, id) => {
    const res = await graph(team.nonMember.api, nodeQuery, { id: id() });
    expect(res.body).toEqual({ data: { node: null } });
  });

  it("answers nodes(ids:) in order, null where hidden", async () => {
    const ids = [gid("Issue", issues[0].id), gid("Issue", confidential.id), gid("Project", team.publicProject.id), "x"];
    const data = await graphData(t.anon, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids });
    expect(data.nodes).toEqual([{ id: ids[0] }, null, { id: ids[2] }, null]);
  });
});

describe("groups, namespaces and users", () => {
  let group: any;
  let sub: any;
  let member: any;

  beforeAll(async () => {
    group = await createGroup(team.owner.api, { visibility: "private" });
    sub = await createGroup(team.owner.api, { parent_id: group.id, path: "sub", visibility: "private" });
    await createProject(team.owner.api, { namespace_id: sub.id, path: "deep" });
    member = await createUser(t);
    await addMember(team.owner.api, "groups", group.id, member.id, 30);
  });

  const groupQuery = `query($path: ID!) { group(fullPath: $path) { id fullName
    descendantGroups { count nodes { fullPath } }
    projects(includeSubgroups: true) { nodes { fullPath } }
    groupMembers { nodes { user { id } accessLevel { stringValue } } } } }`;

  it("shows a private group with its subgroups, projects and members to a member", async () => {
    const data = await graphData(member.api, groupQuery, { path: group.full_path });
    expect(data.group).toMatchObject({
      id: gid("Group", group.id),
      fullName: group.name,
      descendantGroups: { count: 1, nodes: [{ fullPath: `${group.full_path}/sub` }] },
      projects: { nodes: [{ fullPath: `${group.full_path}/sub/deep` }] },
    });
    expect(data.group.groupMembers.nodes).toContainEqual({ user: { id: gid("User", member.id) }, accessLevel: { stringValue: "DEVELOPER" } });
  });

  it.each(["anonymous", "nonMember"] as Actor[])("hides a private group from %s", async (actor) => {
    expect(await graphData(clientOf(t, team, actor), groupQuery, { path: group.full_path })).toEqual({ group: null });
    expect((await graphData(clientOf(t, team, actor), `query($id: ID!) { node(id: $id) { id } }`, { id: gid("Group", group.id) })).node).toBeNull();
  });

  it("finds a personal namespace and a group through namespace(fullPath:)", async () => {
    const q = `query($path: ID!) { namespace(fullPath: $path) { id fullPath projects { count } } }`;
    const own = await graphData(team.owner.api, q, { path: team.owner.username });
    expect(own.namespace).toMatchObject({ fullPath: team.owner.username, projects: { count: 2 } });
    expect((await graphData(member.api, q, { path: group.full_path })).namespace.id).toBe(gid("Group", group.id));
    expect((await graphData(t.anon, q, { path: group.full_path })).namespace).toBeNull();
  });

  it("shows a public group through namespace(fullPath:) without membership, unlike REST's GET /namespaces/:id", async () => {
    const q = `query($path: ID!) { namespace(fullPath: $path) { id } }`;
    const open = await createGroup(team.owner.api, { visibility: "public" });
    expect((await graphData(team.nonMember.api, q, { path: open.full_path })).namespace).toEqual({ id: gid("Group", open.id) });
    expect((await graphData(team.nonMember.api, q, { path: team.owner.username })).namespace).toBeNull();
    expect((await team.nonMember.api.get(`/namespaces/${open.id}`)).status).toBe(404);
  });

  it("answers currentUser (null when anonymous) and user(username:)", async () => {
    expect(await graphData(t.anon, "{ currentUser { id } }")).toEqual({ currentUser: null });
    expect(await graphData(member.api, "{ currentUser { id username } }")).toEqual({ currentUser: { id: gid("User", member.id), username: member.username } });
    const q = `query($u: String!) { user(username: $u) { id webUrl } }`;
    expect((await graphData(member.api, q, { u: team.owner.username.toUpperCase() })).user.id).toBe(gid("User", team.owner.id));
    expect((await graphData(member.api, q, { u: "no-such-user" })).user).toBeNull();
  });

  it("lists topics as a connection", async () => {
    await t.root.post("/topics", { name: "graph-topic", title: "Graph topic" });
    const data = await graphData(t.anon, `{ topics(search: "graph-topic") { count nodes { id name title } } }`);
    expect(data.topics).toMatchObject({ count: 1, nodes: [{ name: "graph-topic", title: "Graph topic" }] });
  });
});

describe("statements per nested page", () => {
  const NESTED = `query($path: ID!, $first: Int!) { project(fullPath: $path) { issues(first: $first) {
    nodes { title author { username } awardEmoji { nodes { name user { username } } } } } } }`;

  /** Statements of the query on a warm server (answered once before), counted at the driver. */
  async function statementsFor(path: string, first: number) {
    await graphData(team.owner.api, NESTED, { path, first });
    const before = t.services.sqlStats.statements;
    const data = await graphData(team.owner.api, NESTED, { path, first });
    return { count: t.services.sqlStats.statements - before, rows: data.project.issues.nodes.length };
  }

  it("reads project → 20 issues → their reactions and authors in a fixed number of statements", async () => {
    const project = await createProject(team.owner.api, { visibility: "public" });
    const authors = await Promise.all(Array.from({ length: 4 }, () => createUser(t)));
    for (let i = 0; i < 22; i++) {
      const author = authors[i % authors.length]!;
      const issue = await createIssue(author.api, project.id, { title: `Nested ${i}` });
      await authors[(i + 1) % authors.length]!.api.post(`/projects/${project.id}/issues/${issue.iid}/award_emoji`, { name: "thumbsup" });
    }
    const twenty = await statementsFor(project.path_with_namespace, 20);
    const five = await statementsFor(project.path_with_namespace, 5);
    expect(twenty.rows).toBe(20);
    expect(five.rows).toBe(5);
    expect(twenty.count).toBe(five.count);
    // as REST's list budget (test/rest/statement-budgets.test.ts): the page, its count, one batch
    expect(twenty.count).toBeLessThanOrEqual(3);
  });
});

describe("limits", () => {
  it("refuses a query above the complexity limit with a clear error, running nothing", async () => {
    const before = t.services.sqlStats.statements;
    const res = await graph(t.anon, `{ topics { nodes { name } } project(fullPath: "a/b") { issues { nodes { notes { nodes {
      awardEmoji { nodes { user { username name webUrl avatarUrl } } } } } } } } }`);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.[0]?.message).toMatch(/^Query complexity of \d+ exceeds max complexity of 2500$/);
    expect(t.services.sqlStats.statements - before).toBe(0);
  });

  it("refuses a query deeper than 15 levels", async () => {
    let selection = "id";
    for (let i = 0; i < 15; i++) selection = `parent { ${selection} }`;
    const res = await graph(t.anon, `{ group(fullPath: "a") { ${selection} } }`);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.[0]?.message).toMatch(/exceeds max depth of 15/);
  });
});
