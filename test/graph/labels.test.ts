// Labels through the public graph: Project.labels / label(title:), Group.labels / label(title:)
// (GitLab's arguments and defaults), the Label type, labelCreate, and Issue.labels; every caller's
// rows are compared with what REST's label lists give that caller, on a private and a public group
// and project.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject, uniq } from "../helpers/factories.js";
import { expectNotAvailable, gid, graph, graphData } from "../helpers/graph.js";
import { ACCESS_LEVEL, ACTORS, clientOf, createTeam, type Actor, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
const groups: Record<"private" | "public", any> = {} as any;
const subgroups: Record<"private" | "public", any> = {} as any;
const projects: Record<"private" | "public", any> = {} as any;
const as = (actor: Actor) => clientOf(t, team, actor);
const KINDS = ["private", "public"] as const;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  for (const kind of KINDS) {
    const group = (groups[kind] = await createGroup(team.owner.api, { visibility: kind }));
    for (const role of ["guest", "reporter", "developer", "maintainer"] as const) await addMember(team.owner.api, "groups", group.id, team[role].id, ACCESS_LEVEL[role]);
    subgroups[kind] = await createGroup(team.owner.api, { visibility: kind, parent_id: group.id });
    projects[kind] = await createProject(team.owner.api, { namespace_id: subgroups[kind].id, visibility: kind });
    const post = (url: string, body: Record<string, unknown>) => team.owner.api.post(url, body).then((res) => expect(res.status, res.text).toBe(201));
    await post(`/groups/${group.id}/labels`, { name: "top", color: "#ff0000", description: "the <b>top</b> one" });
    await post(`/groups/${group.id}/labels`, { name: "same", color: "#00ff00" });
    await post(`/groups/${subgroups[kind].id}/labels`, { name: "middle", color: "navy" });
    // a subgroup label of an ancestor's title (the API refuses it; GitLab's data may hold it from before)
    const now = new Date();
    await t.services.db.label.create({ data: { title: "same", color: "#0000ff", groupId: subgroups[kind].id, createdAt: now, updatedAt: now } });
    await post(`/projects/${projects[kind].id}/labels`, { name: "bug", color: "#eeeeee", description: "broken" });
    await post(`/projects/${projects[kind].id}/labels`, { name: "feature", color: "#123" });
  }
});

const LABEL = "id title color textColor description descriptionHtml createdAt updatedAt";
const PROJECT_LABELS = `query($path: ID!, $anc: Boolean, $search: String, $title: String) {
  project(fullPath: $path) { labels(includeAncestorGroups: $anc, searchTerm: $search, title: $title) { count nodes { ${LABEL} } } } }`;
const GROUP_LABELS = `query($path: ID!, $anc: Boolean, $desc: Boolean, $only: Boolean, $search: String) {
  group(fullPath: $path) { labels(includeAncestorGroups: $anc, includeDescendantGroups: $desc, onlyGroupLabels: $only, searchTerm: $search) { count nodes { ${LABEL} } } } }`;
const PROJECT_LABEL = `query($path: ID!, $title: String!) { project(fullPath: $path) { label(title: $title) { ${LABEL} } } }`;
const GROUP_LABEL = `query($path: ID!, $title: String!) { group(fullPath: $path) { label(title: $title) { ${LABEL} } } }`;
const CREATE = `mutation($input: LabelCreateInput!) { labelCreate(input: $input) { errors label { ${LABEL} } } }`;

/** A REST label as the graph shows it. */
const asGraph = (rest: any, kind: "ProjectLabel" | "GroupLabel") => ({
  id: gid(kind, rest.id), title: rest.name, color: rest.color, textColor: rest.text_color, description: rest.description,
  descriptionHtml: rest.description_html,
});
const withoutTimes = (nodes: any[]) => nodes.map(({ createdAt, updatedAt, ...rest }) => {
  expect(new Date(createdAt).getTime()).toBeGreaterThan(0);
  expect(new Date(updatedAt).getTime()).toBeGreaterThan(0);
  return rest;
});

