// The public graph's administrator writes over the REST domain functions: users (userCreate,
// userUpdate, userDelete), personal access tokens (personalAccessTokenCreate/Revoke), OAuth
// applications (applicationCreate/Delete/RenewSecret) and feature flags (featureSet/Delete).
// Secrets appear only in the payload that creates them; non-admins get "resource not available".
import { beforeAll, describe, expect, it } from "vitest";
import { secretMatches } from "../../src/domain/oauth/applications.js";
import type { ApiClient } from "../helpers/api.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createUser, uniq, type TestUser } from "../helpers/factories.js";
import { graph, graphData, gid, expectNotAvailable } from "../helpers/graph.js";

let t: TestApp;
let plain: TestUser;
let readApiAdmin: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  plain = await createUser(t);
  readApiAdmin = await createUser(t, { admin: true }, ["read_api"]);
});

type Caller = "anonymous" | "plain user";
const NON_ADMINS: Caller[] = ["anonymous", "plain user"];
const callerOf = (caller: Caller): ApiClient => (caller === "anonymous" ? t.anon : plain.api);
const numericId = (id: string) => Number(id.split("/").pop());

async function expectReadApiRefused(query: string, variables: Record<string, unknown>) {
  const res = await graph(readApiAdmin.api, query, variables);
  expect(res.body.data ?? null).toBeNull();
  expect(res.body.errors?.[0]?.extensions).toMatchObject({ http: { status: 403 } });
}

const USER_CREATE = `mutation($input: UserCreateInput!) { userCreate(input: $input) { errors user { id username name } } }`;
const USER_UPDATE = `mutation($input: UserUpdateInput!) { userUpdate(input: $input) { errors user { id username name } } }`;
const USER_DELETE = `mutation($input: UserDeleteInput!) { userDelete(input: $input) { errors } }`;

const newUser = (username = uniq("gu").replace("-", "_")) => ({ username, name: `Name ${username}`, email: `${username}@example.com`, password: "password-123456" });

describe("userCreate", () => {
  it("creates a user as an administrator, as POST /users would", async () => {
    const input = newUser();
    const data = await graphData(t.root, USER_CREATE, { input });
    expect(data.userCreate).toEqual({ errors: [], user: { id: expect.stringMatching(/^gid:\/\/forgeline\/User\/\d+$/), username: input.username, name: input.name } });
    const rest = await t.root.get(`/users/${numericId(data.userCreate.user.id)}`);
    expect(rest.body).toMatchObject({ username: input.username, email: input.email });
  });

  it.each(NON_ADMINS)("refuses %s and creates nobody", async (caller) => {
    const input = newUser();
    expectNotAvailable(await graph(callerOf(caller), USER_CREATE, { input }), "userCreate");
    expect((await t.root.get(`/users?username=${input.username}`)).body).toEqual([]);
  });

  it("refuses a read_api token, even an administrator's", async () => {
    await expectReadApiRefused(USER_CREATE, { input: newUser() });
  });

  it.each([
    ["an invalid e-mail", { email: "nope" }, ["email is invalid"]],
    ["a short password", { password: "short" }, ["password is too short (minimum is 8 characters)"]],
    ["no password at all", { password: null }, ["password, reset_password, force_random_password are missing, at least one parameter must be provided"]],
    ["a taken username", { username: "root" }, ["Username has already been taken"]],
  ])("lists %s in the payload's errors", async (_what, change, errors) => {
    const data = await graphData(t.root, USER_CREATE, { input: { ...newUser(), ...change } });
    expect(data.userCreate).toEqual({ errors, user: null });
  });
});

