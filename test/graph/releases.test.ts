// Releases on the public graph: Project.releases / Project.release(tagName:) / node(id:) read by
// every actor and compared with what REST's /projects/:id/releases shows the same actor; the
// release and asset link mutations (GitLab's shapes, refusals and the domain's errors in `errors`).
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { expectNotAvailable, gid, graph, graphData } from "../helpers/graph.js";
import { ACTORS, clientOf, createTeamProject, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;

const RELEASE_FIELDS = `id tagName tagPath name description releasedAt createdAt upcomingRelease historicalRelease
  author { username } commit { sha }
  assets { count links { count nodes { id name url linkType external directAssetUrl directAssetPath } } sources { nodes { format url } } }
  milestones { nodes { title } } links { selfUrl editUrl }`;
const CREATE = `mutation($input: ReleaseCreateInput!) { releaseCreate(input: $input) { errors release { ${RELEASE_FIELDS} } } }`;
const UPDATE = `mutation($input: ReleaseUpdateInput!) { releaseUpdate(input: $input) { errors release { name description releasedAt milestones { nodes { title } } } } }`;
const DELETE = `mutation($input: ReleaseDeleteInput!) { releaseDelete(input: $input) { errors release { tagName name } } }`;
const LINK_FIELDS = "id name url linkType directAssetPath directAssetUrl";
const LINK_CREATE = `mutation($input: ReleaseAssetLinkCreateInput!) { releaseAssetLinkCreate(input: $input) { errors link { ${LINK_FIELDS} } } }`;
const LINK_UPDATE = `mutation($input: ReleaseAssetLinkUpdateInput!) { releaseAssetLinkUpdate(input: $input) { errors link { ${LINK_FIELDS} } } }`;
const LINK_DELETE = `mutation($input: ReleaseAssetLinkDeleteInput!) { releaseAssetLinkDelete(input: $input) { errors link { ${LINK_FIELDS} } } }`;
const LIST = `query($path: ID!, $sort: ReleaseSort) { project(fullPath: $path) { releases(sort: $sort) { count nodes { tagName name commit { sha } assets { count } } } } }`;
const ONE = `query($path: ID!, $tag: String!) { project(fullPath: $path) { release(tagName: $tag) { ${RELEASE_FIELDS} } } }`;

const as = (actor: Actor) => clientOf(t, team, actor);
const create = (actor: Actor, project: any, fields: Record<string, unknown>) =>
  graph(as(actor), CREATE, { input: { projectPath: project.path_with_namespace, ...fields } });
const headOf = async (project: any) => (await t.root.get(`/projects/${project.id}/repository/branches/main`)).body.commit.id;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

describe("releaseCreate", () => {
  it("shows descriptionHtml: the notes escaped, in paragraphs with their line breaks; \"\" without notes", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const notes = "## Changes\nFixed <script>alert(1)</script> & \"quotes\"\n\n* one\r\n* two";
    expect((await create("developer", project, { tagName: "v2.0", ref: "main", description: notes })).body.data.releaseCreate.errors).toEqual([]);
    expect((await create("developer", project, { tagName: "v2.1", ref: "main" })).body.data.releaseCreate.errors).toEqual([]);
    const html = `query($path: ID!, $tag: String!) { project(fullPath: $path) { release(tagName: $tag) { description descriptionHtml } } }`;
    for (const actor of ["anonymous", "guest", "developer"] as Actor[]) {
      const res = await graph(as(actor), html, { path: project.path_with_namespace, tag: "v2.0" });
      expect([actor, res.body.data.project.release]).toEqual([actor, {
        description: notes,
        descriptionHtml: '<p dir="auto">## Changes<br>\nFixed &#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;quotes&#34;</p>\n<p dir="auto">* one<br>\n* two</p>',
      }]);
    }
    const empty = await graph(as("developer"), html, { path: project.path_with_namespace, tag: "v2.1" });
    expect(empty.body.data.project.release).toEqual({ description: null, descriptionHtml: "" });
  });

  it("creates the tag from ref and the release with links and a milestone, shown as REST shows it", async () => {
    const project = await createTeamProject(team);
    const head = await headOf(project);
    await team.owner.api.post(`/projects/${project.id}/milestones`, { title: "1.0" });
    const res = await create("developer", project, {
      tagName: "v1.0", ref: "main", tagMessage: "first", name: "First", description: "Notes", milestones: ["1.0"],
      assets: { links: [{ name: "binary", url: "https://downloads.example/app", directAssetPath: "/bin/app", linkType: "PACKAGE" }] },
    });
    expect(res.body.errors).toBeUndefined();
    const { errors, release } = res.body.data.releaseCreate;
    expect(errors).toEqual([]);
    const web = project.web_url;
    expect(release).toMatchObject({
      tagName: "v1.0", tagPath: `/${project.path_with_namespace}/-/tags/v1.0`, name: "First", description: "Notes",
      upcomingRelease: false, historicalRelease: false, author: { username: team.developer.username }, commit: { sha: head },
      milestones: { nodes: [{ title: "1.0" }] },
      links: { selfUrl: `${web}/-/releases/v1.0`, editUrl: `${web}/-/releases/v1.0/edit` },
    });
    expect(release.id).toMatch(/^gid:\/\/forgeline\/Release\/\d+$/);
    expect(release.assets.count).toBe(5);
    expect(release.assets.sources.nodes.map((s: any) => s.format)).toEqual(["zip", "tar.gz", "tar.bz2", "tar"]);
    expect(release.assets.links.nodes).toEqual([{
      id: expect.stringMatching(/^gid:\/\/forgeline\/Releases::Link\/\d+$/), name: "binary", url: "https://downloads.example/app",
      linkType: "PACKAGE", external: true, directAssetUrl: `${web}/-/releases/v1.0/downloads/bin/app`, directAssetPath: "/bin/app",
    }]);
    const rest = await team.developer.api.get(`/projects/${project.id}/releases/v1.0`);
    expect(rest.body).toMatchObject({ name: release.name, tag_name: release.tagName, description: release.description, commit: { id: head } });
    expect(new Date(rest.body.released_at).getTime()).toBe(new Date(release.releasedAt).getTime());
    expect(rest.body.assets.links.map((l: any) => `gid://forgeline/Releases::Link/${l.id}`)).toEqual(release.assets.links.nodes.map((l: any) => l.id));
    const tag = await t.root.get(`/projects/${project.id}/repository/tags/v1.0`);
    expect([tag.status, tag.body.message]).toEqual([200, "first"]);
  });

  it("lists the domain's refusals in errors: an existing release, a missing milestone, a bad link, a missing ref", async () => {
    const project = await createTeamProject(team);
    await create("developer", project, { tagName: "v1", ref: "main" });
    expect((await create("developer", project, { tagName: "v1", ref: "main" })).body.data.releaseCreate).toEqual({ errors: ["Release already exists"], release: null });
    const milestone = (await create("developer", project, { tagName: "v2", ref: "main", milestones: ["nope"] })).body.data.releaseCreate;
    expect(milestone.release).toBeNull();
    expect(milestone.errors).toEqual([expect.stringContaining("nope")]);
    const link = (await create("developer", project, { tagName: "v3", ref: "main", assets: { links: [{ name: "x", url: "not a url" }] } })).body.data.releaseCreate;
    expect(link.release).toBeNull();
    expect(link.errors.length).toBeGreaterThan(0);
    const ref = (await create("developer", project, { tagName: "v4" })).body.data.releaseCreate;
    expect(ref.release).toBeNull();
    expect(ref.errors.length).toBeGreaterThan(0);
    const badTime = await create("developer", project, { tagName: "v5", ref: "main", releasedAt: "yesterday" });
    expect(badTime.body.errors?.[0]?.message).toBeTruthy();
    expect((await t.root.get(`/projects/${project.id}/releases`)).body.map((r: any) => r.tag_name)).toEqual(["v1"]);
  });

  it.each(["anonymous", "nonMember", "guest", "reporter"] as const)("is not available to %s on a private project", async (actor) => {
    expectNotAvailable(await create(actor, team.privateProject, { tagName: `refused-${actor}`, ref: "main" }), "releaseCreate");
  });

  it.each(["maintainer", "owner", "admin"] as const)("is allowed to %s", async (actor) => {
    const res = await create(actor, team.privateProject, { tagName: `by-${actor}`, ref: "main", releasedAt: "2020-01-02T03:04:05Z" });
    expect(res.body.data.releaseCreate).toMatchObject({ errors: [], release: { tagName: `by-${actor}`, historicalRelease: true, releasedAt: "2020-01-02T03:04:05.000Z" } });
  });
});

