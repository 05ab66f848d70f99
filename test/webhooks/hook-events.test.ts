// GET .../hooks/:hook_id/events, POST .../events/:hook_event_id/resend and POST .../test/:trigger
// over /api/v4: access per actor, the hook event entity (token redacted, body cut to 8 KB),
// status filters and pagination, the seven-day window, resend, every test trigger, rate limits.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ApiClient } from "../helpers/api.js";
import { addMember, createGroup, createProject, createUser, type TestUser } from "../helpers/factories.js";
import { createHook, resetHooks, startTestbed, type WebhookTestbed } from "./setup.js";

let bed: WebhookTestbed;
let owner: TestUser, developer: TestUser, stranger: TestUser;
let guest: TestUser, reporter: TestUser, maintainer: TestUser;
let group: any, project: any;

const events = (g: number, h: number) => `/groups/${g}/hooks/${h}/events`;
const resend = (g: number, h: number, e: number) => `/groups/${g}/hooks/${h}/events/${e}/resend`;
const test = (g: number, h: number, trigger: string) => `/groups/${g}/hooks/${h}/test/${trigger}`;

beforeAll(async () => {
  bed = await startTestbed();
  [owner, developer, stranger, guest, reporter, maintainer] = await Promise.all(Array.from({ length: 6 }, () => createUser(bed.t)));
  group = await createGroup(owner.api);
  for (const [user, level] of [[guest, 10], [reporter, 20], [developer, 30], [maintainer, 40]] as const) await addMember(owner.api, "groups", group.id, user.id, level);
  project = await createProject(owner.api, { namespace_id: group.id });
});
afterAll(() => bed.close());
beforeEach(() => resetHooks(bed));

/** A hook with a token and a custom header, and `count` recorded deliveries (test pushes). */
async function hookWithEvents(count: number, fields: Record<string, unknown> = {}) {
  const hook = await createHook(bed, group.id, { token: "tok", custom_headers: [{ key: "X-Secret", value: "v" }], ...fields });
  await setFlag("web_hook_test_api_endpoint_rate_limit", false);
  for (let i = 0; i < count; i++) {
    const res = await bed.t.root.post(test(group.id, hook.id, "push_events"));
    expect(res.status, res.text).toBe(201);
  }
  return hook;
}

async function setFlag(name: string, value: boolean) {
  const res = await bed.t.root.post(`/features/${name}`, { value: String(value) });
  expect(res.status, res.text).toBe(201);
}

describe("access", () => {
  const calls: [string, (api: ApiClient, h: number) => Promise<{ status: number; body: any }>][] = [
    ["GET events", (api, h) => api.get(events(group.id, h))],
    ["POST resend", (api, h) => api.post(resend(group.id, h, 1))],
    ["POST test", (api, h) => api.post(test(group.id, h, "push_events"))],
  ];
  it.each(calls)("%s: 401 anonymous, 404 non-member of the private group, 403 to every member below Owner", async (_name, call) => {
    const hook = await createHook(bed, group.id);
    const anonymous = await call(bed.t.anon, hook.id);
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: "401 Unauthorized" }]);
    const outsider = await call(stranger.api, hook.id);
    expect([outsider.status, outsider.body]).toEqual([404, { message: "404 Group Not Found" }]);
    for (const member of [guest, reporter, developer, maintainer]) {
      const res = await call(member.api, hook.id);
      expect([res.status, res.body]).toEqual([403, { message: "403 Forbidden" }]);
    }
    // nothing was sent or recorded for them
    expect(await bed.t.services.db.webHookLog.count({ where: { hookId: hook.id } })).toBe(0);
  });

  it("GET events: the Owner and an administrator read them", async () => {
    const hook = await hookWithEvents(1);
    for (const api of [owner.api, bed.t.root]) {
      const res = await api.get(events(group.id, hook.id));
      expect([res.status, res.body.length]).toEqual([200, 1]);
    }
  });

  it.each(calls)("%s: an unknown hook is 404 Not found", async (_name, call) => {
    expect(await call(owner.api, 999_999)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  });
});

