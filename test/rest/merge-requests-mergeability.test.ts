// Mergeability from the real trees (GitLab's merge_status, has_conflicts, detailed_merge_status):
// both sides editing one line conflict, a merge is refused with 422 and moves no ref, a fix on the
// source or a move of the target is checked again; merge requests whose branch moved wait as
// "unchecked" (lists never run git) until the background check or a read of the merge request
// alone decides; a source without commits of its own cannot be merged (commits_status, 405); the
// merge and head refs GitLab keeps are kept; every actor reads the same status.
import { beforeAll, describe, expect, it } from "vitest";
import { gitProcessesStarted } from "../../src/git/command.js";
import type { ApiClient } from "../helpers/api.js";
import { mrPath } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { uniq } from "../helpers/factories.js";
import { gitOf } from "../helpers/git.js";
import { commitTo, createMergeRequest, writeFile } from "../helpers/merge-requests.js";
import { ACTORS, clientOf, createTeam, createTeamProject, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let project: any;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  project = await createTeamProject(team, { visibility: "public", initialize_with_readme: true });
});

const CANNOT_BE_MERGED = { message: "Branch cannot be merged" };
const METHOD_NOT_ALLOWED = { message: "405 Method Not Allowed" };

/** Writes `content` to `file` on `branch` (created from `start` when given); returns the commit. */
const write = (by: ApiClient, branch: string, file: string, content: string, start?: string) => writeFile(by, project.id, branch, file, content, start);

const head = async (branch: string) => (await t.root.get(`/projects/${project.id}/repository/branches/${encodeURIComponent(branch)}`)).body.commit?.id;
const show = async (iid: number, by: ApiClient = t.root) => (await by.get(mrPath(project.id, iid))).body;

/** A shared file on main, then a branch and main both changing its one line: an MR that conflicts. */
async function conflicting() {
  const file = `${uniq("shared")}.txt`;
  await write(team.maintainer.api, "main", file, "base\n");
  const source = uniq("edit");
  await write(team.developer.api, source, file, "theirs\n", "main");
  const mr = await createMergeRequest(team.developer.api, project.id, { source_branch: source, createSourceBranch: false });
  await write(team.maintainer.api, "main", file, "ours\n");
  return { mr, source, file };
}

describe("conflicts found in git", () => {
  it("a change to the same line on both sides: cannot_be_merged, has_conflicts, detailed conflict, for every reader", async () => {
    const { mr } = await conflicting();
    for (const actor of ACTORS) {
      const res = await clientOf(t, team, actor).get(mrPath(project.id, mr.iid));
      expect(res.status, actor).toBe(200);
      expect(res.body, actor).toMatchObject({ merge_status: "cannot_be_merged", has_conflicts: true, detailed_merge_status: "conflict" });
    }
  });

  it("refuses to merge it with 422, moving no ref and writing no merge", async () => {
    const { mr, source } = await conflicting();
    const [mainBefore, sourceBefore] = [await head("main"), await head(source)];
    const refsBefore = gitOf(t, project.id).text("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads");
    const res = await team.maintainer.api.put(`${mrPath(project.id, mr.iid)}/merge`);
    expect([res.status, res.body]).toEqual([422, CANNOT_BE_MERGED]);
    expect(gitOf(t, project.id).text("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads")).toBe(refsBefore);
    expect([await head("main"), await head(source)]).toEqual([mainBefore, sourceBefore]);
    expect(await show(mr.iid)).toMatchObject({ state: "opened", merge_commit_sha: null });
  });

  it("a fix pushed to the source is checked again, and then merges", async () => {
    const { mr, source, file } = await conflicting();
    expect((await show(mr.iid)).merge_status).toBe("cannot_be_merged");
    await write(team.developer.api, source, file, "ours\n"); // the source now agrees with main
    expect(await show(mr.iid)).toMatchObject({ merge_status: "can_be_merged", has_conflicts: false, detailed_merge_status: "mergeable" });
    const res = await team.maintainer.api.put(`${mrPath(project.id, mr.iid)}/merge`);
    expect(res.status, res.text).toBe(200);
    expect(gitOf(t, project.id).text("show", `${res.body.merge_commit_sha}:${file}`)).toBe("ours");
  });

  it("a mergeable merge request becomes a conflict when the target changes the same line", async () => {
    const file = `${uniq("late")}.txt`;
    await write(team.maintainer.api, "main", file, "base\n");
    const source = uniq("edit");
    await write(team.developer.api, source, file, "source\n", "main");
    const mr = await createMergeRequest(team.developer.api, project.id, { source_branch: source, createSourceBranch: false });
    expect(mr).toMatchObject({ merge_status: "can_be_merged", detailed_merge_status: "mergeable" });
    await write(team.maintainer.api, "main", file, "target\n");
    expect(await show(mr.iid)).toMatchObject({ merge_status: "cannot_be_merged", detailed_merge_status: "conflict" });
  });
});

