// Merging against the real server process, driven by @gitbeaker/rest: a project whose approval
// rule asks for a reviewer's approval, an MR refused (405) until approved, then merged with its
// sha and the source branch removed; the MR's commits, participants, changes, diffs, rebase and
// merge ref through the client's methods; tags and the merge base through Tags and Repositories.
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { failure } from "./helpers/gitbeaker.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });
const branchName = (prefix: string) => uniqueName(prefix).replace(/_/g, "-");

describe("gitbeaker: approve, then merge", () => {
  it("refuses the merge before approval, merges after it, and reads what the MR brought", async () => {
    const [owner, dev, reviewer] = await Promise.all([createUser(suite.server), createUser(suite.server), createUser(suite.server)]);
    const api = gitlab(owner.token);
    const devApi = gitlab(dev.token);
    const project = await api.Projects.create({ name: uniqueName("gbmerge"), visibility: "private", initializeWithReadme: true });
    await api.ProjectMembers.add(project.id, 30, { userId: dev.id });
    await api.ProjectMembers.add(project.id, 30, { userId: reviewer.id });
    await api.MergeRequestApprovals.createApprovalRule(project.id, "Reviewers", 1, { userIds: [reviewer.id] });

    const source = branchName("feature");
    await devApi.Branches.create(project.id, source, "main");
    const commit = await devApi.Commits.create(project.id, source, "Add a file", [{ action: "create", filePath: "docs/new.md", content: "new\n" }]);
    const mr = await devApi.MergeRequests.create(project.id, source, "main", "Ready to merge", { removeSourceBranch: true });
    expect(await devApi.MergeRequests.show(project.id, mr.iid)).toMatchObject({ detailed_merge_status: "not_approved", sha: commit.id });
    expect(await failure(devApi.MergeRequests.merge(project.id, mr.iid))).toEqual({ status: 405, message: "405 Method Not Allowed" });

    await gitlab(reviewer.token).MergeRequestApprovals.approve(project.id, mr.iid, { sha: commit.id });
    expect((await devApi.MergeRequests.show(project.id, mr.iid)).detailed_merge_status).toBe("mergeable");
    expect(await failure(devApi.MergeRequests.merge(project.id, mr.iid, { sha: "0".repeat(40) }))).toMatchObject({ status: 409 });
    const merged = await devApi.MergeRequests.merge(project.id, mr.iid, { sha: commit.id, shouldRemoveSourceBranch: true });
    expect(merged).toMatchObject({ state: "merged", merged_by: { id: dev.id }, merge_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect((await api.Branches.show(project.id, "main")).commit.id).toBe(merged.merge_commit_sha);
    expect(await failure(api.Branches.show(project.id, source))).toMatchObject({ status: 404 });

    expect((await api.MergeRequests.allCommits(project.id, mr.iid)).map((c) => c.id)).toEqual([commit.id]);
    expect((await api.MergeRequests.allParticipants(project.id, mr.iid)).map((u) => u.id)).toEqual([dev.id]);
    const changes = await api.MergeRequests.showChanges(project.id, mr.iid);
    expect(changes.changes).toEqual([expect.objectContaining({ new_path: "docs/new.md", new_file: true, too_large: false, diff: "@@ -0,0 +1 @@\n+new\n" })]);
    expect((await api.MergeRequests.allDiffs(project.id, mr.iid)).map((d) => d.new_path)).toEqual(["docs/new.md"]);
    expect(await failure(devApi.MergeRequests.merge(project.id, mr.iid))).toEqual({ status: 405, message: "405 Method Not Allowed" });
  });

  it("rebases a source branch, reads its merge ref, tags a commit and finds the merge base", async () => {
    const owner = await createUser(suite.server);
    const api = gitlab(owner.token);
    const project = await api.Projects.create({ name: uniqueName("gbrebase"), visibility: "private", initializeWithReadme: true });
    const source = branchName("topic");
    await api.Branches.create(project.id, source, "main");
    await api.Commits.create(project.id, source, "On the topic", [{ action: "create", filePath: "topic.md", content: "t\n" }]);
    const onMain = await api.Commits.create(project.id, "main", "On main", [{ action: "create", filePath: "main.md", content: "m\n" }]);
    const mr = await api.MergeRequests.create(project.id, source, "main", "Topic");
    expect(await api.MergeRequests.rebase(project.id, mr.iid)).toEqual({ rebase_in_progress: false });
    const rebased = await api.MergeRequests.show(project.id, mr.iid);
    expect(rebased.diff_refs).toMatchObject({ base_sha: onMain.id, start_sha: onMain.id });
    const mergeRef = await api.requester.get(`projects/${project.id}/merge_requests/${mr.iid}/merge_ref`);
    expect((mergeRef as any).body).toEqual({ commit_id: expect.stringMatching(/^[0-9a-f]{40}$/) });

    const tag = await api.Tags.create(project.id, "v1.0.0", "main", { message: "First release" });
    expect(tag).toMatchObject({ name: "v1.0.0", message: "First release", commit: { id: onMain.id }, protected: false });
    expect((await api.Tags.all(project.id)).map((t) => t.name)).toEqual(["v1.0.0"]);
    expect((await api.Repositories.mergeBase(project.id, [source, "v1.0.0"])).id).toBe(onMain.id);
    await api.Tags.remove(project.id, "v1.0.0");
    expect(await api.Tags.all(project.id)).toEqual([]);
  });
});