describe("GET .../events", () => {
  it("lists the hook's deliveries newest first as GitLab's hook event entity, secrets redacted", async () => {
    const hook = await hookWithEvents(2);
    const res = await owner.api.get(events(group.id, hook.id));
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.body[0].id).toBeGreaterThan(res.body[1].id);
    const [event] = res.body;
    expect(Object.keys(event)).toEqual([
      "id", "url", "trigger", "request_headers", "request_data", "response_headers", "response_body", "execution_duration",
      "response_status", "created_at",
    ]);
    expect(event).toMatchObject({ url: `${bed.receiver.url}/hook`, trigger: "push_hooks", response_status: "200", response_body: "OK" });
    expect(event.request_headers).toMatchObject({ "X-Secret": "[REDACTED]", "X-Service-Token": "[REDACTED]", "X-Service-Event": "Push Hook" });
    expect(event.request_headers["Idempotency-Key"]).toBe(bed.receiver.requests[1]!.headers["idempotency-key"]);
    expect(event.request_data).toMatchObject({ object_kind: "push", project_id: project.id });
    expect(event.response_headers["Content-Type"]).toBe("text/plain");
    expect(typeof event.execution_duration).toBe("number");
    expect(JSON.stringify(event)).not.toContain("tok\"");
  });

  it("cuts the response body to 8 KB as GitLab does", async () => {
    bed.receiver.answer = { status: 200, body: "é".repeat(5000) };
    const hook = await hookWithEvents(1);
    const [event] = (await owner.api.get(events(group.id, hook.id))).body;
    expect(Buffer.byteLength(event.response_body)).toBeLessThanOrEqual(8192);
    expect(event.response_body).toBe(`${"é".repeat(4094)}…`);
  });

  it("filters by status code and category, and refuses other values", async () => {
    const hook = await createHook(bed, group.id);
    await setFlag("web_hook_test_api_endpoint_rate_limit", false);
    for (const status of [200, 201, 404, 500]) {
      bed.receiver.answer = { status };
      await bed.t.root.post(test(group.id, hook.id, "push_events"));
    }
    bed.t.services.config.webhookTimeoutSeconds = 1;
    bed.receiver.answer = { hang: true };
    await bed.t.root.post(test(group.id, hook.id, "push_events"));
    bed.t.services.config.webhookTimeoutSeconds = 10;
    const statuses = async (query: Record<string, string>) =>
      (await owner.api.get(events(group.id, hook.id), { query })).body.map((e: any) => e.response_status).sort();
    expect(await statuses({ status: "successful" })).toEqual(["200", "201"]);
    expect(await statuses({ status: "client_failure" })).toEqual(["404"]);
    expect(await statuses({ status: "server_failure" })).toEqual(["500", "internal error"]);
    expect(await statuses({ status: "404" })).toEqual(["404"]);
    expect(await statuses({ status: "200,500" })).toEqual(["200", "500"]);
    for (const bad of ["999", "oops"]) {
      expect(await owner.api.get(events(group.id, hook.id), { query: { status: bad } })).toMatchObject({
        status: 400, body: { error: "status does not have a valid value" },
      });
    }
  });

  it("paginates with GitLab's headers", async () => {
    const hook = await hookWithEvents(3);
    const res = await owner.api.get(events(group.id, hook.id), { query: { per_page: 2, page: 2 } });
    expect(res.body).toHaveLength(1);
    expect(res.headers.get("x-total")).toBe("3");
    expect(res.headers.get("x-total-pages")).toBe("2");
    expect(res.headers.get("x-page")).toBe("2");
    expect(res.headers.get("x-prev-page")).toBe("1");
  });

  it("shows the last seven days only (from the start of that day)", async () => {
    const hook = await hookWithEvents(1);
    const start = new Date(Math.floor(bed.clock.now().getTime() / 86_400_000) * 86_400_000);
    bed.clock.set(new Date(start.getTime() + 8 * 86_400_000 - 1));
    expect((await owner.api.get(events(group.id, hook.id))).body).toHaveLength(1);
    bed.clock.set(new Date(start.getTime() + 8 * 86_400_000));
    expect((await owner.api.get(events(group.id, hook.id))).body).toHaveLength(0);
  });
});

