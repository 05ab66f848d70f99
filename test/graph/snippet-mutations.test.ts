// createSnippet, updateSnippet and destroySnippet on the public graph per actor (public and
// private projects), the change seen through a query afterwards, refusals as GitLab's "resource
// not available", bad input in `errors`, read_api tokens refused; comments and reactions on a
// snippet through createNote and awardEmojiAdd.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createUser } from "../helpers/factories.js";
import { graph, graphData, gid, expectNotAvailable } from "../helpers/graph.js";
import { createSnippet } from "../helpers/snippets-notes.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

const CREATE = `mutation($input: CreateSnippetInput!) { createSnippet(input: $input) {
  errors snippet { id title description visibilityLevel author { username } project { fullPath } blobs { nodes { path rawPlainData } } } } }`;
const UPDATE = `mutation($input: UpdateSnippetInput!) { updateSnippet(input: $input) { errors snippet { id title description visibilityLevel blobs { nodes { path rawPlainData } } } } }`;
const DESTROY = `mutation($input: DestroySnippetInput!) { destroySnippet(input: $input) { errors snippet { id } } }`;
const SNIPPET = `query($id: ID!) { snippet: node(id: $id) { ... on Snippet { title description visibilityLevel blobs { nodes { path rawPlainData } } } } }`;

const createInput = (project: any, fields: Record<string, unknown> = {}) => ({
  input: {
    projectPath: project.path_with_namespace,
    title: "From the graph",
    description: "described",
    visibilityLevel: "internal",
    blobActions: [{ action: "create", filePath: "a.rb", content: "puts 1" }, { action: "create", filePath: "b.md", content: "# b" }],
    ...fields,
  },
});

describe("createSnippet", () => {
  it.each(["reporter", "developer", "maintainer", "owner", "admin"] as Actor[])("creates a snippet in the private project as %s", async (actor) => {
    const data = await graphData(clientOf(t, team, actor), CREATE, createInput(team.privateProject, { title: `By ${actor}` }));
    expect(data.createSnippet.errors).toEqual([]);
    const snippet = data.createSnippet.snippet;
    expect(snippet).toMatchObject({
      title: `By ${actor}`,
      description: "described",
      visibilityLevel: "internal",
      project: { fullPath: team.privateProject.path_with_namespace },
      blobs: { nodes: [{ path: "a.rb", rawPlainData: "puts 1" }, { path: "b.md", rawPlainData: "# b" }] },
    });
    const username = actor === "admin" ? "root" : team[actor as Exclude<Actor, "anonymous" | "admin">].username;
    expect(snippet.author.username).toBe(username);
    const seen = await graphData(team.owner.api, SNIPPET, { id: snippet.id });
    expect(seen.snippet).toMatchObject({ title: `By ${actor}`, blobs: { nodes: [{ path: "a.rb" }, { path: "b.md" }] } });
    const rest = await team.owner.api.get(`/projects/${team.privateProject.id}/snippets/${Number(snippet.id.split("/").pop())}`);
    expect(rest.body).toMatchObject({ title: `By ${actor}`, visibility: "internal" });
  });

  it.each(["anonymous", "nonMember", "guest"] as Actor[])("refuses %s in the private project without telling it exists", async (actor) => {
    expectNotAvailable(await graph(clientOf(t, team, actor), CREATE, createInput(team.privateProject)), "createSnippet");
    expectNotAvailable(await graph(clientOf(t, team, actor), CREATE, createInput({ path_with_namespace: "no/such" })), "createSnippet");
  });

  it.each(["anonymous", "nonMember", "guest"] as Actor[])("refuses %s in the public project", async (actor) => {
    expectNotAvailable(await graph(clientOf(t, team, actor), CREATE, createInput(team.publicProject)), "createSnippet");
  });

  it("lists bad input in errors", async () => {
    const blank = await graphData(team.developer.api, CREATE, createInput(team.publicProject, { title: " " }));
    expect(blank.createSnippet).toEqual({ snippet: null, errors: ["title is empty"] });
    const noFiles = await graphData(team.developer.api, CREATE, createInput(team.publicProject, { blobActions: undefined }));
    expect(noFiles.createSnippet.snippet).toBeNull();
    expect(noFiles.createSnippet.errors).toEqual(["files, content are missing, exactly one parameter must be provided"]);
    const moved = await graphData(team.developer.api, CREATE, createInput(team.publicProject, { blobActions: [{ action: "move", filePath: "x", previousPath: "y" }] }));
    expect(moved.createSnippet).toEqual({ snippet: null, errors: ["Snippet actions have invalid data"] });
    const badPath = await graphData(team.developer.api, CREATE, createInput(team.publicProject, { blobActions: [{ action: "create", filePath: "../x", content: "x" }] }));
    expect(badPath.createSnippet.snippet).toBeNull();
    expect(badPath.createSnippet.errors[0]).toMatch(/file_path/);
    const count = (await team.owner.api.get(`/projects/${team.publicProject.id}/snippets`)).body.length;
    expect(count).toBe(0);
  });

  it("refuses a read_api token", async () => {
    const reader = await createUser(t, {}, ["read_api"]);
    const res = await graph(reader.api, CREATE, createInput(team.publicProject));
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ http: { status: 403 } });
  });
});