describe("Project.labels against GET /projects/:id/labels, for every caller", () => {
  const cases = KINDS.flatMap((kind) => ACTORS.map((actor) => [kind, actor] as const));
  it.each(cases)("%s project as %s", async (kind, actor) => {
    const project = projects[kind];
    const path = project.path_with_namespace;
    for (const [anc, query] of [[true, ""], [false, "?include_ancestor_groups=false"]] as const) {
      const rest = await as(actor).get(`/projects/${project.id}/labels${query}`);
      const res = await graph(as(actor), PROJECT_LABELS, { path, anc });
      expect(res.body.errors).toBeUndefined();
      if (rest.status === 404) {
        expect(res.body.data.project).toBeNull();
        continue;
      }
      expect(rest.status).toBe(200);
      const labels = res.body.data.project.labels;
      expect(withoutTimes(labels.nodes)).toEqual(rest.body.map((l: any) => asGraph(l, l.is_project_label ? "ProjectLabel" : "GroupLabel")));
      expect(labels.count).toBe(rest.body.length);
      expect(rest.body.map((l: any) => l.name)).toEqual(anc ? ["bug", "feature", "middle", "same", "same", "top"] : ["bug", "feature"]);
    }
    // GitLab's graph default: the project's own labels only
    const plain = await graph(as(actor), `query($path: ID!) { project(fullPath: $path) { labels { nodes { title } } } }`, { path });
    if (plain.body.data.project) expect(plain.body.data.project.labels.nodes.map((l: any) => l.title)).toEqual(["bug", "feature"]);
  });

  it("searches titles and descriptions as REST's search, and takes an exact title", async () => {
    const path = projects.public.path_with_namespace;
    for (const search of ["BROK", "e", "top", "nothing"]) {
      const rest = await as("guest").get(`/projects/${projects.public.id}/labels?search=${search}`);
      const data = await graphData(as("guest"), PROJECT_LABELS, { path, anc: true, search });
      expect(data.project.labels.nodes.map((l: any) => l.title)).toEqual(rest.body.map((l: any) => l.name));
    }
    const titled = await graphData(as("guest"), PROJECT_LABELS, { path, anc: true, title: "same" });
    expect(titled.project.labels.nodes.map((l: any) => l.title)).toEqual(["same", "same"]);
  });

  it("Project.label(title:) is the project's own label, else the nearest group's, else null", async () => {
    const project = projects.private;
    const path = project.path_with_namespace;
    const restOf = async (ref: string) => (await as("guest").get(`/projects/${project.id}/labels/${ref}`)).body;
    for (const title of ["bug", "same", "top"]) {
      const rest = await restOf(title);
      const data = await graphData(as("guest"), PROJECT_LABEL, { path, title });
      expect(withoutTimes([data.project.label])).toEqual([asGraph(rest, rest.is_project_label ? "ProjectLabel" : "GroupLabel")]);
    }
    expect((await graphData(as("guest"), PROJECT_LABEL, { path, title: "same" })).project.label.color).toBe("#0000ff");
    expect((await graphData(as("guest"), PROJECT_LABEL, { path, title: "none" })).project.label).toBeNull();
    expect((await graph(as("nonMember"), PROJECT_LABEL, { path, title: "bug" })).body.data.project).toBeNull();
  });
});

