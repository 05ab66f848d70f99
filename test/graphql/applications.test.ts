// OAuth applications over /graphql: the root fields REST uses, with the same answers and errors.
import { beforeAll, describe, expect, it } from "vitest";
import { secretMatches } from "../../src/domain/oauth/applications.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createUser, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let alice: TestUser;

const FIELDS = "id application_id application_name callback_url confidential";
const CREATE = `mutation($name: String, $uri: String, $scopes: String, $confidential: Boolean) {
  createApplication(name: $name, redirect_uri: $uri, scopes: $scopes, confidential: $confidential) { ${FIELDS} secret }
}`;
const LIST = `query($page: Int, $perPage: Int) { applications(page: $page, per_page: $perPage) { ${FIELDS} } }`;
const DELETE = "mutation($id: Int!) { deleteApplication(id: $id) }";
const RENEW = `mutation($id: Int!) { renewApplicationSecret(id: $id) { ${FIELDS} secret } }`;

const valid = { name: "gql app", uri: "https://gql.example/cb", scopes: "api read_user" };
const errorOf = (res: { body: { errors?: any[] } }) => res.body.errors?.[0]?.extensions;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createUser(t);
});

async function gqlCreate(vars: Record<string, unknown> = {}) {
  const res = await t.root.graphql(CREATE, { ...valid, ...vars });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.createApplication;
}

describe("OAuth applications over GraphQL", () => {
  it("creates an application (secret shown once) that REST then lists identically", async () => {
    const created = await gqlCreate({ confidential: null });
    expect(created).toEqual({
      id: expect.any(Number),
      application_id: expect.stringMatching(/^[0-9a-f]{64}$/),
      application_name: "gql app",
      callback_url: "https://gql.example/cb",
      confidential: true,
      secret: expect.stringMatching(/^gloas-[0-9a-f]{64}$/),
    });
    const { secret, ...entity } = created;
    const rest = await t.root.get("/applications", { query: { per_page: 100 } });
    expect(rest.body).toContainEqual(entity);
    const row = await t.services.db.application.findUniqueOrThrow({ where: { id: created.id } });
    expect(secretMatches(row, secret)).toBe(true);
  });

  it("lists and pages like REST", async () => {
    await gqlCreate({ name: "second" });
    await gqlCreate({ name: "third", confidential: false });
    const all = await t.root.graphql(LIST, { perPage: 100 });
    const rest = await t.root.get("/applications", { query: { per_page: 100 } });
    expect(all.body.data.applications).toEqual(rest.body);
    const page = await t.root.graphql(LIST, { page: 2, perPage: 1 });
    const restPage = await t.root.get("/applications", { query: { page: 2, per_page: 1 } });
    expect(page.body.data.applications).toEqual(restPage.body);
    expect(page.body.data.applications).toHaveLength(1);
  });

  it("renews the secret and deletes, as REST does", async () => {
    const created = await gqlCreate();
    const renewed = await t.root.graphql(RENEW, { id: created.id });
    expect(renewed.body.errors).toBeUndefined();
    const { secret: oldSecret, ...entity } = created;
    expect(renewed.body.data.renewApplicationSecret).toEqual({ ...entity, secret: expect.stringMatching(/^gloas-/) });
    const row = await t.services.db.application.findUniqueOrThrow({ where: { id: created.id } });
    expect(secretMatches(row, renewed.body.data.renewApplicationSecret.secret)).toBe(true);
    expect(secretMatches(row, oldSecret)).toBe(false);

    const deleted = await t.root.graphql(DELETE, { id: created.id });
    expect(deleted.body).toEqual({ data: { deleteApplication: true } });
    expect(errorOf(await t.root.graphql(DELETE, { id: created.id }))).toMatchObject({
      http: { status: 404 },
      gitlab: { message: "404 Application Not Found" },
    });
    expect(errorOf(await t.root.graphql(RENEW, { id: created.id }))).toMatchObject({ http: { status: 404 } });
  });

  it.each([
    ["createApplication", CREATE, valid],
    ["applications", LIST, {}],
    ["deleteApplication", DELETE, { id: 1 }],
    ["renewApplicationSecret", RENEW, { id: 1 }],
  ])("%s: 401 anonymous, 403 for a user who is not an administrator", async (_field, query, vars) => {
    expect(errorOf(await t.anon.graphql(query, vars))).toMatchObject({ http: { status: 401 }, gitlab: { message: "401 Unauthorized" } });
    expect(errorOf(await alice.api.graphql(query, vars))).toMatchObject({ http: { status: 403 }, gitlab: { message: "403 Forbidden" } });
  });

  it("gives REST's param and validation errors", async () => {
    const before = await t.services.db.application.count();
    expect(errorOf(await t.root.graphql(CREATE, {}))).toMatchObject({
      http: { status: 400 },
      gitlab: { error: "name is missing, redirect_uri is missing, scopes is missing, scopes is empty" },
    });
    expect(errorOf(await t.root.graphql(CREATE, { ...valid, scopes: " " }))).toMatchObject({ gitlab: { error: "scopes is empty" } });
    expect(errorOf(await t.root.graphql(CREATE, { ...valid, scopes: "api nope" }))).toMatchObject({
      http: { status: 400 },
      gitlab: { message: { scopes: ["doesn't match configured on the server."] } },
    });
    expect(errorOf(await t.root.graphql(CREATE, { ...valid, uri: "http://" }))).toMatchObject({
      gitlab: { message: { redirect_uri: ["must be a valid URI."] } },
    });
    expect(errorOf(await t.root.graphql(CREATE, { ...valid, uri: "javascript://alert()" }))).toMatchObject({
      gitlab: { message: { redirect_uri: ["is forbidden by the server."] } },
    });
    expect(await t.services.db.application.count()).toBe(before);
  });
});
