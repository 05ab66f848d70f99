// Merge request diff versions (GET .../merge_requests/:iid/versions and .../versions/:version_id):
// one at creation and one per push to the source branch, newest first, their shas what git says;
// the merge request's diff_refs are the newest version's; a move of the target branch alone takes
// no version, a rebase does, a merge does not; one version's commits and diffs (unidiff); who may read them; a merge request
// without versions (opened before they existed) gets one from its current state when first read.
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../helpers/api.js";
import { mrPath } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { uniq } from "../helpers/factories.js";
import { gitOf } from "../helpers/git.js";
import { createMergeRequest, writeFile } from "../helpers/merge-requests.js";
import { clientOf, createTeam, createTeamProject, type Actor, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let project: any;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  project = await createTeamProject(team, { visibility: "public", initialize_with_readme: true });
});

/** Writes `content` to `file` on `branch` (created from `start` when given); returns the commit. */
const write = (by: ApiClient, branch: string, file: string, content: string, start?: string) => writeFile(by, project.id, branch, file, content, start);

const git = () => gitOf(t, project.id);
const versionsPath = (iid: number) => `${mrPath(project.id, iid)}/versions`;

/** What git says a version of `source` into main should hold now. */
function expectedShas(source: string) {
  const head = git().text("rev-parse", `refs/heads/${source}`);
  const start = git().text("rev-parse", "refs/heads/main");
  const base = git().text("merge-base", start, head);
  const patchId = git().withInput(git().bytes("diff", "--patch", "--no-color", "--no-ext-diff", "-M", "--full-index", base, head), "patch-id", "--verbatim").split(" ")[0];
  return { head_commit_sha: head, start_commit_sha: start, base_commit_sha: base, patch_id_sha: patchId };
}

async function openedWithFile() {
  const source = uniq("versions");
  const file = `${uniq("notes")}.txt`;
  await write(team.developer.api, source, file, "one\ntwo\nthree\n", "main");
  const mr = await createMergeRequest(team.developer.api, project.id, { source_branch: source, createSourceBranch: false });
  return { mr, source, file };
}

describe("versions of a merge request's diff", () => {
  it("one at creation: the shas git has, collected, one file, its patch id", async () => {
    const { mr, source } = await openedWithFile();
    const res = await team.developer.api.get(versionsPath(mr.iid));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toEqual({
      id: expect.any(Number), ...expectedShas(source), created_at: expect.any(String), merge_request_id: mr.id,
      state: "collected", real_size: "1",
    });
    expect(Object.keys(res.body[0])).toEqual([
      "id", "head_commit_sha", "base_commit_sha", "start_commit_sha", "created_at", "merge_request_id", "state", "real_size", "patch_id_sha",
    ]);
  });

  it("one more per push, newest first; diff_refs are the newest version's", async () => {
    const { mr, source, file } = await openedWithFile();
    const first = expectedShas(source);
    await write(team.developer.api, source, file, "one\n2\nthree\n");
    const second = expectedShas(source);
    await write(team.developer.api, source, `${uniq("more")}.txt`, "more\n");
    const third = expectedShas(source);
    const res = await team.developer.api.get(versionsPath(mr.iid));
    expect(res.body.map((v: any) => v.head_commit_sha)).toEqual([third.head_commit_sha, second.head_commit_sha, first.head_commit_sha]);
    expect(res.body[0]).toMatchObject({ ...third, real_size: "2" });
    expect(res.body[1]).toMatchObject(second);
    expect(res.body.map((v: any) => v.id)).toEqual([...res.body.map((v: any) => v.id)].sort((a, b) => b - a));
    const shown = (await team.developer.api.get(mrPath(project.id, mr.iid))).body;
    expect(shown.diff_refs).toEqual({ base_sha: third.base_commit_sha, head_sha: third.head_commit_sha, start_sha: third.start_commit_sha });
    expect(shown.sha).toBe(third.head_commit_sha);
    expect(shown.changes_count).toBe("2");

    const paged = await team.developer.api.get(`${versionsPath(mr.iid)}?per_page=1&page=2`);
    expect(paged.body.map((v: any) => v.head_commit_sha)).toEqual([second.head_commit_sha]);
    expect(paged.headers.get("x-total")).toBe("3");
  });

  it("a move of the target branch alone takes no version: diff_refs keep the start they had", async () => {
    const { mr, source } = await openedWithFile();
    const before = expectedShas(source);
    await write(team.maintainer.api, "main", `${uniq("target")}.txt`, "target\n");
    const res = await team.developer.api.get(versionsPath(mr.iid));
    expect(res.body).toHaveLength(1);
    expect(res.body[0].start_commit_sha).toBe(before.start_commit_sha);
    const shown = (await team.developer.api.get(mrPath(project.id, mr.iid))).body;
    expect(shown.diff_refs.start_sha).toBe(before.start_commit_sha);
  });

  it("a rebase takes a version on the target's head; a merge takes none", async () => {
    const { mr, source } = await openedWithFile();
    await write(team.maintainer.api, "main", `${uniq("ahead")}.txt`, "ahead\n");
    const rebase = await team.developer.api.put(`${mrPath(project.id, mr.iid)}/rebase`);
    expect(rebase.status, rebase.text).toBe(202);
    const rebased = (await team.developer.api.get(versionsPath(mr.iid))).body;
    expect(rebased).toHaveLength(2);
    expect(rebased[0]).toMatchObject(expectedShas(source));
    expect(rebased[0].base_commit_sha).toBe(git().text("rev-parse", "refs/heads/main"));
    const merged = await team.maintainer.api.put(`${mrPath(project.id, mr.iid)}/merge`, {});
    expect(merged.status, merged.text).toBe(200);
    expect((await team.developer.api.get(versionsPath(mr.iid))).body).toEqual(rebased);
    expect(merged.body.diff_refs).toEqual({ base_sha: rebased[0].base_commit_sha, start_sha: rebased[0].start_commit_sha, head_sha: rebased[0].head_commit_sha });
  });

  it("reopening takes a version with the source branch's head, pushed while it was closed", async () => {
    const { mr, source, file } = await openedWithFile();
    await team.developer.api.put(mrPath(project.id, mr.iid), { state_event: "close" });
    const pushed = await write(team.developer.api, source, file, "closed\n");
    expect((await team.developer.api.get(versionsPath(mr.iid))).body).toHaveLength(1);
    const reopened = await team.developer.api.put(mrPath(project.id, mr.iid), { state_event: "reopen" });
    expect(reopened.body.sha).toBe(pushed.id);
    const versions = (await team.developer.api.get(versionsPath(mr.iid))).body;
    expect(versions).toHaveLength(2);
    expect(versions[0]).toMatchObject(expectedShas(source));
  });

  it("retargeting takes a version", async () => {
    const { mr } = await openedWithFile();
    const other = uniq("other-target");
    await team.maintainer.api.post(`/projects/${project.id}/repository/branches`, { branch: other, ref: "main" });
    const res = await team.developer.api.put(mrPath(project.id, mr.iid), { target_branch: other });
    expect(res.status, res.text).toBe(200);
    expect((await team.developer.api.get(versionsPath(mr.iid))).body).toHaveLength(2);
  });
});