describe("Group.labels against GET /groups/:id/labels, for every caller", () => {
  const cases = KINDS.flatMap((kind) => ACTORS.map((actor) => [kind, actor] as const));
  it.each(cases)("%s group as %s", async (kind, actor) => {
    const group = subgroups[kind];
    const variants = [
      [{ anc: true, only: true }, ""],
      [{ anc: false, only: true }, "?include_ancestor_groups=false"],
      [{ anc: true, only: false }, "?only_group_labels=false"],
      [{ anc: false, desc: true, only: true }, "?include_ancestor_groups=false&include_descendant_groups=true"],
    ] as const;
    for (const [args, query] of variants) {
      const rest = await as(actor).get(`/groups/${group.id}/labels${query}`);
      const res = await graph(as(actor), GROUP_LABELS, { path: group.full_path, ...args });
      expect(res.body.errors).toBeUndefined();
      // REST's group routes ask for a token first: an anonymous caller sees no private group on the graph
      if (rest.status === 404 || (rest.status === 401 && kind === "private")) {
        expect(res.body.data.group).toBeNull();
        continue;
      }
      // REST's group labels need a token; the graph shows a public group's labels to anyone, as GitLab's graph does
      const expected = rest.status === 401 ? await team.nonMember.api.get(`/groups/${group.id}/labels${query}`) : rest;
      expect([actor, kind, rest.status]).toEqual(rest.status === 401 ? ["anonymous", "public", 401] : [actor, kind, 200]);
      expect(withoutTimes(res.body.data.group.labels.nodes)).toEqual(
        expected.body.map((l: any) => asGraph(l, l.is_project_label === true || !("is_project_label" in l) && ["bug", "feature"].includes(l.name) ? "ProjectLabel" : "GroupLabel")),
      );
    }
  });

  it("includes the group's projects' labels by default (onlyGroupLabels: false), and Group.label(title:) is the nearest group's", async () => {
    const group = subgroups.private;
    const data = await graphData(as("guest"), GROUP_LABELS, { path: group.full_path });
    expect(data.group.labels.nodes.map((l: any) => l.title)).toEqual(["bug", "feature", "middle", "same"]);
    const same = await graphData(as("guest"), GROUP_LABEL, { path: group.full_path, title: "same" });
    expect(same.group.label).toMatchObject({ title: "same", color: "#0000ff" });
    expect((await graphData(as("guest"), GROUP_LABEL, { path: group.full_path, title: "top" })).group.label.color).toBe("#ff0000");
    expect((await graphData(as("guest"), GROUP_LABEL, { path: group.full_path, title: "bug" })).group.label).toBeNull();
    expect((await graph(as("nonMember"), GROUP_LABEL, { path: group.full_path, title: "top" })).body.data.group).toBeNull();
  });
});

describe("labelCreate", () => {
  const creators: Record<Actor, boolean> = { anonymous: false, nonMember: false, guest: false, reporter: true, developer: true, maintainer: true, owner: true, admin: true };
  const cases = KINDS.flatMap((kind) => (["project", "group"] as const).flatMap((parent) => ACTORS.map((actor) => [kind, parent, actor, creators[actor]] as const)));
  it.each(cases)("%s %s as %s: allowed %s", async (kind, parent, actor, allowed) => {
    const title = uniq(`by-${actor}`);
    const input = parent === "project"
      ? { projectPath: projects[kind].path_with_namespace, title, color: "#abcdef", description: "made" }
      : { groupPath: groups[kind].full_path, title, color: "#abcdef", description: "made" };
    const res = await graph(as(actor), CREATE, { input });
    const list = parent === "project" ? `/projects/${projects[kind].id}/labels?include_ancestor_groups=false` : `/groups/${groups[kind].id}/labels`;
    const after = (await team.owner.api.get(`${list}&search=${title}`.replace("labels&", "labels?"))).body;
    if (!allowed) {
      expectNotAvailable(res, "labelCreate");
      expect(after).toEqual([]);
      return;
    }
    expect(res.body.data.labelCreate.errors).toEqual([]);
    expect(after).toHaveLength(1);
    expect(withoutTimes([res.body.data.labelCreate.label])).toEqual([asGraph(after[0], parent === "project" ? "ProjectLabel" : "GroupLabel")]);
    expect(res.body.data.labelCreate.label).toMatchObject({ title, color: "#abcdef", textColor: "#333333", description: "made", descriptionHtml: '<p dir="auto">made</p>' });
  });

  it("answers the model's errors in the payload and creates nothing; a taken title; the default colour", async () => {
    const projectPath = projects.private.path_with_namespace;
    const count = () => t.services.db.label.count({ where: { projectId: projects.private.id } });
    const before = await count();
    const errorsOf = async (input: Record<string, unknown>) => {
      const data = await graphData(as("developer"), CREATE, { input: { projectPath, ...input } });
      expect(data.labelCreate.label).toBeNull();
      return data.labelCreate.errors;
    };
    expect(await errorsOf({ title: "x", color: "nope" })).toEqual(["color must be a valid color code"]);
    expect(await errorsOf({ title: "a,b", color: "#fff" })).toEqual(["title is invalid"]);
    expect(await errorsOf({ title: "  ", color: "#fff" })).toEqual(["title can't be blank"]);
    expect(await errorsOf({ title: "bug" })).toEqual(["Title has already been taken"]);
    expect(await errorsOf({ title: "top" })).toEqual(["Title has already been taken"]);
    expect(await count()).toBe(before);
    const made = await graphData(as("developer"), CREATE, { input: { projectPath, title: uniq("plain") } });
    expect(made.labelCreate.label).toMatchObject({ color: "#6699cc", description: null, descriptionHtml: "" });
    expect(made.labelCreate.label.id).toMatch(/^gid:\/\/forgeline\/ProjectLabel\/\d+$/);
    // exactly one parent
    for (const input of [{ title: "t" }, { title: "t", projectPath, groupPath: groups.private.full_path }]) {
      const res = await graph(as("owner"), CREATE, { input });
      expect(res.body.errors?.[0]?.message).toBe("Exactly one of group_path or project_path arguments is required");
    }
    expectNotAvailable(await graph(as("owner"), CREATE, { input: { projectPath: "no/such", title: "t" } }), "labelCreate");
  });
});

