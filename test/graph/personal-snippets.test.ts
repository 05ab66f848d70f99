// Personal snippets in the public graph: createSnippet without a projectPath, node(id:) and
// snippets(ids:, type:) with PersonalSnippetPolicy's visibility, updateSnippet and destroySnippet
// by the author only, the same rows REST's /snippets answers.
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../helpers/api.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createUser, type TestUser } from "../helpers/factories.js";
import { expectNotAvailable, gid, graph, graphData } from "../helpers/graph.js";

let t: TestApp;
let author: TestUser, other: TestUser;

const CREATE = `mutation($input: CreateSnippetInput!) { createSnippet(input: $input) {
  errors snippet { id title visibilityLevel webUrl project { fullPath } author { username } blobs { nodes { path rawPlainData } } } } }`;
const UPDATE = `mutation($input: UpdateSnippetInput!) { updateSnippet(input: $input) { errors snippet { id title visibilityLevel } } }`;
const DESTROY = `mutation($input: DestroySnippetInput!) { destroySnippet(input: $input) { errors snippet { id } } }`;
const NODE = `query($id: ID!) { node(id: $id) { ... on Snippet { id title } } }`;
const BY_IDS = `query($ids: [ID!], $type: TypeEnum) { snippets(ids: $ids, type: $type) { nodes { id title project { fullPath } } } }`;

const createPersonal = async (by: ApiClient, title: string, visibilityLevel: string) =>
  (await graphData(by, CREATE, { input: { title, visibilityLevel, blobActions: [{ action: "create", filePath: "n.md", content: "# n" }] } })).createSnippet;

let pub: any, priv: any;

beforeAll(async () => {
  t = await startTestApp();
  [author, other] = await Promise.all([createUser(t), createUser(t)]);
  pub = (await createPersonal(author.api, "Graph public", "public")).snippet;
  priv = (await createPersonal(author.api, "Graph private", "private")).snippet;
});

describe("createSnippet without a projectPath", () => {
  it("creates a personal snippet, read back by REST", async () => {
    expect(pub).toMatchObject({ title: "Graph public", visibilityLevel: "public", project: null, author: { username: author.username } });
    expect(pub.webUrl).toMatch(/\/-\/snippets\/\d+$/);
    expect(pub.blobs.nodes).toEqual([{ path: "n.md", rawPlainData: "# n" }]);
    const id = Number(pub.id.split("/").pop());
    expect((await author.api.get(`/snippets/${id}`)).body).toMatchObject({ id, project_id: null, title: "Graph public" });
  });

  it("refuses anonymous callers", async () => {
    expectNotAvailable(await graph(t.anon, CREATE, { input: { title: "x", visibilityLevel: "public", blobActions: [{ action: "create", filePath: "a", content: "b" }] } }), "createSnippet");
  });
});

describe("reading", () => {
  it("node(id:) follows the snippet's visibility", async () => {
    expect((await graphData(t.anon, NODE, { id: pub.id })).node).toEqual({ id: pub.id, title: "Graph public" });
    expect((await graphData(author.api, NODE, { id: priv.id })).node.title).toBe("Graph private");
    expect((await graphData(t.root, NODE, { id: priv.id })).node.title).toBe("Graph private");
    expect((await graph(other.api, NODE, { id: priv.id })).body.data?.node ?? null).toBeNull();
  });

  it("snippets(ids:) leaves out what the caller may not read, and type narrows", async () => {
    const titles = async (by: ApiClient, type?: string) =>
      (await graphData(by, BY_IDS, { ids: [pub.id, priv.id], type })).snippets.nodes.map((n: any) => n.title).sort();
    expect(await titles(other.api)).toEqual(["Graph public"]);
    expect(await titles(author.api)).toEqual(["Graph private", "Graph public"]);
    expect(await titles(author.api, "personal")).toEqual(["Graph private", "Graph public"]);
    expect(await titles(author.api, "project")).toEqual([]);
  });
});

describe("updateSnippet and destroySnippet", () => {
  it("lets the author change and delete a personal snippet", async () => {
    const s = (await createPersonal(author.api, "To change", "private")).snippet;
    const updated = (await graphData(author.api, UPDATE, { input: { id: s.id, title: "Changed", visibilityLevel: "internal" } })).updateSnippet;
    expect(updated).toEqual({ errors: [], snippet: { id: s.id, title: "Changed", visibilityLevel: "internal" } });
    expect((await graphData(author.api, DESTROY, { input: { id: s.id } })).destroySnippet).toEqual({ errors: [], snippet: null });
    expect((await author.api.get(`/snippets/${Number(s.id.split("/").pop())}`)).status).toBe(404);
  });

  it("refuses anyone else, the administrator included (as REST's snippets_for_current_user)", async () => {
    for (const client of [other.api, t.root]) {
      expectNotAvailable(await graph(client, UPDATE, { input: { id: pub.id, title: "Hijack" } }), "updateSnippet");
      expectNotAvailable(await graph(client, DESTROY, { input: { id: pub.id } }), "destroySnippet");
    }
    expect((await graphData(t.anon, NODE, { id: pub.id })).node.title).toBe("Graph public");
  });

  it("answers a missing snippet as not available", async () => {
    expectNotAvailable(await graph(author.api, UPDATE, { input: { id: gid("Snippet", 999999), title: "x" } }), "updateSnippet");
  });
});