describe("updateSnippet", () => {
  let snippets: Record<"public" | "private", any>;
  beforeAll(async () => {
    snippets = {
      public: await createSnippet(team.reporter.api, team.publicProject.id, { title: "Reporter's", visibility: "public" }),
      private: await createSnippet(team.reporter.api, team.privateProject.id, { title: "Reporter's", visibility: "private" }),
    };
  });
  const input = (visibility: "public" | "private", fields: Record<string, unknown>) => ({ input: { id: gid("Snippet", snippets[visibility].id), ...fields } });

  it.each(["reporter", "maintainer", "owner", "admin"] as Actor[])("changes the private project's snippet as %s (author or Maintainer up)", async (actor) => {
    const data = await graphData(clientOf(t, team, actor), UPDATE, input("private", { title: `Changed by ${actor}`, visibilityLevel: "internal" }));
    expect(data.updateSnippet.errors).toEqual([]);
    expect(data.updateSnippet.snippet).toMatchObject({ title: `Changed by ${actor}`, visibilityLevel: "internal", description: null });
    const seen = await graphData(team.owner.api, SNIPPET, { id: gid("Snippet", snippets.private.id) });
    expect(seen.snippet).toMatchObject({ title: `Changed by ${actor}`, visibilityLevel: "internal" });
  });

  it("changes the files with blob actions", async () => {
    const data = await graphData(team.reporter.api, UPDATE, input("public", {
      blobActions: [
        { action: "move", previousPath: "snippet.rb", filePath: "moved.rb", content: "puts 2" },
        { action: "create", filePath: "new.txt", content: "new" },
      ],
    }));
    expect(data.updateSnippet.errors).toEqual([]);
    const seen = await graphData(t.anon, SNIPPET, { id: gid("Snippet", snippets.public.id) });
    expect(seen.snippet.blobs.nodes).toEqual([{ path: "moved.rb", rawPlainData: "puts 2" }, { path: "new.txt", rawPlainData: "new" }]);
  });

  it.each(["anonymous", "nonMember", "guest", "developer"] as Actor[])("refuses %s (not the author, below Maintainer)", async (actor) => {
    for (const visibility of ["public", "private"] as const) {
      expectNotAvailable(await graph(clientOf(t, team, actor), UPDATE, input(visibility, { title: "Nope" })), "updateSnippet");
    }
    const seen = await graphData(team.owner.api, SNIPPET, { id: gid("Snippet", snippets.public.id) });
    expect(seen.snippet.title).not.toBe("Nope");
  });

  it("lists bad input in errors and refuses unknown ids", async () => {
    const none = await graphData(team.reporter.api, UPDATE, input("public", {}));
    expect(none.updateSnippet.snippet).toBeNull();
    expect(none.updateSnippet.errors).toEqual(["content, description, files, file_name, title, visibility are missing, at least one parameter must be provided"]);
    const missingFile = await graphData(team.reporter.api, UPDATE, input("public", { blobActions: [{ action: "delete", filePath: "absent.rb" }] }));
    expect(missingFile.updateSnippet).toEqual({ snippet: null, errors: ["Repository Error updating the snippet"] });
    expectNotAvailable(await graph(t.root, UPDATE, { input: { id: gid("Snippet", 999999), title: "x" } }), "updateSnippet");
    expectNotAvailable(await graph(t.root, UPDATE, { input: { id: gid("Issue", snippets.public.id), title: "x" } }), "updateSnippet");
  });
});

