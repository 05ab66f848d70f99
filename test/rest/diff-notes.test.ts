// Diff notes (POST .../merge_requests/:iid/discussions with a `position`): a thread on an added
// line, a removed line, an unchanged line of a hunk, and an unchanged line outside the hunks that
// GitLab unfolds; lines the diff does not have refused with GitLab's 400 (Note validation of
// line_code); Grape's answers to a bad position hash, in JSON and form-encoded; the entities
// (type DiffNote, position, resolvable) in discussions and notes lists; replies; who may comment.
import { createHash } from "node:crypto";
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

const ORIGINAL = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
/** A line inserted after line 1 and line 10 replaced: hunks -1,4 +1,5 and -7,7 +8,7. */
const CHANGED = [ORIGINAL[0], "inserted", ...ORIGINAL.slice(1, 9), "ten", ...ORIGINAL.slice(10)];
const text = (lines: (string | undefined)[]) => `${lines.join("\n")}\n`;

/** A merge request changing a 30-line file, with its diff refs. */
async function reviewed() {
  const file = `${uniq("code")}.txt`;
  await write(team.maintainer.api, "main", file, text(ORIGINAL));
  const source = uniq("review");
  await write(team.developer.api, source, file, text(CHANGED), "main");
  const mr = await createMergeRequest(team.developer.api, project.id, { source_branch: source, createSourceBranch: false });
  const shown = (await team.developer.api.get(mrPath(project.id, mr.iid))).body;
  return { mr, file, source, refs: shown.diff_refs as { base_sha: string; start_sha: string; head_sha: string } };
}

type Reviewed = Awaited<ReturnType<typeof reviewed>>;

const discussionsPath = (iid: number) => `${mrPath(project.id, iid)}/discussions`;
const position = (r: Reviewed, lines: { old_line?: number; new_line?: number }, extra: Record<string, unknown> = {}) =>
  ({ ...r.refs, position_type: "text", old_path: r.file, new_path: r.file, ...lines, ...extra });
const sha1 = (s: string) => createHash("sha1").update(s).digest("hex");
const LINE_NOT_IN_DIFF = { message: `400 Bad request - Note {:line_code=>["can't be blank", "must be a valid line code"]}` };

async function lineCodeOf(noteId: number) {
  return (await t.services.db.note.findUniqueOrThrow({ where: { id: noteId } })).lineCode;
}

let r: Reviewed;
beforeAll(async () => {
  r = await reviewed();
});

