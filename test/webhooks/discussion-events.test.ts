// Note hooks for discussions, delivered to a real receiver: a new thread and a reply each fire a
// note event whose object_attributes carry the thread's discussion_id and type "DiscussionNote"
// (Gitlab::HookData::NoteBuilder), as a plain note's carry its own discussion id and type null; a
// diff note's carry its type DiffNote, its positions and its line code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGroup, createProject, createUser, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { createHook, startTestbed, type WebhookTestbed } from "./setup.js";

let bed: WebhookTestbed;
let owner: TestUser;
let group: any, project: any;

beforeAll(async () => {
  bed = await startTestbed();
  owner = await createUser(bed.t);
  group = await createGroup(owner.api);
  project = await createProject(owner.api, { namespace_id: group.id });
});
afterAll(() => bed.close());

describe("note hooks for discussions", () => {
  it("fire for a new thread, a reply, and a plain note, with the discussion id and type", async () => {
    await createHook(bed, group.id, { note_events: true, issues_events: false, push_events: false });
    const issue = await createIssue(owner.api, project.id);
    const path = `/projects/${project.id}/issues/${issue.iid}`;
    const thread = (await owner.api.post(`${path}/discussions`, { body: "Thread" })).body;
    const answer = (await owner.api.post(`${path}/discussions/${thread.id}/notes`, { body: "Reply" })).body;
    const plain = (await owner.api.post(`${path}/notes`, { body: "Plain" })).body;
    await bed.drain();
    const notes = bed.receiver.requests.filter((r) => r.json.object_kind === "note").map((r) => r.json.object_attributes);
    expect(notes.map((n) => [n.id, n.note, n.type, n.discussion_id])).toEqual([
      [thread.notes[0].id, "Thread", "DiscussionNote", thread.id],
      [answer.id, "Reply", "DiscussionNote", thread.id],
      [plain.id, "Plain", null, expect.stringMatching(/^[0-9a-f]{40}$/)],
    ]);
    expect(notes[2].discussion_id).not.toBe(thread.id);
  });

  it("fire for a diff thread with its position, original position and line code", async () => {
    const mrProject = await createProject(owner.api, { namespace_id: group.id, initialize_with_readme: true });
    await createHook(bed, group.id, { note_events: true, issues_events: false, push_events: false, merge_requests_events: false });
    const mr = await createMergeRequest(owner.api, mrProject.id);
    const path = `/projects/${mrProject.id}/merge_requests/${mr.iid}`;
    const refs = (await owner.api.get(path)).body.diff_refs;
    const [diff] = (await owner.api.get(`${path}/diffs`)).body;
    const position = { ...refs, position_type: "text", old_path: diff.old_path, new_path: diff.new_path, new_line: 1 };
    const thread = (await owner.api.post(`${path}/discussions`, { body: "On line 1", position })).body;
    await bed.drain();
    const hook = bed.receiver.requests.map((r) => r.json).find((j) => j.object_kind === "note" && j.object_attributes.id === thread.notes[0].id);
    const shown = { ...position, old_line: null, line_range: null };
    expect(hook.object_attributes).toMatchObject({
      type: "DiffNote", position: shown, original_position: shown, change_position: null,
      line_code: expect.stringMatching(/^[0-9a-f]{40}_0_1$/),
    });
  });
});
