// Users and personal access tokens over /graphql: the same domain functions as REST, so the same
// data and the same refusals, with the REST status in extensions.http.status.
import { beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../helpers/api.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createUser, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let seq = 0;
const uniq = (prefix: string) => `${prefix}${Date.now().toString(36)}${++seq}`;

const USER_FIELDS = "id username name state email is_admin web_url avatar_url created_at";
const TOKEN_FIELDS = "id name description revoked created_at scopes user_id last_used_at active expires_at";

beforeAll(async () => {
  t = await startTestApp();
  alice = await createUser(t);
  bob = await createUser(t);
});

type GraphqlAnswer = Awaited<ReturnType<TestApp["root"]["graphql"]>>;

/** A refused operation: HTTP status, no data, one error carrying the REST status and body. */
function expectRefused(res: GraphqlAnswer, status: number, gitlab: unknown, code: string) {
  expect(res.status).toBe(status);
  expect(res.body.data ?? null).toBeNull();
  expect(res.body.errors).toHaveLength(1);
  const error = res.body.errors![0];
  expect(error.extensions).toEqual({ code, http: { status }, gitlab });
  expect(error.message).toBe(typeof (gitlab as any).message === "string" ? (gitlab as any).message : JSON.stringify(gitlab));
}

describe("currentUser", () => {
  it("returns the caller, as GET /user does", async () => {
    const res = await alice.api.graphql(`{ currentUser { ${USER_FIELDS} } }`);
    expect(res.status).toBe(200);
    const rest = await alice.api.get("/user");
    expect(res.body).toEqual({ data: { currentUser: Object.fromEntries(USER_FIELDS.split(" ").map((f) => [f, rest.body[f]])) } });
  });

  it("leaves GitLab's /api/graphql path to the public graph (global ids)", async () => {
    const res = await rawRequest(t.app, "POST", "/api/graphql", {
      headers: { "Content-Type": "application/json", "PRIVATE-TOKEN": alice.token },
      body: JSON.stringify({ query: "{ currentUser { id username } }" }),
    });
    expect(res.body).toEqual({ data: { currentUser: { id: `gid://forgeline/User/${alice.id}`, username: alice.username } } });
  });

  it("answers 401 to anonymous callers", async () => {
    const res = await t.anon.graphql("{ currentUser { id } }");
    expectRefused(res, 401, { message: "401 Unauthorized" }, "UNAUTHENTICATED");
    expect(res.body.errors![0].path).toEqual(["currentUser"]);
  });
});

describe("users and user", () => {
  it("refuses anonymous listing without a username, as REST does", async () => {
    const res = await t.anon.graphql("{ users { id } }");
    expectRefused(res, 403, { message: "403 Forbidden - Not authorized to access /api/v4/users" }, "FORBIDDEN");
    const one = await t.anon.graphql("query($u: String) { users(username: $u) { id email } }", { u: alice.username });
    expect(one.body).toEqual({ data: { users: [{ id: alice.id, email: null }] } });
  });

  it("lists users with the REST filters and order", async () => {
    const res = await bob.api.graphql("{ users(per_page: 2) { id } }");
    const rest = await bob.api.get("/users", { query: { per_page: 2 } });
    expect(res.body).toEqual({ data: { users: rest.body.map((u: any) => ({ id: u.id })) } });
    const search = await t.root.graphql("query($s: String) { users(search: $s) { id } }", { s: `${alice.username}@example.com` });
    expect(search.body).toEqual({ data: { users: [{ id: alice.id }] } });
  });

  it("shows a user without private fields to another user", async () => {
    const res = await bob.api.graphql("query($id: Int!) { user(id: $id) { id username email is_admin } }", { id: alice.id });
    expect(res.body).toEqual({ data: { user: { id: alice.id, username: alice.username, email: null, is_admin: null } } });
  });

  it("refuses anonymous lookups with 403 and reports unknown users with 404", async () => {
    expectRefused(await t.anon.graphql(`{ user(id: ${alice.id}) { id } }`), 403, { message: "403 Forbidden - Not authorized!" }, "FORBIDDEN");
    expectRefused(await alice.api.graphql("{ user(id: 999999) { id } }"), 404, { message: "404 User Not Found" }, "NOT_FOUND");
  });
});

describe("createUser", () => {
  const CREATE = `mutation($email: String!, $name: String!, $username: String!, $password: String) {
    createUser(email: $email, name: $name, username: $username, password: $password) { ${USER_FIELDS} }
  }`;
  const input = () => {
    const username = uniq("gql_user");
    return { email: `${username}@example.com`, name: `G ${username}`, username, password: "password-123" };
  };

  it("creates a user that REST then shows identically", async () => {
    const res = await t.root.graphql(CREATE, input());
    expect(res.body.errors).toBeUndefined();
    const created = res.body.data.createUser;
    const rest = await t.root.get(`/users/${created.id}`);
    expect(created).toEqual(Object.fromEntries(USER_FIELDS.split(" ").map((f) => [f, rest.body[f]])));
  });

  it("refuses anonymous callers (401) and non-administrators (403)", async () => {
    expectRefused(await t.anon.graphql(CREATE, input()), 401, { message: "401 Unauthorized" }, "UNAUTHENTICATED");
    expectRefused(await alice.api.graphql(CREATE, input()), 403, { message: "403 Forbidden" }, "FORBIDDEN");
  });

  it("reports conflicts and validation errors with the REST status and body", async () => {
    expectRefused(
      await t.root.graphql(CREATE, { ...input(), username: alice.username.toUpperCase() }),
      409,
      { message: "Username has already been taken" },
      "CONFLICT",
    );
    expectRefused(
      await t.root.graphql(CREATE, { ...input(), password: "short" }),
      400,
      { message: { password: ["is too short (minimum is 8 characters)"] } },
      "BAD_USER_INPUT",
    );
    const { password: _p, ...noPassword } = input();
    expectRefused(
      await t.root.graphql(CREATE, noPassword),
      400,
      { error: "password, reset_password, force_random_password are missing, at least one parameter must be provided" },
      "BAD_USER_INPUT",
    );
  });
});

describe("personal access tokens", () => {
  const CREATE = `mutation($user: Int!, $name: String!, $scopes: [TokenScope!]!, $expires: Date) {
    createPersonalAccessToken(user_id: $user, name: $name, scopes: $scopes, expires_at: $expires) { ${TOKEN_FIELDS} token }
  }`;

  it("creates a token that works on REST and that REST shows identically", async () => {
    const res = await t.root.graphql(CREATE, { user: alice.id, name: "from-gql", scopes: ["api"] });
    expect(res.body.errors).toBeUndefined();
    const { token, ...entity } = res.body.data.createPersonalAccessToken;
    expect(entity).toMatchObject({ name: "from-gql", scopes: ["api"], user_id: alice.id, revoked: false, active: true });
    expect((await t.client(token).get("/user")).body.id).toBe(alice.id);
    const rest = await t.root.get(`/personal_access_tokens/${entity.id}`);
    expect(rest.body).toEqual({ ...entity, last_used_at: rest.body.last_used_at });
  });

  it("refuses non-administrators and bad input as REST does", async () => {
    expectRefused(await alice.api.graphql(CREATE, { user: alice.id, name: "x", scopes: ["api"] }), 403, { message: "403 Forbidden" }, "FORBIDDEN");
    expectRefused(await t.anon.graphql(CREATE, { user: alice.id, name: "x", scopes: ["api"] }), 401, { message: "401 Unauthorized" }, "UNAUTHENTICATED");
    expectRefused(await t.root.graphql(CREATE, { user: 999999, name: "x", scopes: ["api"] }), 404, { message: "404 User Not Found" }, "NOT_FOUND");
    expectRefused(await t.root.graphql(CREATE, { user: alice.id, name: "x", scopes: [] }), 422, { message: "Scopes can't be blank" }, "BAD_USER_INPUT");
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expectRefused(
      await t.root.graphql(CREATE, { user: alice.id, name: "x", scopes: ["api"], expires: yesterday }),
      400,
      { error: "expires_at is invalid" },
      "BAD_USER_INPUT",
    );
    // an unknown scope is refused by GraphQL's own enum validation
    const bogus = await t.root.graphql(CREATE, { user: alice.id, name: "x", scopes: ["root_powers"] });
    expect(bogus.body.data ?? null).toBeNull();
    expect(bogus.body.errors![0].message).toMatch(/root_powers/);
  });

  it("lists and reads tokens with the same permission answers", async () => {
    const mine = await alice.api.graphql(`{ personalAccessTokens { id user_id } }`);
    expect(mine.body.data.personalAccessTokens.every((tok: any) => tok.user_id === alice.id)).toBe(true);
    expectRefused(await alice.api.graphql(`{ personalAccessTokens(user_id: ${bob.id}) { id } }`), 401, { message: "401 Unauthorized" }, "UNAUTHENTICATED");
    const bobToken = (await bob.api.get("/personal_access_tokens/self")).body.id;
    expectRefused(await alice.api.graphql(`{ personalAccessToken(id: ${bobToken}) { id } }`), 401, { message: "401 Unauthorized" }, "UNAUTHENTICATED");
    expectRefused(await t.root.graphql("{ personalAccessToken(id: 999999) { id } }"), 404, { message: "404 Not Found" }, "NOT_FOUND");
    const self = await bob.api.graphql(`{ currentPersonalAccessToken { id user_id } }`);
    expect(self.body).toEqual({ data: { currentPersonalAccessToken: { id: bobToken, user_id: bob.id } } });
  });

  it("revokes a token: the owner may, another user gets 400, a missing one 404", async () => {
    const created = await t.root.post(`/users/${alice.id}/personal_access_tokens`, { name: "gql-revoke", scopes: ["api"] });
    const id = created.body.id;
    expectRefused(await bob.api.graphql(`mutation { revokePersonalAccessToken(id: ${id}) }`), 400, { message: "400 Bad request" }, "BAD_USER_INPUT");
    expectRefused(await alice.api.graphql("mutation { revokePersonalAccessToken(id: 999999) }"), 404, { message: "404 Not found" }, "NOT_FOUND");
    expectRefused(await t.anon.graphql(`mutation { revokePersonalAccessToken(id: ${id}) }`), 401, { message: "401 Unauthorized" }, "UNAUTHENTICATED");
    const res = await alice.api.graphql(`mutation { revokePersonalAccessToken(id: ${id}) }`);
    expect(res.body).toEqual({ data: { revokePersonalAccessToken: true } });
    const rest = await t.client(created.body.token).get("/user");
    expect(rest.status).toBe(401);
  });

  it("revokes the calling token with revokeCurrentPersonalAccessToken", async () => {
    const created = await t.root.post(`/users/${bob.id}/personal_access_tokens`, { name: "gql-self", scopes: ["api"] });
    const client = t.client(created.body.token);
    expect((await client.graphql("mutation { revokeCurrentPersonalAccessToken }")).body).toEqual({
      data: { revokeCurrentPersonalAccessToken: true },
    });
    expect((await client.graphql("{ currentUser { id } }")).status).toBe(401);
  });
});
