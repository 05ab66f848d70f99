// POST /groups/:id/hooks/:hook_id/test/:trigger on data made through the REST API: GitLab's 422
// texts while the group's project has nothing to sample, then 201 {"message":"201 Created"} with the
// receiver getting a sample built from the latest commit, issue, merge request or note.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { awardEmoji } from "../helpers/award-emoji.js";
import { createGroup, createProject, createUser, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { commitTo, createMergeRequest } from "../helpers/merge-requests.js";
import { createNote } from "../helpers/snippets-notes.js";
import { createHook, startTestbed, type WebhookTestbed } from "./setup.js";

let bed: WebhookTestbed;
let owner: TestUser;
let group: any, project: any, hook: any;

const testPath = (trigger: string) => `/groups/${group.id}/hooks/${hook.id}/test/${trigger}`;

/** Fires the test, expecting 201 Created; returns the one request the receiver got. */
async function sample(trigger: string) {
  bed.receiver.clear();
  const res = await owner.api.post(testPath(trigger));
  expect(res.status, res.text).toBe(201);
  expect(res.body).toEqual({ message: "201 Created" });
  expect(bed.receiver.requests).toHaveLength(1);
  return bed.receiver.requests[0]!;
}

beforeAll(async () => {
  bed = await startTestbed();
  owner = await createUser(bed.t);
  expect((await bed.t.root.post("/features/web_hook_test_api_endpoint_rate_limit", { value: "false" })).status).toBe(201);
  group = await createGroup(owner.api);
  project = await createProject(owner.api, { namespace_id: group.id });
  hook = await createHook(bed, group.id, { push_events: false });
});
afterAll(() => bed.close());
beforeEach(() => bed.receiver.clear());

describe("before the project has work items", () => {
  it.each([
    ["issues_events", "Ensure the project has issues."],
    ["confidential_issues_events", "Ensure the project has issues."],
    ["merge_requests_events", "Ensure the project has merge requests."],
    ["note_events", "Ensure the project has notes."],
    ["emoji_events", "Ensure the project has notes."],
    ["confidential_note_events", "Testing not available for this hook"],
  ])("%s: 422 %s, nothing sent", async (trigger, message) => {
    expect(await owner.api.post(testPath(trigger))).toMatchObject({ status: 422, body: { message } });
    expect(bed.receiver.requests).toEqual([]);
  });
});

describe("with data made through the API", () => {
  let latestIssue: any, latestMr: any, latestNote: any;

  beforeAll(async () => {
    await createIssue(owner.api, project.id, { title: "Older issue" });
    latestIssue = await createIssue(owner.api, project.id, { title: "Newest issue" });
    await createMergeRequest(owner.api, project.id, { title: "Older MR" });
    latestMr = await createMergeRequest(owner.api, project.id, { title: "Newest MR" });
    await createNote(owner.api, project.id, "issues", latestIssue.iid, { body: "On the issue" });
    latestNote = await createNote(owner.api, project.id, "merge_requests", latestMr.iid, { body: "On the MR" });
    await awardEmoji(owner.api, { projectId: project.id, kind: "issues", ref: latestIssue.iid });
  });

  it("push_events: the default branch's latest commits, newest first", async () => {
    const older = await commitTo(owner.api, project.id, "main");
    const newest = await commitTo(owner.api, project.id, "main");
    const request = await sample("push_events");
    expect(request.headers["x-service-event"]).toBe("Push Hook");
    expect(request.json).toMatchObject({
      object_kind: "push", ref: "refs/heads/main", after: newest.id, checkout_sha: newest.id, user_id: owner.id, project_id: project.id,
    });
    expect(request.json.commits.slice(0, 2).map((c: any) => c.id)).toEqual([newest.id, older.id]);
    expect(request.json.total_commits_count).toBe(request.json.commits.length);
  });

  it("issues_events and confidential_issues_events: the newest issue, action open", async () => {
    for (const [trigger, header] of [["issues_events", "Issue Hook"], ["confidential_issues_events", "Confidential Issue Hook"]]) {
      const request = await sample(trigger!);
      expect(request.headers["x-service-event"]).toBe(header);
      expect(request.json).toMatchObject({
        object_kind: "issue", event_type: "issue", user: { id: owner.id },
        object_attributes: { id: latestIssue.id, iid: latestIssue.iid, title: "Newest issue", action: "open", url: latestIssue.web_url },
      });
    }
  });

  it("merge_requests_events: the newest merge request, action open", async () => {
    const request = await sample("merge_requests_events");
    expect(request.headers["x-service-event"]).toBe("Merge Request Hook");
    expect(request.json).toMatchObject({
      object_kind: "merge_request",
      object_attributes: { id: latestMr.id, iid: latestMr.iid, title: "Newest MR", action: "open", source_branch: latestMr.source_branch, url: latestMr.web_url },
    });
  });

  it("note_events: the newest note with its noteable", async () => {
    const request = await sample("note_events");
    expect(request.headers["x-service-event"]).toBe("Note Hook");
    expect(request.json).toMatchObject({
      object_kind: "note", event_type: "note",
      object_attributes: { id: latestNote.id, note: "On the MR", noteable_type: "MergeRequest", action: "create", url: `${latestMr.web_url}#note_${latestNote.id}` },
      merge_request: { id: latestMr.id, iid: latestMr.iid },
    });
  });

  it("emoji_events: a thumbsup by the caller on the project's last note", async () => {
    const request = await sample("emoji_events");
    expect(request.headers["x-service-event"]).toBe("Emoji Hook");
    expect(request.json).toMatchObject({
      object_kind: "emoji", event_type: "award", user: { id: owner.id }, project_id: project.id,
      object_attributes: { name: "thumbsup", user_id: owner.id, awardable_type: "Note", awardable_id: latestNote.id, action: "award" },
      note: { id: latestNote.id }, merge_request: { iid: latestMr.iid },
    });
  });

  it("confidential_note_events stays untestable (422), and each test is recorded in the hook's events", async () => {
    expect(await owner.api.post(testPath("confidential_note_events"))).toMatchObject({ status: 422, body: { message: "Testing not available for this hook" } });
    const events = (await owner.api.get(`/groups/${group.id}/hooks/${hook.id}/events`, { query: { per_page: 100 } })).body;
    expect(new Set(events.map((e: any) => e.trigger))).toEqual(new Set(["push_hooks", "issue_hooks", "confidential_issue_hooks", "merge_request_hooks", "note_hooks", "emoji_hooks"]));
  });
});