describe("one version", () => {
  it("its commits (start..head, newest first) and its diffs from the base, with unidiff headers when asked", async () => {
    const { mr, source, file } = await openedWithFile();
    await write(team.developer.api, source, file, "one\n2\nthree\n");
    const [latest, first] = (await team.developer.api.get(versionsPath(mr.iid))).body;
    const detail = await team.developer.api.get(`${versionsPath(mr.iid)}/${latest.id}`);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body).toMatchObject(latest);
    expect(detail.body.commits.map((c: any) => c.id)).toEqual(git().lines("rev-list", latest.head_commit_sha, `^${latest.start_commit_sha}`));
    expect(detail.body.diffs).toEqual([expect.objectContaining({ new_path: file, old_path: file, new_file: true, diff: "@@ -0,0 +1,3 @@\n+one\n+2\n+three\n" })]);

    const older = await team.developer.api.get(`${versionsPath(mr.iid)}/${first.id}?unidiff=true`);
    expect(older.body.commits).toHaveLength(1);
    expect(older.body.diffs[0].diff).toBe(`--- /dev/null\n+++ b/${file}\n@@ -0,0 +1,3 @@\n+one\n+two\n+three\n`);
  });

  it("a version of another merge request, or none: 404 Not found", async () => {
    const a = await openedWithFile();
    const b = await openedWithFile();
    const [ofB] = (await team.developer.api.get(versionsPath(b.mr.iid))).body;
    for (const id of [ofB.id, 999999]) {
      const res = await team.developer.api.get(`${versionsPath(a.mr.iid)}/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Not found" });
    }
  });
});

describe("who reads versions", () => {
  it("signed-in readers of the merge request; anonymous 401 even on a public project; private projects hide them", async () => {
    const { mr } = await openedWithFile();
    const expected: Record<Actor, number> = { anonymous: 401, nonMember: 200, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 };
    for (const [actor, status] of Object.entries(expected)) {
      const res = await clientOf(t, team, actor as Actor).get(versionsPath(mr.iid));
      expect(res.status, actor).toBe(status);
    }
    expect((await t.anon.get(versionsPath(mr.iid))).body).toEqual({ message: "401 Unauthorized" });

    const hidden = await createTeamProject(team, { visibility: "private", initialize_with_readme: true });
    const secret = await createMergeRequest(team.developer.api, hidden.id);
    const path = `/projects/${hidden.id}/merge_requests/${secret.iid}/versions`;
    expect((await team.nonMember.api.get(path)).status).toBe(404);
    // a Guest of a private project may not read its merge requests (read_merge_request needs Reporter there)
    expect((await team.guest.api.get(path)).status).toBe(403);
    expect((await team.reporter.api.get(path)).status).toBe(200);
  });
});

describe("merge requests opened before versions existed", () => {
  it("get their first version from their current state when first read", async () => {
    const { mr, source } = await openedWithFile();
    await t.services.db.mergeRequestDiff.deleteMany({ where: { mergeRequestId: mr.id } });
    const res = await team.developer.api.get(versionsPath(mr.iid));
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject(expectedShas(source));
  });
});