describe("userUpdate and userDelete", () => {
  it("renames a user as an administrator", async () => {
    const user = await createUser(t);
    const data = await graphData(t.root, USER_UPDATE, { input: { id: gid("User", user.id), name: "Renamed" } });
    expect(data.userUpdate).toEqual({ errors: [], user: { id: gid("User", user.id), username: user.username, name: "Renamed" } });
    expect((await t.root.get(`/users/${user.id}`)).body.name).toBe("Renamed");
  });

  it("lists invalid attributes in the payload's errors and changes nothing", async () => {
    const user = await createUser(t);
    const data = await graphData(t.root, USER_UPDATE, { input: { id: gid("User", user.id), email: "nope", name: "Never" } });
    expect(data.userUpdate).toEqual({ errors: ["email is invalid"], user: null });
    expect((await t.root.get(`/users/${user.id}`)).body.name).not.toBe("Never");
  });

  it.each(NON_ADMINS)("refuses %s, even on the caller's own account", async (caller) => {
    const res = await graph(callerOf(caller), USER_UPDATE, { input: { id: gid("User", plain.id), name: "Mine" } });
    expectNotAvailable(res, "userUpdate");
    expect((await t.root.get(`/users/${plain.id}`)).body.name).not.toBe("Mine");
    expectNotAvailable(await graph(callerOf(caller), USER_DELETE, { input: { id: gid("User", plain.id) } }), "userDelete");
    expect((await t.root.get(`/users/${plain.id}`)).status).toBe(200);
  });

  it("hides users that do not exist and ids of other types", async () => {
    expectNotAvailable(await graph(t.root, USER_UPDATE, { input: { id: gid("User", 999_999), name: "x" } }), "userUpdate");
    expectNotAvailable(await graph(t.root, USER_UPDATE, { input: { id: gid("Project", plain.id), name: "x" } }), "userUpdate");
    expectNotAvailable(await graph(t.root, USER_DELETE, { input: { id: gid("User", 999_999) } }), "userDelete");
  });

  it("deletes a user as an administrator: the user and their token are gone", async () => {
    const user = await createUser(t);
    const data = await graphData(t.root, USER_DELETE, { input: { id: gid("User", user.id) } });
    expect(data.userDelete).toEqual({ errors: [] });
    expect((await t.root.get(`/users/${user.id}`)).status).toBe(404);
    expect((await user.api.get("/user")).status).toBe(401);
  });

  it("lists a sole group owner's refusal without hardDelete, and deletes with it", async () => {
    const user = await createUser(t);
    expect((await user.api.post("/groups", { name: "Solo", path: uniq("solo") })).status).toBe(201);
    const refused = await graphData(t.root, USER_DELETE, { input: { id: gid("User", user.id) } });
    expect(refused.userDelete.errors).toEqual(["User cannot be removed while is the sole-owner of a group"]);
    expect((await t.root.get(`/users/${user.id}`)).status).toBe(200);
    const hard = await graphData(t.root, USER_DELETE, { input: { id: gid("User", user.id), hardDelete: true } });
    expect(hard.userDelete).toEqual({ errors: [] });
    expect((await t.root.get(`/users/${user.id}`)).status).toBe(404);
  });

  it("refuses read_api tokens", async () => {
    await expectReadApiRefused(USER_UPDATE, { input: { id: gid("User", plain.id), name: "x" } });
    await expectReadApiRefused(USER_DELETE, { input: { id: gid("User", plain.id) } });
  });
});

const TOKEN_CREATE = `mutation($input: PersonalAccessTokenCreateInput!) { personalAccessTokenCreate(input: $input) {
  errors token personalAccessToken { id name scopes revoked active expiresAt } } }`;
const TOKEN_REVOKE = `mutation($input: PersonalAccessTokenRevokeInput!) { personalAccessTokenRevoke(input: $input) { errors } }`;