describe("Project.releases, Project.release and node(id:) for every actor, as REST shows them", () => {
  let priv: any, pub: any;
  beforeAll(async () => {
    priv = await createTeamProject(team);
    pub = await createTeamProject(team, { visibility: "public" });
    for (const project of [priv, pub]) {
      await create("developer", project, { tagName: "v1", ref: "main", name: "One", releasedAt: "2021-01-01T00:00:00Z" });
      await create("developer", project, { tagName: "v2", ref: "main", name: "Two", releasedAt: "2022-01-01T00:00:00Z" });
    }
  });

  // a private project is hidden from anonymous and non-members; its guests see the releases
  // without their tags or commits (read_release without read_code), release(tagName:) too
  const expected: Record<Actor, { priv: "none" | "noCode" | "all" }> = {
    anonymous: { priv: "none" }, nonMember: { priv: "none" }, guest: { priv: "noCode" },
    reporter: { priv: "all" }, developer: { priv: "all" }, maintainer: { priv: "all" }, owner: { priv: "all" }, admin: { priv: "all" },
  };
  it.each(ACTORS)("as %s", async (actor) => {
    for (const [key, project] of [["priv", priv], ["pub", pub]] as const) {
      const want = key === "pub" ? "all" : expected[actor].priv;
      const data = await graphData(as(actor), LIST, { path: project.path_with_namespace });
      const rest = await as(actor).get(`/projects/${project.id}/releases`);
      if (want === "none") {
        expect(data.project, key).toBeNull();
        expect(rest.status, key).toBe(404);
        continue;
      }
      expect(rest.status, key).toBe(200);
      expect(data.project.releases.count, key).toBe(2);
      expect(data.project.releases.nodes.map((r: any) => [r.tagName, r.name, r.commit?.sha ?? null, r.assets.count]), key)
        .toEqual(rest.body.map((r: any) => [r.tag_name ?? null, r.name, r.commit?.id ?? null, r.assets.count]));
      const one = await graphData(as(actor), ONE, { path: project.path_with_namespace, tag: "v2" });
      if (want === "noCode") {
        expect(data.project.releases.nodes.map((r: any) => r.tagName), key).toEqual([null, null]);
        expect(one.project.release, key).toMatchObject({ tagName: null, tagPath: null, commit: null, assets: { count: 0, sources: { nodes: [] } }, links: { editUrl: null } });
        expect(one.project.release.name, key).toMatch(/^Release-\d+$/);
        continue;
      }
      expect(data.project.releases.nodes.map((r: any) => r.tagName), key).toEqual(["v2", "v1"]);
      expect(one.project.release, key).toMatchObject({ tagName: "v2", name: "Two", links: { editUrl: ["developer", "maintainer", "owner", "admin"].includes(actor) ? expect.any(String) : null } });
      const node = await graphData(as(actor), `query($id: ID!) { node(id: $id) { ... on Release { tagName } } }`, { id: one.project.release.id });
      expect(node.node, key).toEqual({ tagName: "v2" });
    }
  });

  it("sorts by released or created date", async () => {
    const order = async (sort?: string) =>
      (await graphData(t.root, LIST, { path: pub.path_with_namespace, sort })).project.releases.nodes.map((r: any) => r.tagName);
    expect(await order()).toEqual(["v2", "v1"]);
    expect(await order("RELEASED_AT_ASC")).toEqual(["v1", "v2"]);
    expect(await order("CREATED_ASC")).toEqual(["v1", "v2"]);
    expect(await order("CREATED_DESC")).toEqual(["v2", "v1"]);
  });

  it("answers null to node(id:) of a release of a hidden project and of a missing release, the release to a guest", async () => {
    const one = await graphData(t.root, ONE, { path: priv.path_with_namespace, tag: "v1" });
    const node = (actor: Actor, id: string) => graphData(as(actor), `query($id: ID!) { node(id: $id) { id } }`, { id });
    expect((await node("nonMember", one.project.release.id)).node).toBeNull();
    expect((await node("guest", one.project.release.id)).node).toEqual({ id: one.project.release.id });
    expect((await node("reporter", one.project.release.id)).node).toEqual({ id: one.project.release.id });
    expect((await node("admin", gid("Release", 999999999))).node).toBeNull();
    expect((await graphData(t.root, ONE, { path: priv.path_with_namespace, tag: "nope" })).project.release).toBeNull();
  });
});

