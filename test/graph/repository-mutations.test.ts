// Repository writes on the public graph: commitCreate, tagCreate and tagDelete (who may push code)
// with Project.tags, and mergeRequestRebase, over the REST repository and rebase rules; effects
// checked through REST.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { uniq } from "../helpers/factories.js";
import { expectNotAvailable, graph, graphData } from "../helpers/graph.js";
import { commitTo, createMergeRequest } from "../helpers/merge-requests.js";
import { commitFile, createBranch, protectBranch } from "../helpers/repository.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

const PUSHERS: Actor[] = ["developer", "maintainer", "owner", "admin"];
const NON_PUSHERS: Actor[] = ["anonymous", "nonMember", "guest", "reporter"];

const enc = encodeURIComponent;
const headOf = async (project: any, branch: string) => (await t.root.get(`/projects/${project.id}/repository/branches/${enc(branch)}`)).body.commit?.id;
const statsOf = async (project: any, sha: string) => (await t.root.get(`/projects/${project.id}/repository/commits/${sha}`)).body.stats;
/** Whether `path` is a file on `branch`: REST refuses to create it again. */
async function fileExists(project: any, branch: string, path: string): Promise<boolean> {
  const res = await t.root.post(`/projects/${project.id}/repository/commits`, {
    branch, commit_message: "probe", actions: [{ action: "update", file_path: path, content: "probe\n" }],
  });
  if (res.status === 201) return true;
  expect(res.body).toEqual({ message: "A file with this name doesn't exist" });
  return false;
}

