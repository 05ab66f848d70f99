// Labels in issue and merge request hooks, delivered to a real loopback receiver: `labels` and
// `object_attributes.labels` as Label#hook_attrs (a project's and a group's label), and
// `changes.labels` with the previous and current label lists when a write changes them (labels,
// add_labels, remove_labels), absent when it does not and on open (GitLab reports association
// changes only for updates). Labels come in title order (Label's default scope, which GitLab's update
// service restores with labels.reset before the hook), not the order given or created; times are
// Time#to_s, "2026-11-29 01:45:00 UTC" (hook data goes through Sidekiq's JSON, which writes a Time so).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GROUP_HOOK_EVENTS } from "../../src/domain/web-hooks/owners.js";
import { createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { createHook, startTestbed, type WebhookTestbed } from "./setup.js";

const RUBY_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;
const LABEL_KEYS = ["id", "title", "color", "project_id", "created_at", "updated_at", "template", "description", "type", "group_id"];

let bed: WebhookTestbed;
let owner: TestUser;
let group: any, project: any;
let groupLabel: any, projectLabel: any, other: any;

/** Label#hook_attrs of a label as the Labels API showed it. */
const hookAttrs = (label: any) => ({
  id: label.id, title: label.name, color: label.color, project_id: label.is_project_label ? project.id : null,
  created_at: expect.stringMatching(RUBY_TIME), updated_at: expect.stringMatching(RUBY_TIME), template: false,
  description: label.description, type: label.is_project_label ? "ProjectLabel" : "GroupLabel", group_id: label.is_project_label ? null : group.id,
});

/** Runs the change, delivers what it queued, and returns the one payload each hook path got. */
async function heardBy(change: () => Promise<unknown>): Promise<Record<string, any>> {
  await bed.drain();
  bed.receiver.clear();
  await change();
  await bed.drain();
  const got: Record<string, any> = {};
  for (const request of bed.receiver.requests) {
    expect(got[request.path], `${request.path} heard twice`).toBeUndefined();
    got[request.path] = request.json;
  }
  bed.receiver.clear();
  return got;
}

beforeAll(async () => {
  bed = await startTestbed();
  owner = await createUser(bed.t);
  group = await createGroup(owner.api, { path: uniq("hooked-labels") });
  project = await createProject(owner.api, { namespace_id: group.id });
  const switches = (on: string) => Object.fromEntries(GROUP_HOOK_EVENTS.map((event) => [event, event === on]));
  await createHook(bed, group.id, { url: `${bed.receiver.url}/issues`, ...switches("issues_events") });
  await createHook(bed, group.id, { url: `${bed.receiver.url}/merge_requests`, ...switches("merge_requests_events") });
  groupLabel = (await owner.api.post(`/groups/${group.id}/labels`, { name: uniq("a-group"), color: "#112233", description: "From the group" })).body;
  groupLabel.is_project_label = false;
  projectLabel = (await owner.api.post(`/projects/${project.id}/labels`, { name: uniq("b-project"), color: "#FFAA00" })).body;
  other = (await owner.api.post(`/projects/${project.id}/labels`, { name: uniq("c-other"), color: "#000000", description: "Other" })).body;
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.drain();
  bed.receiver.clear();
});

describe("issue hooks", () => {
  const path = (issue: any) => `/projects/${project.id}/issues/${issue.iid}`;

  it("open: labels and object_attributes.labels as Label#hook_attrs, no changes.labels", async () => {
    let issue: any;
    const got = await heardBy(async () => (issue = await createIssue(owner.api, project.id, { labels: `${projectLabel.name},${groupLabel.name}` })));
    const payload = got["/issues"];
    expect(Object.keys(payload.labels[0])).toEqual(LABEL_KEYS);
    expect(payload.labels).toEqual([hookAttrs(groupLabel), hookAttrs(projectLabel)]);
    expect(payload.object_attributes.labels).toEqual(payload.labels);
    expect(payload.object_attributes).toMatchObject({ id: issue.id, action: "open" });
    // GitLab reports association changes (labels, assignees) for updates only
    expect(payload.changes).not.toHaveProperty("labels");
    expect(payload.changes).not.toHaveProperty("assignees");
  });

  it("update: changes.labels previous and current for labels, add_labels and remove_labels", async () => {
    const issue = await createIssue(owner.api, project.id, { labels: projectLabel.name });
    const replaced = (await heardBy(() => owner.api.put(path(issue), { labels: `${groupLabel.name},${other.name}` })))["/issues"];
    expect(replaced.changes.labels).toEqual({ previous: [hookAttrs(projectLabel)], current: [hookAttrs(groupLabel), hookAttrs(other)] });
    expect(replaced.labels).toEqual([hookAttrs(groupLabel), hookAttrs(other)]);
    expect(replaced.object_attributes).toMatchObject({ action: "update", labels: replaced.labels });

    const added = (await heardBy(() => owner.api.put(path(issue), { add_labels: projectLabel.name, remove_labels: other.name })))["/issues"];
    expect(added.changes.labels).toEqual({ previous: [hookAttrs(groupLabel), hookAttrs(other)], current: [hookAttrs(groupLabel), hookAttrs(projectLabel)] });

    const cleared = (await heardBy(() => owner.api.put(path(issue), { labels: "" })))["/issues"];
    expect(cleared.changes.labels).toEqual({ previous: [hookAttrs(groupLabel), hookAttrs(projectLabel)], current: [] });
    expect([cleared.labels, cleared.object_attributes.labels]).toEqual([[], []]);
  });

  it("an update that leaves the labels as they were reports no changes.labels, but shows the labels", async () => {
    const issue = await createIssue(owner.api, project.id, { labels: projectLabel.name });
    const same = (await heardBy(() => owner.api.put(path(issue), { title: uniq("retitled"), add_labels: projectLabel.name })))["/issues"];
    expect(same.changes).toHaveProperty("title");
    expect(same.changes).not.toHaveProperty("labels");
    expect(same.labels).toEqual([hookAttrs(projectLabel)]);
  });

  it("a label created on the fly by a write shows with GitLab's default colour", async () => {
    const fresh = uniq("d-fresh");
    const issue = await createIssue(owner.api, project.id);
    const payload = (await heardBy(() => owner.api.put(path(issue), { add_labels: fresh })))["/issues"];
    expect(payload.changes.labels.previous).toEqual([]);
    expect(payload.changes.labels.current).toEqual([expect.objectContaining({ title: fresh, color: "#6699cc", description: null, type: "ProjectLabel", project_id: project.id, group_id: null })]);
  });
});

describe("merge request hooks", () => {
  const path = (mr: any) => `/projects/${project.id}/merge_requests/${mr.iid}`;

  it("open: labels and object_attributes.labels as Label#hook_attrs, no changes.labels", async () => {
    let mr: any;
    const got = await heardBy(async () => (mr = await createMergeRequest(owner.api, project.id, { labels: `${other.name},${groupLabel.name}` })));
    const payload = got["/merge_requests"];
    expect(payload.object_attributes).toMatchObject({ id: mr.id, action: "open" });
    expect(Object.keys(payload.labels[0])).toEqual(LABEL_KEYS);
    expect(payload.labels).toEqual([hookAttrs(groupLabel), hookAttrs(other)]);
    expect(payload.object_attributes.labels).toEqual(payload.labels);
    expect(payload.changes).not.toHaveProperty("labels");
  });

  it("update: changes.labels previous and current for labels, add_labels and remove_labels", async () => {
    const mr = await createMergeRequest(owner.api, project.id, { labels: projectLabel.name });
    const added = (await heardBy(() => owner.api.put(path(mr), { add_labels: groupLabel.name })))["/merge_requests"];
    expect(added.changes.labels).toEqual({ previous: [hookAttrs(projectLabel)], current: [hookAttrs(groupLabel), hookAttrs(projectLabel)] });
    expect(added.labels).toEqual([hookAttrs(groupLabel), hookAttrs(projectLabel)]);
    expect(added.object_attributes.labels).toEqual(added.labels);

    const removed = (await heardBy(() => owner.api.put(path(mr), { remove_labels: projectLabel.name })))["/merge_requests"];
    expect(removed.changes.labels).toEqual({ previous: [hookAttrs(groupLabel), hookAttrs(projectLabel)], current: [hookAttrs(groupLabel)] });

    const replaced = (await heardBy(() => owner.api.put(path(mr), { labels: other.name })))["/merge_requests"];
    expect(replaced.changes.labels).toEqual({ previous: [hookAttrs(groupLabel)], current: [hookAttrs(other)] });

    const same = (await heardBy(() => owner.api.put(path(mr), { title: uniq("retitled"), labels: other.name })))["/merge_requests"];
    expect(same.changes).not.toHaveProperty("labels");
    expect(same.labels).toEqual([hookAttrs(other)]);
  });
});

describe("label order and times", () => {
  /** Time#to_s of a UTC time: GitLab's hook data goes through Sidekiq's JSON, which writes a Time so. */
  const rubyTime = (date: Date) => `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
  const titles = (labels: any[]) => labels.map((label) => label.title);
  let late: any, middle: any, early: any;
  beforeAll(async () => {
    // created in the reverse of their title order, so that id order and title order differ
    late = (await owner.api.post(`/projects/${project.id}/labels`, { name: uniq("z-late"), color: "#111111" })).body;
    middle = (await owner.api.post(`/projects/${project.id}/labels`, { name: uniq("m-middle"), color: "#222222" })).body;
    early = (await owner.api.post(`/projects/${project.id}/labels`, { name: uniq("e-early"), color: "#333333" })).body;
  });

  it("lists an issue's labels by title (Label's default scope; labels reset after an update), whatever order they were given or created in", async () => {
    let issue: any;
    const opened = (await heardBy(async () => (issue = await createIssue(owner.api, project.id, { labels: `${late.name},${middle.name}` }))))["/issues"];
    expect(titles(opened.labels)).toEqual([middle.name, late.name]);
    expect(titles(opened.object_attributes.labels)).toEqual([middle.name, late.name]);
    const added = (await heardBy(() => owner.api.put(`/projects/${project.id}/issues/${issue.iid}`, { add_labels: early.name })))["/issues"];
    expect([titles(added.changes.labels.previous), titles(added.changes.labels.current)]).toEqual([[middle.name, late.name], [early.name, middle.name, late.name]]);
    expect(titles(added.labels)).toEqual([early.name, middle.name, late.name]);
  });

  it("lists a merge request's labels by title too", async () => {
    let mr: any;
    const opened = (await heardBy(async () => (mr = await createMergeRequest(owner.api, project.id, { labels: `${late.name},${early.name}` }))))["/merge_requests"];
    expect(titles(opened.labels)).toEqual([early.name, late.name]);
    const replaced = (await heardBy(() => owner.api.put(`/projects/${project.id}/merge_requests/${mr.iid}`, { labels: `${late.name},${middle.name},${early.name}` })))["/merge_requests"];
    expect([titles(replaced.changes.labels.previous), titles(replaced.changes.labels.current)]).toEqual([[early.name, late.name], [early.name, middle.name, late.name]]);
  });

  it("writes every time of the payload as Time#to_s: the labels', the issue's and merge request's, and those in changes", async () => {
    const opened = new Date(Math.floor(Date.now() / 1000) * 1000 + 60_000 + 250);
    const closed = new Date(opened.getTime() + 60_000);
    const stored = await bed.t.services.db.label.findUniqueOrThrow({ where: { id: early.id } });
    bed.clock.set(opened);
    let issue: any, mr: any;
    const issueOpen = (await heardBy(async () => (issue = await createIssue(owner.api, project.id, { labels: early.name }))))["/issues"];
    const mrOpen = (await heardBy(async () => (mr = await createMergeRequest(owner.api, project.id, { labels: early.name }))))["/merge_requests"];
    for (const payload of [issueOpen, mrOpen]) {
      expect(payload.labels[0]).toMatchObject({ id: early.id, created_at: rubyTime(stored.createdAt), updated_at: rubyTime(stored.updatedAt) });
      expect(payload.object_attributes).toMatchObject({ created_at: rubyTime(opened), updated_at: rubyTime(opened) });
    }
    bed.clock.set(closed);
    const issueClose = (await heardBy(() => owner.api.put(`/projects/${project.id}/issues/${issue.iid}`, { state_event: "close" })))["/issues"];
    expect(issueClose.object_attributes).toMatchObject({ action: "close", closed_at: rubyTime(closed), updated_at: rubyTime(closed) });
    expect(issueClose.changes).toMatchObject({
      closed_at: { previous: null, current: rubyTime(closed) }, updated_at: { previous: rubyTime(opened), current: rubyTime(closed) },
    });
    const mrClose = (await heardBy(() => owner.api.put(`/projects/${project.id}/merge_requests/${mr.iid}`, { state_event: "close" })))["/merge_requests"];
    expect(mrClose.object_attributes).toMatchObject({ action: "close", created_at: rubyTime(opened), updated_at: rubyTime(closed) });
    expect(mrClose.changes.updated_at).toEqual({ previous: rubyTime(opened), current: rubyTime(closed) });
    bed.clock.set(new Date());
  });
});
