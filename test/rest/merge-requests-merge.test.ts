// Merging a merge request (PUT .../merge) per actor, with GitLab's answers: 401 without the right
// to merge into the target branch (protected branches' merge_access_level included), 405 when a
// mergeability check fails (closed, merged, draft, not approved, source branch gone), 422 when git
// cannot merge it (target branch gone), 409 on a stale sha; the merge commit and its parents, the
// squash commit, the source branch removal, detailed_merge_status "not_approved"; and the merge
// request's commits, participants, changes, diffs, merge ref and rebase.
import { beforeAll, describe, expect, it } from "vitest";
import { subscribe, type MergeRequestEvent, type PushedCommit, type PushEvent } from "../../src/domain/shared/events.js";
import type { ApiClient } from "../helpers/api.js";
import { approve, createProjectRule, mrPath } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { NOT_FOUND, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { addMember, createGroup, createProject, uniq } from "../helpers/factories.js";
import { commitTo, createMergeRequest } from "../helpers/merge-requests.js";
import { gitOf } from "../helpers/git.js";
import { protectBranch } from "../helpers/repository.js";
import { ACCESS_LEVEL, createTeam, createTeamProject, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let project: any;
let privateProject: any;

const mergeEvents: MergeRequestEvent[] = [];
const pushEvents: (PushEvent & { commits: PushedCommit[] })[] = [];
subscribe("merge_request", async (_tx, event) => {
  if (event.action === "merge") mergeEvents.push(event);
});
subscribe("push", async (_tx, event) => {
  pushEvents.push({ ...event, commits: (await event.pushed()).commits });
});

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  project = await createTeamProject(team, { visibility: "public", initialize_with_readme: true });
  privateProject = await createTeamProject(team, { visibility: "private", initialize_with_readme: true });
});

const METHOD_NOT_ALLOWED = { message: "405 Method Not Allowed" };
const CANNOT_BE_MERGED = { message: "Branch cannot be merged" };

/** An MR from a new branch with one commit of its own, opened by the maintainer. */
async function openWithCommit(p: any = project, overrides: Record<string, unknown> = {}) {
  const source = uniq("feature");
  const commit = await commitTo(team.maintainer.api, p.id, source, undefined, String(overrides.target_branch ?? "main"));
  const mr = await createMergeRequest(team.maintainer.api, p.id, { source_branch: source, createSourceBranch: false, ...overrides });
  return { mr: (await t.root.get(mrPath(p.id, mr.iid))).body, source, commit };
}

const head = async (p: any, branch: string) => (await t.root.get(`/projects/${p.id}/repository/branches/${encodeURIComponent(branch)}`)).body.commit?.id;
const merge = (by: ApiClient, p: any, iid: number, body: Record<string, unknown> = {}) => by.put(`${mrPath(p.id, iid)}/merge`, body);