describe("releaseUpdate and releaseDelete", () => {
  it("changes name, description, date and milestones (Developers), and deletes the release keeping its tag", async () => {
    const project = await createTeamProject(team);
    await team.owner.api.post(`/projects/${project.id}/milestones`, { title: "m1" });
    await create("developer", project, { tagName: "v1", ref: "main" });
    const input = { projectPath: project.path_with_namespace, tagName: "v1" };
    const updated = await graph(as("developer"), UPDATE, { input: { ...input, name: "Renamed", description: "New", releasedAt: "2021-02-03T04:05:06Z", milestones: ["m1"] } });
    expect(updated.body.data.releaseUpdate).toEqual({
      errors: [], release: { name: "Renamed", description: "New", releasedAt: "2021-02-03T04:05:06.000Z", milestones: { nodes: [{ title: "m1" }] } },
    });
    const rest = await team.reporter.api.get(`/projects/${project.id}/releases/v1`);
    expect([rest.body.name, rest.body.description, rest.body.milestones.map((m: any) => m.title)]).toEqual(["Renamed", "New", ["m1"]]);
    const cleared = await graph(as("developer"), UPDATE, { input: { ...input, milestones: [] } });
    expect(cleared.body.data.releaseUpdate.release.milestones.nodes).toEqual([]);
    expect((await graph(as("developer"), UPDATE, { input: { ...input, milestones: ["nope"] } })).body.data.releaseUpdate.errors).toEqual([expect.stringContaining("nope")]);

    for (const actor of ["anonymous", "nonMember", "guest", "reporter"] as const) {
      expectNotAvailable(await graph(as(actor), UPDATE, { input: { ...input, name: "x" } }), "releaseUpdate");
      expectNotAvailable(await graph(as(actor), DELETE, { input }), "releaseDelete");
    }
    expectNotAvailable(await graph(as("developer"), UPDATE, { input: { ...input, tagName: "missing", name: "x" } }), "releaseUpdate");

    const deleted = await graph(as("developer"), DELETE, { input });
    expect(deleted.body.data.releaseDelete).toEqual({ errors: [], release: { tagName: "v1", name: "Renamed" } });
    expect((await t.root.get(`/projects/${project.id}/releases/v1`)).status).toBe(404);
    expect((await t.root.get(`/projects/${project.id}/repository/tags/v1`)).status).toBe(200);
    expectNotAvailable(await graph(as("developer"), DELETE, { input }), "releaseDelete");
  });
});