describe("POST .../events/:hook_event_id/resend", () => {
  it("sends the recorded request again with the same Idempotency-Key and answers the status", async () => {
    const hook = await hookWithEvents(1);
    const [event] = (await owner.api.get(events(group.id, hook.id))).body;
    bed.receiver.answer = { status: 202 };
    const res = await owner.api.post(resend(group.id, hook.id, event.id));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ response_status: 202 });
    const [first, again] = bed.receiver.requests;
    expect(again!.headers["idempotency-key"]).toBe(first!.headers["idempotency-key"]);
    expect(again!.json).toEqual(event.request_data);
    expect(again!.headers["x-service-token"]).toBe("tok");
    expect((await owner.api.get(events(group.id, hook.id))).body).toHaveLength(2);
  });

  it("answers the receiver's error status too, and 422 with the error when nothing answered", async () => {
    const hook = await hookWithEvents(1);
    const [event] = (await owner.api.get(events(group.id, hook.id))).body;
    bed.receiver.answer = { status: 500 };
    expect((await owner.api.post(resend(group.id, hook.id, event.id))).body).toEqual({ response_status: 500 });
    await bed.receiver.close();
    const res = await owner.api.post(resend(group.id, hook.id, event.id));
    expect(res.status).toBe(422);
    expect(res.body.message).toEqual(expect.any(String));
    bed.receiver = await (await import("./receiver.js")).startReceiver();
  });

  it("refuses when the hook's URL changed, and 404 for an unknown or foreign event", async () => {
    const hook = await hookWithEvents(1);
    const other = await hookWithEvents(1);
    const [event] = (await owner.api.get(events(group.id, hook.id))).body;
    expect(await owner.api.post(resend(group.id, other.id, event.id))).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect(await owner.api.post(resend(group.id, hook.id, 999_999))).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    await bed.t.root.put(`/groups/${group.id}/hooks/${hook.id}`, { url: `${bed.receiver.url}/moved` });
    expect(await owner.api.post(resend(group.id, hook.id, event.id))).toMatchObject({
      status: 422, body: { message: "The hook URL has changed, and this log entry cannot be retried" },
    });
  });

  it("allows 5 per minute per hook and user while the flag is on (429 after), any number when off", async () => {
    const hook = await hookWithEvents(1);
    const second = await hookWithEvents(1);
    const [event] = (await owner.api.get(events(group.id, hook.id))).body;
    const [secondEvent] = (await owner.api.get(events(group.id, second.id))).body;
    for (let i = 0; i < 5; i++) expect((await owner.api.post(resend(group.id, hook.id, event.id))).status).toBe(201);
    expect(await owner.api.post(resend(group.id, hook.id, event.id))).toMatchObject({
      status: 429, body: { message: { error: "This endpoint has been requested too many times. Try again later." } },
    });
    expect((await owner.api.post(resend(group.id, second.id, secondEvent.id))).status).toBe(201); // another hook
    expect((await bed.t.root.post(resend(group.id, hook.id, event.id))).status).toBe(201); // another user
    bed.clock.advance(60_000);
    expect((await owner.api.post(resend(group.id, hook.id, event.id))).status).toBe(201); // next minute
    await setFlag("web_hook_event_resend_api_endpoint_rate_limit", false);
    for (let i = 0; i < 7; i++) expect((await owner.api.post(resend(group.id, hook.id, event.id))).status).toBe(201);
  });
});

