// The other event kinds wired to the outbox: access token expiry notices (from the worker's sweep),
// group access tokens' bot memberships, and the work item events (issue, merge request, note,
// emoji) published by their areas, here published directly on rows this test wrote.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { publish } from "../../src/domain/shared/events.js";
import { notifyExpiringTokens } from "../../src/webhooks/maintenance.js";
import { createGroup, createProject, createUser, type TestUser } from "../helpers/factories.js";
import { createHook, deliveriesOf, startTestbed, type WebhookTestbed } from "./setup.js";
import { systemContext } from "../../src/domain/shared/context.js";

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
beforeEach(async () => {
  await bed.t.services.db.webHook.deleteMany({});
  bed.receiver.clear();
  bed.clock.set(new Date());
});

const inDays = (days: number) => new Date(bed.clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);

describe("access token events", () => {
  it("a project or group token expiring within seven days is announced once, as GitLab's expiring_access_token", async () => {
    await createHook(bed, group.id, { resource_access_token_events: true, member_events: true });
    const soon = await owner.api.post(`/projects/${project.id}/access_tokens`, { name: "soon", scopes: ["api"], expires_at: inDays(5) });
    const later = await owner.api.post(`/projects/${project.id}/access_tokens`, { name: "later", scopes: ["api"], expires_at: inDays(30) });
    const groupToken = await owner.api.post(`/groups/${group.id}/access_tokens`, { name: "grp", scopes: ["api"], expires_at: inDays(2) });
    expect([soon.status, later.status, groupToken.status]).toEqual([201, 201, 201]);
    const services = { ...bed.t.services };
    expect(await notifyExpiringTokens(services)).toBe(2);
    expect(await notifyExpiringTokens(services)).toBe(0);
    await bed.drain();
    const notices = bed.receiver.requests.filter((r) => r.json.object_kind === "access_token");
    expect(notices).toHaveLength(2);
    expect(notices[0]!.headers["x-service-event"]).toBe("Resource Access Token Hook");
    const projectNotice = notices.find((r) => r.json.project)!.json;
    expect(projectNotice).toEqual({
      object_kind: "access_token", project: expect.objectContaining({ id: project.id, path_with_namespace: project.path_with_namespace }),
      object_attributes: { user_id: soon.body.user_id, created_at: expect.stringMatching(/ UTC$/), id: soon.body.id, name: "soon", expires_at: inDays(5) },
      event_name: "expiring_access_token",
    });
    const groupNotice = notices.find((r) => r.json.group)!.json;
    expect(groupNotice.group).toEqual({ group_name: group.name, group_path: group.path, group_id: group.id, full_path: group.full_path });
    // the group token's bot joined the group: a member event
    expect(bed.receiver.requests.some((r) => r.json.event_name === "user_add_to_group" && r.json.user_id === groupToken.body.user_id)).toBe(true);
  });
});

