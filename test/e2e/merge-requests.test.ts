// Merge requests against the real server process, driven by @gitbeaker/rest 43.8: Branches.create
// and Commits.create for the fixtures, MergeRequests.create / show / all (project, group and
// instance-wide, with filters and pagination) / edit (fields, assignees, state_event), and the
// errors the client surfaces.
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { failure } from "./helpers/gitbeaker.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });
const branchName = (prefix: string) => uniqueName(prefix).replace(/_/g, "-");

describe("gitbeaker MergeRequests", () => {
  it("create, show, all, edit: the MR follows its source branch", async () => {
    const root = gitlab();
    const dev = await createUser(suite.server);
    const api = gitlab(dev.token);
    const project = await root.Projects.create({ name: uniqueName("gbmr"), visibility: "private", initializeWithReadme: true });
    await root.ProjectMembers.add(project.id, 30, { userId: dev.id });
    const source = branchName("feature");
    await api.Branches.create(project.id, source, "main");

    const created = await api.MergeRequests.create(project.id, source, "main", "From gitbeaker", {
      description: "- [ ] test it", assigneeIds: [dev.id], labels: "e2e,gitbeaker", removeSourceBranch: false,
    });
    // the new branch has no commits of its own yet: GitLab's commits_status check
    expect(created).toMatchObject({ merge_status: "cannot_be_merged", detailed_merge_status: "commits_status", has_conflicts: true });
    expect(created).toMatchObject({
      iid: 1, project_id: project.id, title: "From gitbeaker", state: "opened", source_branch: source, target_branch: "main",
      author: { id: dev.id, username: dev.username }, assignees: [{ id: dev.id }], labels: ["e2e", "gitbeaker"],
      force_remove_source_branch: false, task_completion_status: { count: 1, completed_count: 0 },
      web_url: `${suite.server.url}/${project.path_with_namespace}/-/merge_requests/1`,
    });

    const commit = await api.Commits.create(project.id, source, "Add a file", [{ action: "create", filePath: "gb.txt", content: "hi\n" }]);
    const shown = await api.MergeRequests.show(project.id, created.iid);
    expect(shown).toMatchObject({ id: created.id, sha: commit.id, changes_count: "1", diff_refs: { head_sha: commit.id }, merge_status: "can_be_merged", detailed_merge_status: "mergeable" });

    const edited = await api.MergeRequests.edit(project.id, created.iid, { title: "Draft: renamed", addLabels: "more", stateEvent: "close" });
    expect(edited).toMatchObject({ title: "Draft: renamed", draft: true, state: "closed", labels: ["e2e", "gitbeaker", "more"], closed_by: { id: dev.id } });
    const reopened = await api.MergeRequests.edit(project.id, created.iid, { stateEvent: "reopen", assigneeIds: [] });
    expect(reopened).toMatchObject({ state: "opened", assignees: [], closed_at: null });

    const second = branchName("second");
    await api.Branches.create(project.id, second, "main");
    const other = await api.MergeRequests.create(project.id, second, "main", "Second");
    const all = await api.MergeRequests.all({ projectId: project.id, perPage: 1 });
    expect(all.map((mr) => mr.iid)).toEqual([other.iid, created.iid]);
    expect((await api.MergeRequests.all({ projectId: project.id, wip: "yes" })).map((mr) => mr.iid)).toEqual([created.iid]);
    expect((await api.MergeRequests.all({ projectId: project.id, sourceBranch: second })).map((mr) => mr.iid)).toEqual([other.iid]);
    const { data, paginationInfo } = await api.MergeRequests.all({ projectId: project.id, perPage: 1, page: 2, showExpanded: true });
    expect(data.map((mr) => mr.iid)).toEqual([created.iid]);
    expect(paginationInfo).toMatchObject({ total: 2, current: 2, perPage: 1, totalPages: 2, previous: 1, next: null });
    expect((await api.MergeRequests.all()).map((mr) => mr.id).sort()).toEqual([created.id, other.id].sort());
    expect((await api.MergeRequests.all({ scope: "assigned_to_me" })).map((mr) => mr.id)).toEqual([]);
  });

  it("lists a group's merge requests", async () => {
    const api = gitlab();
    const group = await api.Groups.create(uniqueName("gbg"), uniqueName("gbg").toLowerCase().replace(/_/g, "-"), { visibility: "public" });
    const project = await api.Projects.create({ name: uniqueName("gbgp"), namespaceId: group.id, visibility: "public", initializeWithReadme: true });
    const source = branchName("grp");
    await api.Branches.create(project.id, source, "main");
    const mr = await api.MergeRequests.create(project.id, source, "main", "In a group");
    const listed = await api.MergeRequests.all({ groupId: group.id });
    expect(listed.map((m) => m.id)).toEqual([mr.id]);
    expect(listed[0]!.references).toMatchObject({ relative: `${project.path}!${mr.iid}` });
  });

  it("errors: missing and same branches, another open MR, permissions, unknown iid", async () => {
    const root = gitlab();
    const project = await root.Projects.create({ name: uniqueName("gbmre"), visibility: "public", initializeWithReadme: true });
    const source = branchName("dup");
    await root.Branches.create(project.id, source, "main");
    const first = await root.MergeRequests.create(project.id, source, "main", "First");
    expect(await failure(root.MergeRequests.create(project.id, source, "main", "Again"))).toEqual({
      status: 409, message: JSON.stringify([`Another open merge request already exists for this source branch: !${first.iid}`]),
    });
    expect(await failure(root.MergeRequests.create(project.id, "main", "main", "Same"))).toEqual({
      status: 422, message: JSON.stringify(["You can't use same project/branch for source and target"]),
    });
    expect(await failure(root.MergeRequests.create(project.id, "ghost", "main", "Ghost"))).toEqual({
      status: 400, message: JSON.stringify({ source_branch: ["does not exist"] }),
    });
    expect(await failure(root.MergeRequests.edit(project.id, first.iid, { stateEvent: "merge" as "close" }))).toEqual({
      status: 400, message: "state_event does not have a valid value",
    });
    const outsider = gitlab((await createUser(suite.server)).token);
    expect((await outsider.MergeRequests.show(project.id, first.iid)).id).toBe(first.id);
    expect(await failure(outsider.MergeRequests.edit(project.id, first.iid, { title: "Mine" }))).toEqual({ status: 403, message: "403 Forbidden" });
    expect(await failure(outsider.MergeRequests.create(project.id, source, "main", "Mine"))).toEqual({ status: 403, message: "403 Forbidden" });
    expect(await failure(root.MergeRequests.show(project.id, 999))).toEqual({ status: 404, message: "404 Not found" });
  });
});
