// Diff threads after a push to the source branch (Discussions::UpdateDiffPositionService): a line
// still in the new diff moves there (position on the new diff refs, original_position kept); a
// line the push changed makes its thread outdated: its position stays on the diff it was written
// on, change_position says where the line changed, and a system note "changed this line in
// version 2 of the diff" joins the thread; an outdated thread is not traced again.
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../helpers/api.js";
import { mrPath } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { uniq } from "../helpers/factories.js";
import { gitOf } from "../helpers/git.js";
import { createMergeRequest, writeFile } from "../helpers/merge-requests.js";
import { createTeam, createTeamProject, type Team } from "../helpers/team.js";

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

const ORIGINAL = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
const text = (lines: string[]) => `${lines.join("\n")}\n`;
/** line 10 replaced by "ten" */
const FIRST = [...ORIGINAL.slice(0, 9), "ten", ...ORIGINAL.slice(10)];
/** then a header line on top, and "ten" changed again */
const SECOND = ["header", ...ORIGINAL.slice(0, 9), "TEN", ...ORIGINAL.slice(10)];

const rows = (ids: number[]) => t.services.db.note.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });

describe("diff threads after a push", () => {
  it("moved when their line is still in the diff, outdated (with a system note) when the push changed it", async () => {
    const file = `${uniq("traced")}.txt`;
    await write(team.maintainer.api, "main", file, text(ORIGINAL));
    const source = uniq("trace");
    await write(team.developer.api, source, file, text(FIRST), "main");
    const mr = await createMergeRequest(team.developer.api, project.id, { source_branch: source, createSourceBranch: false });
    const v1 = (await team.developer.api.get(mrPath(project.id, mr.iid))).body.diff_refs;
    const start = async (lines: { old_line?: number; new_line?: number }) => {
      const res = await team.developer.api.post(`${mrPath(project.id, mr.iid)}/discussions`, {
        body: "On this line", position: { ...v1, position_type: "text", old_path: file, new_path: file, ...lines },
      });
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    const context = await start({ old_line: 8, new_line: 8 });
    const removed = await start({ old_line: 10 });
    const added = await start({ new_line: 10 });

    const pushed = await write(team.developer.api, source, file, text(SECOND));
    const v2 = (await team.developer.api.get(mrPath(project.id, mr.iid))).body.diff_refs;
    expect(v2.head_sha).toBe(pushed.id);
    expect(v2.head_sha).toBe(gitOf(t, project.id).text("rev-parse", `refs/heads/${source}`));
    const versions = (await team.developer.api.get(`${mrPath(project.id, mr.iid)}/versions`)).body;
    expect(versions).toHaveLength(2);

    const thread = async (id: string) => (await team.developer.api.get(`${mrPath(project.id, mr.iid)}/discussions/${id}`)).body;
    const original = (lines: object) => ({ ...v1, old_path: file, new_path: file, position_type: "text", line_range: null, ...lines });

    // an unchanged line, one further down now: moved to the new diff
    const movedContext = await thread(context.id);
    expect(movedContext.notes).toHaveLength(1);
    expect(movedContext.notes[0].position).toEqual({ ...v2, old_path: file, new_path: file, position_type: "text", old_line: 8, new_line: 9, line_range: null });
    // a removed line still removed: moved too
    expect((await thread(removed.id)).notes[0].position).toEqual({ ...v2, old_path: file, new_path: file, position_type: "text", old_line: 10, new_line: null, line_range: null });
    // the added line "ten" is gone: outdated, shown where it was written, with GitLab's system note
    const outdated = await thread(added.id);
    expect(outdated.notes[0].position).toEqual(original({ old_line: null, new_line: 10 }));
    expect(outdated.notes).toHaveLength(2);
    expect(outdated.notes[1]).toMatchObject({
      system: true, type: "DiffNote", resolvable: false, author: { username: team.developer.username },
      body: expect.stringMatching(new RegExp(`^changed this line in \\[version 2 of the diff\\]\\(/${project.path_with_namespace}/-/merge_requests/${mr.iid}/diffs\\?diff_id=${versions[0].id}&start_sha=${v1.head_sha}#[0-9a-f]{40}_10_11\\)$`)),
    });

    const [contextRow, removedRow, addedRow] = await rows([context.notes[0].id, removed.notes[0].id, added.notes[0].id]);
    expect(JSON.parse(contextRow!.originalPosition!)).toEqual(original({ old_line: 8, new_line: 8 }));
    expect(contextRow!.changePosition).toBeNull();
    expect(JSON.parse(removedRow!.originalPosition!)).toEqual(original({ old_line: 10, new_line: null }));
    // change_position: where the line changed, on the head-to-head diff (B→D)
    expect(JSON.parse(addedRow!.changePosition!)).toEqual({
      base_sha: v1.head_sha, start_sha: v1.head_sha, head_sha: v2.head_sha, old_path: file, new_path: file, position_type: "text", old_line: 10, new_line: null, line_range: null,
    });

    // a second push: the moved thread moves again, the outdated one is left as it is
    await write(team.developer.api, source, `${uniq("other")}.txt`, "other\n");
    const v3 = (await team.developer.api.get(mrPath(project.id, mr.iid))).body.diff_refs;
    expect((await thread(context.id)).notes[0].position).toMatchObject({ head_sha: v3.head_sha, old_line: 8, new_line: 9 });
    const stillOutdated = await thread(added.id);
    expect(stillOutdated.notes).toHaveLength(2);
    expect(stillOutdated.notes[0].position).toEqual(original({ old_line: null, new_line: 10 }));
  });

  it("a thread started on an older version is placed on the newest diff (original_position kept), or outdated at once", async () => {
    const file = `${uniq("late")}.txt`;
    await write(team.maintainer.api, "main", file, text(ORIGINAL));
    const source = uniq("late");
    await write(team.developer.api, source, file, text(FIRST), "main");
    const mr = await createMergeRequest(team.developer.api, project.id, { source_branch: source, createSourceBranch: false });
    const v1 = (await team.developer.api.get(mrPath(project.id, mr.iid))).body.diff_refs;
    await write(team.developer.api, source, file, text(SECOND));
    const v2 = (await team.developer.api.get(mrPath(project.id, mr.iid))).body.diff_refs;
    const start = async (lines: object) => {
      const res = await team.developer.api.post(`${mrPath(project.id, mr.iid)}/discussions`, {
        body: "Late", position: { ...v1, position_type: "text", old_path: file, new_path: file, ...lines },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.notes[0];
    };
    const moved = await start({ old_line: 8, new_line: 8 });
    expect(moved.position).toEqual({ ...v2, old_path: file, new_path: file, position_type: "text", old_line: 8, new_line: 9, line_range: null });
    const gone = await start({ new_line: 10 });
    expect(gone.position).toMatchObject({ ...v1, new_line: 10, old_line: null });
    const [movedRow, goneRow] = await rows([moved.id, gone.id]);
    expect(JSON.parse(movedRow!.originalPosition!)).toMatchObject({ ...v1, old_line: 8, new_line: 8 });
    expect(JSON.parse(goneRow!.changePosition!)).toMatchObject({ head_sha: v2.head_sha, old_line: 10, new_line: null });
  });
});
