// The public graph's project and group access tokens over the domain functions REST
// /projects/:id/access_tokens and /groups/:id/access_tokens call: projectAccessTokenCreate/Revoke,
// groupAccessTokenCreate/Revoke and Project/Group.accessTokens, by every kind of caller; the secret
// only in the create payload; effects checked through REST and the token itself. The domain's
// 400 answers keep REST's wording in `errors` without the status, as errors.ts `messagesOf` has it.
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../helpers/api.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject, createUser, type TestUser } from "../helpers/factories.js";
import { expectNotAvailable, gid, graph, graphData } from "../helpers/graph.js";
import { ACCESS_LEVEL } from "../helpers/team.js";

let t: TestApp;
let owner: TestUser, maintainer: TestUser, developer: TestUser, guest: TestUser, outsider: TestUser, groupMaintainer: TestUser;
let group: { id: number; full_path: string };
let project: { id: number; path_with_namespace: string };
let otherProject: { id: number; path_with_namespace: string };
let seq = 0;

beforeAll(async () => {
  t = await startTestApp();
  [owner, maintainer, developer, guest, outsider, groupMaintainer] = await Promise.all(Array.from({ length: 6 }, () => createUser(t)));
  group = await createGroup(owner.api);
  project = await createProject(owner.api, { namespace_id: group.id });
  otherProject = await createProject(owner.api, { namespace_id: group.id });
  for (const [user, level] of [[maintainer, ACCESS_LEVEL.maintainer], [developer, ACCESS_LEVEL.developer], [guest, ACCESS_LEVEL.guest]] as const) {
    await addMember(owner.api, "projects", project.id, user.id, level);
  }
  await addMember(owner.api, "groups", group.id, groupMaintainer.id, ACCESS_LEVEL.maintainer);
});

const TOKEN_FIELDS = "id name description scopes revoked active expiresAt accessLevel { integerValue stringValue } user { username bot }";
const CREATE = (source: "project" | "group") => {
  const type = source === "project" ? "Project" : "Group";
  return `mutation($input: ${type}AccessTokenCreateInput!) { ${source}AccessTokenCreate(input: $input) { errors token accessToken { ${TOKEN_FIELDS} } } }`;
};
const REVOKE = (source: "project" | "group") => {
  const type = source === "project" ? "Project" : "Group";
  return `mutation($input: ${type}AccessTokenRevokeInput!) { ${source}AccessTokenRevoke(input: $input) { errors } }`;
};

const projectInput = (extra: Record<string, unknown> = {}) => ({ projectPath: project.path_with_namespace, name: `bot-${++seq}`, scopes: ["api"], ...extra });
const groupInput = (extra: Record<string, unknown> = {}) => ({ groupPath: group.full_path, name: `gbot-${++seq}`, scopes: ["api"], ...extra });

const createProjectToken = async (by: ApiClient, extra: Record<string, unknown> = {}) => graph(by, CREATE("project"), { input: projectInput(extra) });
const numericId = (id: string) => Number(id.split("/").pop());
const restTokens = async (kind: "projects" | "groups", id: number) => (await t.root.get(`/${kind}/${id}/access_tokens`)).body as { id: number; name: string; revoked: boolean }[];

/** A project token made over REST by its owner: `{ id, token, name }`. */
async function restProjectToken(on = project) {
  const res = await owner.api.post(`/projects/${on.id}/access_tokens`, { name: `rest-${++seq}`, scopes: ["api"] });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; token: string; name: string };
}

