// Live events on the public graph: Subscription.projectEvents and groupEvents over SSE, fed by
// writes through REST. Who may subscribe (a project or group the caller can see), which events
// reach whom (confidential issues and internal notes by the domain's read rules, checked at
// delivery), nothing for refused or rolled-back writes, and (PostgreSQL) events carried from
// another process's writes by LISTEN/NOTIFY.
import { afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createApp } from "../../src/app.js";
import { publish } from "../../src/domain/shared/events.js";
import { LIVE_EVENTS_CHANNEL } from "../../src/domain/live-events/publisher.js";
import { createServices } from "../../src/services.js";
import type { ApiClient } from "../helpers/api.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { approve } from "../helpers/approvals.js";
import { awardEmoji, awardEmojiPath } from "../helpers/award-emoji.js";
import { createGroup, createProject, createUser, uniq } from "../helpers/factories.js";
import { gid, NOT_AVAILABLE } from "../helpers/graph.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { createNote } from "../helpers/snippets-notes.js";
import { subscribeSse, type SseSubscription } from "../helpers/sse.js";
import { onPostgresql } from "../helpers/test-database.js";
import { createTeamWithProjects, type TeamWithProjects } from "../helpers/team.js";
import { systemContext } from "../../src/domain/shared/context.js";

let t: TestApp;
let team: TeamWithProjects;
let publicPath: string;
let opened: SseSubscription[] = [];

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  publicPath = team.publicProject.path_with_namespace;
});

afterEach(async () => {
  await Promise.all(opened.map((subscription) => subscription.close()));
  opened = [];
});

const EVENT_FIELDS = `kind action objectId emojiName occurredAt project { fullPath }
  object { id ... on Issue { title confidential } ... on MergeRequest { title } ... on Note { body internal } }`;
const PROJECT_EVENTS = `subscription($path: ID!) { projectEvents(fullPath: $path) { ${EVENT_FIELDS} } }`;
const GROUP_EVENTS = `subscription($path: ID!) { groupEvents(fullPath: $path) { ${EVENT_FIELDS} } }`;

async function subscribe(client: ApiClient, query: string, path: string, app = client.app): Promise<SseSubscription> {
  const subscription = await subscribeSse(client, query, { path }, app);
  opened.push(subscription);
  return subscription;
}

/** The next event's `field` result, failing on errors or silence. */
async function nextEvent(subscription: SseSubscription, field = "projectEvents"): Promise<any> {
  const message = await subscription.next();
  expect(message, "an event").not.toBeNull();
  expect(message!.errors).toBeUndefined();
  return (message!.data as Record<string, unknown>)[field];
}

const short = (event: any) => [event.kind, event.action, event.objectId];