describe("commitCreate", () => {
  const COMMIT = `mutation($input: CommitCreateInput!) { commitCreate(input: $input) { errors commit { sha title message authorName } } }`;
  const input = (project: any, fields: Record<string, unknown>) => ({
    input: { projectPath: project.path_with_namespace, branch: "main", message: "Add a file", ...fields },
  });
  const create = (path: string, content = "hello\n") => ({ action: "CREATE", filePath: path, content });

  it.each(PUSHERS)("commits file changes to a branch as %s", async (actor) => {
    const path = `${uniq(actor)}.txt`;
    const res = await graphData(clientOf(t, team, actor), COMMIT, input(team.privateProject, { message: `Add ${path}\n\nBody`, actions: [create(path)] }));
    expect(res.commitCreate).toMatchObject({ errors: [], commit: { title: `Add ${path}`, message: `Add ${path}\n\nBody` } });
    expect(await headOf(team.privateProject, "main")).toBe(res.commitCreate.commit.sha);
    expect(await statsOf(team.privateProject, res.commitCreate.commit.sha)).toEqual({ additions: 1, deletions: 0, total: 1 });
    expect(await fileExists(team.privateProject, "main", path)).toBe(true);
  });

  it("updates (base64 content decoded), moves and deletes files on a new branch from startBranch", async () => {
    const [a, b, c] = [`${uniq("a")}.txt`, `${uniq("b")}.txt`, `${uniq("c")}.txt`];
    await graphData(team.developer.api, COMMIT, input(team.publicProject, { actions: [create(a), create(b), create(c)] }));
    const branch = uniq("work");
    const res = await graphData(team.developer.api, COMMIT, input(team.publicProject, {
      branch,
      startBranch: "main",
      message: "Rework",
      actions: [
        { action: "UPDATE", filePath: a, content: Buffer.from("one\ntwo\nthree\n").toString("base64"), encoding: "BASE64" },
        { action: "MOVE", previousPath: b, filePath: `moved-${b}` },
        { action: "DELETE", filePath: c },
      ],
    }));
    expect(res.commitCreate.errors).toEqual([]);
    expect(await headOf(team.publicProject, branch)).toBe(res.commitCreate.commit.sha);
    // Forgeline counts the lines written (no deletions): the three decoded lines
    // as git counts against the parent, without rename detection: a's one line becomes three (+3 -1),
    // the move removes b and adds moved-b (+1 -1), c's line goes (-1)
    expect(await statsOf(team.publicProject, res.commitCreate.commit.sha)).toEqual({ additions: 4, deletions: 3, total: 7 });
    expect(await fileExists(team.publicProject, branch, `moved-${b}`)).toBe(true);
    expect(await fileExists(team.publicProject, branch, b)).toBe(false);
    expect(await fileExists(team.publicProject, branch, c)).toBe(false);
    expect(await fileExists(team.publicProject, "main", c)).toBe(true);
  });

  it.each(NON_PUSHERS)("refuses %s without telling the project exists", async (actor) => {
    for (const project of [team.privateProject, team.publicProject]) {
      const before = await headOf(project, "main");
      expectNotAvailable(await graph(clientOf(t, team, actor), COMMIT, input(project, { actions: [create(uniq("nope"))] })), "commitCreate");
      expect(await headOf(project, "main")).toBe(before);
    }
    expectNotAvailable(await graph(clientOf(t, team, actor), COMMIT, { input: { projectPath: "no/such", branch: "main", message: "m", actions: [] } }), "commitCreate");
  });

  it("lists a branch only maintainers may push to in a developer's errors, committing nothing; a maintainer commits", async () => {
    const branch = uniq("locked");
    await createBranch(team.owner.api, team.publicProject.id, branch);
    await protectBranch(team.owner.api, team.publicProject.id, branch, { push_access_level: 40 });
    const headBefore = await headOf(team.publicProject, branch);
    const commit = input(team.publicProject, { branch, actions: [create(`${uniq("f")}.txt`)] });
    expect((await graphData(team.developer.api, COMMIT, commit)).commitCreate).toEqual({ commit: null, errors: ["You are not allowed to push into this branch"] });
    expect(await headOf(team.publicProject, branch)).toBe(headBefore);
    expect((await graphData(team.maintainer.api, COMMIT, commit)).commitCreate.errors).toEqual([]);
  });

  it("lists bad input in errors and changes nothing", async () => {
    const existing = `${uniq("here")}.txt`;
    await commitFile(team.owner.api, team.publicProject.id, "main", existing);
    const before = await headOf(team.publicProject, "main");
    const cases: [Record<string, unknown>, string][] = [
      [{ actions: [create(existing)] }, "A file with this name already exists"],
      [{ actions: [{ action: "UPDATE", filePath: uniq("missing") }] }, "actions[0][content] is missing"],
      [{ actions: [{ action: "DELETE", filePath: uniq("missing") }] }, "A file with this name doesn't exist"],
      [{ branch: uniq("new"), startBranch: "no-such-branch", actions: [create(uniq("f"))] }, "You can only create or edit files when you are on a branch"],
      [{ branch: "main", startBranch: "main", actions: [{ action: "MOVE", filePath: "x.txt" }] }, "actions[0][previous_path] is missing"],
    ];
    for (const [fields, message] of cases) {
      expect((await graphData(team.developer.api, COMMIT, input(team.publicProject, fields))).commitCreate).toEqual({ errors: [message], commit: null });
    }
    expect(await headOf(team.publicProject, "main")).toBe(before);
  });
});