describe("a thread on a line of the diff", () => {
  it("the diff is what the positions below name", async () => {
    const diffs = (await team.developer.api.get(`${mrPath(project.id, r.mr.iid)}/diffs`)).body;
    expect(diffs[0].diff).toBe(
      "@@ -1,4 +1,5 @@\n line 1\n+inserted\n line 2\n line 3\n line 4\n"
      + "@@ -7,7 +8,7 @@ line 6\n line 7\n line 8\n line 9\n-line 10\n+ten\n line 11\n line 12\n line 13\n",
    );
    expect(gitOf(t, project.id).text("rev-parse", `refs/heads/${r.source}`)).toBe(r.refs.head_sha);
  });

  it.each([
    ["an added line (new_line only)", { new_line: 11 }, "11_11"],
    ["a removed line (old_line only)", { old_line: 10 }, "10_11"],
    ["an unchanged line of a hunk (both)", { old_line: 8, new_line: 9 }, "8_9"],
    ["an added line at the top of the file", { new_line: 2 }, "2_2"],
    ["an unchanged line between the hunks, unfolded", { old_line: 6, new_line: 7 }, "6_7"],
    ["an unchanged line after the last hunk, unfolded", { old_line: 20, new_line: 21 }, "20_21"],
  ] as [string, { old_line?: number; new_line?: number }, string][])("%s: a DiffNote thread with its position, resolvable", async (_name, lines, code) => {
    const res = await team.developer.api.post(discussionsPath(r.mr.iid), { body: "Look here", position: position(r, lines) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.individual_note).toBe(false);
    const [note] = res.body.notes;
    expect(note).toMatchObject({
      type: "DiffNote", body: "Look here", noteable_type: "MergeRequest", resolvable: true, resolved: false, commit_id: null,
      position: {
        base_sha: r.refs.base_sha, start_sha: r.refs.start_sha, head_sha: r.refs.head_sha, old_path: r.file, new_path: r.file,
        position_type: "text", old_line: lines.old_line ?? null, new_line: lines.new_line ?? null, line_range: null,
      },
    });
    expect(Object.keys(note.position)).toEqual(["base_sha", "start_sha", "head_sha", "old_path", "new_path", "position_type", "old_line", "new_line", "line_range"]);
    expect(Object.keys(note).slice(0, 12)).toEqual(["id", "type", "body", "attachment", "author", "created_at", "updated_at", "system", "noteable_id", "noteable_type", "commit_id", "position"]);
    expect(await lineCodeOf(note.id)).toBe(`${sha1(r.file)}_${code}`);
  });

  it.each([
    ["an unchanged line named as added", { new_line: 20 }],
    ["an unchanged line named as removed", { old_line: 20 }],
    ["an unchanged line whose numbers do not follow the hunks' shift", { old_line: 20, new_line: 20 }],
    ["a line of a hunk with the wrong new number", { old_line: 8, new_line: 8 }],
    ["a line past the end of the file", { old_line: 31, new_line: 32 }],
    ["an added line that is not added", { new_line: 3 }],
  ])("%s: 400, the line code GitLab could not find", async (_name, lines) => {
    const res = await team.developer.api.post(discussionsPath(r.mr.iid), { body: "Nope", position: position(r, lines) });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual(LINE_NOT_IN_DIFF);
  });

  it("a path the diff does not change: 400; no line at all: the position is incomplete too", async () => {
    const unknown = await team.developer.api.post(discussionsPath(r.mr.iid), { body: "x", position: position(r, { new_line: 1 }, { old_path: "README.md", new_path: "README.md" }) });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(LINE_NOT_IN_DIFF);
    const noLine = await team.developer.api.post(discussionsPath(r.mr.iid), { body: "x", position: position(r, {}) });
    expect(noLine.body).toEqual({ message: `400 Bad request - Note {:line_code=>["can't be blank", "must be a valid line code"], :position=>["is incomplete"]}` });
    const blank = await team.developer.api.post(discussionsPath(r.mr.iid), { body: " ", position: position(r, { new_line: 11 }) });
    expect(blank.body).toEqual({ message: `400 Bad request - Note {:note=>["can't be blank"]}` });
  });

  it("shas that are no commits of the repository: 400", async () => {
    const res = await team.developer.api.post(discussionsPath(r.mr.iid), { body: "x", position: position(r, { new_line: 11 }, { head_sha: "0".repeat(40) }) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(LINE_NOT_IN_DIFF);
  });

  it("a bad position hash: Grape's answers (missing shas, a position_type it does not know)", async () => {
    const { base_sha: _b, start_sha: _s, ...withoutShas } = position(r, { new_line: 11 });
    const missing = await team.developer.api.post(discussionsPath(r.mr.iid), { body: "x", position: withoutShas });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: "position[base_sha] is missing, position[start_sha] is missing" });
    const wrongType = await team.developer.api.post(discussionsPath(r.mr.iid), { body: "x", position: position(r, { new_line: 11 }, { position_type: "line" }) });
    expect(wrongType.body).toEqual({ error: "position[position_type] does not have a valid value" });
    const notInteger = await team.developer.api.post(discussionsPath(r.mr.iid), { body: "x", position: position(r, { new_line: "eleven" as any }) });
    expect(notInteger.body).toEqual({ error: "position[new_line] is invalid" });
  });

  it("an image position: its box instead of lines, no line code; without its box it is incomplete", async () => {
    const image = { ...r.refs, position_type: "image", old_path: r.file, new_path: r.file };
    const res = await team.developer.api.post(discussionsPath(r.mr.iid), { body: "This pixel", position: { ...image, width: 100, height: 50, x: 3, y: 4 } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.notes[0].position).toEqual({
      base_sha: r.refs.base_sha, start_sha: r.refs.start_sha, head_sha: r.refs.head_sha, old_path: r.file, new_path: r.file, position_type: "image",
      old_line: null, new_line: null, line_range: null, width: 100, height: 50, x: 3, y: 4,
    });
    expect(await lineCodeOf(res.body.notes[0].id)).toBeNull();
    const incomplete = await team.developer.api.post(discussionsPath(r.mr.iid), { body: "x", position: { ...image, x: 3 } });
    expect(incomplete.body).toEqual({ message: `400 Bad request - Note {:position=>["is incomplete"]}` });
  });

  it("form-encoded bracket params (python-gitlab's way) place the same note", async () => {
    const form = new URLSearchParams({ body: "From a form" });
    for (const [key, value] of Object.entries(position(r, { old_line: 10 }))) form.set(`position[${key}]`, String(value));
    const res = await team.developer.api.request("POST", discussionsPath(r.mr.iid), { form });
    expect(res.status, res.text).toBe(201);
    expect(res.body.notes[0]).toMatchObject({ type: "DiffNote", position: { old_line: 10, new_line: null, position_type: "text" } });
  });
});

describe("diff threads among the notes", () => {
  it("listed with their position in discussions and notes; a reply is a DiffNote on the same position; plain notes show none", async () => {
    const started = (await team.developer.api.post(discussionsPath(r.mr.iid), { body: "Thread", position: position(r, { new_line: 11 }) })).body;
    const reply = await team.reporter.api.post(`${discussionsPath(r.mr.iid)}/${started.id}/notes`, { body: "Agreed" });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ type: "DiffNote", position: started.notes[0].position, resolvable: true });
    const plain = (await team.developer.api.post(`${mrPath(project.id, r.mr.iid)}/notes`, { body: "Plain" })).body;
    expect(plain).not.toHaveProperty("position");
    expect(plain).not.toHaveProperty("commit_id");

    const listed = (await team.developer.api.get(`${discussionsPath(r.mr.iid)}?per_page=100`)).body.find((d: any) => d.id === started.id);
    expect(listed.individual_note).toBe(false);
    expect(listed.notes.map((n: any) => [n.type, n.position.new_line])).toEqual([["DiffNote", 11], ["DiffNote", 11]]);
    const notes = (await team.developer.api.get(`${mrPath(project.id, r.mr.iid)}/notes?per_page=100`)).body;
    expect(notes.find((n: any) => n.id === started.notes[0].id)).toMatchObject({ type: "DiffNote", position: { new_line: 11 } });

    const resolved = await team.developer.api.put(`${discussionsPath(r.mr.iid)}/${started.id}`, { resolved: true });
    expect(resolved.body.notes.every((n: any) => n.resolved)).toBe(true);
  });
});