describe("POST .../test/:trigger", () => {
  let hook: any;
  let lonely: any;
  beforeEach(async () => {
    await setFlag("web_hook_test_api_endpoint_rate_limit", false);
    hook = await createHook(bed, group.id);
  });

  async function seedWorkItems() {
    const db = bed.t.services.db;
    const issue = await db.issue.create({ data: { projectId: project.id, iid: 1, title: "Sample issue", authorId: owner.id } });
    const mr = await db.mergeRequest.create({
      data: { projectId: project.id, iid: 1, title: "Sample MR", sourceBranch: "feature", targetBranch: "main", authorId: owner.id },
    });
    const note = await db.note.create({ data: { projectId: project.id, noteableType: "Issue", noteableId: issue.id, authorId: owner.id, body: "A note" } });
    return { issue, mr, note };
  }

  it("push_events: the default branch's commits, delivered now, 201 Created, and recorded", async () => {
    const res = await owner.api.post(test(group.id, hook.id, "push_events"));
    expect(res).toMatchObject({ status: 201, body: { message: "201 Created" } });
    const [request] = bed.receiver.requests;
    expect(request!.headers["x-service-event"]).toBe("Push Hook");
    expect(request!.json).toMatchObject({ object_kind: "push", ref: "refs/heads/main", project_id: project.id, user_id: owner.id, total_commits_count: 1 });
    expect(request!.json.commits[0].message).toBe("Initial commit");
    expect((await owner.api.get(events(group.id, hook.id))).body[0]).toMatchObject({ trigger: "push_hooks", response_status: "200" });
  });

  it("tag_push_events sends a tag push", async () => {
    expect((await owner.api.post(test(group.id, hook.id, "tag_push_events"))).status).toBe(201);
    expect(bed.receiver.requests[0]!.json).toMatchObject({ object_kind: "tag_push", event_name: "tag_push", ref: expect.stringMatching(/^refs\/tags\//) });
    expect(bed.receiver.requests[0]!.headers["x-service-event"]).toBe("Tag Push Hook");
  });

  it.each([
    ["issues_events", "Ensure the project has issues."],
    ["confidential_issues_events", "Ensure the project has issues."],
    ["merge_requests_events", "Ensure the project has merge requests."],
    ["note_events", "Ensure the project has notes."],
    ["emoji_events", "Ensure the project has notes."],
    ["job_events", "Ensure the project has CI jobs."],
    ["pipeline_events", "Ensure the project has CI pipelines."],
    ["wiki_page_events", "Ensure the wiki is enabled and has pages."],
    ["releases_events", "Ensure the project has releases."],
    ["confidential_note_events", "Testing not available for this hook"],
    ["deployment_events", "Testing not available for this hook"],
    ["feature_flag_events", "Testing not available for this hook"],
  ])("%s without data: 422 %s", async (trigger, message) => {
    await bed.t.services.db.issue.deleteMany({});
    await bed.t.services.db.mergeRequest.deleteMany({});
    await bed.t.services.db.note.deleteMany({});
    expect(await owner.api.post(test(group.id, hook.id, trigger))).toMatchObject({ status: 422, body: { message } });
    expect(bed.receiver.requests).toHaveLength(0);
  });

  it.each([
    ["issues_events", "Issue Hook", { object_kind: "issue", object_attributes: { title: "Sample issue", action: "open", iid: 1 } }],
    ["confidential_issues_events", "Confidential Issue Hook", { object_kind: "issue", object_attributes: { title: "Sample issue" } }],
    ["merge_requests_events", "Merge Request Hook", { object_kind: "merge_request", object_attributes: { title: "Sample MR", action: "open", source_branch: "feature" } }],
    ["note_events", "Note Hook", { object_kind: "note", object_attributes: { note: "A note", action: "create", noteable_type: "Issue" }, issue: { title: "Sample issue" } }],
    ["emoji_events", "Emoji Hook", { object_kind: "emoji", event_type: "award", object_attributes: { name: "thumbsup", awardable_type: "Note", action: "award" } }],
    ["resource_access_token_events", "Resource Access Token Hook", { object_kind: "access_token", event_name: "expiring_access_token", object_attributes: { id: 1, name: "pat_for_webhook_event" }, project: { id: expect.any(Number) } }],
  ])("%s with data: sends %s", async (trigger, header, shape) => {
    await bed.t.services.db.issue.deleteMany({});
    await bed.t.services.db.mergeRequest.deleteMany({});
    await bed.t.services.db.note.deleteMany({});
    await seedWorkItems();
    const res = await owner.api.post(test(group.id, hook.id, trigger));
    expect(res.status, res.text).toBe(201);
    expect(bed.receiver.requests[0]!.headers["x-service-event"]).toBe(header);
    expect(bed.receiver.requests[0]!.json).toMatchObject(shape);
  });

  it("an unknown trigger is 400; a group without a project with commits is 422", async () => {
    expect(await owner.api.post(test(group.id, hook.id, "member_events"))).toMatchObject({
      status: 400, body: { error: "trigger does not have a valid value" },
    });
    const empty = await createGroup(owner.api);
    lonely = await createHook(bed, empty.id);
    expect(await owner.api.post(test(empty.id, lonely.id, "push_events"))).toMatchObject({
      status: 422, body: { message: "Ensure the group has a project with commits." },
    });
  });

  it("a receiver's non-2xx answer is 422 with its body as the message, and still recorded", async () => {
    bed.receiver.answer = { status: 400, body: "Error response" };
    expect(await owner.api.post(test(group.id, hook.id, "push_events"))).toMatchObject({ status: 422, body: { message: "Error response" } });
    expect((await owner.api.get(events(group.id, hook.id))).body[0].response_status).toBe("400");
  });

  it("allows 5 per minute per group and user while the flag is on", async () => {
    await setFlag("web_hook_test_api_endpoint_rate_limit", true);
    const second = await createHook(bed, group.id);
    for (let i = 0; i < 3; i++) expect((await owner.api.post(test(group.id, hook.id, "push_events"))).status).toBe(201);
    for (let i = 0; i < 2; i++) expect((await owner.api.post(test(group.id, second.id, "push_events"))).status).toBe(201);
    expect(await owner.api.post(test(group.id, second.id, "push_events"))).toMatchObject({
      status: 429, body: { message: { error: "This endpoint has been requested too many times. Try again later." } },
    });
    expect((await bed.t.root.post(test(group.id, hook.id, "push_events"))).status).toBe(201);
  });
});
