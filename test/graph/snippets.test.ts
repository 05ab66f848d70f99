// Project snippets on the public graph: Project.snippets and node lookups per actor (public,
// internal and private snippets in public and private projects), the fields REST shows too,
// paging both ways, notes, reactions and threads, and a
// fixed statement count for a page of snippets with their notes and reactions.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createProject, createUser } from "../helpers/factories.js";
import { graph, graphData, gid } from "../helpers/graph.js";
import { createNote, createSnippet } from "../helpers/snippets-notes.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
/** public project: a public, an internal and a private snippet, oldest first */
let snippets: Record<"public" | "internal" | "private", any>;
let privateProjectSnippet: any;
let publicNote: any;
let ownerNote: any;

const ACTORS: Actor[] = ["anonymous", "nonMember", "guest", "reporter", "developer", "maintainer", "owner", "admin"];
const MEMBERS: Actor[] = ["guest", "reporter", "developer", "maintainer", "owner", "admin"];

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  const pub = team.publicProject.id;
  snippets = {
    public: await createSnippet(team.owner.api, pub, { visibility: "public", title: TITLES.public, description: "Shown to all", file_name: "lib/hello.rb", content: "héllo" }),
    internal: await createSnippet(team.owner.api, pub, { visibility: "internal", title: TITLES.internal }),
    private: await createSnippet(team.developer.api, pub, { visibility: "private", title: TITLES.private }),
  };
  privateProjectSnippet = await createSnippet(team.owner.api, team.privateProject.id, { visibility: "public", title: "In a private project" });
  publicNote = await createNote(team.guest.api, pub, "snippets", snippets.public.id, { body: "a comment" });
  // snippets take no internal notes (REST: 400 confidential "can not be set for this resource")
  ownerNote = await createNote(team.owner.api, pub, "snippets", snippets.public.id, { body: "a reply" });
  await team.developer.api.post(`/projects/${pub}/snippets/${snippets.public.id}/award_emoji`, { name: "thumbsup" });
});

const LIST = `query($path: ID!, $first: Int, $last: Int, $after: String, $before: String) { project(fullPath: $path) {
  snippets(first: $first, last: $last, after: $after, before: $before) {
    count pageInfo { hasNextPage hasPreviousPage startCursor endCursor } nodes { id title visibilityLevel } } } }`;

const TITLES = { public: "Public one", internal: "Internal one", private: "Private one" } as const;
const newestFirst = (...kinds: (keyof typeof TITLES)[]) => kinds.map((kind) => TITLES[kind]);