describe("releaseAssetLinkCreate, releaseAssetLinkUpdate and releaseAssetLinkDelete", () => {
  it("adds, changes and removes a link (Developers), with the domain's errors and refusals", async () => {
    const project = await createTeamProject(team);
    await create("developer", project, { tagName: "v1", ref: "main" });
    const where = { projectPath: project.path_with_namespace, tagName: "v1" };
    const made = await graph(as("developer"), LINK_CREATE, { input: { ...where, name: "bin", url: "https://example.com/bin", directAssetPath: "/bin", linkType: "IMAGE" } });
    const link = made.body.data.releaseAssetLinkCreate.link;
    expect(made.body.data.releaseAssetLinkCreate.errors).toEqual([]);
    expect(link).toMatchObject({ name: "bin", url: "https://example.com/bin", linkType: "IMAGE", directAssetPath: "/bin", directAssetUrl: `${project.web_url}/-/releases/v1/downloads/bin` });
    const restLinks = await team.reporter.api.get(`/projects/${project.id}/releases/v1/assets/links`);
    expect(restLinks.body.map((l: any) => [gid("Releases::Link", l.id), l.name, l.link_type])).toEqual([[link.id, "bin", "image"]]);

    const taken = await graph(as("developer"), LINK_CREATE, { input: { ...where, name: "bin", url: "https://example.com/other" } });
    expect(taken.body.data.releaseAssetLinkCreate.link).toBeNull();
    expect(taken.body.data.releaseAssetLinkCreate.errors).toEqual([expect.stringContaining("has already been taken")]);
    expectNotAvailable(await graph(as("reporter"), LINK_CREATE, { input: { ...where, name: "r", url: "https://example.com/r" } }), "releaseAssetLinkCreate");
    expectNotAvailable(await graph(as("anonymous"), LINK_CREATE, { input: { ...where, name: "r", url: "https://example.com/r" } }), "releaseAssetLinkCreate");

    const changed = await graph(as("developer"), LINK_UPDATE, { input: { id: link.id, name: "binary" } });
    expect(changed.body.data.releaseAssetLinkUpdate).toEqual({ errors: [], link: { ...link, name: "binary" } });
    const badUrl = await graph(as("developer"), LINK_UPDATE, { input: { id: link.id, url: "nope" } });
    expect(badUrl.body.data.releaseAssetLinkUpdate.link).toBeNull();
    expect(badUrl.body.data.releaseAssetLinkUpdate.errors.length).toBeGreaterThan(0);
    for (const actor of ["anonymous", "nonMember", "guest", "reporter"] as const) {
      expectNotAvailable(await graph(as(actor), LINK_UPDATE, { input: { id: link.id, name: "x" } }), "releaseAssetLinkUpdate");
      expectNotAvailable(await graph(as(actor), LINK_DELETE, { input: { id: link.id } }), "releaseAssetLinkDelete");
    }
    expectNotAvailable(await graph(as("developer"), LINK_UPDATE, { input: { id: gid("Releases::Link", 999999999), name: "x" } }), "releaseAssetLinkUpdate");
    expectNotAvailable(await graph(as("developer"), LINK_UPDATE, { input: { id: gid("Release", 1), name: "x" } }), "releaseAssetLinkUpdate");

    const node = await graphData(as("reporter"), `query($id: ID!) { node(id: $id) { ... on ReleaseAssetLink { name } } }`, { id: link.id });
    expect(node.node).toEqual({ name: "binary" });
    const removed = await graph(as("maintainer"), LINK_DELETE, { input: { id: link.id } });
    expect(removed.body.data.releaseAssetLinkDelete).toEqual({ errors: [], link: { ...link, name: "binary" } });
    expect((await team.reporter.api.get(`/projects/${project.id}/releases/v1/assets/links`)).body).toEqual([]);
    expectNotAvailable(await graph(as("developer"), LINK_DELETE, { input: { id: link.id } }), "releaseAssetLinkDelete");
  });
});

