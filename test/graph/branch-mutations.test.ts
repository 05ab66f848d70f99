// Branch writes on the public graph: createBranch and branchDelete (who may push code),
// protectedBranchCreate and protectedBranchDelete (Maintainers), over the REST branch rules.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { uniq } from "../helpers/factories.js";
import { gid, graph, graphData, expectNotAvailable } from "../helpers/graph.js";
import { createBranch as restCreateBranch, protectBranch as restProtectBranch } from "../helpers/repository.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

const CREATE = `mutation($input: CreateBranchInput!) { createBranch(input: $input) { errors branch { name default protected canPush commit { sha } } } }`;
const DELETE = `mutation($input: BranchDeleteInput!) { branchDelete(input: $input) { errors } }`;
const PROTECT = `mutation($input: ProtectedBranchCreateInput!) { protectedBranchCreate(input: $input) {
  errors protectedBranch { id name allowForcePush pushAccessLevels { accessLevel user { username } } mergeAccessLevels { accessLevel } unprotectAccessLevels { accessLevel } } } }`;
const UNPROTECT = `mutation($input: ProtectedBranchDeleteInput!) { protectedBranchDelete(input: $input) { errors } }`;

const branchNames = async (project: any) =>
  (await graphData(t.root, `query($p: ID!) { project(fullPath: $p) { branches(first: 100) { nodes { name } } } }`, { p: project.path_with_namespace }))
    .project.branches.nodes.map((node: { name: string }) => node.name);

const mainSha = async (project: any) => (await t.root.get(`/projects/${project.id}/repository/branches/main`)).body.commit.id;

describe("createBranch", () => {
  it.each(["developer", "maintainer", "owner", "admin"] as Actor[])("creates a branch in the private project as %s", async (actor) => {
    const name = uniq(`by-${actor}`);
    const res = await graph(clientOf(t, team, actor), CREATE, { input: { projectPath: team.privateProject.path_with_namespace, name, ref: "main" } });
    expect(res.body.data.createBranch).toEqual({
      errors: [], branch: { name, default: false, protected: false, canPush: true, commit: { sha: await mainSha(team.privateProject) } },
    });
    expect(await branchNames(team.privateProject)).toContain(name);
  });

  it.each(["anonymous", "nonMember", "guest", "reporter"] as Actor[])("refuses %s without telling the project exists", async (actor) => {
    for (const project of [team.privateProject, team.publicProject]) {
      const name = uniq("nope");
      expectNotAvailable(await graph(clientOf(t, team, actor), CREATE, { input: { projectPath: project.path_with_namespace, name, ref: "main" } }), "createBranch");
      expect(await branchNames(project)).not.toContain(name);
    }
    expectNotAvailable(await graph(clientOf(t, team, actor), CREATE, { input: { projectPath: "no/such", name: "x", ref: "main" } }), "createBranch");
  });

  it("lists bad input in errors", async () => {
    const input = (name: string, ref = "main") => ({ input: { projectPath: team.publicProject.path_with_namespace, name, ref } });
    const cases: [string, string, string][] = [
      ["bad..name", "main", "Branch name is invalid"],
      ["main", "main", "Branch already exists"],
      ["from-nowhere", "no-such-ref", "Failed to create branch 'from-nowhere': invalid reference name 'no-such-ref'"],
      ["a".repeat(40), "main", "You cannot create a branch with a 40-character hexadecimal branch name."],
    ];
    for (const [name, ref, message] of cases) {
      expect((await graphData(team.developer.api, CREATE, input(name, ref))).createBranch).toEqual({ errors: [message], branch: null });
    }
    expect((await graphData(team.developer.api, CREATE, input(" "))).createBranch.errors).toEqual(["branch is empty"]);
  });

  it("refuses a developer a branch only maintainers may push to", async () => {
    const name = uniq("locked");
    await restProtectBranch(team.owner.api, team.publicProject.id, name, { push_access_level: 40, merge_access_level: 40 });
    const input = { input: { projectPath: team.publicProject.path_with_namespace, name, ref: "main" } };
    expect((await graphData(team.developer.api, CREATE, input)).createBranch).toEqual({
      errors: ["You are not allowed to create protected branches on this project."], branch: null,
    });
    expect((await graphData(team.maintainer.api, CREATE, input)).createBranch.branch).toMatchObject({ name, protected: true });
  });
});