describe("projectAccessTokenCreate", () => {
  it("lets a Maintainer create a Maintainer-level token, its secret in this payload only", async () => {
    const input = projectInput({ description: "ci", scopes: ["api", "read_repository"] });
    const data = await graphData(maintainer.api, CREATE("project"), { input });
    const { errors, token, accessToken } = data.projectAccessTokenCreate;
    expect(errors).toEqual([]);
    expect(token).toMatch(/^glpat-/);
    expect(accessToken).toMatchObject({
      id: expect.stringMatching(/^gid:\/\/forgeline\/ResourceAccessToken\/\d+$/), name: input.name, description: "ci",
      scopes: ["api", "read_repository"], revoked: false, active: true, expiresAt: expect.any(String),
      accessLevel: { integerValue: 40, stringValue: "MAINTAINER" }, user: { bot: true, username: expect.stringMatching(`^project_${project.id}_bot_`) },
    });
    const rest = await owner.api.get(`/projects/${project.id}/access_tokens/${numericId(accessToken.id)}`);
    expect(rest.body).toMatchObject({ name: input.name, access_level: 40, resource_type: "project", resource_id: project.id });
    expect(rest.text).not.toContain(token);
    // the secret authenticates as the bot
    expect((await t.client(token).get(`/projects/${project.id}`)).status).toBe(200);
    // and is never shown again: not on the type, not in the listing
    const type = await graphData(owner.api, `{ __type(name: "ResourceAccessToken") { fields { name } } }`);
    expect(type.__type.fields.map((field: { name: string }) => field.name)).not.toContain("token");
    const listing = await graph(owner.api, `query($path: ID!) { project(fullPath: $path) { accessTokens { nodes { ${TOKEN_FIELDS} } } } }`, { path: project.path_with_namespace });
    expect(JSON.stringify(listing.body)).not.toContain(token);
  });

  it("lets the Owner and an administrator create Owner-level tokens, not a Maintainer", async () => {
    for (const by of [owner.api, t.root]) {
      const data = await graphData(by, CREATE("project"), { input: projectInput({ accessLevel: "OWNER" }) });
      expect(data.projectAccessTokenCreate.accessToken.accessLevel.integerValue).toBe(50);
    }
    const before = (await restTokens("projects", project.id)).length;
    const refused = await graphData(maintainer.api, CREATE("project"), { input: projectInput({ accessLevel: "OWNER" }) });
    expect(refused.projectAccessTokenCreate).toEqual({
      errors: ["Bad request - Access level of the token contains permissions not held by the creating user"], token: null, accessToken: null,
    });
    expect((await restTokens("projects", project.id)).length).toBe(before);
  });

  it.each([["developer"], ["guest"]] as const)("lists GitLab's refusal for a %s and creates nothing", async (role) => {
    const before = (await restTokens("projects", project.id)).length;
    const data = await graphData({ developer, guest }[role].api, CREATE("project"), { input: projectInput() });
    expect(data.projectAccessTokenCreate).toEqual({ errors: ["Bad request - User does not have permission to create project access token"], token: null, accessToken: null });
    expect((await restTokens("projects", project.id)).length).toBe(before);
  });

  it("is not available to anonymous callers, outsiders of the private project, or by numeric id", async () => {
    const before = (await restTokens("projects", project.id)).length;
    expectNotAvailable(await createProjectToken(t.anon), "projectAccessTokenCreate");
    expectNotAvailable(await createProjectToken(outsider.api), "projectAccessTokenCreate");
    expectNotAvailable(await createProjectToken(owner.api, { projectPath: String(project.id) }), "projectAccessTokenCreate");
    expectNotAvailable(await createProjectToken(owner.api, { projectPath: `${group.full_path}/missing` }), "projectAccessTokenCreate");
    expect((await restTokens("projects", project.id)).length).toBe(before);
  });

  it.each([
    ["a blank name", { name: " " }, ["Bad request - Name can't be blank"]],
    ["no scopes", { scopes: [] }, ["Bad request - Scopes can't be blank"]],
    ["an expiry in the past", { expiresAt: "2020-01-01T00:00:00Z" }, ["expires_at is invalid"]],
    ["an expiry beyond a year", { expiresAt: new Date(Date.now() + 400 * 86_400_000).toISOString() }, [expect.stringMatching(/^Bad request - Expires at must be before \d{4}-\d{2}-\d{2}$/)]],
    ["minimal access", { accessLevel: "MINIMAL_ACCESS" }, ["access_level does not have a valid value"]],
  ])("lists %s in the payload's errors", async (_what, change, errors) => {
    const data = await graphData(maintainer.api, CREATE("project"), { input: projectInput(change) });
    expect(data.projectAccessTokenCreate).toEqual({ errors, token: null, accessToken: null });
  });

  it("does not let a project access token create another one", async () => {
    const bot = await graphData(owner.api, CREATE("project"), { input: projectInput({ accessLevel: "OWNER" }) });
    const data = await graphData(t.client(bot.projectAccessTokenCreate.token), CREATE("project"), { input: projectInput() });
    expect(data.projectAccessTokenCreate.errors).toEqual(["Bad request - User does not have permission to create project access token"]);
  });

  it("refuses a Maintainer's read_api token", async () => {
    const readOnly = await t.root.post(`/users/${maintainer.id}/personal_access_tokens`, { name: "ro", scopes: ["read_api"] });
    const before = (await restTokens("projects", project.id)).length;
    const res = await createProjectToken(t.client(readOnly.body.token));
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ http: { status: 403 } });
    expect((await restTokens("projects", project.id)).length).toBe(before);
  });

  it("refuses a scope that resource tokens cannot have", async () => {
    const res = await createProjectToken(maintainer.api, { scopes: ["read_user"] });
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors?.[0]?.message).toContain("ResourceAccessTokenScope");
  });
});