describe("who may start a diff thread", () => {
  it("signed-in users who can read the merge request (a Guest, a non-member of a public project); anonymous 401", async () => {
    const expected: Record<Actor, number> = { anonymous: 401, nonMember: 201, guest: 201, reporter: 201, developer: 201, maintainer: 201, owner: 201, admin: 201 };
    for (const [actor, status] of Object.entries(expected)) {
      const res = await clientOf(t, team, actor as Actor).post(discussionsPath(r.mr.iid), { body: `By ${actor}`, position: position(r, { new_line: 11 }) });
      expect(res.status, `${actor}: ${res.text}`).toBe(status);
    }
  });

  it("a private project's merge request: 404 for non-members and for its Guest (who may not read merge requests there)", async () => {
    const hidden = await createTeamProject(team, { visibility: "private", initialize_with_readme: true });
    const mr = await createMergeRequest(team.developer.api, hidden.id);
    const refs = (await team.developer.api.get(`/projects/${hidden.id}/merge_requests/${mr.iid}`)).body.diff_refs;
    const path = `/projects/${hidden.id}/merge_requests/${mr.iid}/discussions`;
    const body = { body: "x", position: { ...refs, position_type: "text", new_path: "x", new_line: 1 } };
    expect((await team.nonMember.api.post(path, body)).status).toBe(404);
    expect((await team.guest.api.post(path, body)).status).toBe(404);
  });
});