describe("personalAccessTokenCreate", () => {
  it("issues a token for a user as an administrator, its secret in this payload only", async () => {
    const user = await createUser(t);
    const data = await graphData(t.root, TOKEN_CREATE, { input: { userId: gid("User", user.id), name: "gql", scopes: ["read_user", "api"] } });
    const { token, personalAccessToken, errors } = data.personalAccessTokenCreate;
    expect(errors).toEqual([]);
    expect(token).toMatch(/^glpat-/);
    expect(personalAccessToken).toMatchObject({ name: "gql", scopes: ["read_user", "api"], revoked: false, active: true, expiresAt: expect.any(String) });
    expect((await t.client(token).get("/user")).body.username).toBe(user.username);
    const rest = await t.root.get(`/personal_access_tokens/${numericId(personalAccessToken.id)}`);
    expect(rest.status).toBe(200);
    expect(rest.text).not.toContain(token);
  });

  it.each(NON_ADMINS)("refuses %s, even for the caller", async (caller) => {
    const before = (await t.root.get(`/personal_access_tokens?user_id=${plain.id}`)).body.length;
    const res = await graph(callerOf(caller), TOKEN_CREATE, { input: { userId: gid("User", plain.id), name: "mine", scopes: ["api"] } });
    expectNotAvailable(res, "personalAccessTokenCreate");
    expect((await t.root.get(`/personal_access_tokens?user_id=${plain.id}`)).body.length).toBe(before);
  });

  it("refuses read_api tokens", async () => {
    await expectReadApiRefused(TOKEN_CREATE, { input: { userId: gid("User", plain.id), name: "x", scopes: ["api"] } });
  });

  it("lists bad scopes and a blank name in the payload's errors; hides unknown users", async () => {
    const input = { userId: gid("User", plain.id), name: " ", scopes: ["everything"] };
    const data = await graphData(t.root, TOKEN_CREATE, { input });
    expect(data.personalAccessTokenCreate).toEqual({ errors: ["Name can't be blank and Scopes can only contain available scopes"], token: null, personalAccessToken: null });
    expectNotAvailable(await graph(t.root, TOKEN_CREATE, { input: { ...input, userId: gid("User", 999_999), name: "x", scopes: ["api"] } }), "personalAccessTokenCreate");
  });
});

describe("personalAccessTokenRevoke", () => {
  const issue = async (user: TestUser) =>
    (await t.root.post(`/users/${user.id}/personal_access_tokens`, { name: "to-revoke", scopes: ["api"] })).body as { id: number; token: string };

  it("lets a user revoke their own token, which then stops working", async () => {
    const user = await createUser(t);
    const token = await issue(user);
    const data = await graphData(user.api, TOKEN_REVOKE, { input: { id: gid("PersonalAccessToken", token.id) } });
    expect(data.personalAccessTokenRevoke).toEqual({ errors: [] });
    expect((await t.client(token.token).get("/user")).status).toBe(401);
    expect((await user.api.get("/user")).status).toBe(200);
  });

  it("lets an administrator revoke anyone's token", async () => {
    const token = await issue(await createUser(t));
    expect((await graphData(t.root, TOKEN_REVOKE, { input: { id: gid("PersonalAccessToken", token.id) } })).personalAccessTokenRevoke).toEqual({ errors: [] });
    expect((await t.client(token.token).get("/user")).status).toBe(401);
  });

  it("hides someone else's token from a plain user, as it hides a missing one", async () => {
    const token = await issue(await createUser(t));
    expectNotAvailable(await graph(plain.api, TOKEN_REVOKE, { input: { id: gid("PersonalAccessToken", token.id) } }), "personalAccessTokenRevoke");
    expect((await plain.api.delete(`/personal_access_tokens/${token.id}`)).status).toBe(400); // REST keeps RevokeService's answer
    expect((await t.client(token.token).get("/user")).status).toBe(200);
  });

  it("refuses anonymous callers and read_api tokens, and hides unknown tokens", async () => {
    const token = await issue(await createUser(t));
    expectNotAvailable(await graph(t.anon, TOKEN_REVOKE, { input: { id: gid("PersonalAccessToken", token.id) } }), "personalAccessTokenRevoke");
    await expectReadApiRefused(TOKEN_REVOKE, { input: { id: gid("PersonalAccessToken", token.id) } });
    expectNotAvailable(await graph(t.root, TOKEN_REVOKE, { input: { id: gid("PersonalAccessToken", 999_999) } }), "personalAccessTokenRevoke");
    expectNotAvailable(await graph(t.root, TOKEN_REVOKE, { input: { id: gid("User", token.id) } }), "personalAccessTokenRevoke");
    expect((await t.client(token.token).get("/user")).status).toBe(200);
  });
});