describe("Issue.labels", () => {
  it("shows an issue's labels with their global ids", async () => {
    const project = projects.private;
    const issue = (await team.owner.api.post(`/projects/${project.id}/issues`, { title: "i", labels: "bug,top" })).body;
    const data = await graphData(as("guest"), `query($path: ID!, $iid: String!) { project(fullPath: $path) { issue(iid: $iid) { labels { nodes { id title } } } } }`, {
      path: project.path_with_namespace, iid: String(issue.iid),
    });
    const rest = (await as("guest").get(`/projects/${project.id}/labels?search=`)).body;
    const idOf = (name: string) => rest.find((l: any) => l.name === name).id;
    expect(data.project.issue.labels.nodes).toEqual([
      { id: gid("ProjectLabel", idOf("bug")), title: "bug" },
      { id: gid("GroupLabel", idOf("top")), title: "top" },
    ]);
  });
});

describe("Project.labels statements", () => {
  async function statementsOf(query: string, variables: Record<string, unknown>) {
    await graphData(team.owner.api, query, variables);
    const before = t.services.sqlStats.statements;
    const data = await graphData(team.owner.api, query, variables);
    return { count: t.services.sqlStats.statements - before, data };
  }
  const PAGE = `query($path: ID!, $first: Int!) { project(fullPath: $path) { labels(first: $first, includeAncestorGroups: true) { count nodes { ${LABEL} } } } }`;

  it("costs the same statements for 5 and for 20 labels", async () => {
    const project = await createProject(team.owner.api, { namespace_id: subgroups.public.id, visibility: "public" });
    for (let i = 0; i < 20; i++) expect((await team.owner.api.post(`/projects/${project.id}/labels`, { name: `l${String(i).padStart(2, "0")}`, color: "#000" })).status).toBe(201);
    const five = await statementsOf(PAGE, { path: project.path_with_namespace, first: 5 });
    const twenty = await statementsOf(PAGE, { path: project.path_with_namespace, first: 20 });
    expect(twenty.data.project.labels.nodes).toHaveLength(20);
    expect(twenty.data.project.labels.count).toBe((await team.owner.api.get(`/projects/${project.id}/labels?per_page=100`)).body.length);
    expect(twenty.count).toBe(five.count);
    expect(five.count).toBeLessThanOrEqual(3);
  });
});
