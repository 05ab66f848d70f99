// Repository over /graphql: branches, commits and protected branches through the same root
// fields REST uses (same rules; GitLab's status and body in the error extensions).
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { gitlabError } from "../helpers/errors.js";
import { createTeam, createTeamProject, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let project: any;

const COMMIT = "id short_id parent_ids title message author_name committer_name web_url";
const BRANCH = `name merged protected developers_can_push developers_can_merge can_push default web_url commit { ${COMMIT} }`;
const LEVEL = "access_level access_level_description user_id group_id";
const PROTECTED = `id name allow_force_push code_owner_approval_required push_access_levels { ${LEVEL} } merge_access_levels { ${LEVEL} } unprotect_access_levels { ${LEVEL} }`;


beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  project = await createTeamProject(team);
});

describe("repository root fields over GraphQL", () => {
  it("createBranch, projectBranch and projectBranches show GitLab's Branch", async () => {
    const created = await team.developer.api.graphql(
      `mutation($id: ID!, $branch: String!, $ref: String!) { createBranch(id: $id, branch: $branch, ref: $ref) { ${BRANCH} } }`,
      { id: String(project.id), branch: "feature/gql", ref: "main" },
    );
    expect(created.body.errors).toBeUndefined();
    const branch = created.body.data.createBranch;
    expect(branch).toMatchObject({ name: "feature/gql", default: false, protected: false, can_push: true, merged: false });
    const one = await team.reporter.api.graphql(`query($id: ID!) { projectBranch(id: $id, branch: "feature/gql") { ${BRANCH} } }`, { id: project.path_with_namespace });
    expect(one.body.data.projectBranch).toEqual({ ...branch, can_push: false });
    const list = await team.reporter.api.graphql(`query($id: ID!) { projectBranches(id: $id, per_page: 1) { name } }`, { id: String(project.id) });
    expect(list.body.data.projectBranches).toEqual([{ name: "feature/gql" }]);
  });

  it("createCommit, projectCommit and projectCommits show GitLab's commits", async () => {
    const made = await team.developer.api.graphql(
      `mutation($id: ID!, $actions: [CommitAction!]!) {
        createCommit(id: $id, branch: "main", commit_message: "From GraphQL", actions: $actions) { ${COMMIT} stats { additions deletions total } project_id }
      }`,
      { id: String(project.id), actions: [{ action: "create", file_path: "gql.txt", content: "1\n2\n3\n" }] },
    );
    expect(made.body.errors).toBeUndefined();
    const commit = made.body.data.createCommit;
    expect(commit).toMatchObject({ title: "From GraphQL", stats: { additions: 3, deletions: 0, total: 3 }, project_id: project.id });
    const one = await team.reporter.api.graphql(`query($id: ID!, $sha: String!) { projectCommit(id: $id, sha: $sha) { ${COMMIT} } }`, {
      id: String(project.id), sha: commit.short_id,
    });
    const { stats: _stats, project_id: _project, ...fields } = commit;
    expect(one.body.data.projectCommit).toEqual(fields);
    const list = await team.reporter.api.graphql(`query($id: ID!) { projectCommits(id: $id) { id } }`, { id: String(project.id) });
    expect(list.body.data.projectCommits[0].id).toBe(commit.id);
    expect(list.body.data.projectCommits).toHaveLength(2);
  });

  it("protectBranch, projectProtectedBranch(es) and unprotectBranch manage protected branches", async () => {
    const protect = await team.maintainer.api.graphql(
      `mutation($id: ID!) { protectBranch(id: $id, name: "release/*", push_access_level: 30, allowed_to_merge: [{ user_id: ${team.developer.id} }]) { ${PROTECTED} } }`,
      { id: String(project.id) },
    );
    expect(protect.body.errors).toBeUndefined();
    expect(protect.body.data.protectBranch).toMatchObject({
      name: "release/*",
      push_access_levels: [{ access_level: 30, access_level_description: "Developers + Maintainers", user_id: null, group_id: null }],
      merge_access_levels: [{ access_level: 40, access_level_description: `User ${team.developer.username}`, user_id: team.developer.id, group_id: null }],
      unprotect_access_levels: [{ access_level: 40, access_level_description: "Maintainers" }],
    });
    const read = await team.reporter.api.graphql(`query($id: ID!) { projectProtectedBranch(id: $id, name: "release/*") { id name } projectProtectedBranches(id: $id) { name } }`, {
      id: String(project.id),
    });
    expect(read.body.data.projectProtectedBranch.name).toBe("release/*");
    expect(read.body.data.projectProtectedBranches).toEqual([{ name: "release/*" }]);
    const gone = await team.maintainer.api.graphql(`mutation($id: ID!) { unprotectBranch(id: $id, name: "release/*") }`, { id: String(project.id) });
    expect(gone.body.data.unprotectBranch).toBe(true);
  });

  it("reports GitLab's errors in the extensions", async () => {
    const guest = await team.guest.api.graphql(`query($id: ID!) { projectBranches(id: $id) { name } }`, { id: String(project.id) });
    expect(gitlabError(guest)).toMatchObject({ code: "FORBIDDEN", http: { status: 403 }, gitlab: { message: "403 Forbidden" } });
    const duplicate = await team.developer.api.graphql(`mutation($id: ID!) { createBranch(id: $id, branch: "main", ref: "main") { name } }`, { id: String(project.id) });
    expect(gitlabError(duplicate)).toMatchObject({ http: { status: 400 }, gitlab: { message: "Branch already exists" } });
    const anonymous = await t.anon.graphql(`mutation($id: ID!) { deleteBranch(id: $id, branch: "x") }`, { id: String(project.id) });
    expect(gitlabError(anonymous)).toMatchObject({ http: { status: 401 } });
  });
});