describe("projectAccessTokenRevoke", () => {
  const revoke = (by: ApiClient, id: string, path = project.path_with_namespace) => graph(by, REVOKE("project"), { input: { projectPath: path, id } });

  it("lets a Maintainer revoke: the secret stops working, the token stays listed as inactive", async () => {
    const created = await restProjectToken();
    expect((await t.client(created.token).get(`/projects/${project.id}`)).status).toBe(200);
    const res = await revoke(maintainer.api, gid("ResourceAccessToken", created.id));
    expect(res.body).toEqual({ data: { projectAccessTokenRevoke: { errors: [] } } });
    expect((await t.client(created.token).get(`/projects/${project.id}`)).status).toBe(401);
    expect((await restTokens("projects", project.id)).find((token) => token.id === created.id)).toMatchObject({ revoked: true });
    const listing = await graphData(maintainer.api, `query($path: ID!) { project(fullPath: $path) { accessTokens(first: 100) { nodes { id revoked active } } } }`, { path: project.path_with_namespace });
    expect(listing.project.accessTokens.nodes).toContainEqual({ id: gid("ResourceAccessToken", created.id), revoked: true, active: false });
  });

  it("lets an administrator revoke", async () => {
    const created = await restProjectToken();
    expect((await revoke(t.root, gid("ResourceAccessToken", created.id))).body.data.projectAccessTokenRevoke).toEqual({ errors: [] });
    expect((await t.client(created.token).get(`/projects/${project.id}`)).status).toBe(401);
  });

  it("lists GitLab's refusal for a Developer and keeps the token", async () => {
    const created = await restProjectToken();
    const res = await revoke(developer.api, gid("ResourceAccessToken", created.id));
    expect(res.body.data.projectAccessTokenRevoke).toEqual({ errors: [`Bad request - User ${developer.username} cannot delete ${created.name}`] });
    expect((await t.client(created.token).get(`/projects/${project.id}`)).status).toBe(200);
  });

  it("is not available to anonymous callers and outsiders, nor for unknown ids, other projects' tokens and other types", async () => {
    const created = await restProjectToken();
    const id = gid("ResourceAccessToken", created.id);
    expectNotAvailable(await revoke(t.anon, id), "projectAccessTokenRevoke");
    expectNotAvailable(await revoke(outsider.api, id), "projectAccessTokenRevoke");
    expectNotAvailable(await revoke(owner.api, gid("ResourceAccessToken", 999_999)), "projectAccessTokenRevoke");
    expectNotAvailable(await revoke(owner.api, gid("PersonalAccessToken", created.id)), "projectAccessTokenRevoke");
    expectNotAvailable(await revoke(owner.api, id, otherProject.path_with_namespace), "projectAccessTokenRevoke");
    expect((await t.client(created.token).get(`/projects/${project.id}`)).status).toBe(200);
  });
});