describe("projectEvents", () => {
  it("delivers an issue's open, update and close to an anonymous subscriber of a public project", async () => {
    const events = await subscribe(t.anon, PROJECT_EVENTS, publicPath);
    expect(events.status).toBe(200);
    const issue = await createIssue(team.developer.api, team.publicProject.id, { title: "Live" });
    const opened = await nextEvent(events);
    expect(opened).toMatchObject({
      kind: "ISSUE", action: "open", objectId: gid("Issue", issue.id), emojiName: null,
      project: { fullPath: publicPath }, object: { id: gid("Issue", issue.id), title: "Live", confidential: false },
    });
    expect(Date.parse(opened.occurredAt)).not.toBeNaN();

    const issuePath = `/projects/${team.publicProject.id}/issues/${issue.iid}`;
    expect((await team.developer.api.put(issuePath, { title: "Live, renamed" })).status).toBe(200);
    expect((await team.developer.api.put(issuePath, { state_event: "close" })).status).toBe(200);
    expect(short(await nextEvent(events))).toEqual(["ISSUE", "update", gid("Issue", issue.id)]);
    expect(short(await nextEvent(events))).toEqual(["ISSUE", "close", gid("Issue", issue.id)]);
  });

  it("delivers merge request, note, emoji and approval events", async () => {
    const events = await subscribe(team.reporter.api, PROJECT_EVENTS, publicPath);
    const pub = team.publicProject.id;
    const mr = await createMergeRequest(team.developer.api, pub);
    const issue = await createIssue(team.owner.api, pub);
    const note = await createNote(team.guest.api, pub, "issues", issue.iid, { body: "a comment" });
    const target = { projectId: pub, kind: "issues" as const, ref: issue.iid };
    const award = await awardEmoji(team.guest.api, target, "rocket");
    expect((await team.guest.api.delete(`${awardEmojiPath(target)}/${award.id}`)).status).toBe(204);
    await approve(team.maintainer.api, pub, mr.iid);

    expect(await nextEvent(events)).toMatchObject({ kind: "MERGE_REQUEST", action: "open", objectId: gid("MergeRequest", mr.id), object: { title: mr.title } });
    expect(short(await nextEvent(events))).toEqual(["ISSUE", "open", gid("Issue", issue.id)]);
    expect(await nextEvent(events)).toMatchObject({ kind: "NOTE", action: "create", objectId: gid("Note", note.id), object: { body: "a comment" } });
    expect(await nextEvent(events)).toMatchObject({ kind: "EMOJI", action: "award", objectId: gid("Issue", issue.id), emojiName: "rocket" });
    expect(await nextEvent(events)).toMatchObject({ kind: "EMOJI", action: "revoke", objectId: gid("Issue", issue.id), emojiName: "rocket" });
    expect(await nextEvent(events)).toMatchObject({ kind: "APPROVAL", action: "approved", objectId: gid("MergeRequest", mr.id), object: { title: mr.title } });
  });

  it("refuses a project the caller cannot see, and a missing or numeric path", async () => {
    const privatePath = team.privateProject.path_with_namespace;
    const refusals: [ApiClient, string][] = [
      [team.nonMember.api, privatePath], [t.anon, privatePath], [team.owner.api, `${privatePath}-missing`], [team.owner.api, String(team.privateProject.id)],
    ];
    for (const [client, path] of refusals) {
      const message = await (await subscribe(client, PROJECT_EVENTS, path)).next();
      expect(message?.errors?.[0]?.message, path).toBe(NOT_AVAILABLE);
      expect(message?.data?.projectEvents ?? null).toBeNull();
    }
  });

  it("delivers a private project's events to its guest", async () => {
    const events = await subscribe(team.guest.api, PROJECT_EVENTS, team.privateProject.path_with_namespace);
    const issue = await createIssue(team.owner.api, team.privateProject.id);
    expect(short(await nextEvent(events))).toEqual(["ISSUE", "open", gid("Issue", issue.id)]);
  });

  it("keeps a confidential issue, its notes and internal notes from a guest, not from a reporter", async () => {
    const pub = team.publicProject.id;
    const guest = await subscribe(team.guest.api, PROJECT_EVENTS, publicPath);
    const reporter = await subscribe(team.reporter.api, PROJECT_EVENTS, publicPath);
    const secret = await createIssue(team.owner.api, pub, { title: "Secret", confidential: true });
    const secretNote = await createNote(team.owner.api, pub, "issues", secret.iid, { body: "on the secret" });
    const plain = await createIssue(team.owner.api, pub, { title: "Plain" });
    const internal = await createNote(team.owner.api, pub, "issues", plain.iid, { body: "internal", internal: true });
    const visible = await createNote(team.owner.api, pub, "issues", plain.iid, { body: "for all" });

    expect(await nextEvent(reporter)).toMatchObject({ kind: "ISSUE", objectId: gid("Issue", secret.id), object: { confidential: true } });
    expect(short(await nextEvent(reporter))).toEqual(["NOTE", "create", gid("Note", secretNote.id)]);
    expect(short(await nextEvent(reporter))).toEqual(["ISSUE", "open", gid("Issue", plain.id)]);
    expect(await nextEvent(reporter)).toMatchObject({ objectId: gid("Note", internal.id), object: { internal: true } });
    expect(short(await nextEvent(reporter))).toEqual(["NOTE", "create", gid("Note", visible.id)]);

    expect(short(await nextEvent(guest))).toEqual(["ISSUE", "open", gid("Issue", plain.id)]);
    expect(short(await nextEvent(guest))).toEqual(["NOTE", "create", gid("Note", visible.id)]);
  });

  it("checks access at delivery: a member removed while subscribed receives no more", async () => {
    const project = await createProject(team.owner.api, { visibility: "private" });
    const member = team.developer;
    expect((await team.owner.api.post(`/projects/${project.id}/members`, { user_id: member.id, access_level: 30 })).status).toBe(201);
    const events = await subscribe(member.api, PROJECT_EVENTS, project.path_with_namespace);
    const before = await createIssue(team.owner.api, project.id);
    expect(short(await nextEvent(events))).toEqual(["ISSUE", "open", gid("Issue", before.id)]);

    expect((await team.owner.api.delete(`/projects/${project.id}/members/${member.id}`)).status).toBe(204);
    await createIssue(team.owner.api, project.id);
    expect(await events.next(1_500)).toBeNull();
  });

  it("ends once the subscriber's token is revoked", async () => {
    const user = await createUser(t);
    const events = await subscribe(user.api, PROJECT_EVENTS, publicPath);
    const before = await createIssue(team.owner.api, team.publicProject.id);
    expect(short(await nextEvent(events))).toEqual(["ISSUE", "open", gid("Issue", before.id)]);

    expect((await user.api.delete("/personal_access_tokens/self")).status).toBe(204);
    await createIssue(team.owner.api, team.publicProject.id);
    expect(await events.next(1_500)).toBeNull();
  });

  it("emits nothing for refused writes", async () => {
    const pub = team.publicProject.id;
    const events = await subscribe(team.owner.api, PROJECT_EVENTS, publicPath);
    const issue = await createIssue(team.owner.api, pub);
    expect(short(await nextEvent(events))).toEqual(["ISSUE", "open", gid("Issue", issue.id)]);

    expect((await team.guest.api.put(`/projects/${pub}/issues/${issue.iid}`, { title: "not theirs" })).status).toBe(403);
    expect((await team.nonMember.api.post(`/projects/${team.privateProject.id}/issues`, { title: "hidden" })).status).toBe(404);
    expect((await team.owner.api.post(`/projects/${pub}/issues`, { title: "" })).status).toBe(400);
    const after = await createIssue(team.owner.api, pub);
    expect(short(await nextEvent(events))).toEqual(["ISSUE", "open", gid("Issue", after.id)]);
  });

  it("emits nothing for a write whose transaction rolls back after publishing", async () => {
    const pub = team.publicProject.id;
    const events = await subscribe(team.owner.api, PROJECT_EVENTS, publicPath);
    const issue = await createIssue(team.owner.api, pub);
    expect(short(await nextEvent(events))).toEqual(["ISSUE", "open", gid("Issue", issue.id)]);

    const ctx = systemContext(t.services);
    const rolledBack = t.services.db.$transaction(async (tx) => {
      const row = await tx.issue.findUniqueOrThrow({ where: { id: issue.id }, include: { assignees: true } });
      await publish(tx, ctx, "issue", { action: "update", projectId: pub, issue: row, actorId: team.owner.id, changes: {} });
      throw new Error("rolled back");
    });
    await expect(rolledBack).rejects.toThrow("rolled back");
    expect((await team.owner.api.put(`/projects/${pub}/issues/${issue.iid}`, { state_event: "close" })).status).toBe(200);
    expect(short(await nextEvent(events))).toEqual(["ISSUE", "close", gid("Issue", issue.id)]);
  });
});