describe("PUT .../merge", () => {
  it("merges: a merge commit of the target and source heads on the target, the MR merged, the source branch removed", async () => {
    const { mr, source, commit } = await openWithCommit();
    const mainBefore = await head(project, "main");
    mergeEvents.length = 0;
    pushEvents.length = 0;
    const res = await merge(team.developer.api, project, mr.iid);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      iid: mr.iid, state: "merged", merged_by: { id: team.developer.id }, merge_user: { id: team.developer.id },
      detailed_merge_status: "not_open", squash_commit_sha: null, sha: commit.id,
    });
    expect(Date.parse(res.body.merged_at)).not.toBeNaN();
    const mainAfter = await head(project, "main");
    expect(res.body.merge_commit_sha).toBe(mainAfter);
    const mergeCommit = (await t.root.get(`/projects/${project.id}/repository/commits/${mainAfter}`)).body;
    expect(mergeCommit.parent_ids).toEqual([mainBefore, commit.id]);
    expect(mergeCommit.message).toBe(`Merge branch '${source}' into 'main'\n\n${mr.title}\n\nSee merge request ${project.path_with_namespace}!${mr.iid}`);
    expect(mergeCommit).toMatchObject({ author_name: `User ${team.developer.username}`, committer_email: expect.stringContaining(team.developer.username) });
    // force_remove_source_branch is on by default: the branch is gone
    expect((await t.root.get(`/projects/${project.id}/repository/branches/${source}`)).status).toBe(404);
    // one push to the target (the MR's commit, then the merge commit), then the branch deletion
    expect(pushEvents.map((e) => [e.branch, e.commits.map((c) => c.sha)])).toEqual([["main", [commit.id, mainAfter]], [source, []]]);
    expect(mergeEvents).toMatchObject([{ mergeRequestId: mr.id, actorId: team.developer.id }]);
    // the merged MR keeps its commits and its diff against the target as it was
    const commits = (await t.root.get(`${mrPath(project.id, mr.iid)}/commits`)).body;
    expect(commits.map((c: any) => c.id)).toEqual([commit.id]);
    const again = (await t.root.get(mrPath(project.id, mr.iid))).body;
    expect(again).toMatchObject({ state: "merged", merge_commit_sha: mainAfter, changes_count: "1", diff_refs: { start_sha: mainBefore, head_sha: commit.id } });
  });

  it("keeps the source branch with should_remove_source_branch=false, and takes a merge commit message", async () => {
    const { mr, source } = await openWithCommit();
    const res = await merge(team.maintainer.api, project, mr.iid, { should_remove_source_branch: false, merge_commit_message: "Custom merge" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.should_remove_source_branch).toBe(false);
    expect((await t.root.get(`/projects/${project.id}/repository/branches/${source}`)).status).toBe(200);
    expect((await t.root.get(`/projects/${project.id}/repository/commits/${res.body.merge_commit_sha}`)).body.message).toBe("Custom merge");
  });

  it("squashes: one commit on the merge base authored by the MR's author, merged by a merge commit", async () => {
    const { mr, source } = await openWithCommit();
    await commitTo(team.maintainer.api, project.id, source);
    const base = (await t.root.get(mrPath(project.id, mr.iid))).body.diff_refs.base_sha;
    const res = await merge(team.developer.api, project, mr.iid, { squash: true, squash_commit_message: "All in one" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ squash: true, squash_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const squash = (await t.root.get(`/projects/${project.id}/repository/commits/${res.body.squash_commit_sha}`)).body;
    expect(squash).toMatchObject({ message: "All in one", parent_ids: [base], author_email: expect.stringContaining(team.maintainer.username) });
    const mergeCommit = (await t.root.get(`/projects/${project.id}/repository/commits/${res.body.merge_commit_sha}`)).body;
    expect(mergeCommit.parent_ids[1]).toBe(squash.id);
    // the merged MR still lists its own two commits, not the squash commit
    expect((await t.root.get(`${mrPath(project.id, mr.iid)}/commits`)).body).toHaveLength(2);
  });

  it("answers 401 to whoever may not merge into the target, 404 where the project is hidden", async () => {
    const { mr } = await openWithCommit();
    expect((await merge(t.anon, project, mr.iid)).body).toEqual(UNAUTHORIZED);
    for (const user of [team.nonMember, team.guest, team.reporter]) {
      const res = await merge(user.api, project, mr.iid);
      expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
    }
    const hidden = await openWithCommit(privateProject);
    expect((await merge(team.nonMember.api, privateProject, hidden.mr.iid)).body).toEqual(PROJECT_NOT_FOUND);
    expect((await merge(team.developer.api, project, 99999)).body).toEqual(NOT_FOUND);
    expect((await t.root.get(mrPath(project.id, mr.iid))).body.state).toBe("opened");
  });

  it("follows the target's merge_access_level: Maintainers only, then the developer gets 401", async () => {
    const p = await createTeamProject(team, { initialize_with_readme: true });
    await protectBranch(team.owner.api, p.id, "main", { push_access_level: 40, merge_access_level: 40 });
    const { mr } = await openWithCommit(p);
    expect((await merge(team.developer.api, p, mr.iid)).status).toBe(401);
    expect((await t.root.get(mrPath(p.id, mr.iid))).body.user.can_merge).toBe(true);
    expect((await team.developer.api.get(mrPath(p.id, mr.iid))).body.user.can_merge).toBe(false);
    expect((await merge(team.maintainer.api, p, mr.iid)).status).toBe(200);
  });

  it("answers 405 for a closed, merged or draft MR and one whose source branch is gone; 422 when the target is gone", async () => {
    const closed = await openWithCommit();
    await team.maintainer.api.put(mrPath(project.id, closed.mr.iid), { state_event: "close" });
    expect((await merge(team.maintainer.api, project, closed.mr.iid)).body).toEqual(METHOD_NOT_ALLOWED);

    const merged = await openWithCommit();
    expect((await merge(team.maintainer.api, project, merged.mr.iid)).status).toBe(200);
    const twice = await merge(team.maintainer.api, project, merged.mr.iid);
    expect([twice.status, twice.body]).toEqual([405, METHOD_NOT_ALLOWED]);

    const draft = await openWithCommit(project, { title: `Draft: ${uniq("wip")}` });
    expect(draft.mr.detailed_merge_status).toBe("draft_status");
    expect((await merge(team.maintainer.api, project, draft.mr.iid)).status).toBe(405);

    const gone = await openWithCommit();
    await team.maintainer.api.delete(`/projects/${project.id}/repository/branches/${gone.source}`);
    expect((await merge(team.maintainer.api, project, gone.mr.iid)).status).toBe(405);

    const target = uniq("target");
    await team.maintainer.api.post(`/projects/${project.id}/repository/branches`, { branch: target, ref: "main" });
    const orphan = await openWithCommit(project, { target_branch: target });
    await team.maintainer.api.delete(`/projects/${project.id}/repository/branches/${target}`);
    const res = await merge(team.maintainer.api, project, orphan.mr.iid);
    expect([res.status, res.body]).toEqual([422, CANNOT_BE_MERGED]);
    expect((await merge(team.maintainer.api, project, orphan.mr.iid, { merge_when_pipeline_succeeds: true })).status).toBe(405);
  });

  it("answers 409 when sha is not the source head, and merges with the right one", async () => {
    const { mr, commit } = await openWithCommit();
    const res = await merge(team.maintainer.api, project, mr.iid, { sha: "0".repeat(40) });
    expect([res.status, res.body]).toEqual([409, { message: `SHA does not match HEAD of source branch: ${commit.id}` }]);
    expect((await merge(team.maintainer.api, project, mr.iid, { sha: commit.id })).status).toBe(200);
  });

  it("is refused (405, detailed_merge_status not_approved) until the approval rules are met", async () => {
    const p = await createTeamProject(team, { initialize_with_readme: true });
    await createProjectRule(team.owner.api, p.id, { name: "Review", approvals_required: 1, user_ids: [team.developer.id] });
    const { mr } = await openWithCommit(p);
    expect(mr.detailed_merge_status).toBe("not_approved");
    const listed = (await team.developer.api.get(`/projects/${p.id}/merge_requests`)).body;
    expect(listed.find((m: any) => m.iid === mr.iid).detailed_merge_status).toBe("not_approved");
    expect((await merge(team.maintainer.api, p, mr.iid)).body).toEqual(METHOD_NOT_ALLOWED);
    await approve(team.developer.api, p.id, mr.iid);
    expect((await t.root.get(mrPath(p.id, mr.iid))).body.detailed_merge_status).toBe("mergeable");
    expect((await merge(team.maintainer.api, p, mr.iid)).status).toBe(200);
  });

  it("closes the issues its description closes when merged into the default branch (PostMergeService#close_issues)", async () => {
    const open = (await t.root.post(`/projects/${project.id}/issues`, { title: uniq("bug") })).body;
    const other = (await t.root.post(`/projects/${project.id}/issues`, { title: uniq("bug") })).body;
    const mentioned = (await t.root.post(`/projects/${project.id}/issues`, { title: uniq("bug") })).body;
    const { mr, source } = await openWithCommit(project, { description: `Closes #${open.iid} and fixes #${other.iid}; see #${mentioned.iid}` });
    const res = await merge(team.developer.api, project, mr.iid);
    expect(res.status, res.text).toBe(200);
    for (const issue of [open, other]) {
      expect((await t.root.get(`/projects/${project.id}/issues/${issue.iid}`)).body).toMatchObject({ state: "closed", closed_by: { id: team.developer.id } });
    }
    expect((await t.root.get(`/projects/${project.id}/issues/${mentioned.iid}`)).body.state).toBe("opened");
    const message = (await t.root.get(`/projects/${project.id}/repository/commits/${res.body.merge_commit_sha}`)).body.message;
    expect(message).toBe(`Merge branch '${source}' into 'main'\n\n${mr.title}\n\nCloses #${open.iid} and #${other.iid}\n\nSee merge request ${project.path_with_namespace}!${mr.iid}`);
  });

  it("closes issues of other projects the merging user may update, named relative to the MR's project; others stay open", async () => {
    const sibling = await createTeamProject(team, { visibility: "private" }); // same namespace, developer is a Developer
    const group = await createGroup(t.root);
    const elsewhere = await createProject(t.root, { namespace_id: group.id }); // developer is a Reporter: update_issue
    await addMember(t.root, "projects", elsewhere.id, team.developer.id, ACCESS_LEVEL.reporter);
    const readOnly = await createProject(t.root, { visibility: "public" }); // readable, not updatable
    const hidden = await createProject(t.root); // private, not a member: invisible
    const issueIn = async (p: any) => (await t.root.post(`/projects/${p.id}/issues`, { title: uniq("bug") })).body;
    const [own, ofSibling, ofElsewhere, ofReadOnly, ofHidden] = await Promise.all([project, sibling, elsewhere, readOnly, hidden].map(issueIn));
    const refs = [`#${own.iid}`, `${sibling.path}#${ofSibling.iid}`, `${elsewhere.path_with_namespace}#${ofElsewhere.iid}`,
      `${readOnly.path_with_namespace}#${ofReadOnly.iid}`, `${hidden.path_with_namespace}#${ofHidden.iid}`];
    const { mr, source } = await openWithCommit(project, { description: `Closes ${refs.join(", ")}` });
    const res = await merge(team.developer.api, project, mr.iid);
    expect(res.status, res.text).toBe(200);
    const stateOf = async (p: any, issue: any) => (await t.root.get(`/projects/${p.id}/issues/${issue.iid}`)).body.state;
    expect([await stateOf(project, own), await stateOf(sibling, ofSibling), await stateOf(elsewhere, ofElsewhere)]).toEqual(["closed", "closed", "closed"]);
    expect([await stateOf(readOnly, ofReadOnly), await stateOf(hidden, ofHidden)]).toEqual(["opened", "opened"]);
    const message = (await t.root.get(`/projects/${project.id}/repository/commits/${res.body.merge_commit_sha}`)).body.message;
    expect(message).toBe(`Merge branch '${source}' into 'main'\n\n${mr.title}\n\nCloses ${refs[0]}, ${refs[1]}, and ${refs[2]}\n\nSee merge request ${project.path_with_namespace}!${mr.iid}`);
  });

  it("leaves issues open when merged into another branch", async () => {
    const issue = (await t.root.post(`/projects/${project.id}/issues`, { title: uniq("bug") })).body;
    const target = uniq("release");
    await team.maintainer.api.post(`/projects/${project.id}/repository/branches`, { branch: target, ref: "main" });
    const { mr } = await openWithCommit(project, { target_branch: target, description: `Closes #${issue.iid}` });
    expect((await merge(team.developer.api, project, mr.iid)).status).toBe(200);
    expect((await t.root.get(`/projects/${project.id}/issues/${issue.iid}`)).body.state).toBe("opened");
  });

  it("merges through GraphQL with the same rules", async () => {
    const { mr } = await openWithCommit();
    const query = `mutation($id: ID!, $iid: Int!) { mergeMergeRequest(id: $id, merge_request_iid: $iid) { state merge_commit_sha } }`;
    const refused = await team.guest.api.graphql(query, { id: String(project.id), iid: mr.iid });
    expect(refused.body.errors![0].extensions.http.status).toBe(401);
    const res = await team.developer.api.graphql(query, { id: String(project.id), iid: mr.iid });
    expect(res.body.data.mergeMergeRequest).toMatchObject({ state: "merged", merge_commit_sha: expect.any(String) });
  });
});

describe("what reviewers read: commits, participants, changes, diffs", () => {
  it("lists the MR's commits newest first, paginated", async () => {
    const { mr, source, commit } = await openWithCommit();
    const second = await commitTo(team.maintainer.api, project.id, source);
    const res = await team.guest.api.get(`${mrPath(project.id, mr.iid)}/commits?per_page=1`);
    expect(res.status).toBe(200);
    expect(res.body.map((c: any) => c.id)).toEqual([second.id]);
    expect(res.headers.get("x-next-page")).toBe("2");
    const all = (await t.anon.get(`${mrPath(project.id, mr.iid)}/commits`)).body;
    expect(all.map((c: any) => c.id)).toEqual([second.id, commit.id]);
    expect(all[0]).toMatchObject({ parent_ids: [commit.id], short_id: second.id.slice(0, 8) });
  });

  it("lists participants: the author, note authors, assignees and reviewers, each once", async () => {
    const mr = await createMergeRequest(team.maintainer.api, project.id, { assignee_ids: [team.developer.id], reviewer_ids: [team.owner.id] });
    await team.reporter.api.post(`${mrPath(project.id, mr.iid)}/notes`, { body: "Looks fine" });
    await team.maintainer.api.post(`${mrPath(project.id, mr.iid)}/notes`, { body: "Thanks" });
    const res = await t.anon.get(`${mrPath(project.id, mr.iid)}/participants`);
    expect(res.status).toBe(200);
    expect(res.body.map((u: any) => u.id)).toEqual([team.maintainer.id, team.reporter.id, team.developer.id, team.owner.id]);
    expect(Object.keys(res.body[0]).sort()).toEqual(["avatar_url", "id", "locked", "name", "state", "username", "web_url"]);
  });

  it("shows changes and diffs: git's diff of each file from the merge base to the head, hunks only", async () => {
    const { mr, source } = await openWithCommit(project);
    const readme = await t.root.post(`/projects/${project.id}/repository/commits`, {
      branch: source, commit_message: "Edit and remove",
      actions: [{ action: "update", file_path: "README.md", content: "new\n" }, { action: "create", file_path: "docs/a.md", content: "a\n" }],
    });
    expect(readme.status, readme.text).toBe(201);
    const changes = await team.developer.api.get(`${mrPath(project.id, mr.iid)}/changes`);
    expect(changes.status).toBe(200);
    expect(changes.body).toMatchObject({ iid: mr.iid, overflow: false, changes_count: "3" });
    const readmeDiff = changes.body.changes.find((c: any) => c.new_path === "README.md");
    expect(readmeDiff).toEqual({
      diff: `@@ -1 +1 @@\n-# ${project.name}\n+new\n`, collapsed: false, too_large: false, new_path: "README.md", old_path: "README.md",
      a_mode: "100644", b_mode: "100644", new_file: false, renamed_file: false, deleted_file: false, generated_file: false,
    });
    expect(changes.body.changes.find((c: any) => c.new_path === "docs/a.md")).toMatchObject({ new_file: true, a_mode: "0", b_mode: "100644", diff: "@@ -0,0 +1 @@\n+a\n" });
    const diffs = await team.developer.api.get(`${mrPath(project.id, mr.iid)}/diffs?per_page=2`);
    expect(diffs.body.map((d: any) => d.new_path)).toEqual(changes.body.changes.map((c: any) => c.new_path).slice(0, 2));
    expect(diffs.headers.get("x-total")).toBe("3");
  });

  it("hides a private project's MR from strangers (404) and guests (403)", async () => {
    const { mr } = await openWithCommit(privateProject);
    for (const suffix of ["commits", "participants", "changes", "diffs"]) {
      expect((await team.nonMember.api.get(`${mrPath(privateProject.id, mr.iid)}/${suffix}`)).body).toEqual(PROJECT_NOT_FOUND);
      expect((await team.guest.api.get(`${mrPath(privateProject.id, mr.iid)}/${suffix}`)).status).toBe(403);
      expect((await team.reporter.api.get(`${mrPath(privateProject.id, mr.iid)}/${suffix}`)).status).toBe(200);
    }
  });
});

describe("changes with access_raw_diffs", () => {
  it("gives every file's whole diff, where the limited changes leave a large file out (too_large) and collapse a big one", async () => {
    const { mr, source } = await openWithCommit(project);
    const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i} ${"x".repeat(60)}`).join("\n") + "\n";
    const written = await t.root.post(`/projects/${project.id}/repository/commits`, {
      branch: source, commit_message: "Big files",
      actions: [{ action: "create", file_path: "large.txt", content: lines(3500, "large") }, { action: "create", file_path: "big.txt", content: lines(400, "big") }],
    });
    expect(written.status, written.text).toBe(201);
    const path = `${mrPath(project.id, mr.iid)}/changes`;
    const limited = (await team.developer.api.get(path)).body;
    const byPath = (body: any, file: string) => body.changes.find((c: any) => c.new_path === file);
    expect(byPath(limited, "large.txt")).toMatchObject({ too_large: true, diff: "" });
    expect(byPath(limited, "big.txt")).toMatchObject({ collapsed: true, diff: "" });

    const raw = (await team.developer.api.get(`${path}?access_raw_diffs=true`)).body;
    expect(raw.overflow).toBe(false);
    const git = gitOf(t, project.id);
    for (const file of ["large.txt", "big.txt"]) {
      const hunks = git.text("diff", "main", source, "--", file).split("\n").slice(5).join("\n") + "\n";
      expect(byPath(raw, file)).toMatchObject({ too_large: false, collapsed: false, new_file: true });
      expect(byPath(raw, file).diff, file).toBe(hunks);
    }
    const unidiff = (await team.developer.api.get(`${path}?access_raw_diffs=true&unidiff=true`)).body;
    expect(byPath(unidiff, "big.txt").diff.startsWith("--- /dev/null\n+++ b/big.txt\n@@ ")).toBe(true);
  });
});

describe("merge ref and rebase", () => {
  it("GET .../merge_ref: a merge commit of both heads kept off the branches, the same while the heads stay", async () => {
    const { mr, commit } = await openWithCommit();
    const first = await team.reporter.api.get(`${mrPath(project.id, mr.iid)}/merge_ref`);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ commit_id: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect((await team.reporter.api.get(`${mrPath(project.id, mr.iid)}/merge_ref`)).body).toEqual(first.body);
    const ref = (await t.root.get(`/projects/${project.id}/repository/commits/${first.body.commit_id}`)).body;
    expect(ref.parent_ids).toEqual([await head(project, "main"), commit.id]);
    const history = (await t.root.get(`/projects/${project.id}/repository/commits?per_page=100`)).body.map((c: any) => c.id);
    expect(history).not.toContain(first.body.commit_id);
    await team.maintainer.api.put(mrPath(project.id, mr.iid), { state_event: "close" });
    const closed = await team.reporter.api.get(`${mrPath(project.id, mr.iid)}/merge_ref`);
    expect([closed.status, closed.body]).toEqual([400, { message: "Merge request is not mergeable" }]);
  });

  it("PUT .../rebase: the MR's commits written again on the target head (202), refused to those who may not push", async () => {
    const { mr, source, commit } = await openWithCommit();
    const advanced = await commitTo(team.maintainer.api, project.id, "main");
    expect((await team.reporter.api.put(`${mrPath(project.id, mr.iid)}/rebase`)).body).toEqual({ message: "403 Forbidden - Cannot push to source branch" });
    const res = await team.developer.api.put(`${mrPath(project.id, mr.iid)}/rebase`);
    expect([res.status, res.body]).toEqual([202, { rebase_in_progress: false }]);
    const rebased = (await t.root.get(mrPath(project.id, mr.iid))).body;
    expect(rebased.sha).not.toBe(commit.id);
    expect(rebased.sha).toBe(await head(project, source));
    expect(rebased.diff_refs).toMatchObject({ base_sha: advanced.id, start_sha: advanced.id });
    const replayed = (await t.root.get(`/projects/${project.id}/repository/commits/${rebased.sha}`)).body;
    expect(replayed).toMatchObject({ parent_ids: [advanced.id], message: commit.message, author_email: commit.author_email });
    // nothing to do the second time
    expect((await team.developer.api.put(`${mrPath(project.id, mr.iid)}/rebase`)).status).toBe(202);
    expect(await head(project, source)).toBe(rebased.sha);
    await team.developer.api.delete(`/projects/${project.id}/repository/branches/${source}`);
    expect((await team.developer.api.put(`${mrPath(project.id, mr.iid)}/rebase`)).body).toEqual({ message: "403 Forbidden - Source branch does not exist" });
  });
});
