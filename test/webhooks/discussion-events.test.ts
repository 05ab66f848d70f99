// Note hooks for discussions, delivered to a real receiver: a new thread and a reply each fire a
// note event whose object_attributes carry the thread's discussion_id and type "DiscussionNote"
// (Gitlab::HookData::NoteBuilder), as a plain note's carry its own discussion id and type null.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGroup, createProject, createUser, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
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
});