describe("Project.snippets", () => {
  const expected: Record<Actor, string[] | null> = {
    anonymous: null,
    nonMember: newestFirst("internal", "public"),
    guest: newestFirst("private", "internal", "public"),
    reporter: newestFirst("private", "internal", "public"),
    developer: newestFirst("private", "internal", "public"),
    maintainer: newestFirst("private", "internal", "public"),
    owner: newestFirst("private", "internal", "public"),
    admin: newestFirst("private", "internal", "public"),
  };

  it.each(ACTORS)("lists the public project's snippets %s may read, as REST does", async (actor) => {
    const data = await graphData(clientOf(t, team, actor), LIST, { path: team.publicProject.path_with_namespace });
    const titles = data.project.snippets?.nodes.map((n: any) => n.title) ?? null;
    expect(titles).toEqual(expected[actor]);
    if (titles) {
      expect(data.project.snippets.count).toBe(titles.length);
      const rest = await clientOf(t, team, actor).get(`/projects/${team.publicProject.id}/snippets`);
      expect(rest.body.map((s: any) => s.title)).toEqual(titles);
    }
  });

  it.each(ACTORS)("lists the private project's snippets to members only (%s)", async (actor) => {
    const data = await graphData(clientOf(t, team, actor), LIST, { path: team.privateProject.path_with_namespace });
    if (MEMBERS.includes(actor)) expect(data.project.snippets.nodes).toEqual([{ id: gid("Snippet", privateProjectSnippet.id), title: "In a private project", visibilityLevel: "public" }]);
    else expect(data.project).toBeNull();
  });

  it("is null when the snippet feature is for members only and the caller is not one", async () => {
    const project = await createProject(team.owner.api, { visibility: "public", snippets_access_level: "private" });
    await createSnippet(team.owner.api, project.id, { visibility: "public" });
    expect((await graphData(team.nonMember.api, LIST, { path: project.path_with_namespace })).project.snippets).toBeNull();
    expect((await graphData(team.owner.api, LIST, { path: project.path_with_namespace })).project.snippets.count).toBe(1);
  });

  async function walk(direction: "forward" | "backward"): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 10; guard++) {
      const vars = direction === "forward" ? { first: 1, after: cursor } : { last: 1, before: cursor };
      const data: any = await graphData(team.guest.api, LIST, { path: team.publicProject.path_with_namespace, ...vars });
      const page = data.project.snippets;
      if (direction === "forward") seen.push(...page.nodes.map((n: any) => n.title));
      else seen.unshift(...page.nodes.map((n: any) => n.title));
      if (!(direction === "forward" ? page.pageInfo.hasNextPage : page.pageInfo.hasPreviousPage)) return seen;
      cursor = direction === "forward" ? page.pageInfo.endCursor : page.pageInfo.startCursor;
    }
    throw new Error("the connection never ended");
  }

  it("walks to the end both ways", async () => {
    expect(await walk("forward")).toEqual(expected.guest);
    expect(await walk("backward")).toEqual(expected.guest);
  });

  it("refuses a cursor it did not issue", async () => {
    const res = await graph(team.guest.api, LIST, { path: team.publicProject.path_with_namespace, first: 1, after: "bogus" });
    expect(res.body.errors?.[0]?.message).toBe("Invalid cursor");
  });
});

const FIELDS = `id title description visibilityLevel fileName webUrl rawUrl httpUrlToRepo sshUrlToRepo createdAt updatedAt
  author { username } project { id }
  blobs { count nodes { path name rawPath rawPlainData size } }`;

describe("Snippet fields", () => {
  it("shows what REST shows", async () => {
    const rest = (await t.anon.get(`/projects/${team.publicProject.id}/snippets/${snippets.public.id}`)).body;
    const data = await graphData(t.anon, `query($id: ID!) { node(id: $id) { ... on Snippet { ${FIELDS} } } }`, { id: gid("Snippet", rest.id) });
    expect(data.node).toEqual({
      id: gid("Snippet", rest.id),
      title: "Public one",
      description: "Shown to all",
      visibilityLevel: "public",
      fileName: "lib/hello.rb",
      webUrl: rest.web_url,
      rawUrl: rest.raw_url,
      httpUrlToRepo: rest.http_url_to_repo,
      sshUrlToRepo: rest.ssh_url_to_repo,
      createdAt: rest.created_at,
      updatedAt: rest.updated_at,
      author: { username: team.owner.username },
      project: { id: gid("Project", team.publicProject.id) },
      blobs: { count: 1, nodes: [{ path: "lib/hello.rb", name: "hello.rb", rawPath: new URL(rest.files[0].raw_url).pathname, rawPlainData: "héllo", size: 6 }] },
    });
  });
});

describe("node(id:) of a snippet", () => {
  const NODE = `query($id: ID!) { node(id: $id) { __typename ... on Snippet { title } } }`;
  const cases: [string, () => any, Actor[]][] = [
    ["a public snippet of a public project", () => snippets.public, ACTORS],
    ["an internal snippet", () => snippets.internal, ACTORS.filter((a) => a !== "anonymous")],
    ["a private snippet", () => snippets.private, MEMBERS],
    ["a public snippet of a private project", () => privateProjectSnippet, MEMBERS],
  ];

  for (const [name, snippet, allowed] of cases) {
    it.each(ACTORS)(`finds ${name} for those who may read it (%s), null otherwise`, async (actor) => {
      const res = await graph(clientOf(t, team, actor), NODE, { id: gid("Snippet", snippet().id) });
      expect(res.body).toEqual({ data: { node: allowed.includes(actor) ? { __typename: "Snippet", title: snippet().title } : null } });
    });
  }

  it.each([
    ["a missing snippet", gid("Snippet", 999_999)],
    ["an id beyond the column", gid("Snippet", 99_999_999_999)],
    ["a malformed id", "gid://forgeline/Snippet/x"],
  ])("is null for %s", async (_name, id) => {
    expect((await graph(t.root, NODE, { id })).body).toEqual({ data: { node: null } });
  });
});

