// Project webhooks against the real server process, whose own worker delivers to a loopback
// receiver run here: @gitbeaker/rest (ProjectHooks add/all/show/edit/remove; the sub-resources and
// the events through the raw requester) with a project hook and its group's hook both hearing a
// push (Commits.create), a merge request (MergeRequests.create) and a note (MergeRequestNotes.create);
// and python-gitlab 3.12 (project.hooks, gl.http_* for the rest: test/e2e/python/project_hooks.py).
// The server runs with ALLOW_LOCAL_WEBHOOKS=true.
import { Gitlab } from "@gitbeaker/rest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../webhooks/receiver.js";
import { failure } from "./helpers/gitbeaker.js";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer({ env: { ALLOW_LOCAL_WEBHOOKS: "true" } });
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });
const uniquePath = (prefix: string) => uniqueName(prefix).toLowerCase().replace(/_/g, "-");
const DELIVERY_TIMEOUT_MS = 15_000;

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => receiver.clear());

/** The requests of `path` once `count` of them arrived (the server's worker sends them). */
async function arrived(path: string, count: number) {
  const until = Date.now() + DELIVERY_TIMEOUT_MS;
  while (receiver.requests.filter((r) => r.path === path).length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return receiver.requests.filter((r) => r.path === path);
}

describe("@gitbeaker/rest", () => {
  it("ProjectHooks add, all, show, edit, sub-resources by the raw requester, remove; GitLab's errors", async () => {
    const api = gitlab();
    const project = await api.Projects.create({ name: uniqueName("gbph"), initializeWithReadme: true } as any);
    const hook = await api.ProjectHooks.add(project.id, `${receiver.url}/{path}`, {
      token: "gb-token", pushEvents: false, mergeRequestsEvents: true, urlVariables: [{ key: "path", value: "gb" }],
      customHeaders: [{ key: "X-Gb", value: "header" }],
    } as any);
    expect(hook).toMatchObject({
      url: `${receiver.url}/{path}`, project_id: project.id, push_events: false, merge_requests_events: true, alert_status: "executable",
      url_variables: [{ key: "path" }], custom_headers: [{ key: "X-Gb" }],
    });
    expect(hook).not.toHaveProperty("token");
    expect(hook).not.toHaveProperty("member_events");
    const listed = await api.ProjectHooks.all(project.path_with_namespace);
    expect(listed.map((h) => h.id)).toEqual([hook.id]);
    expect(listed[0]).not.toHaveProperty("url_variables");
    expect(await api.ProjectHooks.show(project.id, hook.id as number)).toEqual(hook);
    expect(await api.ProjectHooks.edit(project.id, hook.id as number, hook.url as string, { noteEvents: true } as any)).toEqual({ ...hook, note_events: true });

    const base = `projects/${project.id}/hooks/${hook.id}`;
    const statuses = [
      (await api.requester.put(`${base}/custom_headers/X-Two`, { body: { value: "two" } })).status,
      (await api.requester.put(`${base}/url_variables/extra`, { body: { value: "e" } })).status,
      (await api.requester.delete(`${base}/url_variables/extra`, { body: {} })).status,
    ];
    expect(statuses).toEqual([204, 204, 204]);
    expect(await api.ProjectHooks.show(project.id, hook.id as number)).toMatchObject({ custom_headers: [{ key: "X-Gb" }, { key: "X-Two" }] });

    expect(await failure(api.ProjectHooks.add(project.id, "ftp://8.8.8.8/"))).toEqual({ status: 422, message: "Invalid url given" });
    expect(await failure(api.ProjectHooks.show(project.id, 999999))).toEqual({ status: 404, message: "404 Not found" });
    const outsider = await createUser(suite.server);
    expect(await failure(gitlab(outsider.token).ProjectHooks.all(project.id))).toEqual({ status: 404, message: "404 Project Not Found" });

    await api.ProjectHooks.remove(project.id, hook.id as number);
    await api.ProjectHooks.remove(project.id, hook.id as number); // idempotent
    expect(await api.ProjectHooks.all(project.id)).toEqual([]);
  });

  it("a push, a merge request and a note reach the project hook and the group hook; the project hook's events list them", async () => {
    const api = gitlab();
    const path = uniquePath("gb-ph");
    const group = await api.Groups.create(`Project hooks ${path}`, path);
    const project = await api.Projects.create({ name: uniqueName("gbphd"), namespaceId: group.id as number, initializeWithReadme: true } as any);
    const events = { pushEvents: true, mergeRequestsEvents: true, noteEvents: true, token: "gb-secret" } as any;
    const hook = await api.ProjectHooks.add(project.id, `${receiver.url}/project`, events);
    await api.GroupHooks.add(group.id as number, `${receiver.url}/group`, events);

    const commit = await api.Commits.create(project.id, "feature", "Add a file", [{ action: "create", filePath: "a.txt", content: "a\n" }], { startBranch: "main" } as any);
    const mr = await api.MergeRequests.create(project.id, "feature", "main", "Feature");
    const note = await api.MergeRequestNotes.create(project.id, mr.iid, "Looks good");

    for (const path of ["/project", "/group"]) {
      const requests = await arrived(path, 3);
      const byKind = Object.fromEntries(requests.map((r) => [r.json.object_kind, r]));
      expect(Object.keys(byKind).sort()).toEqual(["merge_request", "note", "push"]);
      expect(byKind.push!.headers).toMatchObject({ "x-service-event": "Push Hook", "x-service-token": "gb-secret" });
      expect(byKind.push!.json).toMatchObject({ ref: "refs/heads/feature", after: commit.id, project_id: project.id });
      expect(byKind.merge_request!.json).toMatchObject({ object_attributes: { iid: mr.iid, action: "open" }, project: { id: project.id } });
      expect(byKind.note!.json).toMatchObject({ object_attributes: { id: note.id, noteable_type: "MergeRequest" }, merge_request: { iid: mr.iid } });
    }

    const base = `projects/${project.id}/hooks/${hook.id}/events`;
    let listed = (await api.requester.get(base)) as any;
    for (const until = Date.now() + 10_000; listed.body.length < 3 && Date.now() < until;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      listed = (await api.requester.get(base)) as any;
    }
    expect(listed.body.map((e: any) => e.trigger).sort()).toEqual(["merge_request_hooks", "note_hooks", "push_hooks"]);
    const resent = (await api.requester.post(`${base}/${listed.body[0].id}/resend`, { body: {} })) as any;
    expect([resent.status, resent.body]).toEqual([201, { response_status: 200 }]);
    const tested = (await api.requester.post(`projects/${project.id}/hooks/${hook.id}/test/merge_requests_events`, { body: {} })) as any;
    expect([tested.status, tested.body]).toEqual([201, { message: "201 Created" }]);
  });
});

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab project hooks e2e: ${unavailable}`);

describe.skipIf(unavailable !== null)(unavailable ? `python-gitlab (SKIPPED: ${unavailable})` : "python-gitlab", () => {
  it("project.hooks create/list/get/save/delete, sub-resources, deliveries of push, merge request and note events", async () => {
    const outsider = await createUser(suite.server);
    const out = await runPython("project_hooks.py", suite.server, { RECEIVER_URL: receiver.url, OUTSIDER_TOKEN: outsider.token });
    expect(out.created).toMatchObject({
      url: `${receiver.url}/{path}`, project_id: out.project_id, push_events: true, merge_requests_events: true, note_events: true,
      url_variables: [{ key: "path" }], custom_headers: [{ key: "X-Py" }], alert_status: "executable", has_token: false,
    });
    expect(out.listed).toEqual([out.created.id]);
    expect(out.saved).toMatchObject({ push_events_branch_filter: "feat*", issues_events: true, has_token: false });
    expect(out.sub_statuses).toEqual([204, 204]);
    expect(out.events.sort()).toEqual(["merge_request_hooks", "note_hooks", "push_hooks"]);
    const delivered = receiver.requests.filter((r) => r.path === "/python");
    expect(delivered.map((r) => r.headers["x-service-event"]).sort()).toEqual(["Merge Request Hook", "Note Hook", "Push Hook"]);
    expect(delivered.every((r) => r.headers["x-service-token"] === "py-secret")).toBe(true);
    expect(out.errors).toEqual({
      bad_url: { type: "GitlabCreateError", response_code: 422, error_message: "Invalid url given" },
      outsider_list: { type: "GitlabListError", response_code: 404, error_message: "404 Project Not Found" },
      missing_hook: { type: "GitlabGetError", response_code: 404, error_message: "404 Not found" },
    });
    expect(out.after_delete).toEqual([]);
  });
});
