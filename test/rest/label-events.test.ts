// Resource label events over /api/v4 (GitLab's ResourceLabelEvents API): an event per label added
// to or removed from an issue or a merge request, by every write that changes labels (create,
// labels, add_labels, remove_labels), the label shown as LabelBasic (none once deleted, the group
// label once promoted), who may read them, pagination and bad input.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { NOT_FOUND, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { createGroup, createProject, uniq } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

const EVENT_KEYS = ["id", "user", "created_at", "resource_type", "resource_id", "label", "action"];
const LABEL_KEYS = ["id", "name", "color", "description", "description_html", "text_color", "remove_on_close"];

async function label(projectId: number, name: string, fields: Record<string, unknown> = {}) {
  const res = await team.owner.api.post(`/projects/${projectId}/labels`, { name, color: "#FF0000", ...fields });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const summary = (events: any[]) => events.map((e) => [e.action, e.label?.name ?? null]);

describe("resource label events of an issue", () => {
  it("records an add per label on create, then adds and removes for labels, add_labels and remove_labels, oldest first", async () => {
    const project = team.privateProject;
    const bug = await label(project.id, uniq("bug"), { description: "Broken <b>things</b>" });
    const feature = await label(project.id, uniq("feature"));
    const issue = await createIssue(team.developer.api, project.id, { labels: `${bug.name},${feature.name}` });
    const path = `/projects/${project.id}/issues/${issue.iid}`;
    const fresh = uniq("fresh");
    expect((await team.developer.api.put(path, { labels: `${feature.name},${fresh}` })).status).toBe(200);
    expect((await team.developer.api.put(path, { add_labels: bug.name, remove_labels: feature.name })).status).toBe(200);
    // no change, no event
    expect((await team.developer.api.put(path, { add_labels: bug.name })).status).toBe(200);
    expect((await team.developer.api.put(path, { title: "Only the title" })).status).toBe(200);

    const res = await team.guest.api.get(`${path}/resource_label_events`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total")).toBe("6");
    expect(Object.keys(res.body[0])).toEqual(EVENT_KEYS);
    expect(Object.keys(res.body[0].label)).toEqual(LABEL_KEYS);
    // the labels added, then those removed, of each write (in title order)
    expect(summary(res.body)).toEqual([
      ["add", bug.name], ["add", feature.name],
      ["add", fresh], ["remove", bug.name],
      ["add", bug.name], ["remove", feature.name],
    ]);
    const first = res.body[0];
    expect(first).toMatchObject({
      resource_type: "Issue", resource_id: issue.id, action: "add",
      user: { id: team.developer.id, username: team.developer.username },
      label: {
        id: bug.id, name: bug.name, color: "#FF0000", description: "Broken <b>things</b>",
        description_html: '<p dir="auto">Broken &#60;b&#62;things&#60;/b&#62;</p>', text_color: "#FFFFFF", remove_on_close: false,
      },
    });
    expect(new Date(first.created_at).toISOString()).toBe(first.created_at);
    const second = await team.guest.api.get(`${path}/resource_label_events`, { query: { page: 2, per_page: 5 } });
    expect(summary(second.body)).toEqual([["remove", feature.name]]);
    const headers = ["x-page", "x-per-page", "x-total", "x-total-pages", "x-prev-page", "x-next-page"].map((name) => second.headers.get(name));
    expect(headers).toEqual(["2", "5", "6", "2", "1", ""]);
  });

  it("shows one event by id, 404 Not found for another issue's, an unknown or a non-numeric id", async () => {
    const project = team.privateProject;
    const a = await createIssue(team.developer.api, project.id, { labels: uniq("one") });
    const b = await createIssue(team.developer.api, project.id, { labels: uniq("two") });
    const pathA = `/projects/${project.id}/issues/${a.iid}/resource_label_events`;
    const [event] = (await team.reporter.api.get(pathA)).body;
    const one = await team.reporter.api.get(`${pathA}/${event.id}`);
    expect([one.status, one.body]).toEqual([200, event]);
    const [other] = (await team.reporter.api.get(`/projects/${project.id}/issues/${b.iid}/resource_label_events`)).body;
    for (const id of [other.id, 2147483647, 99999999999, "abc"]) {
      const res = await team.reporter.api.get(`${pathA}/${id}`);
      expect([id, res.status, res.body]).toEqual([id, 404, NOT_FOUND]);
    }
    const missing = await team.reporter.api.get(`/projects/${project.id}/issues/999999/resource_label_events`);
    expect([missing.status, missing.body]).toEqual([404, NOT_FOUND]);
    const badIid = await team.reporter.api.get(`/projects/${project.id}/issues/abc/resource_label_events`);
    expect([badIid.status, badIid.body]).toEqual([400, { error: "issue_iid is invalid" }]);
    const badPage = await team.reporter.api.get(pathA, { query: { per_page: "x" } });
    expect([badPage.status, badPage.body]).toEqual([400, { error: "per_page is invalid" }]);
  });

  const LIST: Record<Actor, [number, object | null]> = {
    anonymous: [401, UNAUTHORIZED], nonMember: [404, PROJECT_NOT_FOUND], guest: [200, null], reporter: [200, null],
    developer: [200, null], maintainer: [200, null], owner: [200, null], admin: [200, null],
  };
  it.each(Object.entries(LIST))("on a private project's issue, %s gets %i", async (actor, [status, body]) => {
    const project = team.privateProject;
    const issue = await createIssue(team.owner.api, project.id, { labels: uniq("p") });
    const path = `/projects/${project.id}/issues/${issue.iid}/resource_label_events`;
    const list = await clientOf(t, team, actor as Actor).get(path);
    expect(list.status).toBe(status);
    if (body) expect(list.body).toEqual(body);
    else expect(summary(list.body)).toHaveLength(1);
    const [event] = (await team.owner.api.get(path)).body;
    const one = await clientOf(t, team, actor as Actor).get(`${path}/${event.id}`);
    expect([one.status, body ? one.body : one.body.id]).toEqual([status, body ?? event.id]);
  });

  const CONFIDENTIAL: Record<Actor, [number, object | null]> = {
    anonymous: [401, UNAUTHORIZED], nonMember: [404, NOT_FOUND], guest: [404, NOT_FOUND], reporter: [200, null],
    developer: [200, null], maintainer: [200, null], owner: [200, null], admin: [200, null],
  };
  it.each(Object.entries(CONFIDENTIAL))("on a public project's confidential issue, %s gets %i", async (actor, [status, body]) => {
    const project = team.publicProject;
    const issue = await createIssue(team.owner.api, project.id, { labels: uniq("c"), confidential: true });
    const path = `/projects/${project.id}/issues/${issue.iid}/resource_label_events`;
    const list = await clientOf(t, team, actor as Actor).get(path);
    expect([list.status, body ? list.body : summary(list.body).length]).toEqual([status, body ?? 1]);
    const [event] = (await team.owner.api.get(path)).body;
    const one = await clientOf(t, team, actor as Actor).get(`${path}/${event.id}`);
    expect([one.status, body ? one.body : one.body.id]).toEqual([status, body ?? event.id]);
  });

  it("lets a non-member read a public project's issue events, but never without a token", async () => {
    const project = team.publicProject;
    const issue = await createIssue(team.owner.api, project.id, { labels: uniq("pub") });
    const path = `/projects/${project.id}/issues/${issue.iid}/resource_label_events`;
    expect((await team.nonMember.api.get(path)).status).toBe(200);
    const anon = await t.anon.get(path);
    expect([anon.status, anon.body]).toEqual([401, UNAUTHORIZED]);
  });
});

describe("resource label events of a merge request", () => {
  it("records create labels, labels, add_labels and remove_labels", async () => {
    const project = team.privateProject;
    const a = uniq("mra");
    const b = uniq("mrb");
    const mr = await createMergeRequest(team.developer.api, project.id, { labels: a });
    const path = `/projects/${project.id}/merge_requests/${mr.iid}`;
    expect((await team.developer.api.put(path, { add_labels: b })).status).toBe(200);
    expect((await team.developer.api.put(path, { remove_labels: a })).status).toBe(200);
    expect((await team.developer.api.put(path, { labels: "" })).status).toBe(200);
    const res = await team.reporter.api.get(`${path}/resource_label_events`);
    expect(res.status).toBe(200);
    expect(summary(res.body)).toEqual([["add", a], ["add", b], ["remove", a], ["remove", b]]);
    expect(res.body.every((e: any) => e.resource_type === "MergeRequest" && e.resource_id === mr.id && e.user.id === team.developer.id)).toBe(true);
    const one = await team.reporter.api.get(`${path}/resource_label_events/${res.body[2].id}`);
    expect(one.body).toEqual(res.body[2]);
  });

  const LIST: Record<Actor, [number, object | null]> = {
    // GitLab finds the merge request as its notes do: a guest of a private project may not read it (404 Not found)
    anonymous: [401, UNAUTHORIZED], nonMember: [404, PROJECT_NOT_FOUND], guest: [404, NOT_FOUND], reporter: [200, null],
    developer: [200, null], maintainer: [200, null], owner: [200, null], admin: [200, null],
  };
  let mrPath: string;
  let eventId: number;
  beforeAll(async () => {
    const mr = await createMergeRequest(team.owner.api, team.privateProject.id, { labels: uniq("m") });
    mrPath = `/projects/${team.privateProject.id}/merge_requests/${mr.iid}/resource_label_events`;
    eventId = (await team.owner.api.get(mrPath)).body[0].id;
  });
  it.each(Object.entries(LIST))("on a private project's merge request, %s gets %i", async (actor, [status, body]) => {
    const client = clientOf(t, team, actor as Actor);
    const list = await client.get(mrPath);
    expect([list.status, body ? list.body : list.body.length]).toEqual([status, body ?? 1]);
    const one = await client.get(`${mrPath}/${eventId}`);
    expect([one.status, body ? one.body : one.body.id]).toEqual([status, body ?? eventId]);
  });

  it("answers 404 Not found for an unknown merge request", async () => {
    const res = await team.owner.api.get(`/projects/${team.privateProject.id}/merge_requests/999999/resource_label_events`);
    expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
  });
});

describe("labels deleted, promoted, or out of the caller's sight", () => {
  it("keeps a deleted label's events without their label, and deleting records no event", async () => {
    const project = team.privateProject;
    const doomed = await label(project.id, uniq("doomed"));
    const issue = await createIssue(team.developer.api, project.id, { labels: doomed.name });
    expect((await team.owner.api.delete(`/projects/${project.id}/labels/${doomed.id}`)).status).toBe(204);
    const res = await team.developer.api.get(`/projects/${project.id}/issues/${issue.iid}/resource_label_events`);
    expect(res.body.map((e: any) => [e.action, e.label])).toEqual([["add", null]]);
    const one = await team.developer.api.get(`/projects/${project.id}/issues/${issue.iid}/resource_label_events/${res.body[0].id}`);
    expect([one.status, one.body.label]).toEqual([200, null]);
  });

  it("points the events of a promoted label at the group label", async () => {
    const group = await createGroup(team.owner.api, { path: uniq("promo") });
    const project = await createProject(team.owner.api, { namespace_id: group.id });
    const title = uniq("promoted");
    const own = await label(project.id, title);
    const issue = await createIssue(team.owner.api, project.id, { labels: title });
    const mr = await createMergeRequest(team.owner.api, project.id, { labels: title });
    const promoted = await team.owner.api.put(`/projects/${project.id}/labels/${own.id}/promote`);
    expect(promoted.status, promoted.text).toBe(200);
    for (const path of [`issues/${issue.iid}`, `merge_requests/${mr.iid}`]) {
      const res = await team.owner.api.get(`/projects/${project.id}/${path}/resource_label_events`);
      expect(res.body.map((e: any) => [e.action, e.label.id, e.label.name])).toEqual([["add", promoted.body.id, title]]);
    }
  });

  it("leaves out the events of a label of a group the caller may not see (a transferred project's old group)", async () => {
    const hidden = await createGroup(team.owner.api, { path: uniq("hidden"), visibility: "private" });
    const open = await createGroup(team.owner.api, { path: uniq("open"), visibility: "public" });
    const project = await createProject(team.owner.api, { namespace_id: hidden.id, visibility: "private" });
    const groupLabel = await team.owner.api.post(`/groups/${hidden.id}/labels`, { name: uniq("secret"), color: "#00FF00" });
    expect(groupLabel.status).toBe(201);
    const visible = uniq("visible");
    const issue = await createIssue(team.owner.api, project.id, { labels: `${groupLabel.body.name},${visible}` });
    const moved = await team.owner.api.put(`/projects/${project.id}/transfer`, { namespace: open.id });
    expect(moved.status, moved.text).toBe(200);
    expect((await team.owner.api.put(`/projects/${project.id}`, { visibility: "public" })).status).toBe(200);
    const path = `/projects/${project.id}/issues/${issue.iid}/resource_label_events`;
    const all = await team.owner.api.get(path);
    expect(summary(all.body)).toEqual([["add", groupLabel.body.name], ["add", visible]].sort((x, y) => (x[1]! < y[1]! ? -1 : 1)));
    const outsider = await team.nonMember.api.get(path);
    expect(outsider.status).toBe(200);
    // filtered after paging, as GitLab does: the total counts every event
    expect([summary(outsider.body), outsider.headers.get("x-total")]).toEqual([[["add", visible]], "2"]);
    const secret = all.body.find((e: any) => e.label.id === groupLabel.body.id);
    const one = await team.nonMember.api.get(`${path}/${secret.id}`);
    expect([one.status, one.body]).toEqual([404, { message: "404 ResourceLabelEvent Not Found" }]);
  });
});
