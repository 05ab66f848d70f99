// Groups, projects and members over /graphql: the same root fields as /api/v4 give the same
// data and the same refusals (REST status in extensions.http.status, GitLab body in extensions.gitlab).
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let owner: TestUser, developer: TestUser, stranger: TestUser;
let group: any, project: any;

const GROUP = "id name path full_path full_name parent_id visibility description web_url";
const PROJECT = "id name path path_with_namespace name_with_namespace visibility description topics namespace { id kind full_path } owner { id }";
const MEMBER = "id username access_level expires_at";

type Answer = Awaited<ReturnType<TestApp["root"]["graphql"]>>;

/** One error with the REST status and GitLab's body, and no data. */
function expectRefused(res: Answer, status: number, gitlab: unknown) {
  expect(res.status).toBe(status);
  expect(res.body.data ?? null).toBeNull();
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors![0].extensions).toMatchObject({ http: { status }, gitlab });
}

const pick = (body: any, fields: string) => Object.fromEntries(fields.split(" ").filter((f) => /^\w+$/.test(f)).map((f) => [f, body[f]]));

beforeAll(async () => {
  t = await startTestApp();
  [owner, developer, stranger] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
  group = await createGroup(owner.api);
  await addMember(owner.api, "groups", group.id, developer.id, 30);
  project = await createProject(owner.api, { namespace_id: group.id, topics: ["gql"] });
});

describe("groups", () => {
  it("createGroup creates what GET /groups/:id then shows", async () => {
    const path = uniq("gq");
    const res = await stranger.api.graphql(`mutation($path: String!) { createGroup(name: "GraphQL Group", path: $path, visibility: public) { ${GROUP} } }`, { path });
    expect(res.body.errors).toBeUndefined();
    const created = res.body.data.createGroup;
    expect(created).toMatchObject({ name: "GraphQL Group", path, full_path: path, visibility: "public", parent_id: null });
    expect(created).toEqual(pick((await stranger.api.get(`/groups/${created.id}`)).body, GROUP));
  });

  it("createGroup refuses anonymous callers, duplicates and subgroups without rights", async () => {
    expectRefused(await t.anon.graphql(`mutation { createGroup(name: "x", path: "x") { id } }`), 401, { message: "401 Unauthorized" });
    expectRefused(
      await stranger.api.graphql(`mutation($path: String!) { createGroup(name: "dup", path: $path) { id } }`, { path: group.path }),
      400, { message: 'Failed to save group {:path=>["has already been taken"]}' },
    );
    expectRefused(
      await developer.api.graphql(`mutation($p: Int) { createGroup(name: "sub", path: "sub", parent_id: $p) { id } }`, { p: group.id }),
      403, { message: "403 Forbidden" },
    );
  });

  it("group and groups answer like REST, hiding private groups with 404", async () => {
    const byPath = await developer.api.graphql(`query($id: ID!) { group(id: $id) { ${GROUP} } }`, { id: group.full_path });
    expect(byPath.body.data.group).toEqual(pick((await developer.api.get(`/groups/${group.id}`)).body, GROUP));
    expectRefused(await stranger.api.graphql(`query($id: ID!) { group(id: $id) { id } }`, { id: String(group.id) }), 404, { message: "404 Group Not Found" });
    const list = await developer.api.graphql(`{ groups { id } }`);
    expect(list.body.data.groups).toEqual((await developer.api.get("/groups")).body.map((g: any) => ({ id: g.id })));
  });

  it("updateGroup is for Owners", async () => {
    const mutation = `mutation($id: ID!) { updateGroup(id: $id, description: "via graphql") { id description } }`;
    expectRefused(await developer.api.graphql(mutation, { id: String(group.id) }), 403, { message: "403 Forbidden" });
    const res = await owner.api.graphql(mutation, { id: String(group.id) });
    expect(res.body.data.updateGroup).toEqual({ id: group.id, description: "via graphql" });
  });

  it("groupSubgroups and groupProjects list like REST", async () => {
    const sub = await createGroup(owner.api, { parent_id: group.id });
    const res = await developer.api.graphql(`query($id: ID!) { groupSubgroups(id: $id) { id } groupProjects(id: $id) { id } }`, { id: String(group.id) });
    expect(res.body.data).toEqual({ groupSubgroups: [{ id: sub.id }], groupProjects: [{ id: project.id }] });
  });
});