describe("when the status is checked", () => {
  it("lists show what is stored without running git; the background check settles it", async () => {
    const mr = await createMergeRequest(team.developer.api, project.id);
    await commitTo(team.maintainer.api, project.id, "main");
    // right after the move, the list shows either the waiting status or the settled one, never a stale "mergeable"
    const listed = (await t.anon.get(`/projects/${project.id}/merge_requests?iids[]=${mr.iid}`)).body[0];
    expect(["unchecked", "can_be_merged"]).toContain(listed.merge_status);
    expect(["unchecked", "mergeable"]).toContain(listed.detailed_merge_status);
    await settled(mr.iid);
    const row = await t.services.db.mergeRequest.findUniqueOrThrow({ where: { id: mr.id } });
    expect(row.mergeStatus).toBe("can_be_merged");
  });

  it("a list of mergeable, conflicting and commitless merge requests starts no git process", async () => {
    const listed = [await createMergeRequest(team.developer.api, project.id), (await conflicting()).mr];
    const empty = uniq("empty");
    await team.developer.api.post(`/projects/${project.id}/repository/branches`, { branch: empty, ref: "main" });
    listed.push(await createMergeRequest(team.developer.api, project.id, { source_branch: empty, createSourceBranch: false }));
    for (const mr of listed) await show(mr.iid);
    for (const mr of listed) await settled(mr.iid);
    const before = gitProcessesStarted();
    const res = await t.anon.get(`/projects/${project.id}/merge_requests?per_page=100`);
    expect(gitProcessesStarted()).toBe(before);
    const statuses = listed.map((mr) => res.body.find((m: any) => m.iid === mr.iid)?.detailed_merge_status);
    expect(statuses).toEqual(["mergeable", "conflict", "commits_status"]);
  });

  it("a branch move leaves updated_at as it was (nobody edited the merge request)", async () => {
    const mr = await createMergeRequest(team.developer.api, project.id);
    await commitTo(team.maintainer.api, project.id, "main");
    expect((await show(mr.iid)).updated_at).toBe(mr.updated_at);
  });

  it("a source with no commits of its own cannot be merged: commits_status, and the merge answers 405", async () => {
    const source = uniq("empty");
    expect((await team.developer.api.post(`/projects/${project.id}/repository/branches`, { branch: source, ref: "main" })).status).toBe(201);
    const mr = await createMergeRequest(team.developer.api, project.id, { source_branch: source, createSourceBranch: false });
    expect(mr).toMatchObject({ merge_status: "cannot_be_merged", has_conflicts: true, detailed_merge_status: "commits_status", changes_count: "0" });
    expect(await team.maintainer.api.put(`${mrPath(project.id, mr.iid)}/merge`).then((r) => [r.status, r.body])).toEqual([405, METHOD_NOT_ALLOWED]);
    // once it has a commit, it can be merged
    await commitTo(team.developer.api, project.id, source);
    expect(await show(mr.iid)).toMatchObject({ merge_status: "can_be_merged", detailed_merge_status: "mergeable" });
  });

  it("retargeting and reopening check again", async () => {
    const { mr } = await conflicting();
    const other = uniq("other");
    expect((await team.maintainer.api.post(`/projects/${project.id}/repository/branches`, { branch: other, ref: mr.diff_refs.base_sha })).status).toBe(201);
    const retargeted = await team.developer.api.put(mrPath(project.id, mr.iid), { target_branch: other });
    expect(retargeted.body).toMatchObject({ target_branch: other, merge_status: "can_be_merged", detailed_merge_status: "mergeable" });
    await team.developer.api.put(mrPath(project.id, mr.iid), { state_event: "close" });
    const reopened = await team.developer.api.put(mrPath(project.id, mr.iid), { target_branch: "main", state_event: "reopen" });
    expect(reopened.body).toMatchObject({ state: "opened", merge_status: "cannot_be_merged", detailed_merge_status: "conflict" });
  });
});

describe("the refs GitLab keeps for a merge request", () => {
  it("refs/merge-requests/:iid/head follows the source; /merge is the merge of both heads, kept current", async () => {
    const mr = await createMergeRequest(team.developer.api, project.id);
    const git = gitOf(t, project.id);
    expect(git.text("rev-parse", `refs/merge-requests/${mr.iid}/head`)).toBe(mr.sha);
    expect(git.text("rev-parse", `refs/merge-requests/${mr.iid}/merge^@`).split("\n")).toEqual([await head("main"), mr.sha]);
    const pushed = await commitTo(team.developer.api, project.id, mr.source_branch);
    const advanced = await commitTo(team.maintainer.api, project.id, "main");
    await show(mr.iid);
    expect(git.text("rev-parse", `refs/merge-requests/${mr.iid}/head`)).toBe(pushed.id);
    expect(git.text("rev-parse", `refs/merge-requests/${mr.iid}/merge^@`).split("\n")).toEqual([advanced.id, pushed.id]);
    const mergeRef = await t.root.get(`${mrPath(project.id, mr.iid)}/merge_ref`);
    expect(mergeRef.body).toEqual({ commit_id: git.text("rev-parse", `refs/merge-requests/${mr.iid}/merge`) });
  });

  it("a conflicting merge request: the head ref moves, the merge ref does not; GET .../merge_ref answers 400", async () => {
    const { mr, source } = await conflicting();
    await show(mr.iid);
    const git = gitOf(t, project.id);
    expect(git.text("rev-parse", `refs/merge-requests/${mr.iid}/head`)).toBe(await head(source));
    // the merge ref is not moved onto a merge git could not make (GitLab's MergeToRefService fails)
    const mergeParents = git.lines("for-each-ref", "--format=%(parent)", `refs/merge-requests/${mr.iid}/merge`);
    expect(mergeParents.join(" ")).not.toContain(await head("main"));
    const res = await t.root.get(`${mrPath(project.id, mr.iid)}/merge_ref`);
    expect([res.status, res.body]).toEqual([400, { message: "Merge request is not mergeable" }]);
  });
});

/** Waits for the background check of the merge request: its stored status stops waiting. */
async function settled(iid: number): Promise<void> {
  const until = Date.now() + 10_000;
  for (;;) {
    const row = await t.services.db.mergeRequest.findFirstOrThrow({ where: { projectId: project.id, iid } });
    if (row.mergeStatus === "can_be_merged" || row.mergeStatus === "cannot_be_merged") return;
    if (Date.now() > until) throw new Error(`merge request !${iid} still ${row.mergeStatus}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
