// Project and group access tokens over /graphql: the same root fields as REST, the same answers.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createUser, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let owner: TestUser, developer: TestUser, outsider: TestUser;
let group: { id: number };
let project: { id: number };

const FIELDS = `id name description revoked created_at scopes user_id last_used_at active expires_at
  last_used_ips access_level resource_type resource_id`;

const CREATE = `mutation($id: ID!, $name: String!, $scopes: [ResourceAccessTokenScope!]!, $level: Int, $expires: Date) {
  createProjectAccessToken(id: $id, name: $name, scopes: $scopes, access_level: $level, expires_at: $expires) { ${FIELDS} token }
}`;

beforeAll(async () => {
  t = await startTestApp();
  [owner, developer, outsider] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
  const path = `gql-rat-${Date.now().toString(36)}`;
  group = (await owner.api.post("/groups", { name: path, path })).body;
  project = (await owner.api.post("/projects", { name: "p", namespace_id: group.id })).body;
  const added = await owner.api.post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
  expect(added.status).toBe(201);
});

const errorOf = (res: { body: { errors?: any[] } }) => res.body.errors?.[0]?.extensions;

describe("project access tokens over GraphQL", () => {
  it("creates a token that REST then shows identically", async () => {
    const res = await owner.api.graphql(CREATE, { id: String(project.id), name: "gql", scopes: ["api"], level: 30 });
    expect(res.body.errors).toBeUndefined();
    const created = res.body.data.createProjectAccessToken;
    expect(created).toMatchObject({ name: "gql", access_level: 30, resource_type: "project", resource_id: project.id, active: true });
    const { token, ...entity } = created;
    const rest = await owner.api.get(`/projects/${project.id}/access_tokens/${created.id}`);
    expect(rest.body).toEqual(entity);
    const me = await t.client(token).graphql("{ currentUser { id bot } }");
    expect(me.body.data).toEqual({ currentUser: { id: created.user_id, bot: true } });
  });

  it("lists and shows like REST", async () => {
    const list = await owner.api.graphql(`query($id: ID!) { projectAccessTokens(id: $id, per_page: 100) { ${FIELDS} } }`, { id: String(project.id) });
    const rest = await owner.api.get(`/projects/${project.id}/access_tokens`, { query: { per_page: 100 } });
    expect(list.body.data.projectAccessTokens).toEqual(rest.body);
    const id = rest.body[0].id;
    const one = await owner.api.graphql(`query($id: ID!, $t: String!) { projectAccessToken(id: $id, token_id: $t) { ${FIELDS} } }`, { id: String(project.id), t: String(id) });
    expect(one.body.data.projectAccessToken).toEqual(rest.body[0]);
  });

  it("gives the same errors as REST", async () => {
    const vars = { id: String(project.id), name: "x", scopes: ["api"] };
    expect(errorOf(await t.anon.graphql(CREATE, vars))).toMatchObject({ http: { status: 401 }, gitlab: { message: "401 Unauthorized" } });
    expect(errorOf(await outsider.api.graphql(CREATE, vars))).toMatchObject({ http: { status: 404 }, gitlab: { message: "404 Project Not Found" } });
    expect(errorOf(await developer.api.graphql(CREATE, vars))).toMatchObject({
      http: { status: 400 },
      gitlab: { message: "400 Bad request - User does not have permission to create project access token" },
    });
    expect(errorOf(await owner.api.graphql(CREATE, { ...vars, level: 0 }))).toMatchObject({
      http: { status: 400 }, gitlab: { error: "access_level does not have a valid value" },
    });
    const list = await developer.api.graphql(`query($id: ID!) { projectAccessTokens(id: $id) { id } }`, { id: String(project.id) });
    expect(errorOf(list)).toMatchObject({ http: { status: 401 } });
  });

  it("revokes", async () => {
    const created = (await owner.api.graphql(CREATE, { id: String(project.id), name: "gone", scopes: ["read_api"] })).body.data.createProjectAccessToken;
    const revoke = `mutation($id: ID!, $t: String!) { revokeProjectAccessToken(id: $id, token_id: $t) }`;
    const denied = await developer.api.graphql(revoke, { id: String(project.id), t: String(created.id) });
    expect(errorOf(denied)).toMatchObject({ http: { status: 400 } });
    const res = await owner.api.graphql(revoke, { id: String(project.id), t: String(created.id) });
    expect(res.body).toEqual({ data: { revokeProjectAccessToken: true } });
    expect((await t.client(created.token).get("/user")).status).toBe(401);
  });
});

describe("group access tokens over GraphQL", () => {
  it("creates, lists and revokes", async () => {
    const res = await owner.api.graphql(
      `mutation($id: ID!) { createGroupAccessToken(id: $id, name: "g", scopes: [read_api, read_repository], access_level: 50) { ${FIELDS} token } }`,
      { id: String(group.id) },
    );
    expect(res.body.errors).toBeUndefined();
    const created = res.body.data.createGroupAccessToken;
    expect(created).toMatchObject({ resource_type: "group", resource_id: group.id, access_level: 50, scopes: ["read_api", "read_repository"] });
    const list = await owner.api.graphql(`query($id: ID!) { groupAccessTokens(id: $id, state: active) { id } }`, { id: String(group.id) });
    expect(list.body.data.groupAccessTokens).toEqual([{ id: created.id }]);
    const one = await owner.api.graphql(`query($id: ID!, $t: String!) { groupAccessToken(id: $id, token_id: $t) { id access_level } }`, { id: String(group.id), t: String(created.id) });
    expect(one.body.data.groupAccessToken).toEqual({ id: created.id, access_level: 50 });
    const revoked = await owner.api.graphql(`mutation($id: ID!, $t: String!) { revokeGroupAccessToken(id: $id, token_id: $t) }`, { id: String(group.id), t: String(created.id) });
    expect(revoked.body.data).toEqual({ revokeGroupAccessToken: true });
    const after = await owner.api.graphql(`query($id: ID!) { groupAccessTokens(id: $id, state: inactive) { id revoked active } }`, { id: String(group.id) });
    expect(after.body.data.groupAccessTokens).toEqual([{ id: created.id, revoked: true, active: false }]);
  });
});