describe("destroySnippet", () => {
  it.each(["anonymous", "nonMember", "guest", "developer"] as Actor[])("refuses %s on another's snippet", async (actor) => {
    const snippet = await createSnippet(team.reporter.api, team.publicProject.id);
    expectNotAvailable(await graph(clientOf(t, team, actor), DESTROY, { input: { id: gid("Snippet", snippet.id) } }), "destroySnippet");
    expect((await graphData(t.anon, SNIPPET, { id: gid("Snippet", snippet.id) })).snippet).not.toBeNull();
  });

  it.each(["reporter", "maintainer", "owner", "admin"] as Actor[])("deletes the private project's snippet as %s", async (actor) => {
    const snippet = await createSnippet(team.reporter.api, team.privateProject.id, { visibility: "private" });
    const data = await graphData(clientOf(t, team, actor), DESTROY, { input: { id: gid("Snippet", snippet.id) } });
    expect(data.destroySnippet).toEqual({ errors: [], snippet: null });
    expect((await graphData(team.owner.api, SNIPPET, { id: gid("Snippet", snippet.id) })).snippet).toBeNull();
    expectNotAvailable(await graph(clientOf(t, team, actor), DESTROY, { input: { id: gid("Snippet", snippet.id) } }), "destroySnippet");
  });

  it("refuses a read_api token", async () => {
    const reader = await createUser(t, {}, ["read_api"]);
    const snippet = await createSnippet(team.reporter.api, team.publicProject.id);
    const res = await graph(reader.api, DESTROY, { input: { id: gid("Snippet", snippet.id) } });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ http: { status: 403 } });
    expect((await graphData(t.anon, SNIPPET, { id: gid("Snippet", snippet.id) })).snippet).not.toBeNull();
  });
});

describe("comments and reactions on snippets", () => {
  const CREATE_NOTE = `mutation($input: CreateNoteInput!) { createNote(input: $input) { errors note { id body author { username } } } }`;
  const ADD = `mutation($input: AwardEmojiAddInput!) { awardEmojiAdd(input: $input) { errors awardEmoji { name user { username } } } }`;
  const NOTES = `query($id: ID!) { snippet: node(id: $id) { ... on Snippet { notes { nodes { body } } awardEmoji { nodes { name } } } } }`;
  let snippets: Record<"public" | "private", any>;
  beforeAll(async () => {
    snippets = {
      public: await createSnippet(team.owner.api, team.publicProject.id, { visibility: "public" }),
      private: await createSnippet(team.owner.api, team.privateProject.id, { visibility: "private" }),
    };
  });

  it.each(["nonMember", "guest", "admin"] as Actor[])("comments and reacts on the public snippet as %s", async (actor) => {
    const id = gid("Snippet", snippets.public.id);
    const note = await graphData(clientOf(t, team, actor), CREATE_NOTE, { input: { noteableId: id, body: `note by ${actor}` } });
    expect(note.createNote.errors).toEqual([]);
    expect(note.createNote.note.body).toBe(`note by ${actor}`);
    const award = await graphData(clientOf(t, team, actor), ADD, { input: { awardableId: id, name: "thumbsup" } });
    expect(award.awardEmojiAdd).toMatchObject({ errors: [], awardEmoji: { name: "thumbsup" } });
    const seen = await graphData(team.owner.api, NOTES, { id });
    expect(seen.snippet.notes.nodes.map((n: any) => n.body)).toContain(`note by ${actor}`);
    expect(seen.snippet.awardEmoji.nodes.length).toBeGreaterThan(0);
  });

  it.each(["anonymous", "nonMember"] as Actor[])("refuses %s on the private project's snippet", async (actor) => {
    const id = gid("Snippet", snippets.private.id);
    expectNotAvailable(await graph(clientOf(t, team, actor), CREATE_NOTE, { input: { noteableId: id, body: "x" } }), "createNote");
    expectNotAvailable(await graph(clientOf(t, team, actor), ADD, { input: { awardableId: id, name: "thumbsup" } }), "awardEmojiAdd");
  });

  it("refuses internal notes on a snippet with the domain's reason", async () => {
    const data = await graphData(team.owner.api, CREATE_NOTE, { input: { noteableId: gid("Snippet", snippets.public.id), body: "x", internal: true } });
    expect(data.createNote.note).toBeNull();
    expect(data.createNote.errors).toHaveLength(1);
  });
});