describe("groupEvents", () => {
  it("delivers the events of the group's projects and its subgroups' projects, no others", async () => {
    const group = await createGroup(team.owner.api, { visibility: "public" });
    const subgroup = await createGroup(team.owner.api, { visibility: "public", parent_id: group.id });
    const direct = await createProject(team.owner.api, { visibility: "public", namespace_id: group.id });
    const nested = await createProject(team.owner.api, { visibility: "public", namespace_id: subgroup.id });
    const events = await subscribe(t.anon, GROUP_EVENTS, group.full_path);

    await createIssue(team.owner.api, team.publicProject.id); // outside the group
    const first = await createIssue(team.owner.api, direct.id);
    const second = await createIssue(team.owner.api, nested.id);
    expect(await nextEvent(events, "groupEvents")).toMatchObject({ objectId: gid("Issue", first.id), project: { fullPath: direct.path_with_namespace } });
    expect(await nextEvent(events, "groupEvents")).toMatchObject({ objectId: gid("Issue", second.id), project: { fullPath: nested.path_with_namespace } });
  });

  it("refuses a private group to an outsider and keeps its private projects' events from a public parent's subscriber", async () => {
    const privateGroup = await createGroup(team.owner.api, { visibility: "private" });
    const message = await (await subscribe(team.nonMember.api, GROUP_EVENTS, privateGroup.full_path)).next();
    expect(message?.errors?.[0]?.message).toBe(NOT_AVAILABLE);

    const group = await createGroup(team.owner.api, { visibility: "public" });
    const hidden = await createProject(team.owner.api, { visibility: "private", namespace_id: group.id });
    const shown = await createProject(team.owner.api, { visibility: "public", namespace_id: group.id });
    const events = await subscribe(team.nonMember.api, GROUP_EVENTS, group.full_path);
    await createIssue(team.owner.api, hidden.id);
    const seen = await createIssue(team.owner.api, shown.id);
    expect(short(await nextEvent(events, "groupEvents"))).toEqual(["ISSUE", "open", gid("Issue", seen.id)]);
  });
});