describe("Project.releases statements", () => {
  /** Statements of the query on a warm server (answered once before), counted at the driver. */
  async function statementsOf(query: string, variables: Record<string, unknown>) {
    await graphData(team.owner.api, query, variables);
    const before = t.services.sqlStats.statements;
    const data = await graphData(team.owner.api, query, variables);
    return { count: t.services.sqlStats.statements - before, data };
  }
  const PAGE = `query($path: ID!, $first: Int!) { project(fullPath: $path) { releases(first: $first) { nodes {
    tagName author { username } commit { sha } assets { count links { nodes { name directAssetUrl } } } milestones { nodes { title } } links { selfUrl }
  } } } }`;

  it("costs the same statements for 5 and for 20 releases, each with its author, commit, links and milestone", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    await team.owner.api.post(`/projects/${project.id}/milestones`, { title: "m" });
    const authors = ["developer", "maintainer", "owner"] as const;
    for (let i = 0; i < 20; i++) {
      const res = await create(authors[i % 3]!, project, {
        tagName: `v${i}`, ref: "main", milestones: ["m"], releasedAt: new Date(Date.UTC(2020, 0, i + 1)).toISOString(),
        assets: { links: [{ name: "a", url: `https://example.com/${i}/a` }, { name: "b", url: `https://example.com/${i}/b` }] },
      });
      expect(res.body.data.releaseCreate.errors).toEqual([]);
    }
    const five = await statementsOf(PAGE, { path: project.path_with_namespace, first: 5 });
    const twenty = await statementsOf(PAGE, { path: project.path_with_namespace, first: 20 });
    expect(twenty.data.project.releases.nodes).toHaveLength(20);
    expect(twenty.data.project.releases.nodes[0]).toMatchObject({ tagName: "v19", assets: { count: 6 }, milestones: { nodes: [{ title: "m" }] } });
    expect(twenty.data.project.releases.nodes.every((r: any) => r.author && r.commit && r.assets.links.nodes.length === 2)).toBe(true);
    expect(twenty.count).toBe(five.count);
    expect(five.count).toBeGreaterThan(0);
    expect(five.count).toBeLessThanOrEqual(6);
  });
});
