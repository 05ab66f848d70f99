// commitCherryPick and commitRevert on the public graph, over the REST cherry-pick and revert rules:
// the new commit on the branch, dry runs, conflicts and protected branches listed in `errors`, and
// callers who may not push refused without telling the project exists.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { uniq } from "../helpers/factories.js";
import { expectNotAvailable, graph, graphData } from "../helpers/graph.js";
import { commitTo } from "../helpers/merge-requests.js";
import { createBranch, protectBranch } from "../helpers/repository.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

const PICK = `mutation($input: CommitCherryPickInput!) { commitCherryPick(input: $input) { errors commit { sha message } } }`;
const REVERT = `mutation($input: CommitRevertInput!) { commitRevert(input: $input) { errors commit { sha message } } }`;
const headOf = async (project: any, branch: string) => (await t.root.get(`/projects/${project.id}/repository/branches/${branch}`)).body.commit.id;
const input = (project: any, fields: Record<string, unknown>) => ({ input: { projectPath: project.path_with_namespace, ...fields } });

/** A commit on a new branch from main, and another new branch from main to pick it onto. */
async function pickable(project = team.publicProject) {
  const commit = await commitTo(team.developer.api, project.id, uniq("source"), undefined, "main");
  const target = uniq("target");
  await createBranch(team.developer.api, project.id, target);
  return { commit, target };
}

describe("commitCherryPick and commitRevert", () => {
  it("cherry-picks onto a branch, with GitLab's message; a dry run answers no commit and writes nothing", async () => {
    const { commit, target } = await pickable(team.privateProject);
    const before = await headOf(team.privateProject, target);
    const dry = await graphData(team.developer.api, PICK, input(team.privateProject, { sha: commit.id, branch: target, dryRun: true }));
    expect(dry.commitCherryPick).toEqual({ errors: [], commit: null });
    expect(await headOf(team.privateProject, target)).toBe(before);
    const res = await graphData(team.developer.api, PICK, input(team.privateProject, { sha: commit.id, branch: target }));
    expect(res.commitCherryPick).toMatchObject({ errors: [], commit: { message: `${commit.message}\n\n(cherry-picked from commit ${commit.id})` } });
    expect(before).not.toBe(res.commitCherryPick.commit.sha);
    expect(await headOf(team.privateProject, target)).toBe(res.commitCherryPick.commit.sha);
  });

  it("reverts on a branch; a second revert lists GitLab's failure in errors", async () => {
    const { commit } = await pickable();
    const branch = (await t.root.get(`/projects/${team.publicProject.id}/repository/commits/${commit.id}/refs?type=branch`)).body[0].name;
    const res = await graphData(team.developer.api, REVERT, input(team.publicProject, { sha: commit.id, branch }));
    expect(res.commitRevert).toMatchObject({ errors: [], commit: { message: `Revert "${commit.title}"\n\nThis reverts commit ${commit.id}` } });
    const again = await graphData(team.developer.api, REVERT, input(team.publicProject, { sha: commit.id, branch }));
    expect(again.commitRevert.commit).toBeNull();
    expect(again.commitRevert.errors).toEqual([expect.stringMatching(/^Commit revert failed: Can't perform this action automatically/)]);
  });

  it("lists a branch only maintainers may push to in a developer's errors, writing nothing", async () => {
    const { commit, target } = await pickable();
    await protectBranch(team.owner.api, team.publicProject.id, target, { push_access_level: 40 });
    const before = await headOf(team.publicProject, target);
    const res = await graphData(team.developer.api, PICK, input(team.publicProject, { sha: commit.id, branch: target }));
    expect(res.commitCherryPick).toEqual({ errors: ["You are not allowed to push into this branch"], commit: null });
    expect(await headOf(team.publicProject, target)).toBe(before);
  });

  it.each(["anonymous", "nonMember", "guest", "reporter"] as Actor[])("refuses %s without telling the project exists", async (actor) => {
    const { commit, target } = await pickable();
    for (const project of [team.publicProject, team.privateProject]) {
      expectNotAvailable(await graph(clientOf(t, team, actor), PICK, input(project, { sha: commit.id, branch: target })), "commitCherryPick");
      expectNotAvailable(await graph(clientOf(t, team, actor), REVERT, input(project, { sha: commit.id, branch: target })), "commitRevert");
    }
    expect(await headOf(team.publicProject, target)).toBe((await t.root.get(`/projects/${team.publicProject.id}/repository/commits/main`)).body.id);
  });
});