describe.runIf(onPostgresql)("several processes (PostgreSQL)", () => {
  /** connections of this test's database whose last statement was the live events' LISTEN */
  const liveListeners = async () => {
    const rows = await t.services.db.$queryRawUnsafe<{ count: bigint }[]>(
      `SELECT count(*) AS count FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN ${LIVE_EVENTS_CHANNEL}'`,
    );
    return Number(rows[0]!.count);
  };

  it("delivers events written through another process, by LISTEN/NOTIFY", async () => {
    // this file's database: the listeners of the earlier tests' subscriptions close once those end
    await expect.poll(liveListeners, { timeout: 5_000 }).toBe(0);
    const before = 0;
    const otherServices = await createServices(t.services.config);
    onTestFinished(() => otherServices.db.$disconnect());
    const events = await subscribe(t.anon, PROJECT_EVENTS, publicPath, createApp(otherServices));
    // the other process LISTENs once its first subscription opens: write until it hears
    const issue = await createIssue(team.owner.api, team.publicProject.id, { title: uniq("remote") });
    let event = await events.next(1_000);
    for (let attempt = 0; !event && attempt < 10; attempt++) {
      await team.owner.api.put(`/projects/${team.publicProject.id}/issues/${issue.iid}`, { title: uniq("remote") });
      event = await events.next(1_000);
    }
    expect(event?.errors).toBeUndefined();
    expect(event?.data?.projectEvents).toMatchObject({ kind: "ISSUE", objectId: gid("Issue", issue.id), project: { fullPath: publicPath } });

    // the process stops listening once its last subscription closes
    expect(await liveListeners()).toBeGreaterThan(before);
    await events.close();
    await expect.poll(liveListeners, { timeout: 5_000 }).toBe(before);
  });
});