const APP_CREATE = `mutation($input: ApplicationCreateInput!) { applicationCreate(input: $input) {
  errors secret application { id name applicationId redirectUri scopes confidential } } }`;
const APP_RENEW = `mutation($input: ApplicationRenewSecretInput!) { applicationRenewSecret(input: $input) { errors secret application { id } } }`;
const APP_DELETE = `mutation($input: ApplicationDeleteInput!) { applicationDelete(input: $input) { errors } }`;
const APPLICATIONS = `{ applications(first: 100) { nodes { id name } } }`;
const newApp = () => ({ name: uniq("app"), redirectUri: "https://app.example.com/callback", scopes: ["api", "read_user"] });

const storedApplication = (id: string) => t.services.db.application.findUniqueOrThrow({ where: { id: numericId(id) } });

describe("applications", () => {
  it("creates an application as an administrator, its secret in this payload only", async () => {
    const input = newApp();
    const data = await graphData(t.root, APP_CREATE, { input: { ...input, confidential: false } });
    const { secret, application, errors } = data.applicationCreate;
    expect(errors).toEqual([]);
    expect(secret).toMatch(/^gloas-[0-9a-f]{64}$/);
    expect(application).toMatchObject({ name: input.name, redirectUri: input.redirectUri, scopes: ["api", "read_user"], confidential: false });
    expect(secretMatches(await storedApplication(application.id), secret)).toBe(true);
    const listed = JSON.stringify(await graphData(t.root, `{ applications(first: 100) { nodes { id name applicationId redirectUri scopes confidential createdAt } } }`));
    expect(listed).toContain(application.applicationId);
    expect(listed).not.toContain(secret);
    expect((await t.root.get("/applications")).text).not.toContain(secret);
  });

  it("lists invalid input in the payload's errors", async () => {
    const data = await graphData(t.root, APP_CREATE, { input: { ...newApp(), scopes: ["everything"] } });
    expect(data.applicationCreate.application).toBeNull();
    expect(data.applicationCreate.secret).toBeNull();
    expect(data.applicationCreate.errors).toHaveLength(1);
    expect(data.applicationCreate.errors[0]).toContain("scopes");
  });

  it("renews the secret: the new one matches, the old one no longer does", async () => {
    const created = (await graphData(t.root, APP_CREATE, { input: newApp() })).applicationCreate;
    const renewed = (await graphData(t.root, APP_RENEW, { input: { id: created.application.id } })).applicationRenewSecret;
    expect(renewed).toEqual({ errors: [], secret: expect.stringMatching(/^gloas-/), application: { id: created.application.id } });
    expect(renewed.secret).not.toBe(created.secret);
    const row = await storedApplication(created.application.id);
    expect(secretMatches(row, renewed.secret)).toBe(true);
    expect(secretMatches(row, created.secret)).toBe(false);
  });

  it("deletes an application; unknown ids are not available", async () => {
    const created = (await graphData(t.root, APP_CREATE, { input: newApp() })).applicationCreate;
    expect((await graphData(t.root, APP_DELETE, { input: { id: created.application.id } })).applicationDelete).toEqual({ errors: [] });
    expect((await graphData(t.root, APPLICATIONS)).applications.nodes.map((a: any) => a.id)).not.toContain(created.application.id);
    expectNotAvailable(await graph(t.root, APP_DELETE, { input: { id: created.application.id } }), "applicationDelete");
    expectNotAvailable(await graph(t.root, APP_RENEW, { input: { id: created.application.id } }), "applicationRenewSecret");
    expectNotAvailable(await graph(t.root, APP_RENEW, { input: { id: gid("User", 1) } }), "applicationRenewSecret");
  });

  it.each(NON_ADMINS)("refuses %s every application write, changing nothing", async (caller) => {
    const created = (await graphData(t.root, APP_CREATE, { input: newApp() })).applicationCreate;
    const client = callerOf(caller);
    expectNotAvailable(await graph(client, APP_CREATE, { input: newApp() }), "applicationCreate");
    expectNotAvailable(await graph(client, APP_RENEW, { input: { id: created.application.id } }), "applicationRenewSecret");
    expectNotAvailable(await graph(client, APP_DELETE, { input: { id: created.application.id } }), "applicationDelete");
    expect(secretMatches(await storedApplication(created.application.id), created.secret)).toBe(true);
  });

  it("refuses read_api tokens", async () => {
    const created = (await graphData(t.root, APP_CREATE, { input: newApp() })).applicationCreate;
    await expectReadApiRefused(APP_CREATE, { input: newApp() });
    await expectReadApiRefused(APP_RENEW, { input: { id: created.application.id } });
    await expectReadApiRefused(APP_DELETE, { input: { id: created.application.id } });
  });
});