describe("tagCreate, tagDelete and Project.tags", () => {
  const CREATE = `mutation($input: TagCreateInput!) { tagCreate(input: $input) { errors tag { name message target createdAt commit { sha } } } }`;
  const DELETE = `mutation($input: TagDeleteInput!) { tagDelete(input: $input) { errors } }`;
  const TAGS = `query($p: ID!, $s: String, $sort: TagSort) { project(fullPath: $p) { tags(first: 50, search: $s, sort: $sort) { count nodes { name } } } }`;
  const input = (project: any, fields: Record<string, unknown>) => ({ input: { projectPath: project.path_with_namespace, ...fields } });
  const restTag = (project: any, name: string) => t.root.get(`/projects/${project.id}/repository/tags/${enc(name)}`);

  it.each(PUSHERS)("creates lightweight and annotated tags as %s", async (actor) => {
    const sha = await headOf(team.privateProject, "main");
    const light = uniq(`v-${actor}`);
    const res = await graphData(clientOf(t, team, actor), CREATE, input(team.privateProject, { name: light, ref: "main" }));
    expect(res.tagCreate).toEqual({ errors: [], tag: { name: light, message: null, target: sha, createdAt: null, commit: { sha } } });
    expect((await restTag(team.privateProject, light)).body).toMatchObject({ name: light, target: sha, message: "" });

    const annotated = uniq(`release-${actor}`);
    const made = (await graphData(clientOf(t, team, actor), CREATE, input(team.privateProject, { name: annotated, ref: sha, message: "Release" }))).tagCreate;
    expect(made).toMatchObject({ errors: [], tag: { name: annotated, message: "Release", commit: { sha } } });
    expect(made.tag.target).not.toBe(sha);
    expect(made.tag.createdAt).toEqual(expect.any(String));
    expect((await restTag(team.privateProject, annotated)).body).toMatchObject({ name: annotated, message: "Release", target: made.tag.target });
  });

  it.each(NON_PUSHERS)("refuses %s tag writes without telling the project exists", async (actor) => {
    const existing = uniq("kept");
    await graphData(team.owner.api, CREATE, input(team.publicProject, { name: existing, ref: "main" }));
    for (const project of [team.privateProject, team.publicProject]) {
      const name = uniq("nope");
      expectNotAvailable(await graph(clientOf(t, team, actor), CREATE, input(project, { name, ref: "main" })), "tagCreate");
      expect((await restTag(project, name)).status).toBe(404);
    }
    expectNotAvailable(await graph(clientOf(t, team, actor), DELETE, input(team.publicProject, { name: existing })), "tagDelete");
    expect((await restTag(team.publicProject, existing)).status).toBe(200);
  });

  it("lists bad input in errors", async () => {
    const taken = uniq("taken");
    await graphData(team.developer.api, CREATE, input(team.publicProject, { name: taken, ref: "main" }));
    const cases: [string, string, string][] = [
      [taken, "main", `Tag ${taken} already exists`],
      ["bad..name", "main", "Tag name invalid"],
      [uniq("t"), "no-such-ref", "Target no-such-ref is invalid"],
      [" ", "main", "tag_name is empty"],
    ];
    for (const [name, ref, message] of cases) {
      expect((await graphData(team.developer.api, CREATE, input(team.publicProject, { name, ref }))).tagCreate).toEqual({ errors: [message], tag: null });
    }
  });

  it.each(PUSHERS)("deletes a tag as %s; a missing tag is not available", async (actor) => {
    const name = uniq("gone");
    await graphData(team.owner.api, CREATE, input(team.privateProject, { name, ref: "main" }));
    expect(await graphData(clientOf(t, team, actor), DELETE, input(team.privateProject, { name }))).toEqual({ tagDelete: { errors: [] } });
    expect((await restTag(team.privateProject, name)).status).toBe(404);
    expectNotAvailable(await graph(clientOf(t, team, actor), DELETE, input(team.privateProject, { name })), "tagDelete");
  });

  it("lists tags by search and sort to those who may read the code, null to others", async () => {
    const prefix = uniq("list");
    for (const suffix of ["v1.9", "v1.10", "v1.2"]) await graphData(team.owner.api, CREATE, input(team.privateProject, { name: `${prefix}-${suffix}`, ref: "main" }));
    const tagsAs = async (actor: Actor, sort?: string) =>
      (await graphData(clientOf(t, team, actor), TAGS, { p: team.privateProject.path_with_namespace, s: prefix, sort })).project?.tags;
    expect(await tagsAs("reporter", "VERSION_ASC")).toEqual({ count: 3, nodes: ["v1.2", "v1.9", "v1.10"].map((v) => ({ name: `${prefix}-${v}` })) });
    expect((await tagsAs("developer", "NAME_DESC")).nodes.map((n: { name: string }) => n.name)).toEqual(["v1.9", "v1.2", "v1.10"].map((v) => `${prefix}-${v}`));
    expect(await tagsAs("guest")).toBeNull();
    expect(await tagsAs("nonMember")).toBeUndefined(); // the private project itself is hidden

    const publicTag = uniq("pub");
    await graphData(team.owner.api, CREATE, input(team.publicProject, { name: publicTag, ref: "main" }));
    const anon = await graphData(t.anon, TAGS, { p: team.publicProject.path_with_namespace, s: publicTag });
    expect(anon.project.tags.nodes).toEqual([{ name: publicTag }]);
  });
});