const ROOT = `query($ids: [ID!], $projectId: ID, $authorId: ID, $visibility: VisibilityScopesEnum, $type: TypeEnum, $first: Int) {
  snippets(ids: $ids, projectId: $projectId, authorId: $authorId, visibility: $visibility, type: $type, first: $first) { count nodes { title } } }`;

describe("snippets (root)", () => {
  const allIds = () => [snippets.public, snippets.internal, snippets.private, privateProjectSnippet].map((s) => gid("Snippet", s.id)).concat(gid("Snippet", 999_999));
  const readableByIds: Record<Actor, string[]> = {
    anonymous: newestFirst("public"),
    nonMember: newestFirst("internal", "public"),
    guest: ["In a private project", ...newestFirst("private", "internal", "public")],
    reporter: ["In a private project", ...newestFirst("private", "internal", "public")],
    developer: ["In a private project", ...newestFirst("private", "internal", "public")],
    maintainer: ["In a private project", ...newestFirst("private", "internal", "public")],
    owner: ["In a private project", ...newestFirst("private", "internal", "public")],
    admin: ["In a private project", ...newestFirst("private", "internal", "public")],
  };

  it.each(ACTORS)("finds by ids the snippets %s may read, newest first", async (actor) => {
    const data = await graphData(clientOf(t, team, actor), ROOT, { ids: allIds() });
    expect(data.snippets).toEqual({ count: readableByIds[actor].length, nodes: readableByIds[actor].map((title) => ({ title })) });
  });

  it.each(ACTORS)("lists one project's snippets with filters for %s (null when anonymous)", async (actor) => {
    const client = clientOf(t, team, actor);
    const projectId = gid("Project", team.publicProject.id);
    const all = await graphData(client, ROOT, { projectId });
    const internal = await graphData(client, ROOT, { projectId, visibility: "internal" });
    const byDeveloper = await graphData(client, ROOT, { projectId, authorId: gid("User", team.developer.id) });
    if (actor === "anonymous") {
      expect([all.snippets, internal.snippets, byDeveloper.snippets]).toEqual([null, null, null]);
      return;
    }
    const member = MEMBERS.includes(actor);
    expect(all.snippets.nodes.map((n: any) => n.title)).toEqual(member ? newestFirst("private", "internal", "public") : newestFirst("internal", "public"));
    expect(internal.snippets.nodes).toEqual([{ title: TITLES.internal }]);
    expect(byDeveloper.snippets.nodes).toEqual(member ? [{ title: TITLES.private }] : []);
  });

  it("is null for a project hidden from the caller, and for malformed ids", async () => {
    expect((await graphData(team.nonMember.api, ROOT, { projectId: gid("Project", team.privateProject.id) })).snippets).toBeNull();
    expect((await graphData(team.owner.api, ROOT, { projectId: "not-an-id" })).snippets).toBeNull();
    expect((await graphData(team.owner.api, ROOT, { ids: [gid("Issue", snippets.public.id)] })).snippets).toBeNull();
  });

  it("finds no personal snippets (Forgeline has none)", async () => {
    expect((await graphData(t.root, ROOT, { ids: allIds(), type: "personal" })).snippets).toEqual({ count: 0, nodes: [] });
  });

  it.each([
    ["neither projectId nor ids", {}, "Provide projectId or ids: Forgeline has no instance-wide snippet list"],
    ["more than 100 ids", { ids: Array.from({ length: 101 }, (_, i) => gid("Snippet", i + 1)) }, "At most 100 ids may be given"],
  ])("refuses %s", async (_name, vars, message) => {
    const res = await graph(t.root, ROOT, vars);
    expect(res.body.errors?.[0]?.message).toBe(message);
    expect(res.body.data?.snippets ?? null).toBeNull();
  });
});

