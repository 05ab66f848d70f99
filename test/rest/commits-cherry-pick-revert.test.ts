// POST /projects/:id/repository/commits/:sha/cherry_pick and .../revert on real repositories: the
// new commit's tree, parent, author and message as git shows them, dry runs and refusals that move
// no ref, merge commits picked and reverted against their first parent, the push hook and the
// merge request head that follow the move, and who may do it.
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../helpers/api.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { uniq } from "../helpers/factories.js";
import { gitOf } from "../helpers/git.js";
import { createBranch, createMergeRequest, writeFile } from "../helpers/merge-requests.js";
import { createTeam, createTeamProject, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let project: any;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  project = await createTeamProject(team, { visibility: "public", initialize_with_readme: true });
});

const FAILED_DETAIL =
  "Can't perform this action automatically. It may have already been done, or a more recent commit may have updated some of this content. Please perform this action locally.";
const PUSH_REFUSED = { message: "403 Forbidden - You are not allowed to push into this branch" };

const cherryPick = (by: ApiClient, sha: string, body: Record<string, unknown>, p = project) =>
  by.post(`/projects/${p.id}/repository/commits/${sha}/cherry_pick`, body);
const revert = (by: ApiClient, sha: string, body: Record<string, unknown>, p = project) =>
  by.post(`/projects/${p.id}/repository/commits/${sha}/revert`, body);

/** Writes `content` to `file` on `branch` (created from `start` when given); returns the commit. */
const write = (by: ApiClient, branch: string, file: string, content: string, start?: string) => writeFile(by, project.id, branch, file, content, start);

/** The name the test factories give a user. */
const nameOf = (user: { username: string }) => `User ${user.username}`;
const git = () => gitOf(t, project.id);
const refs = () => git().text("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads", "refs/tags");
const headOf = (branch: string) => git().text("rev-parse", `refs/heads/${branch}`);
/** `path` in the commit, or null when it has none. */
const fileAt = (sha: string, path: string) => (git().lines("ls-tree", "--name-only", sha, "--", path).length ? git().text("show", `${sha}:${path}`) : null);

/** A new branch from main and a commit of `file` on another branch from main: the commit to pick. */
async function commitElsewhere(file = `${uniq("picked")}.txt`, content = "picked\n") {
  const target = uniq("target");
  await createBranch(team.maintainer.api, project.id, target);
  const commit = await write(team.developer.api, uniq("source"), file, content, "main");
  return { target, commit, file };
}

/** A shared file on main, then a branch and main both changing its one line. */
async function conflictingEdits() {
  const file = `${uniq("shared")}.txt`;
  await write(team.maintainer.api, "main", file, "base\n");
  const theirs = await write(team.developer.api, uniq("edit"), file, "theirs\n", "main");
  await write(team.maintainer.api, "main", file, "ours\n");
  return theirs;
}

