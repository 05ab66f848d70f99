// Project hooks on the delivery engine, with a real loopback receiver: a change in a project
// reaches the project's own hooks and its ancestor groups' hooks (GitLab's Project#execute_hooks),
// pushes honour each hook's branch filter, the history, resend and test endpoints under
// /projects/:id/hooks/:hook_id, rate limits, and auto-disabling.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addMember, createGroup, createProject, createUser, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { commitTo, createBranch } from "../helpers/merge-requests.js";
import { createNote } from "../helpers/snippets-notes.js";
import { createHook, resetHooks, startTestbed, type WebhookTestbed } from "./setup.js";

let bed: WebhookTestbed;
let owner: TestUser, developer: TestUser, maintainer: TestUser;
let parent: any, group: any, project: any, sibling: any;

const hooksOf = (projectId: number) => `/projects/${projectId}/hooks`;

/** A project hook made by `by` (root unless given) at `<receiver>/<path>`. */
async function projectHook(projectId: number, path: string, fields: Record<string, unknown> = {}, by = bed.t.root): Promise<any> {
  const res = await by.post(hooksOf(projectId), { url: `${bed.receiver.url}/${path}`, ...fields });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Runs the change, delivers what it queued, and returns the paths that heard it, with their requests. */
async function heardBy(change: () => Promise<unknown>) {
  await bed.drain();
  bed.receiver.clear();
  await change();
  await bed.drain();
  const requests = [...bed.receiver.requests];
  bed.receiver.clear();
  return { paths: requests.map((r) => r.path).sort(), requests };
}

async function setFlag(name: string, value: boolean) {
  expect((await bed.t.root.post(`/features/${name}`, { value: String(value) })).status).toBe(201);
}

beforeAll(async () => {
  bed = await startTestbed();
  [owner, developer, maintainer] = await Promise.all([createUser(bed.t), createUser(bed.t), createUser(bed.t)]);
  parent = await createGroup(owner.api);
  group = await createGroup(owner.api, { parent_id: parent.id });
  project = await createProject(owner.api, { namespace_id: group.id, initialize_with_readme: true });
  sibling = await createProject(owner.api, { namespace_id: group.id, initialize_with_readme: true });
  await addMember(owner.api, "projects", project.id, developer.id, 30);
  await addMember(owner.api, "projects", project.id, maintainer.id, 40);
});
afterAll(() => bed.close());
beforeEach(() => resetHooks(bed));

describe("fan-out: the project's hooks and its ancestor groups' hooks", () => {
  beforeEach(async () => {
    const on = { push_events: true, issues_events: true, note_events: true };
    await projectHook(project.id, "project", on);
    await projectHook(sibling.id, "sibling", on);
    await createHook(bed, group.id, { url: `${bed.receiver.url}/group`, ...on });
    await createHook(bed, parent.id, { url: `${bed.receiver.url}/parent`, ...on });
    await projectHook(project.id, "switched-off", { push_events: false });
  });

  it("a commit through POST /projects/:id/repository/commits is a Push Hook for each", async () => {
    let commit: any;
    const { paths, requests } = await heardBy(async () => (commit = await commitTo(maintainer.api, project.id, "main")));
    expect(paths).toEqual(["/group", "/parent", "/project"]);
    for (const request of requests) {
      expect(request.headers["x-service-event"]).toBe("Push Hook");
      expect(request.json).toMatchObject({ object_kind: "push", ref: "refs/heads/main", after: commit.id, project_id: project.id, user_id: maintainer.id });
    }
    const projectRequest = requests.find((r) => r.path === "/project")!;
    const groupRequest = requests.find((r) => r.path === "/group")!;
    expect(projectRequest.headers["x-service-webhook-uuid"]).not.toBe(groupRequest.headers["x-service-webhook-uuid"]);
  });

  it("an issue opened through the API is an Issue Hook for each", async () => {
    let issue: any;
    const { paths, requests } = await heardBy(async () => (issue = await createIssue(developer.api, project.id)));
    expect(paths).toEqual(["/group", "/parent", "/project"]);
    for (const request of requests) {
      expect(request.headers["x-service-event"]).toBe("Issue Hook");
      expect(request.json).toMatchObject({ object_kind: "issue", object_attributes: { iid: issue.iid, action: "open" }, project: { id: project.id } });
    }
  });

  it("a note on an issue is a Note Hook for each", async () => {
    const issue = await createIssue(developer.api, project.id);
    let note: any;
    const { paths, requests } = await heardBy(async () => (note = await createNote(developer.api, project.id, "issues", issue.iid)));
    expect(paths).toEqual(["/group", "/parent", "/project"]);
    for (const request of requests) {
      expect(request.headers["x-service-event"]).toBe("Note Hook");
      expect(request.json).toMatchObject({ object_kind: "note", object_attributes: { id: note.id, noteable_type: "Issue" }, issue: { iid: issue.iid } });
    }
  });

  it("a change in the sibling project reaches the sibling's and the groups' hooks, not this project's", async () => {
    const { paths } = await heardBy(() => createIssue(owner.api, sibling.id));
    expect(paths).toEqual(["/group", "/parent", "/sibling"]);
  });
});

describe("a project in a personal namespace", () => {
  it("has hooks of its own (no group above it)", async () => {
    const personal = await createProject(owner.api, { initialize_with_readme: true });
    await projectHook(personal.id, "personal", { issues_events: true }, owner.api);
    const { paths } = await heardBy(() => createIssue(owner.api, personal.id));
    expect(paths).toEqual(["/personal"]);
  });
});

describe("branch filters of a project hook", () => {
  it.each([
    ["wildcard", "release/*", ["release/1.0"]],
    ["regex", "^feat-[0-9]+$", ["feat-12"]],
    ["all_branches", "ignored", ["release/1.0", "feat-12", "other"]],
  ])("%s %s", async (strategy, filter, heard) => {
    await projectHook(project.id, "filtered", { branch_filter_strategy: strategy, push_events_branch_filter: filter });
    const { requests } = await heardBy(async () => {
      for (const branch of ["release/1.0", "feat-12", "other"]) await createBranch(owner.api, project.id, branch);
    });
    expect(requests.map((r) => r.json.ref)).toEqual(heard.map((b) => `refs/heads/${b}`));
    for (const branch of ["release/1.0", "feat-12", "other"]) await owner.api.delete(`/projects/${project.id}/repository/branches/${encodeURIComponent(branch)}`);
  });
});

describe("history, resend and test", () => {
  const base = (hookId: number) => `${hooksOf(project.id)}/${hookId}`;

  it("test push_events sends the project's sample push now (201); history lists it; resend repeats it", async () => {
    const hook = await projectHook(project.id, "hist", { token: "tok" });
    expect(await maintainer.api.post(`${base(hook.id)}/test/push_events`)).toMatchObject({ status: 201, body: { message: "201 Created" } });
    const [sent] = bed.receiver.requests;
    expect(sent!.headers["x-service-event"]).toBe("Push Hook");
    expect(sent!.json).toMatchObject({ object_kind: "push", project_id: project.id, ref: "refs/heads/main" });
    const events = await maintainer.api.get(`${base(hook.id)}/events`);
    expect(events.status).toBe(200);
    expect(events.body).toHaveLength(1);
    expect(events.body[0]).toMatchObject({ trigger: "push_hooks", response_status: "200", request_headers: { "X-Service-Token": "[REDACTED]" } });
    bed.receiver.answer = { status: 202 };
    expect(await maintainer.api.post(`${base(hook.id)}/events/${events.body[0].id}/resend`)).toMatchObject({ status: 201, body: { response_status: 202 } });
    expect(bed.receiver.requests[1]!.headers["idempotency-key"]).toBe(sent!.headers["idempotency-key"]);
    expect((await maintainer.api.get(`${base(hook.id)}/events`, { query: { status: "202" } })).body).toHaveLength(1);
  });

  it("test triggers: the project's own data (TestHooks::ProjectService), GitLab's 422 texts, 400 for a group-only trigger", async () => {
    const empty = await createProject(owner.api, { namespace_id: group.id });
    const hook = await projectHook(empty.id, "t");
    expect(await owner.api.post(`${hooksOf(empty.id)}/${hook.id}/test/issues_events`)).toMatchObject({ status: 422, body: { message: "Ensure the project has issues." } });
    expect(await owner.api.post(`${hooksOf(empty.id)}/${hook.id}/test/deployment_events`)).toMatchObject({ status: 422, body: { message: "Testing not available for this hook" } });
    expect(await owner.api.post(`${hooksOf(empty.id)}/${hook.id}/test/member_events`)).toMatchObject({ status: 400, body: { error: "trigger does not have a valid value" } });
    const issue = await createIssue(owner.api, empty.id);
    expect((await owner.api.post(`${hooksOf(empty.id)}/${hook.id}/test/issues_events`)).status).toBe(201);
    expect(bed.receiver.requests.at(-1)!.json).toMatchObject({ object_kind: "issue", object_attributes: { iid: issue.iid } });
  });

  it("a hook of another project is 404 Not found; a Developer is 403; the events list refuses a bad status", async () => {
    const foreign = await projectHook(sibling.id, "foreign");
    expect(await owner.api.get(`${base(foreign.id)}/events`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect(await owner.api.post(`${base(foreign.id)}/test/push_events`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    const hook = await projectHook(project.id, "mine");
    for (const res of [
      await developer.api.get(`${base(hook.id)}/events`),
      await developer.api.post(`${base(hook.id)}/test/push_events`),
      await developer.api.post(`${base(hook.id)}/events/1/resend`),
    ]) expect(res).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await owner.api.get(`${base(hook.id)}/events`, { query: { status: "teapot" } })).toMatchObject({
      status: 400, body: { error: "status does not have a valid value" },
    });
  });

  it("tests are limited to 5 per minute per project and user while the flag is on", async () => {
    await setFlag("web_hook_test_api_endpoint_rate_limit", true);
    const hook = await projectHook(project.id, "limited");
    for (let i = 0; i < 5; i++) expect((await maintainer.api.post(`${base(hook.id)}/test/push_events`)).status).toBe(201);
    expect(await maintainer.api.post(`${base(hook.id)}/test/push_events`)).toMatchObject({
      status: 429, body: { message: { error: "This endpoint has been requested too many times. Try again later." } },
    });
    expect((await owner.api.post(`${base(hook.id)}/test/push_events`)).status).toBe(201); // another user
    // a group's limit is counted apart from its project's
    const groupHook = await createHook(bed, group.id);
    expect((await bed.t.root.post(`/groups/${group.id}/hooks/${groupHook.id}/test/push_events`)).status).toBe(201);
  });
});

describe("auto-disabling (WebHooks::AutoDisabling applies to project hooks)", () => {
  it("fails four times: temporarily_disabled, the project's next event waits; a successful test re-enables it", async () => {
    const hook = await projectHook(project.id, "flaky", { issues_events: true, push_events: false });
    bed.receiver.answer = { status: 500 };
    for (let i = 0; i < 4; i++) {
      await createIssue(owner.api, project.id);
      await bed.drain(bed.worker({ maxAttempts: 1 }));
    }
    const shown = await owner.api.get(`${hooksOf(project.id)}/${hook.id}`);
    expect(shown.body).toMatchObject({ alert_status: "temporarily_disabled", disabled_until: expect.any(String) });
    await createIssue(owner.api, project.id);
    expect(await bed.t.services.db.webHookDelivery.count({ where: { hookId: hook.id, status: "pending" } })).toBe(0); // not queued while disabled
    bed.receiver.answer = { status: 200 };
    const emptyIssues = await owner.api.post(`${hooksOf(project.id)}/${hook.id}/test/issues_events`);
    expect(emptyIssues.status, emptyIssues.text).toBe(201);
    expect((await owner.api.get(`${hooksOf(project.id)}/${hook.id}`)).body).toMatchObject({ alert_status: "executable", disabled_until: null });
  });
});