describe("work item events", () => {
  const ctx = () => systemContext(bed.t.services);

  it("issue events go to issue hooks, confidential ones to confidential issue hooks only", async () => {
    const plain = await createHook(bed, group.id, { issues_events: true });
    const secret = await createHook(bed, group.id, { confidential_issues_events: true });
    const db = bed.t.services.db;
    const open = await db.issue.create({ data: { projectId: project.id, iid: 101, title: "Open", authorId: owner.id }, include: { assignees: true } });
    const hidden = await db.issue.create({ data: { projectId: project.id, iid: 102, title: "Hidden", authorId: owner.id, confidential: true }, include: { assignees: true } });
    await db.$transaction(async (tx) => {
      await publish(tx, ctx(), "issue", { action: "open", projectId: project.id, issue: open, actorId: owner.id, changes: {} });
      await publish(tx, ctx(), "issue", {
        action: "update", projectId: project.id, issue: hidden, actorId: owner.id, changes: { title: { previous: "Old", current: "Hidden" } },
      });
    });
    expect((await deliveriesOf(bed, plain.id)).map((d) => d.trigger)).toEqual(["issue_hooks"]);
    expect((await deliveriesOf(bed, secret.id)).map((d) => d.trigger)).toEqual(["confidential_issue_hooks"]);
    await bed.drain();
    const byTitle = Object.fromEntries(bed.receiver.requests.map((r) => [r.json.object_attributes.title, r]));
    expect(byTitle.Open!.headers["x-service-event"]).toBe("Issue Hook");
    expect(byTitle.Open!.json).toMatchObject({
      object_kind: "issue", event_type: "issue", user: { id: owner.id, username: owner.username },
      project: { id: project.id }, object_attributes: { id: open.id, iid: 101, action: "open", state: "opened", url: expect.stringMatching(/\/-\/issues\/101$/) },
    });
    expect(byTitle.Hidden!.headers["x-service-event"]).toBe("Confidential Issue Hook");
    expect(byTitle.Hidden!.json).toMatchObject({ event_type: "confidential_issue", changes: { title: { previous: "Old", current: "Hidden" } } });
  });

  it("merge request, note and emoji events", async () => {
    await createHook(bed, group.id, { merge_requests_events: true, note_events: true, emoji_events: true, push_events: false });
    const db = bed.t.services.db;
    const mr = await db.mergeRequest.create({
      data: { projectId: project.id, iid: 201, title: "MR", sourceBranch: "feature", targetBranch: "main", authorId: owner.id },
    });
    const note = await db.note.create({ data: { projectId: project.id, noteableType: "MergeRequest", noteableId: mr.id, authorId: owner.id, body: "Looks good" } });
    const award = await db.awardEmoji.create({ data: { name: "thumbsup", userId: owner.id, awardableType: "Note", awardableId: note.id } });
    await db.$transaction(async (tx) => {
      await publish(tx, ctx(), "merge_request", { action: "open", projectId: project.id, mergeRequestId: mr.id, actorId: owner.id, changes: {} });
      await publish(tx, ctx(), "note", { action: "create", projectId: project.id, noteId: note.id, actorId: owner.id });
      await publish(tx, ctx(), "emoji", {
        action: "award", awardableType: "Note", awardableId: note.id, projectId: project.id, awardEmojiId: award.id,
        name: "thumbsup", userId: owner.id, actorId: owner.id,
      });
    });
    await bed.drain();
    const [mrHook, noteHook, emojiHook] = bed.receiver.requests;
    expect(mrHook!.headers["x-service-event"]).toBe("Merge Request Hook");
    expect(mrHook!.json).toMatchObject({ object_kind: "merge_request", object_attributes: { iid: 201, action: "open", source_branch: "feature", target_branch: "main" } });
    expect(noteHook!.headers["x-service-event"]).toBe("Note Hook");
    expect(noteHook!.json).toMatchObject({
      object_kind: "note", object_attributes: { note: "Looks good", noteable_type: "MergeRequest", action: "create", url: expect.stringMatching(/merge_requests\/201#note_\d+$/) },
      merge_request: { iid: 201 },
    });
    expect(emojiHook!.headers["x-service-event"]).toBe("Emoji Hook");
    expect(emojiHook!.json).toMatchObject({
      object_kind: "emoji", event_type: "award",
      object_attributes: { id: award.id, name: "thumbsup", awardable_type: "Note", awardable_id: note.id, action: "award", awarded_on_url: noteHook!.json.object_attributes.url },
      note: { id: note.id }, merge_request: { iid: 201 },
    });
  });

  it("approvals are merge request hooks with the approval actions; a reset sends nothing", async () => {
    const hook = await createHook(bed, group.id, { merge_requests_events: true, push_events: false });
    const mr = await bed.t.services.db.mergeRequest.create({
      data: { projectId: project.id, iid: 301, title: "To approve", sourceBranch: "f", targetBranch: "main", authorId: owner.id },
    });
    await bed.t.services.db.$transaction(async (tx) => {
      for (const action of ["approval", "approved", "unapproval", "unapproved", "reset"] as const) {
        await publish(tx, ctx(), "approval", { action, projectId: project.id, mergeRequestId: mr.id, actorId: owner.id, userIds: [owner.id], cause: "api" });
      }
    });
    expect(await deliveriesOf(bed, hook.id)).toHaveLength(4);
    await bed.drain();
    expect(bed.receiver.requests.map((r) => [r.headers["x-service-event"], r.json.object_attributes.action])).toEqual([
      ["Merge Request Hook", "approval"], ["Merge Request Hook", "approved"], ["Merge Request Hook", "unapproval"], ["Merge Request Hook", "unapproved"],
    ]);
  });
});

describe("the hooks that hear an event are kept between events", () => {
  // domain/shared/caches.ts: emptied when GroupHook changes, so the next event sees the change
  it("a hook added, switched off or removed through the API changes who hears the next issue", async () => {
    const create = (title: string) => owner.api.post(`/projects/${project.id}/issues`, { title });
    const first = await createHook(bed, group.id, { issues_events: true });
    expect((await create("one")).status).toBe(201);
    const second = await createHook(bed, group.id, { issues_events: true });
    expect((await create("two")).status).toBe(201);
    expect((await bed.t.root.put(`/groups/${group.id}/hooks/${first.id}`, { url: first.url, issues_events: false })).status).toBe(200);
    expect((await create("three")).status).toBe(201);
    expect((await bed.t.root.delete(`/groups/${group.id}/hooks/${second.id}`)).status).toBe(204);
    expect((await create("four")).status).toBe(201);
    const titles = async (hookId: number) => (await deliveriesOf(bed, hookId)).map((d) => JSON.parse(d.payload).object_attributes.title);
    expect(await titles(first.id)).toEqual(["one", "two"]);
    expect(await titles(second.id)).toEqual([]); // its rows went with it
    const survivors = await bed.t.services.db.webHookDelivery.findMany({ where: { trigger: "issue_hooks" }, orderBy: { id: "asc" } });
    expect(survivors.map((d) => JSON.parse(d.payload).object_attributes.title)).toEqual(["one", "two"]);
  });
});
