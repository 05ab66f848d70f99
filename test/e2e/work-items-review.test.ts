// The fixtures of approvals, emoji reactions and webhooks built the way a @gitbeaker/rest 43.8 user
// builds them, end to end against the real server process: a project in a group with a second
// user as Developer; a branch and a commit on it (Commits.create); main protected with
// ProtectedBranches.create and .protect; issues created, edited, closed with stateEvent and listed
// with filters; a merge request from the branch, listed, read, changed (title, assignee, reviewer),
// closed and reopened; a snippet with files[], updated, read raw and removed; notes on the issue,
// the MR and the snippet; pagination with perPage + maxPages and showExpanded.
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { createUser, uniqueName, type E2eUser } from "./helpers/fixtures.js";
import { failure } from "./helpers/gitbeaker.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });

/** A private project in a new group of root's, with `dev` a Developer of the group. */
async function groupProject(dev: E2eUser) {
  const root = gitlab();
  const tag = uniqueName("gbrev").toLowerCase();
  const group = await root.Groups.create(tag, tag, { visibility: "private" });
  await root.GroupMembers.add(group.id, 30, { userId: dev.id });
  const project = await root.Projects.create({ name: tag, namespaceId: group.id, initializeWithReadme: true });
  return { tag, group, project };
}

describe("gitbeaker builds the work item fixtures", () => {
  it("branch, commit, protected branches", async () => {
    const dev = await createUser(suite.server);
    const { tag, project } = await groupProject(dev);
    const api = gitlab(dev.token);
    const root = gitlab();
    const branchName = `feature-${tag}`;

    const branch = await api.Branches.create(project.id, branchName, "main");
    const main = await api.Branches.show(project.id, "main");
    expect(branch).toMatchObject({ name: branchName, commit: { id: main.commit.id }, protected: false, default: false });
    const commit = await api.Commits.create(project.id, branchName, "Add the notes", [
      { action: "create", filePath: "docs/notes.txt", content: "one\ntwo\n" },
    ]);
    expect(commit).toMatchObject({ title: "Add the notes", parent_ids: [main.commit.id], stats: { additions: 2, deletions: 0, total: 2 } });
    expect((await api.Branches.show(project.id, branchName)).commit.id).toBe(commit.id);
    expect((await api.Commits.all(project.id, { refName: branchName })).map((c) => c.id)).toEqual([commit.id, main.commit.id]);

    // ProtectedBranches.create sends its options as query parameters with a `{}` body
    const created = await root.ProtectedBranches.create(project.id, "main", { pushAccessLevel: 40, mergeAccessLevel: 30 });
    expect(created).toMatchObject({
      name: "main", push_access_levels: [{ access_level: 40 }], merge_access_levels: [{ access_level: 30 }], allow_force_push: false,
    });
    expect(await api.ProtectedBranches.show(project.id, "main")).toEqual(created);
    expect(await api.Branches.show(project.id, "main")).toMatchObject({ protected: true, developers_can_push: false, developers_can_merge: true, can_push: false });
    const push = api.Commits.create(project.id, "main", "No", [{ action: "create", filePath: "no.txt", content: "no" }]);
    expect(await failure(push)).toEqual({ status: 403, message: "403 Forbidden - You are not allowed to push into this branch" });
    expect(await failure(root.ProtectedBranches.protect(project.id, "main"))).toEqual({ status: 409, message: "Protected branch 'main' already exists" });
    expect(await failure(api.ProtectedBranches.protect(project.id, "release/*"))).toEqual({ status: 403, message: "403 Forbidden" });

    const wildcard = await root.ProtectedBranches.protect(project.id, "release/*", { pushAccessLevel: 30 });
    expect(wildcard).toMatchObject({ name: "release/*", push_access_levels: [{ access_level: 30 }], merge_access_levels: [{ access_level: 40 }] });
    expect((await api.ProtectedBranches.all(project.id)).map((p) => p.name)).toEqual(["main", "release/*"]);
    await root.ProtectedBranches.unprotect(project.id, "main");
    await root.ProtectedBranches.remove(project.id, "release/*");
    expect(await api.ProtectedBranches.all(project.id)).toEqual([]);
    expect((await api.Branches.show(project.id, "main")).protected).toBe(false);
  });

  it("issues: create, edit, close with stateEvent, list with filters and pages, notes", async () => {
    const dev = await createUser(suite.server);
    const { project } = await groupProject(dev);
    const api = gitlab(dev.token);

    const issue = await api.Issues.create(project.id, "Broken page", { description: "- [ ] find\n- [x] fix", labels: "bug,ui" });
    expect(issue).toMatchObject({
      project_id: project.id, iid: 1, title: "Broken page", state: "opened", labels: ["bug", "ui"], author: { id: dev.id },
      task_completion_status: { count: 2, completed_count: 1 }, references: { short: "#1", full: `${project.path_with_namespace}#1` },
    });
    const others = [];
    for (const n of [1, 2, 3, 4]) others.push(await api.Issues.create(project.id, `Other ${n}`, { labels: n % 2 ? "ui" : undefined }));

    const edited = await api.Issues.edit(project.id, issue.iid, { title: "Broken page, edited", addLabels: "backend", removeLabels: "ui", assigneeIds: [dev.id] });
    expect(edited).toMatchObject({ title: "Broken page, edited", labels: ["backend", "bug"], assignees: [{ id: dev.id }], state: "opened" });
    const closed = await api.Issues.edit(project.id, issue.iid, { stateEvent: "close" });
    expect(closed).toMatchObject({ state: "closed", closed_by: { id: dev.id } });
    expect(await api.Issues.show(issue.iid, { projectId: project.id })).toEqual(closed);
    expect(await failure(api.Issues.edit(project.id, issue.iid, { stateEvent: "archive" }))).toEqual({
      status: 400, message: "state_event does not have a valid value",
    });

    const iids = async (options: Record<string, unknown>) => (await api.Issues.all({ projectId: project.id, ...options })).map((i) => i.iid);
    const [o1, o2, o3, o4] = others.map((o) => o.iid);
    expect(await iids({ state: "closed" })).toEqual([issue.iid]);
    expect(await iids({ state: "opened" })).toEqual([o4, o3, o2, o1]);
    expect(await iids({ labels: "bug" })).toEqual([issue.iid]);
    expect(await iids({ labels: "BUG" })).toEqual([]);
    expect(await iids({ labels: "ui", state: "opened" })).toEqual([o3, o1]);
    expect(await iids({ search: "EDITED" })).toEqual([issue.iid]);
    // perPage + maxPages stops early; showExpanded reports the last page fetched
    expect(await iids({ perPage: 2, maxPages: 2, sort: "asc" })).toEqual([issue.iid, o1, o2, o3]);
    const { data, paginationInfo } = await api.Issues.all({ projectId: project.id, perPage: 2, page: 3, showExpanded: true, sort: "asc" });
    expect(data.map((i) => i.iid)).toEqual([o4]);
    expect(paginationInfo).toMatchObject({ total: 5, totalPages: 3, current: 3, previous: 2, next: null, perPage: 2 });

    const note = await api.IssueNotes.create(project.id, issue.iid, "A first note");
    expect(note).toMatchObject({ body: "A first note", noteable_type: "Issue", noteable_id: issue.id, noteable_iid: issue.iid, project_id: project.id });
    const second = await api.IssueNotes.create(project.id, issue.iid, "A second note");
    expect(await api.IssueNotes.edit(project.id, issue.iid, note.id, { body: "A first note, edited" })).toMatchObject({ id: note.id, body: "A first note, edited" });
    expect((await api.IssueNotes.all(project.id, issue.iid, { perPage: 1, sort: "asc" })).map((n) => n.id)).toEqual([note.id, second.id]);
    await api.IssueNotes.remove(project.id, issue.iid, second.id);
    expect((await api.IssueNotes.all(project.id, issue.iid)).map((n) => n.id)).toEqual([note.id]);
    expect((await api.Issues.show(issue.iid, { projectId: project.id })).user_notes_count).toBe(1);
  });

  it("merge requests: create from the branch, list, show, change, close and reopen, notes", async () => {
    const dev = await createUser(suite.server);
    const { tag, project } = await groupProject(dev);
    const api = gitlab(dev.token);
    const branchName = `feature-${tag}`;
    await api.Branches.create(project.id, branchName, "main");
    const commit = await api.Commits.create(project.id, branchName, "Add the notes", [{ action: "create", filePath: "n.txt", content: "n" }]);

    const mr = await api.MergeRequests.create(project.id, branchName, "main", "Add the notes", { labels: "docs,review" });
    expect(mr).toMatchObject({
      project_id: project.id, iid: 1, title: "Add the notes", state: "opened", source_branch: branchName, target_branch: "main",
      sha: commit.id, labels: ["docs", "review"], author: { id: dev.id }, references: { short: "!1", full: `${project.path_with_namespace}!1` },
    });
    expect(await failure(api.MergeRequests.create(project.id, branchName, "main", "Again"))).toMatchObject({ status: 409 });

    const rootUser = await gitlab().Users.showCurrentUser();
    const changed = await api.MergeRequests.edit(project.id, mr.iid, {
      title: "Add the notes, reviewed", assigneeId: dev.id, reviewerIds: [rootUser.id], addLabels: "approved", removeLabels: "review",
    });
    expect(changed).toMatchObject({
      title: "Add the notes, reviewed", assignees: [{ id: dev.id }], assignee: { id: dev.id }, reviewers: [{ id: rootUser.id }],
      labels: ["approved", "docs"],
    });
    expect(await api.MergeRequests.edit(project.id, mr.iid, { stateEvent: "close" })).toMatchObject({ state: "closed", closed_by: { id: dev.id } });
    expect((await api.MergeRequests.all({ projectId: project.id, state: "opened" })).map((m) => m.iid)).toEqual([]);
    expect(await api.MergeRequests.edit(project.id, mr.iid, { stateEvent: "reopen" })).toMatchObject({ state: "opened", closed_by: null });
    expect((await api.MergeRequests.all({ projectId: project.id, state: "opened", labels: "docs" })).map((m) => m.iid)).toEqual([mr.iid]);
    expect((await api.MergeRequests.all({ projectId: project.id, search: "REVIEWED" })).map((m) => m.iid)).toEqual([mr.iid]);
    expect(await api.MergeRequests.show(project.id, mr.iid)).toMatchObject({ id: mr.id, title: "Add the notes, reviewed", state: "opened" });

    const note = await api.MergeRequestNotes.create(project.id, mr.iid, "Looks good");
    expect(note).toMatchObject({ noteable_type: "MergeRequest", noteable_id: mr.id, noteable_iid: mr.iid, project_id: project.id });
    expect(await api.MergeRequestNotes.edit(project.id, mr.iid, note.id, { body: "Looks great" })).toMatchObject({ body: "Looks great" });
    expect((await api.MergeRequestNotes.show(project.id, mr.iid, note.id)).body).toBe("Looks great");
    await api.MergeRequestNotes.remove(project.id, mr.iid, note.id);
    expect(await api.MergeRequestNotes.all(project.id, mr.iid)).toEqual([]);
  });

  it("snippets with files[]: create, edit, raw, notes, remove", async () => {
    const dev = await createUser(suite.server);
    const { project } = await groupProject(dev);
    const api = gitlab(dev.token);

    const snippet = await api.ProjectSnippets.create(project.id, "Notes", { visibility: "private", files: [{ filePath: "notes.md", content: "# first" }] });
    expect(snippet).toMatchObject({ project_id: project.id, title: "Notes", visibility: "private", file_name: "notes.md", author: { id: dev.id } });
    const edited = await api.ProjectSnippets.edit(project.id, snippet.id, { files: [{ action: "update", filePath: "notes.md", content: "# second" }] });
    expect(edited).toMatchObject({ id: snippet.id, file_name: "notes.md" });
    expect(await api.ProjectSnippets.showContent(project.id, snippet.id)).toBe("# second");

    const note = await api.ProjectSnippetNotes.create(project.id, snippet.id, "Nice snippet");
    expect(note).toMatchObject({ noteable_type: "Snippet", noteable_id: snippet.id, noteable_iid: null, project_id: project.id });
    expect(await api.ProjectSnippetNotes.edit(project.id, snippet.id, note.id, { body: "Nicer" })).toMatchObject({ body: "Nicer" });
    await api.ProjectSnippetNotes.remove(project.id, snippet.id, note.id);
    expect(await api.ProjectSnippetNotes.all(project.id, snippet.id)).toEqual([]);

    await api.ProjectSnippets.remove(project.id, snippet.id);
    expect(await failure(api.ProjectSnippets.show(project.id, snippet.id))).toEqual({ status: 404, message: "404 Not found" });
  });
});