/** A merge request of two commits merged into main with a merge commit: the merge commit and the MR. */
async function mergedMergeRequest() {
  const source = uniq("mr-source");
  const first = await write(team.developer.api, source, `${uniq("one")}.txt`, "one\n", "main");
  const second = await write(team.developer.api, source, `${uniq("two")}.txt`, "two\n");
  const mr = await createMergeRequest(team.developer.api, project.id, { source_branch: source, createSourceBranch: false });
  const merged = await team.maintainer.api.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`);
  expect(merged.status, merged.text).toBe(200);
  const mergeCommit = (await t.root.get(`/projects/${project.id}/repository/commits/${merged.body.merge_commit_sha}`)).body;
  expect(mergeCommit.parent_ids).toHaveLength(2);
  return { mr, mergeCommit, first, second };
}

describe("cherry-pick", () => {
  it("puts the commit's change on the branch: one new commit on the old head, the picked author, GitLab's message", async () => {
    const { target, commit, file } = await commitElsewhere();
    const before = headOf(target);
    const res = await cherryPick(team.developer.api, commit.id, { branch: target });
    expect(res.status, res.text).toBe(201);
    const message = `${commit.message}\n\n(cherry-picked from commit ${commit.id})`;
    expect(res.body).toMatchObject({
      parent_ids: [before], message, title: commit.title, author_name: commit.author_name, author_email: commit.author_email,
      authored_date: commit.authored_date, committer_name: nameOf(team.developer),
    });
    expect(res.body.stats).toBeUndefined(); // GitLab's Commit entity, not CommitDetail
    expect(headOf(target)).toBe(res.body.id);
    expect(git().text("log", "-1", "--format=%P%n%an%n%cn", res.body.id).split("\n")).toEqual([before, commit.author_name, nameOf(team.developer)]);
    expect(git().text("cat-file", "commit", res.body.id)).toContain(`\n\n${message}`);
    expect(fileAt(res.body.id, file)).toBe("picked");
    expect(git().text("diff", "--name-only", before, res.body.id)).toBe(file);
    const branch = await t.root.get(`/projects/${project.id}/repository/branches/${target}`);
    expect(branch.body.commit.id).toBe(res.body.id);
  });

  it("takes a custom message, and a branch or tag name as the commit", async () => {
    const { target, commit } = await commitElsewhere();
    const source = (await t.root.get(`/projects/${project.id}/repository/commits/${commit.id}/refs?type=branch`)).body.find((r: any) => r.name.startsWith("source"))!.name;
    const res = await cherryPick(team.developer.api, source, { branch: target, message: "Backport it" });
    expect(res.status, res.text).toBe(201);
    expect(git().text("log", "-1", "--format=%B", headOf(target))).toBe("Backport it");
  });

  it("dry_run answers 200 {dry_run: success} and moves nothing", async () => {
    const { target, commit } = await commitElsewhere();
    const before = refs();
    const res = await cherryPick(team.developer.api, commit.id, { branch: target, dry_run: true });
    expect([res.status, res.body]).toEqual([200, { dry_run: "success" }]);
    expect(refs()).toBe(before);
  });

  it("a conflict is a 400 with error_code conflict and moves no ref (dry_run too, marked as an error)", async () => {
    const theirs = await conflictingEdits();
    const before = refs();
    const res = await cherryPick(team.maintainer.api, theirs.id, { branch: "main" });
    expect([res.status, res.body]).toEqual([400, { message: `Commit cherry-pick failed: ${FAILED_DETAIL}`, error_code: "conflict" }]);
    const dry = await cherryPick(team.maintainer.api, theirs.id, { branch: "main", dry_run: true });
    expect([dry.status, dry.body]).toEqual([400, { message: `Commit cherry-pick failed: ${FAILED_DETAIL}`, error_code: "conflict", dry_run: "error" }]);
    expect(refs()).toBe(before);
  });

  it("a change the branch already has is a 400 with error_code empty", async () => {
    const { target, commit } = await commitElsewhere();
    expect((await cherryPick(team.developer.api, commit.id, { branch: target })).status).toBe(201);
    const before = refs();
    const again = await cherryPick(team.developer.api, commit.id, { branch: target });
    expect([again.status, again.body]).toEqual([400, { message: `Commit cherry-pick failed: ${FAILED_DETAIL}`, error_code: "empty" }]);
    const onItself = await cherryPick(team.maintainer.api, (await t.root.get(`/projects/${project.id}/repository/commits/main`)).body.id, { branch: "main" });
    expect(onItself.body.error_code).toBe("empty");
    expect(refs()).toBe(before);
  });

  it("a merge commit is picked against its first parent, its message listing the merge request's commits", async () => {
    const release = uniq("release");
    await createBranch(team.maintainer.api, project.id, release);
    const { mergeCommit, first, second } = await mergedMergeRequest();
    const before = headOf(release);
    const res = await cherryPick(team.maintainer.api, mergeCommit.id, { branch: release });
    expect(res.status, res.text).toBe(201);
    expect(res.body.parent_ids).toEqual([before]);
    const shortLine = (c: any) => `${c.id.slice(0, 8)} ${c.title}`;
    expect(res.body.message).toBe(`${mergeCommit.message}\n\n(cherry-picked from commit ${mergeCommit.id})\n\n${shortLine(first)}\n${shortLine(second)}`);
    // the tree: the release branch plus exactly what the merge brought to main
    expect(git().text("diff", "--name-only", before, res.body.id)).toBe(git().text("diff", "--name-only", mergeCommit.parent_ids[0], mergeCommit.id));
  });

  it("fires the push hook and moves the head of a merge request whose source is the branch", async () => {
    const { commit } = await commitElsewhere();
    const mr = await createMergeRequest(team.developer.api, project.id);
    const hook = await team.maintainer.api.post(`/projects/${project.id}/hooks`, { url: "http://8.8.8.8/hook", push_events: true });
    expect(hook.status, hook.text).toBe(201);
    const res = await cherryPick(team.developer.api, commit.id, { branch: mr.source_branch });
    expect(res.status, res.text).toBe(201);
    const deliveries = await t.services.db.webHookDelivery.findMany({ where: { hookId: hook.body.id, trigger: "push_hooks" } });
    expect(deliveries).toHaveLength(1);
    const payload = JSON.parse(deliveries[0]!.payload);
    expect(payload).toMatchObject({ object_kind: "push", ref: `refs/heads/${mr.source_branch}`, after: res.body.id, total_commits_count: 1 });
    expect(payload.commits.map((c: any) => c.id)).toEqual([res.body.id]);
    expect((await t.root.get(`/projects/${project.id}/merge_requests/${mr.iid}`)).body.sha).toBe(res.body.id);
    await team.maintainer.api.delete(`/projects/${project.id}/hooks/${hook.body.id}`);
  });
});

describe("revert", () => {
  it("undoes a commit on the branch: its parent's tree, the user as author, GitLab's message", async () => {
    const commit = await write(team.maintainer.api, "main", `${uniq("undo")}.txt`, "undo me\n");
    const res = await revert(team.maintainer.api, commit.id, { branch: "main" });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      parent_ids: [commit.id], message: `Revert "${commit.title}"\n\nThis reverts commit ${commit.id}`,
      author_name: nameOf(team.maintainer), committer_name: nameOf(team.maintainer),
    });
    expect(headOf("main")).toBe(res.body.id);
    expect(git().text("rev-parse", `${res.body.id}^{tree}`)).toBe(git().text("rev-parse", `${commit.parent_ids[0]}^{tree}`));
  });

  it("a commit already reverted is a 400 with error_code empty; dry_run moves nothing", async () => {
    const commit = await write(team.maintainer.api, "main", `${uniq("undo")}.txt`, "undo me\n");
    const dry = await revert(team.maintainer.api, commit.id, { branch: "main", dry_run: true });
    expect([dry.status, dry.body]).toEqual([200, { dry_run: "success" }]);
    expect(headOf("main")).toBe(commit.id);
    expect((await revert(team.maintainer.api, commit.id, { branch: "main" })).status).toBe(201);
    const again = await revert(team.maintainer.api, commit.id, { branch: "main" });
    expect([again.status, again.body]).toEqual([400, { message: `Commit revert failed: ${FAILED_DETAIL}`, error_code: "empty" }]);
  });

  it("a conflict is a 400 with error_code conflict", async () => {
    const file = `${uniq("shared")}.txt`;
    const base = await write(team.maintainer.api, "main", file, "base\n");
    await write(team.maintainer.api, "main", file, "later\n");
    const before = refs();
    const res = await revert(team.maintainer.api, base.id, { branch: "main" });
    expect([res.status, res.body]).toEqual([400, { message: `Commit revert failed: ${FAILED_DETAIL}`, error_code: "conflict" }]);
    expect(refs()).toBe(before);
  });

  it("a merge commit is reverted against its first parent and names the merge request", async () => {
    const { mr, mergeCommit } = await mergedMergeRequest();
    const res = await revert(team.maintainer.api, mergeCommit.id, { branch: "main" });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ parent_ids: [mergeCommit.id], message: `Revert "${mergeCommit.title}"\n\nThis reverts merge request !${mr.iid}` });
    expect(git().text("rev-parse", `${res.body.id}^{tree}`)).toBe(git().text("rev-parse", `${mergeCommit.parent_ids[0]}^{tree}`));
    const again = await revert(team.maintainer.api, mergeCommit.id, { branch: "main" });
    expect(again.body).toEqual({ message: `Merge request revert failed: ${FAILED_DETAIL}`, error_code: "empty" });
  });
});

describe("who may, and bad input", () => {
  it("anonymous callers get 401; guests, reporters and non-members 403; nothing moves", async () => {
    const { target, commit } = await commitElsewhere();
    const before = refs();
    expect((await cherryPick(t.anon, commit.id, { branch: target })).status).toBe(401);
    expect((await revert(t.anon, commit.id, { branch: target })).status).toBe(401);
    for (const user of [team.guest, team.reporter, team.nonMember]) {
      const res = await cherryPick(user.api, commit.id, { branch: target });
      expect([res.status, res.body]).toEqual([403, PUSH_REFUSED]);
      expect((await revert(user.api, commit.id, { branch: target })).body).toEqual(PUSH_REFUSED);
    }
    expect(refs()).toBe(before);
  });

  it("a private project: anonymous 401, a non-member 404", async () => {
    const secret = await createTeamProject(team, { visibility: "private", initialize_with_readme: true });
    const sha = (await t.root.get(`/projects/${secret.id}/repository/commits/main`)).body.id;
    expect((await cherryPick(t.anon, sha, { branch: "main" }, secret)).status).toBe(401);
    expect((await cherryPick(team.nonMember.api, sha, { branch: "main" }, secret)).body).toEqual({ message: "404 Project Not Found" });
    expect((await revert(team.guest.api, sha, { branch: "main" }, secret)).status).toBe(403);
  });

  it("a developer may write to an unprotected branch but not to a branch protected for maintainers", async () => {
    const stable = uniq("stable");
    await createBranch(team.maintainer.api, project.id, stable);
    const protect = await team.maintainer.api.post(`/projects/${project.id}/protected_branches`, { name: stable, push_access_level: 40, merge_access_level: 40 });
    expect(protect.status, protect.text).toBe(201);
    const commit = await write(team.developer.api, uniq("dev"), `${uniq("dev")}.txt`, "dev\n", "main");
    const before = headOf(stable);
    const refused = await cherryPick(team.developer.api, commit.id, { branch: stable });
    expect([refused.status, refused.body]).toEqual([403, PUSH_REFUSED]);
    expect((await revert(team.developer.api, commit.id, { branch: stable })).body).toEqual(PUSH_REFUSED);
    expect(headOf(stable)).toBe(before);
    expect((await cherryPick(team.maintainer.api, commit.id, { branch: stable })).status).toBe(201);
  });

  it("branch is required; an unknown commit or branch is a 404", async () => {
    const { target, commit } = await commitElsewhere();
    for (const call of [cherryPick, revert]) {
      expect((await call(team.developer.api, commit.id, {})).body).toEqual({ error: "branch is missing" });
      expect((await call(team.developer.api, commit.id, { branch: "" })).body).toEqual({ error: "branch is empty" });
      const noCommit = await call(team.developer.api, "0123456789abcdef0123456789abcdef01234567", { branch: target });
      expect([noCommit.status, noCommit.body]).toEqual([404, { message: "404 Commit Not Found" }]);
      const noBranch = await call(team.developer.api, commit.id, { branch: uniq("nowhere") });
      expect([noBranch.status, noBranch.body]).toEqual([404, { message: "404 Branch Not Found" }]);
    }
  });
});