describe("branchDelete", () => {
  const input = (name: string, project = team.privateProject) => ({ input: { projectPath: project.path_with_namespace, name } });

  it.each(["developer", "maintainer", "owner", "admin"] as Actor[])("deletes a branch as %s", async (actor) => {
    const name = uniq("gone");
    await restCreateBranch(team.owner.api, team.privateProject.id, name);
    expect(await graphData(clientOf(t, team, actor), DELETE, input(name))).toEqual({ branchDelete: { errors: [] } });
    expect(await branchNames(team.privateProject)).not.toContain(name);
  });

  it.each(["anonymous", "nonMember", "guest", "reporter"] as Actor[])("refuses %s", async (actor) => {
    const name = uniq("stays");
    await restCreateBranch(team.owner.api, team.publicProject.id, name);
    expectNotAvailable(await graph(clientOf(t, team, actor), DELETE, input(name, team.publicProject)), "branchDelete");
    expect(await branchNames(team.publicProject)).toContain(name);
  });

  it("keeps the default and protected branches, and hides missing ones", async () => {
    expect((await graphData(team.owner.api, DELETE, input("main"))).branchDelete.errors).toEqual(["The default branch of a project cannot be deleted."]);
    const name = uniq("guarded");
    await restCreateBranch(team.owner.api, team.privateProject.id, name);
    await restProtectBranch(team.owner.api, team.privateProject.id, name);
    expect((await graphData(team.developer.api, DELETE, input(name))).branchDelete.errors[0]).toMatch(/^You are not allowed to delete protected branches/);
    expect(await branchNames(team.privateProject)).toContain(name);
    expectNotAvailable(await graph(team.developer.api, DELETE, input("no-such-branch")), "branchDelete");
  });
});

describe("protectedBranchCreate and protectedBranchDelete", () => {
  const input = (fields: Record<string, unknown>, project = team.privateProject) => ({ input: { projectPath: project.path_with_namespace, ...fields } });

  it.each(["maintainer", "owner", "admin"] as Actor[])("protects and unprotects a wildcard as %s", async (actor) => {
    const client = clientOf(t, team, actor);
    const name = `${uniq("rel")}/*`;
    const data = await graphData(client, PROTECT, input({
      name, mergeAccessLevel: 30, allowForcePush: true, allowedToPush: [{ userId: gid("User", team.developer.id) }],
    }));
    expect(data.protectedBranchCreate.errors).toEqual([]);
    expect(data.protectedBranchCreate.protectedBranch).toMatchObject({
      name, allowForcePush: true,
      pushAccessLevels: [{ accessLevel: 40, user: { username: team.developer.username } }],
      mergeAccessLevels: [{ accessLevel: 30 }],
      unprotectAccessLevels: [{ accessLevel: 40 }],
    });
    expect(data.protectedBranchCreate.protectedBranch.id).toMatch(/^gid:\/\/forgeline\/ProtectedBranch\/\d+$/);
    expect(await graphData(client, UNPROTECT, input({ name }))).toEqual({ protectedBranchDelete: { errors: [] } });
    expect((await t.root.get(`/projects/${team.privateProject.id}/protected_branches/${encodeURIComponent(name)}`)).status).toBe(404);
  });

  it.each(["anonymous", "nonMember", "guest", "reporter", "developer"] as Actor[])("refuses %s", async (actor) => {
    const name = uniq("p");
    expectNotAvailable(await graph(clientOf(t, team, actor), PROTECT, input({ name }, team.publicProject)), "protectedBranchCreate");
    await restProtectBranch(team.owner.api, team.publicProject.id, name);
    expectNotAvailable(await graph(clientOf(t, team, actor), UNPROTECT, input({ name }, team.publicProject)), "protectedBranchDelete");
    expect((await t.root.get(`/projects/${team.publicProject.id}/protected_branches/${name}`)).status).toBe(200);
  });

  it("lists bad input in errors", async () => {
    const name = uniq("twice");
    expect((await graphData(team.maintainer.api, PROTECT, input({ name }))).protectedBranchCreate.errors).toEqual([]);
    expect((await graphData(team.maintainer.api, PROTECT, input({ name }))).protectedBranchCreate).toEqual({
      errors: [`Protected branch '${name}' already exists`], protectedBranch: null,
    });
    const badLevel = await graphData(team.maintainer.api, PROTECT, input({ name: uniq("lvl"), pushAccessLevel: 35 }));
    expect(badLevel.protectedBranchCreate).toEqual({ errors: ["push_access_level does not have a valid value"], protectedBranch: null });
    const blank = await graphData(team.maintainer.api, PROTECT, input({ name: " " }));
    expect(blank.protectedBranchCreate).toEqual({ errors: ["Name can't be blank"], protectedBranch: null });
    expectNotAvailable(await graph(team.maintainer.api, UNPROTECT, input({ name: "never-protected" })), "protectedBranchDelete");
  });

  it("lets only those named unprotect a rule that names them", async () => {
    const name = uniq("owners-only");
    await graphData(team.owner.api, PROTECT, input({ name, allowedToUnprotect: [{ userId: gid("User", team.owner.id) }] }));
    expectNotAvailable(await graph(team.maintainer.api, UNPROTECT, input({ name })), "protectedBranchDelete");
    expect(await graphData(team.owner.api, UNPROTECT, input({ name }))).toEqual({ protectedBranchDelete: { errors: [] } });
  });
});