describe("projects", () => {
  it("createProject and project answer like REST", async () => {
    const res = await developer.api.graphql(
      `mutation($ns: ID) { createProject(name: "From GraphQL", namespace_id: $ns, topics: ["a", "b"]) { ${PROJECT} } }`,
      { ns: group.full_path },
    );
    expect(res.body.errors).toBeUndefined();
    const created = res.body.data.createProject;
    expect(created).toMatchObject({ name: "From GraphQL", path: "from-graphql", topics: ["a", "b"], namespace: { id: group.id, kind: "group" }, owner: null });
    const rest = (await developer.api.get(`/projects/${created.id}`)).body;
    expect(created).toEqual({ ...pick(rest, PROJECT), namespace: pick(rest.namespace, "id kind full_path"), owner: null });
  });

  it("refuses what REST refuses, with the same bodies", async () => {
    expectRefused(
      await stranger.api.graphql(`mutation($ns: ID) { createProject(name: "x", namespace_id: $ns) { id } }`, { ns: String(group.id) }),
      400, { message: { namespace: ["is not valid"] } },
    );
    expectRefused(await stranger.api.graphql(`query($id: ID!) { project(id: $id) { id } }`, { id: String(project.id) }), 404, { message: "404 Project Not Found" });
    expectRefused(
      await developer.api.graphql(`mutation($id: ID!) { updateProject(id: $id, description: "no") { id } }`, { id: String(project.id) }),
      403, { message: "403 Forbidden" },
    );
  });

  it("projects lists like REST", async () => {
    const gql = await developer.api.graphql(`{ projects(membership: true, order_by: id, sort: asc) { id } }`);
    const rest = await developer.api.get("/projects", { query: { membership: true, order_by: "id", sort: "asc" } });
    expect(gql.body.data.projects).toEqual(rest.body.map((p: any) => ({ id: p.id })));
  });

  it("updateProject and transferProject change the path and leave a redirect for REST", async () => {
    const mine = await createProject(owner.api, { namespace_id: group.id });
    const path = uniq("gqlpath");
    const renamed = await owner.api.graphql(`mutation($id: ID!, $path: String) { updateProject(id: $id, path: $path) { path_with_namespace } }`, { id: String(mine.id), path });
    expect(renamed.body.data.updateProject).toEqual({ path_with_namespace: `${group.full_path}/${path}` });
    const target = await createGroup(owner.api);
    const moved = await owner.api.graphql(`mutation($id: ID!, $ns: ID!) { transferProject(id: $id, namespace: $ns) { namespace { id } } }`, { id: String(mine.id), ns: target.full_path });
    expect(moved.body.data.transferProject).toEqual({ namespace: { id: target.id } });
    expect((await owner.api.get(`/projects/${encodeURIComponent(mine.path_with_namespace)}`)).status).toBe(301);
    expectRefused(
      await owner.api.graphql(`mutation($id: ID!, $ns: ID!) { transferProject(id: $id, namespace: $ns) { id } }`, { id: String(mine.id), ns: String(target.id) }),
      400, { message: 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}' },
    );
  });
});

describe("members", () => {
  it("adds, lists, updates and removes group members as REST does", async () => {
    const user = await createUser(t);
    const id = String(group.id);
    const added = await owner.api.graphql(`mutation($id: ID!, $u: Int) { addGroupMember(id: $id, user_id: $u, access_level: 20) { ${MEMBER} } }`, { id, u: user.id });
    expect(added.body.data.addGroupMember).toEqual({ id: user.id, username: user.username, access_level: 20, expires_at: null });
    expectRefused(
      await owner.api.graphql(`mutation($id: ID!, $u: Int) { addGroupMember(id: $id, user_id: $u, access_level: 20) { id } }`, { id, u: user.id }),
      409, { message: "Member already exists" },
    );
    const list = await developer.api.graphql(`query($id: ID!) { groupMembers(id: $id) { ${MEMBER} } }`, { id });
    expect(list.body.data.groupMembers).toEqual((await developer.api.get(`/groups/${id}/members`)).body.map((m: any) => pick(m, MEMBER)));
    expectRefused(
      await developer.api.graphql(`mutation($id: ID!, $u: Int!) { updateGroupMember(id: $id, user_id: $u, access_level: 30) { id } }`, { id, u: user.id }),
      403, { message: "403 Forbidden" },
    );
    const updated = await owner.api.graphql(`mutation($id: ID!, $u: Int!) { updateGroupMember(id: $id, user_id: $u, access_level: 30) { access_level } }`, { id, u: user.id });
    expect(updated.body.data.updateGroupMember).toEqual({ access_level: 30 });
    const removed = await owner.api.graphql(`mutation($id: ID!, $u: Int!) { removeGroupMember(id: $id, user_id: $u) }`, { id, u: user.id });
    expect(removed.body.data).toEqual({ removeGroupMember: true });
    expectRefused(await owner.api.graphql(`query($id: ID!, $u: Int!) { groupMember(id: $id, user_id: $u) { id } }`, { id, u: user.id }), 404, { message: "404 Not found" });
  });

  it("projectMembersAll includes inherited members; anonymous callers get 401", async () => {
    const res = await developer.api.graphql(`query($id: ID!) { projectMembersAll(id: $id) { id access_level } }`, { id: String(project.id) });
    expect(res.body.data.projectMembersAll).toEqual(expect.arrayContaining([{ id: owner.id, access_level: 50 }, { id: developer.id, access_level: 30 }]));
    const one = await developer.api.graphql(`query($id: ID!, $u: Int!) { projectMemberAll(id: $id, user_id: $u) { id access_level } }`, { id: String(project.id), u: owner.id });
    expect(one.body.data.projectMemberAll).toEqual({ id: owner.id, access_level: 50 });
    expectRefused(
      await developer.api.graphql(`query($id: ID!, $u: Int!) { projectMemberAll(id: $id, user_id: $u) { id } }`, { id: String(project.id), u: stranger.id }),
      404, { message: "404 Not found" },
    );
    expectRefused(await t.anon.graphql(`query($id: ID!) { projectMembers(id: $id) { id } }`, { id: String(project.id) }), 401, { message: "401 Unauthorized" });
  });
});

describe("moved projects", () => {
  it("resolves an old full path to the project (REST answers it with a redirect)", async () => {
    const mine = await createProject(owner.api, { namespace_id: group.id });
    const oldPath = `${group.full_path}/${mine.path}`;
    const renamed = await owner.api.put(`/projects/${mine.id}`, { path: uniq("renamed") });
    expect(renamed.status).toBe(200);
    const res = await owner.api.graphql(`query($id: ID!) { project(id: $id) { id path_with_namespace } }`, { id: oldPath });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.project).toEqual({ id: mine.id, path_with_namespace: renamed.body.path_with_namespace });
    const rest = await owner.api.get(`/projects/${encodeURIComponent(oldPath)}`);
    expect(rest.status).toBe(301);
  });
});