const NOTES = `query($id: ID!) { node(id: $id) { ... on Snippet {
  notes { count nodes { id body internal author { username } } }
  discussions { count nodes { id individualNote resolvable resolved notes { nodes { id } } } }
  awardEmoji { nodes { name user { username } } } } } }`;

describe("Snippet notes, threads and reactions", () => {
  it.each(ACTORS)("shows the notes and threads to %s, null when anonymous", async (actor) => {
    const data = await graphData(clientOf(t, team, actor), NOTES, { id: gid("Snippet", snippets.public.id) });
    expect(data.node.awardEmoji.nodes).toEqual([{ name: "thumbsup", user: { username: team.developer.username } }]);
    if (actor === "anonymous") {
      expect(data.node.notes).toBeNull();
      expect(data.node.discussions).toBeNull();
      return;
    }
    const visible = [publicNote, ownerNote];
    expect(data.node.notes.nodes.map((n: any) => n.id)).toEqual(visible.map((n) => gid("Note", n.id)));
    expect(data.node.notes.nodes[0]).toEqual({ id: gid("Note", publicNote.id), body: "a comment", internal: false, author: { username: team.guest.username } });
    const rest = await clientOf(t, team, actor).get(`/projects/${team.publicProject.id}/snippets/${snippets.public.id}/discussions`);
    expect(data.node.discussions).toEqual({
      count: visible.length,
      nodes: rest.body.map((d: any, i: number) => ({
        id: `gid://forgeline/Discussion/${d.id}`,
        individualNote: true,
        resolvable: false,
        resolved: false,
        notes: { nodes: [{ id: gid("Note", visible[i].id) }] },
      })),
    });
  });
});

describe("statements per nested page", () => {
  const NESTED = `query($path: ID!, $first: Int!) { project(fullPath: $path) { snippets(first: $first) { nodes {
    title author { username } awardEmoji { nodes { name } }
    notes { nodes { body awardEmoji { nodes { name } } } }
    discussions { nodes { id resolved } } } } } }`;

  async function statementsFor(path: string, first: number) {
    await graphData(team.owner.api, NESTED, { path, first });
    const before = t.services.sqlStats.statements;
    const data = await graphData(team.owner.api, NESTED, { path, first });
    return { count: t.services.sqlStats.statements - before, rows: data.project.snippets.nodes };
  }

  it("reads project → 20 snippets → their notes, threads, reactions and authors in a fixed number of statements", async () => {
    const project = await createProject(team.owner.api, { visibility: "public" });
    const authors = await Promise.all(Array.from({ length: 3 }, () => createUser(t)));
    for (let i = 0; i < 22; i++) {
      const snippet = await createSnippet(team.owner.api, project.id, { title: `Nested ${i}` });
      const author = authors[i % authors.length]!;
      await createNote(author.api, project.id, "snippets", snippet.id, { body: `note ${i}` });
      await author.api.post(`/projects/${project.id}/snippets/${snippet.id}/award_emoji`, { name: "thumbsup" });
    }
    const twenty = await statementsFor(project.path_with_namespace, 20);
    const five = await statementsFor(project.path_with_namespace, 5);
    expect(twenty.rows).toHaveLength(20);
    expect(five.rows).toHaveLength(5);
    expect(twenty.rows.every((s: any) => s.notes.nodes.length === 1 && s.discussions.nodes.length === 1 && s.awardEmoji.nodes.length === 1)).toBe(true);
    expect(twenty.count).toBe(five.count);
    // the page with its files (two statements), its count, the notes' page and the threads' notes
    // (two batches: only the page of notes is read for `notes`), then the reactions of the snippets
    // and, a round later, those of their notes
    expect(twenty.count).toBeLessThanOrEqual(7);
  });
});