describe("group access tokens", () => {
  const tokensQuery = `query($path: ID!) { group(fullPath: $path) { accessTokens(first: 100) { count nodes { id name revoked } } } }`;

  it("are created by the group's Owner: a bot member of the group, the secret once; revoked by an administrator", async () => {
    const data = await graphData(owner.api, CREATE("group"), { input: groupInput({ accessLevel: "DEVELOPER" }) });
    const { errors, token, accessToken } = data.groupAccessTokenCreate;
    expect(errors).toEqual([]);
    expect(token).toMatch(/^glpat-/);
    expect(accessToken).toMatchObject({ accessLevel: { integerValue: 30 }, user: { bot: true } });
    const member = await owner.api.get(`/groups/${group.id}/members/${(await t.client(token).get("/user")).body.id}`);
    expect(member.body.access_level).toBe(30);
    // inherited by the group's projects
    expect((await t.client(token).get(`/projects/${project.id}`)).status).toBe(200);
    const listed = await graphData(owner.api, tokensQuery, { path: group.full_path });
    expect(listed.group.accessTokens.nodes).toContainEqual({ id: accessToken.id, name: accessToken.name, revoked: false });
    expect(JSON.stringify(listed)).not.toContain(token);

    const revoked = await graphData(t.root, REVOKE("group"), { input: { groupPath: group.full_path, id: accessToken.id } });
    expect(revoked.groupAccessTokenRevoke).toEqual({ errors: [] });
    expect((await t.client(token).get("/user")).status).toBe(401);
    expect((await restTokens("groups", group.id)).find((row) => row.id === numericId(accessToken.id))).toMatchObject({ revoked: true });
  });

  it("need the Owner: a group Maintainer gets GitLab's refusals in errors", async () => {
    const before = (await restTokens("groups", group.id)).length;
    const created = await graphData(groupMaintainer.api, CREATE("group"), { input: groupInput() });
    expect(created.groupAccessTokenCreate).toEqual({ errors: ["Bad request - User does not have permission to create group access token"], token: null, accessToken: null });
    expect((await restTokens("groups", group.id)).length).toBe(before);
    const existing = (await graphData(owner.api, CREATE("group"), { input: groupInput() })).groupAccessTokenCreate.accessToken;
    const revoked = await graphData(groupMaintainer.api, REVOKE("group"), { input: { groupPath: group.full_path, id: existing.id } });
    expect(revoked.groupAccessTokenRevoke).toEqual({ errors: [`Bad request - User ${groupMaintainer.username} cannot delete ${existing.name}`] });
  });

  it("are not available to anonymous callers and outsiders of the private group", async () => {
    const existing = (await graphData(owner.api, CREATE("group"), { input: groupInput() })).groupAccessTokenCreate.accessToken;
    for (const by of [t.anon, outsider.api]) {
      expectNotAvailable(await graph(by, CREATE("group"), { input: groupInput() }), "groupAccessTokenCreate");
      expectNotAvailable(await graph(by, REVOKE("group"), { input: { groupPath: group.full_path, id: existing.id } }), "groupAccessTokenRevoke");
    }
    expectNotAvailable(await graph(owner.api, CREATE("group"), { input: groupInput({ groupPath: String(group.id) }) }), "groupAccessTokenCreate");
    expect((await restTokens("groups", group.id)).find((row) => row.id === numericId(existing.id))).toMatchObject({ revoked: false });
  });
});

describe("Project.accessTokens and Group.accessTokens", () => {
  const projectTokens = `query($path: ID!) { project(fullPath: $path) { id accessTokens(first: 100) { count nodes { id } } } }`;
  const groupTokens = `query($path: ID!) { group(fullPath: $path) { id accessTokens(first: 100) { count nodes { id } } } }`;

  it("list a project's tokens, as REST, to its Maintainers, Owner and administrators only", async () => {
    await restProjectToken();
    const rest = await restTokens("projects", project.id);
    for (const by of [maintainer.api, owner.api, t.root]) {
      const data = await graphData(by, projectTokens, { path: project.path_with_namespace });
      expect(data.project.accessTokens.count).toBe(rest.length);
      expect(data.project.accessTokens.nodes.map((node: { id: string }) => numericId(node.id))).toEqual(rest.map((token) => token.id));
    }
    for (const by of [developer.api, guest.api]) {
      const data = await graphData(by, projectTokens, { path: project.path_with_namespace });
      expect(data.project).toEqual({ id: gid("Project", project.id), accessTokens: null });
    }
    expect((await graphData(outsider.api, projectTokens, { path: project.path_with_namespace })).project).toBeNull();
    expect((await graphData(t.anon, projectTokens, { path: project.path_with_namespace })).project).toBeNull();
  });

  it("do not list another project's tokens", async () => {
    const other = await restProjectToken(otherProject);
    const data = await graphData(owner.api, projectTokens, { path: project.path_with_namespace });
    expect(data.project.accessTokens.nodes).not.toContainEqual({ id: gid("ResourceAccessToken", other.id) });
  });

  it("list a group's tokens to its Owner and administrators, not to a group Maintainer", async () => {
    await graphData(owner.api, CREATE("group"), { input: groupInput() });
    const rest = await restTokens("groups", group.id);
    for (const by of [owner.api, t.root]) {
      expect((await graphData(by, groupTokens, { path: group.full_path })).group.accessTokens.count).toBe(rest.length);
    }
    expect((await graphData(groupMaintainer.api, groupTokens, { path: group.full_path })).group).toEqual({ id: gid("Group", group.id), accessTokens: null });
  });
});