describe("mergeRequestRebase", () => {
  const REBASE = `mutation($input: MergeRequestRebaseInput!) { mergeRequestRebase(input: $input) { errors mergeRequest { iid sourceBranch diffHeadSha } } }`;
  const input = (project: any, iid: number | string) => ({ input: { projectPath: project.path_with_namespace, iid: String(iid) } });
  const commitOf = async (project: any, sha: string) => (await t.root.get(`/projects/${project.id}/repository/commits/${sha}`)).body;

  /** A merge request one commit ahead of main, with main moved on by another commit. */
  async function behindMergeRequest(project = team.privateProject) {
    const mr = await createMergeRequest(team.developer.api, project.id); // with a commit of its own
    await commitTo(team.owner.api, project.id, "main");
    return mr;
  }

  it.each(PUSHERS)("rebases the source branch onto the target as %s", async (actor) => {
    const mr = await behindMergeRequest();
    const res = await graphData(clientOf(t, team, actor), REBASE, input(team.privateProject, mr.iid));
    const head = await headOf(team.privateProject, mr.source_branch);
    expect(res.mergeRequestRebase).toEqual({ errors: [], mergeRequest: { iid: String(mr.iid), sourceBranch: mr.source_branch, diffHeadSha: head } });
    expect((await commitOf(team.privateProject, head)).parent_ids).toEqual([await headOf(team.privateProject, "main")]);
    expect((await t.root.get(`/projects/${team.privateProject.id}/merge_requests/${mr.iid}`)).body.sha).toBe(head);
  });

  it("leaves a merge request already on top of its target as it is", async () => {
    const mr = await createMergeRequest(team.developer.api, team.privateProject.id);
    const head = (await commitTo(team.developer.api, team.privateProject.id, mr.source_branch)).id;
    expect((await graphData(team.developer.api, REBASE, input(team.privateProject, mr.iid))).mergeRequestRebase)
      .toMatchObject({ errors: [], mergeRequest: { diffHeadSha: head } });
    expect(await headOf(team.privateProject, mr.source_branch)).toBe(head);
  });

  it.each(NON_PUSHERS)("refuses %s without changing the branch", async (actor) => {
    for (const project of [team.privateProject, team.publicProject]) {
      const mr = await behindMergeRequest(project);
      const before = await headOf(project, mr.source_branch);
      expectNotAvailable(await graph(clientOf(t, team, actor), REBASE, input(project, mr.iid)), "mergeRequestRebase");
      expect(await headOf(project, mr.source_branch)).toBe(before);
    }
  });

  it("refuses a missing merge request and a source branch protected from force push", async () => {
    expectNotAvailable(await graph(team.developer.api, REBASE, input(team.privateProject, 999999)), "mergeRequestRebase");
    expectNotAvailable(await graph(team.developer.api, REBASE, input(team.privateProject, "not-a-number")), "mergeRequestRebase");
    const mr = await behindMergeRequest();
    await protectBranch(team.owner.api, team.privateProject.id, mr.source_branch, { push_access_level: 30 });
    const before = await headOf(team.privateProject, mr.source_branch);
    expectNotAvailable(await graph(team.maintainer.api, REBASE, input(team.privateProject, mr.iid)), "mergeRequestRebase");
    expect(await headOf(team.privateProject, mr.source_branch)).toBe(before);
  });
});
