// The `changes` of a merge request's open hook, delivered to a real loopback receiver. GitLab 17
// sends that hook from NewMergeRequestWorker once MergeRequests::AfterCreateService has prepared the
// merge request it loaded again: its changes are what the preparation saved (merge_status from
// "preparing" to "unchecked", updated_at, prepared_at), never the columns the creation set (which an
// issue's open hook reports, as Issues::CreateService sends it from the request itself).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GROUP_HOOK_EVENTS } from "../../src/domain/web-hooks/owners.js";
import { createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { createHook, startTestbed, type WebhookTestbed } from "./setup.js";

let bed: WebhookTestbed;
let owner: TestUser;
let project: any;

/** Time#to_s of a UTC time, as GitLab's hook payloads carry times. */
const rubyTime = (date: Date) => `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;

/** A time `minutes` after the file started, with milliseconds (tokens expire if the clock goes far). */
const START = Math.floor(Date.now() / 1000) * 1000;
const later = (minutes: number) => new Date(START + minutes * 60_000 + 900);

/** Runs the change at `at`, delivers what it queued, and returns the one payload the hook path got. */
async function heardAt(at: Date, path: string, change: () => Promise<unknown>): Promise<any> {
  await bed.drain();
  bed.receiver.clear();
  bed.clock.set(at);
  await change();
  await bed.drain();
  const heard = bed.receiver.requests.filter((request) => request.path === path);
  expect(heard).toHaveLength(1);
  bed.receiver.clear();
  return heard[0]!.json;
}

beforeAll(async () => {
  bed = await startTestbed();
  owner = await createUser(bed.t);
  const group = await createGroup(owner.api, { path: uniq("mr-open") });
  project = await createProject(owner.api, { namespace_id: group.id });
  const switches = (on: string) => Object.fromEntries(GROUP_HOOK_EVENTS.map((event) => [event, event === on]));
  await createHook(bed, group.id, { url: `${bed.receiver.url}/merge_requests`, ...switches("merge_requests_events") });
  await createHook(bed, group.id, { url: `${bed.receiver.url}/issues`, ...switches("issues_events") });
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.drain();
  bed.receiver.clear();
});

describe("merge request open hook", () => {
  it("reports what preparing the merge request saved, in GitLab's key order, whatever the creation set", async () => {
    const at = later(1);
    const milestone = (await owner.api.post(`/projects/${project.id}/milestones`, { title: uniq("m") })).body;
    let mr: any;
    const payload = await heardAt(at, "/merge_requests", async () => {
      mr = await createMergeRequest(owner.api, project.id, {
        title: "Draft: prepared", description: "Set at creation", labels: uniq("l"), milestone_id: milestone.id, assignee_ids: [owner.id],
      });
    });
    const time = rubyTime(at);
    expect(payload.object_attributes).toMatchObject({
      id: mr.id, action: "open", merge_status: "unchecked", created_at: time, updated_at: time, prepared_at: time,
      title: "Draft: prepared", description: "Set at creation", milestone_id: milestone.id,
    });
    expect(payload.changes).toEqual({
      merge_status: { previous: "preparing", current: "unchecked" },
      updated_at: { previous: time, current: time },
      prepared_at: { previous: null, current: time },
    });
    expect(Object.keys(payload.changes)).toEqual(["merge_status", "updated_at", "prepared_at"]);
  });

  it("leaves later hooks to report their own changes only", async () => {
    const opened = later(2);
    let mr: any;
    await heardAt(opened, "/merge_requests", async () => (mr = await createMergeRequest(owner.api, project.id, { title: "Before" })));
    const edited = later(3);
    const payload = await heardAt(edited, "/merge_requests", () => owner.api.put(`/projects/${project.id}/merge_requests/${mr.iid}`, { title: "After" }));
    expect(payload.object_attributes).toMatchObject({ action: "update", prepared_at: rubyTime(opened), updated_at: rubyTime(edited) });
    expect(payload.changes).toMatchObject({
      title: { previous: "Before", current: "After" },
      updated_at: { previous: rubyTime(opened), current: rubyTime(edited) },
    });
    expect(payload.changes).not.toHaveProperty("merge_status");
    expect(payload.changes).not.toHaveProperty("prepared_at");
  });

  it("differs from an issue's open hook, which reports the columns the creation set", async () => {
    const at = later(4);
    let issue: any;
    const payload = await heardAt(at, "/issues", async () => (issue = await createIssue(owner.api, project.id, { title: "Opened", description: "Body" })));
    expect(payload.changes).toMatchObject({
      id: { previous: null, current: issue.id }, title: { previous: null, current: "Opened" }, description: { previous: null, current: "Body" },
      created_at: { previous: null, current: rubyTime(at) }, updated_at: { previous: null, current: rubyTime(at) },
    });
    expect(payload.changes).not.toHaveProperty("merge_status");
  });
});