const FEATURE_SET = `mutation($input: FeatureSetInput!) { featureSet(input: $input) { errors feature { name state gates { key value } defaultEnabled } } }`;
const FEATURE_DELETE = `mutation($input: FeatureDeleteInput!) { featureDelete(input: $input) { errors } }`;
const FEATURES = `{ features { name state } }`;

describe("features", () => {
  it("sets, changes and deletes a flag as an administrator", async () => {
    const on = await graphData(t.root, FEATURE_SET, { input: { name: "approval_group_rules", value: "true" } });
    expect(on.featureSet).toEqual({
      errors: [], feature: { name: "approval_group_rules", state: "on", gates: [{ key: "boolean", value: true }], defaultEnabled: false },
    });
    const off = await graphData(t.root, FEATURE_SET, { input: { name: "approval_group_rules", value: "0" } });
    expect(off.featureSet.feature.state).toBe("off");
    expect((await graphData(t.root, FEATURES)).features).toContainEqual({ name: "approval_group_rules", state: "off" });
    expect((await graphData(t.root, FEATURE_DELETE, { input: { name: "approval_group_rules" } })).featureDelete).toEqual({ errors: [] });
    expect((await graphData(t.root, FEATURES)).features.map((f: any) => f.name)).not.toContain("approval_group_rules");
  });

  it("lists a value it cannot set in the payload's errors", async () => {
    const data = await graphData(t.root, FEATURE_SET, { input: { name: "some_flag", value: "maybe" } });
    expect(data.featureSet).toEqual({ errors: ['Bad request - Cannot set \'some_flag\' to "maybe"'], feature: null });
    expect((await graphData(t.root, FEATURES)).features.map((f: any) => f.name)).not.toContain("some_flag");
  });

  it.each(NON_ADMINS)("refuses %s, changing nothing", async (caller) => {
    await graphData(t.root, FEATURE_SET, { input: { name: "kept_flag", value: "true" } });
    expectNotAvailable(await graph(callerOf(caller), FEATURE_SET, { input: { name: "kept_flag", value: "false" } }), "featureSet");
    expectNotAvailable(await graph(callerOf(caller), FEATURE_DELETE, { input: { name: "kept_flag" } }), "featureDelete");
    expect((await graphData(t.root, FEATURES)).features).toContainEqual({ name: "kept_flag", state: "on" });
  });

  it("refuses read_api tokens", async () => {
    await expectReadApiRefused(FEATURE_SET, { input: { name: "kept_flag", value: "false" } });
    await expectReadApiRefused(FEATURE_DELETE, { input: { name: "kept_flag" } });
  });
});
