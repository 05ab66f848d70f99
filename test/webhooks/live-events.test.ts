// Every event a user causes through the REST API reaches the group hooks that ask for it: one hook
// per event switch on the group (each pointing at its own path of a loopback receiver, every other
// switch off), changes made through the real endpoints, the outbox drained by a worker, and the
// payloads compared with what the requests created. Also: ancestors' hooks, rolled-back changes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GROUP_HOOK_EVENTS } from "../../src/domain/web-hooks/owners.js";
import type { ApiClient } from "../helpers/api.js";
import { approve, createProjectRule, mrPath } from "../helpers/approvals.js";
import { awardEmoji, awardEmojiPath } from "../helpers/award-emoji.js";
import { addMember, createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { commitTo, createBranch, createMergeRequest } from "../helpers/merge-requests.js";
import { createNote, createSnippet } from "../helpers/snippets-notes.js";
import type { Received } from "./receiver.js";
import { createHook, startTestbed, type WebhookTestbed } from "./setup.js";

const SWITCHES = [
  "push_events", "issues_events", "confidential_issues_events", "note_events", "confidential_note_events",
  "merge_requests_events", "emoji_events", "member_events", "subgroup_events",
] as const;
type Switch = (typeof SWITCHES)[number];

const BLANK = "0".repeat(40);
const RUBY_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;

let bed: WebhookTestbed;
let owner: TestUser, developer: TestUser, maintainer: TestUser;
let group: any, project: any;

/** A hook on `groupId` at `<receiver>/<path>` with only the given switches on. */
function hookOn(groupId: number, path: string, on: string[], fields: Record<string, unknown> = {}) {
  const switches = Object.fromEntries(GROUP_HOOK_EVENTS.map((event) => [event, on.includes(event)]));
  return createHook(bed, groupId, { url: `${bed.receiver.url}/${path}`, ...switches, ...fields });
}

/** Sends and forgets what set-up queued. */
async function settle() {
  await bed.drain();
  bed.receiver.clear();
}

/** Runs the change, delivers what it queued, and returns what each path of the receiver got. */
async function deliveredBy(change: () => Promise<unknown>): Promise<(path: string) => Received[]> {
  await settle();
  await change();
  await bed.drain();
  const requests = [...bed.receiver.requests];
  bed.receiver.clear();
  return (path) => requests.filter((r) => r.path === `/${path}`);
}

/** The one request the switch's hook got, with every other switch's hook hearing nothing. */
function only(heard: (path: string) => Received[], heardBy: Switch): any {
  for (const other of SWITCHES) if (other !== heardBy) expect(heard(other), `${other} heard something`).toEqual([]);
  expect(heard(heardBy)).toHaveLength(1);
  return heard(heardBy)[0]!.json;
}

beforeAll(async () => {
  bed = await startTestbed();
  [owner, developer, maintainer] = await Promise.all([createUser(bed.t), createUser(bed.t), createUser(bed.t)]);
  group = await createGroup(owner.api);
  await addMember(owner.api, "groups", group.id, developer.id, 30);
  await addMember(owner.api, "groups", group.id, maintainer.id, 40);
  project = await createProject(owner.api, { namespace_id: group.id });
  for (const event of SWITCHES) await hookOn(group.id, event, [event]);
});
afterAll(() => bed.close());
beforeEach(settle);

describe("push", () => {
  const headOf = async (branch: string) => (await owner.api.get(`/projects/${project.id}/repository/branches/${encodeURIComponent(branch)}`)).body.commit.id;

  it("a commit through POST .../repository/commits: the spec's push payload, field for field", async () => {
    const before = await headOf("main");
    let commit: any;
    const heard = await deliveredBy(async () => (commit = await commitTo(owner.api, project.id, "main", "docs/readme.txt")));
    const payload = only(heard, "push_events");
    expect(heard("push_events")[0]!.headers["x-service-event"]).toBe("Push Hook");
    const protectedNames = (await owner.api.get(`/projects/${project.id}/protected_branches`)).body.map((b: any) => b.name);
    const sshUrl = `git@${new URL(project.web_url).host}:${project.path_with_namespace}.git`;
    expect(Object.keys(payload)).toEqual([
      "object_kind", "event_name", "before", "after", "ref", "ref_protected", "checkout_sha", "message", "user_id", "user_name",
      "user_username", "user_email", "user_avatar", "project_id", "project", "commits", "total_commits_count", "push_options", "repository",
    ]);
    expect(payload).toMatchObject({
      object_kind: "push", event_name: "push", before, after: commit.id, ref: "refs/heads/main", ref_protected: protectedNames.includes("main"),
      checkout_sha: commit.id, message: null, user_id: owner.id, user_name: `User ${owner.username}`, user_username: owner.username,
      project_id: project.id, total_commits_count: 1, push_options: {},
    });
    expect(payload.project).toEqual({
      id: project.id, name: project.name, description: project.description, web_url: project.web_url, avatar_url: null,
      git_ssh_url: sshUrl, git_http_url: `${project.web_url}.git`, namespace: group.name, visibility_level: 0,
      path_with_namespace: project.path_with_namespace, default_branch: "main", ci_config_path: null, homepage: project.web_url,
      url: sshUrl, ssh_url: sshUrl, http_url: `${project.web_url}.git`,
    });
    expect(payload.commits).toEqual([{
      id: commit.id, message: commit.message, title: commit.title, timestamp: expect.any(String), url: `${project.web_url}/-/commit/${commit.id}`,
      author: { name: commit.author_name, email: commit.author_email }, added: ["docs/readme.txt"], modified: [], removed: [],
    }]);
    const seconds = (text: string) => Math.floor(Date.parse(text) / 1000);
    expect(seconds(payload.commits[0].timestamp)).toBe(seconds(commit.authored_date));
    expect(payload.repository).toEqual({
      name: project.name, url: sshUrl, description: project.description, homepage: project.web_url,
      git_http_url: `${project.web_url}.git`, git_ssh_url: sshUrl, visibility_level: 0,
    });
  });

  it("a branch created and deleted through the branches API: blank before, then blank after, no commits", async () => {
    const name = uniq("topic");
    let branch: any;
    const created = only(await deliveredBy(async () => (branch = await createBranch(owner.api, project.id, name))), "push_events");
    expect(created).toMatchObject({
      before: BLANK, after: branch.commit.id, checkout_sha: branch.commit.id, ref: `refs/heads/${name}`, commits: [], total_commits_count: 0,
    });
    const deleted = only(await deliveredBy(async () => {
      expect((await owner.api.delete(`/projects/${project.id}/repository/branches/${name}`)).status).toBe(204);
    }), "push_events");
    expect(deleted).toMatchObject({ before: branch.commit.id, after: BLANK, checkout_sha: null, ref: `refs/heads/${name}`, commits: [], total_commits_count: 0 });
  });

  it("a hook's branch filter lets through only the branches it names", async () => {
    await hookOn(group.id, "filtered", ["push_events"], { branch_filter_strategy: "wildcard", push_events_branch_filter: "release/*" });
    const release = uniq("release/v");
    const heard = await deliveredBy(async () => {
      await createBranch(owner.api, project.id, release);
      await commitTo(owner.api, project.id, release);
      await commitTo(owner.api, project.id, "main");
    });
    expect(heard("push_events").map((r) => r.json.ref)).toEqual([`refs/heads/${release}`, `refs/heads/${release}`, "refs/heads/main"]);
    expect(heard("filtered").map((r) => r.json.ref)).toEqual([`refs/heads/${release}`, `refs/heads/${release}`]);
  });
});

describe("issues", () => {
  const issuePath = (issue: any) => `/projects/${project.id}/issues/${issue.iid}`;

  it("open: object_kind issue with the issue's attributes, its assignees and labels", async () => {
    let issue: any;
    const heard = await deliveredBy(async () => {
      issue = await createIssue(owner.api, project.id, { description: "Steps", labels: "bug,ui", assignee_ids: [developer.id] });
    });
    const payload = only(heard, "issues_events");
    expect(heard("issues_events")[0]!.headers["x-service-event"]).toBe("Issue Hook");
    expect(payload).toMatchObject({
      object_kind: "issue", event_type: "issue",
      user: { id: owner.id, username: owner.username, name: `User ${owner.username}` },
      project: { id: project.id, web_url: project.web_url, path_with_namespace: project.path_with_namespace },
      object_attributes: {
        id: issue.id, iid: issue.iid, title: issue.title, description: "Steps", action: "open", state: "opened", state_id: 1,
        url: issue.web_url, author_id: owner.id, project_id: project.id, assignee_ids: [developer.id], assignee_id: developer.id,
        confidential: false, type: "Issue", created_at: expect.stringMatching(RUBY_TIME),
      },
      assignees: [{ id: developer.id, username: developer.username }],
      repository: { name: project.name, homepage: project.web_url },
      changes: {
        title: { previous: null, current: issue.title }, id: { previous: null, current: issue.id }, iid: { previous: null, current: issue.iid },
        author_id: { previous: null, current: owner.id }, project_id: { previous: null, current: project.id },
        created_at: { previous: null, current: expect.stringMatching(RUBY_TIME) },
      },
    });
    expect(payload.labels.map((l: any) => l.title).sort()).toEqual([...issue.labels].sort());
    expect(payload.object_attributes.labels).toEqual(payload.labels);
  });

  it("update: changes with previous and current (labels and assignees as GitLab expands them)", async () => {
    const issue = await createIssue(owner.api, project.id, { labels: "bug" });
    const title = uniq("renamed");
    bed.clock.advance(1000);
    const payload = only(await deliveredBy(() => owner.api.put(issuePath(issue), { title, add_labels: "ui", assignee_ids: [maintainer.id] })), "issues_events");
    expect(payload.object_attributes).toMatchObject({ id: issue.id, iid: issue.iid, title, action: "update", state: "opened" });
    expect(payload.changes.title).toEqual({ previous: issue.title, current: title });
    expect(payload.changes.labels.previous.map((l: any) => l.title)).toEqual(["bug"]);
    expect(payload.changes.labels.current.map((l: any) => l.title).sort()).toEqual(["bug", "ui"]);
    expect(payload.changes.assignees).toEqual({ previous: [], current: [expect.objectContaining({ id: maintainer.id, username: maintainer.username })] });
    expect(payload.changes.updated_at).toEqual({ previous: expect.stringMatching(RUBY_TIME), current: expect.stringMatching(RUBY_TIME) });
  });

  it("close and reopen: the actions, state_id in changes, closed_at", async () => {
    const issue = await createIssue(owner.api, project.id);
    const closed = only(await deliveredBy(() => owner.api.put(issuePath(issue), { state_event: "close" })), "issues_events");
    expect(closed.object_attributes).toMatchObject({ id: issue.id, action: "close", state: "closed", state_id: 2, closed_at: expect.stringMatching(RUBY_TIME) });
    expect(closed.changes).toMatchObject({ state_id: { previous: 1, current: 2 }, closed_at: { previous: null, current: expect.stringMatching(RUBY_TIME) } });
    expect(closed.changes).not.toHaveProperty("closed_by_id");
    const reopened = only(await deliveredBy(() => owner.api.put(issuePath(issue), { state_event: "reopen" })), "issues_events");
    expect(reopened.object_attributes).toMatchObject({ action: "reopen", state: "opened", state_id: 1, closed_at: null });
    expect(reopened.changes.state_id).toEqual({ previous: 2, current: 1 });
  });

  it("a confidential issue reaches only the hooks with confidential_issues_events, as confidential_issue", async () => {
    let issue: any;
    const heard = await deliveredBy(async () => (issue = await createIssue(owner.api, project.id, { confidential: true })));
    const payload = only(heard, "confidential_issues_events");
    expect(heard("confidential_issues_events")[0]!.headers["x-service-event"]).toBe("Confidential Issue Hook");
    expect(payload).toMatchObject({ object_kind: "issue", event_type: "confidential_issue", object_attributes: { id: issue.id, confidential: true, action: "open" } });
  });

  it("an issue made confidential is heard by the confidential hook only, with the change", async () => {
    const issue = await createIssue(owner.api, project.id);
    const payload = only(await deliveredBy(() => owner.api.put(issuePath(issue), { confidential: true })), "confidential_issues_events");
    expect(payload).toMatchObject({ event_type: "confidential_issue", object_attributes: { id: issue.id, action: "update" }, changes: { confidential: { previous: false, current: true } } });
  });
});

describe("notes", () => {
  it("on an issue: object_kind note with the issue; an edit is action update", async () => {
    const issue = await createIssue(owner.api, project.id);
    let note: any;
    const heard = await deliveredBy(async () => (note = await createNote(developer.api, project.id, "issues", issue.iid, { body: "First!" })));
    const payload = only(heard, "note_events");
    expect(heard("note_events")[0]!.headers["x-service-event"]).toBe("Note Hook");
    expect(payload).toMatchObject({
      object_kind: "note", event_type: "note", user: { id: developer.id, username: developer.username }, project_id: project.id,
      project: { id: project.id, web_url: project.web_url }, repository: { name: project.name },
      object_attributes: {
        id: note.id, note: "First!", noteable_type: "Issue", noteable_id: issue.id, author_id: developer.id, project_id: project.id,
        system: false, internal: false, action: "create", url: `${issue.web_url}#note_${note.id}`,
      },
      issue: { id: issue.id, iid: issue.iid, title: issue.title, url: issue.web_url },
    });
    const edited = only(await deliveredBy(() => developer.api.put(`/projects/${project.id}/issues/${issue.iid}/notes/${note.id}`, { body: "Edited" })), "note_events");
    expect(edited.object_attributes).toMatchObject({ id: note.id, note: "Edited", action: "update" });
  });

  it("an internal note, or any note on a confidential issue, is a confidential_note for confidential note hooks only", async () => {
    const issue = await createIssue(owner.api, project.id);
    let internal: any;
    const heard = await deliveredBy(async () => (internal = await createNote(owner.api, project.id, "issues", issue.iid, { internal: true })));
    const payload = only(heard, "confidential_note_events");
    expect(heard("confidential_note_events")[0]!.headers["x-service-event"]).toBe("Confidential Note Hook");
    expect(payload).toMatchObject({ object_kind: "note", event_type: "confidential_note", object_attributes: { id: internal.id, internal: true }, issue: { id: issue.id } });

    const secret = await createIssue(owner.api, project.id, { confidential: true });
    let note: any;
    const onSecret = only(await deliveredBy(async () => (note = await createNote(owner.api, project.id, "issues", secret.iid))), "confidential_note_events");
    expect(onSecret).toMatchObject({ event_type: "confidential_note", object_attributes: { id: note.id, internal: false }, issue: { id: secret.id, confidential: true } });
  });

  it("on a merge request: the merge_request key with its attributes", async () => {
    const mr = await createMergeRequest(owner.api, project.id);
    let note: any;
    const payload = only(await deliveredBy(async () => (note = await createNote(owner.api, project.id, "merge_requests", mr.iid))), "note_events");
    expect(payload).toMatchObject({
      event_type: "note",
      object_attributes: { id: note.id, noteable_type: "MergeRequest", noteable_id: mr.id, url: `${mr.web_url}#note_${note.id}` },
      merge_request: { id: mr.id, iid: mr.iid, title: mr.title, source_branch: mr.source_branch, target_branch: "main", url: mr.web_url },
    });
  });

  it("on a project snippet: the snippet key with its attributes", async () => {
    const snippet = await createSnippet(owner.api, project.id, { file_name: "hello.rb", content: "puts 1" });
    let note: any;
    const payload = only(await deliveredBy(async () => (note = await createNote(owner.api, project.id, "snippets", snippet.id))), "note_events");
    expect(payload).toMatchObject({
      event_type: "note",
      object_attributes: { id: note.id, noteable_type: "Snippet", noteable_id: snippet.id, url: `${snippet.web_url}#note_${note.id}` },
      snippet: { id: snippet.id, title: snippet.title, file_name: "hello.rb", content: "puts 1", type: "ProjectSnippet", url: snippet.web_url },
    });
  });
});

describe("merge requests", () => {
  const update = (mr: any, body: Record<string, unknown>) => owner.api.put(`/projects/${project.id}/merge_requests/${mr.iid}`, body);

  it("open, update, close and reopen: object_kind merge_request and the action", async () => {
    let mr: any;
    const heard = await deliveredBy(async () => (mr = await createMergeRequest(owner.api, project.id, { description: "Why", labels: "feature" })));
    expect(heard("merge_requests_events")).toHaveLength(1);
    expect(heard("merge_requests_events")[0]!.headers["x-service-event"]).toBe("Merge Request Hook");
    const opened = heard("merge_requests_events")[0]!.json;
    expect(opened).toMatchObject({
      object_kind: "merge_request", event_type: "merge_request", user: { id: owner.id, username: owner.username },
      project: { id: project.id },
      object_attributes: {
        id: mr.id, iid: mr.iid, title: mr.title, description: "Why", source_branch: mr.source_branch, target_branch: "main",
        source_project_id: project.id, target_project_id: project.id, author_id: owner.id, state: "opened", state_id: 1,
        action: "open", url: mr.web_url, last_commit: { id: mr.sha }, source: { id: project.id }, target: { id: project.id },
      },
      labels: [expect.objectContaining({ title: "feature" })],
    });
    // Commit#hook_attrs without the changed files
    expect(Object.keys(opened.object_attributes.last_commit)).toEqual(["id", "message", "title", "timestamp", "url", "author"]);

    const title = uniq("Draft: retitled");
    const updated = only(await deliveredBy(() => update(mr, { title, add_labels: "urgent" })), "merge_requests_events");
    expect(updated.object_attributes).toMatchObject({ action: "update", title, draft: true, work_in_progress: true });
    expect(updated.changes.title).toEqual({ previous: mr.title, current: title });
    expect(updated.changes.draft).toEqual({ previous: false, current: true });
    expect(updated.changes.labels.current.map((l: any) => l.title).sort()).toEqual(["feature", "urgent"]);
    expect(updated.changes.updated_at).toEqual({ previous: expect.stringMatching(RUBY_TIME), current: expect.stringMatching(RUBY_TIME) });

    const closed = only(await deliveredBy(() => update(mr, { state_event: "close" })), "merge_requests_events");
    expect(closed.object_attributes).toMatchObject({ action: "close", state: "closed", state_id: 2 });
    expect(closed.changes.state_id).toEqual({ previous: 1, current: 2 });
    const reopened = only(await deliveredBy(() => update(mr, { state_event: "reopen" })), "merge_requests_events");
    expect(reopened.object_attributes).toMatchObject({ action: "reopen", state: "opened" });
  });

  it("a push to the source branch is an update with oldrev and the new last commit", async () => {
    const mr = await createMergeRequest(owner.api, project.id);
    let commit: any;
    const heard = await deliveredBy(async () => (commit = await commitTo(owner.api, project.id, mr.source_branch)));
    expect(heard("push_events")).toHaveLength(1);
    expect(heard("merge_requests_events")).toHaveLength(1);
    expect(heard("merge_requests_events")[0]!.json).toMatchObject({
      object_kind: "merge_request", object_attributes: { iid: mr.iid, action: "update", oldrev: mr.sha, last_commit: { id: commit.id } }, changes: {},
    });
  });

  it("approvals: approval, approved, unapproved, unapproval, by the approver", async () => {
    const approvals = await createProject(owner.api, { namespace_id: group.id });
    await createProjectRule(owner.api, approvals.id, { name: "Two", approvals_required: 2 });
    const mr = await createMergeRequest(owner.api, approvals.id);
    const unapprove = (by: ApiClient) => by.post(`${mrPath(approvals.id, mr.iid)}/unapprove`, {});
    const steps: [() => Promise<unknown>, TestUser, string][] = [
      [() => approve(developer.api, approvals.id, mr.iid), developer, "approval"],
      [() => approve(maintainer.api, approvals.id, mr.iid), maintainer, "approved"],
      [() => unapprove(developer.api), developer, "unapproved"],
      [() => unapprove(maintainer.api), maintainer, "unapproval"],
    ];
    for (const [step, user, action] of steps) {
      const payload = only(await deliveredBy(step), "merge_requests_events");
      expect(payload).toMatchObject({
        object_kind: "merge_request", user: { id: user.id, username: user.username },
        project: { id: approvals.id }, object_attributes: { id: mr.id, iid: mr.iid, action },
      });
    }
  });
});

describe("emoji reactions", () => {
  it("award and revoke on an issue, a merge request, a snippet and a note, with the awardable", async () => {
    const issue = await createIssue(owner.api, project.id);
    const mr = await createMergeRequest(owner.api, project.id);
    const snippet = await createSnippet(owner.api, project.id);
    const note = await createNote(owner.api, project.id, "issues", issue.iid);
    const targets = [
      { target: { projectId: project.id, kind: "issues" as const, ref: issue.iid }, type: "Issue", id: issue.id, url: issue.web_url, key: "issue" },
      { target: { projectId: project.id, kind: "merge_requests" as const, ref: mr.iid }, type: "MergeRequest", id: mr.id, url: mr.web_url, key: "merge_request" },
      { target: { projectId: project.id, kind: "snippets" as const, ref: snippet.id }, type: "Snippet", id: snippet.id, url: snippet.web_url, key: "snippet" },
      { target: { projectId: project.id, kind: "issues" as const, ref: issue.iid, noteId: note.id }, type: "Note", id: note.id, url: `${issue.web_url}#note_${note.id}`, key: "note" },
    ];
    for (const { target, type, id, url, key } of targets) {
      let award: any;
      const heard = await deliveredBy(async () => (award = await awardEmoji(developer.api, target, "thumbsup")));
      const awarded = only(heard, "emoji_events");
      expect(heard("emoji_events")[0]!.headers["x-service-event"]).toBe("Emoji Hook");
      expect(awarded).toMatchObject({
        object_kind: "emoji", event_type: "award", user: { id: developer.id }, project_id: project.id, project: { id: project.id },
        object_attributes: { id: award.id, name: "thumbsup", user_id: developer.id, awardable_type: type, awardable_id: id, action: "award", awarded_on_url: url },
        [key]: { id },
      });
      if (type === "Note") expect(awarded.issue).toMatchObject({ id: issue.id, iid: issue.iid });
      const revoked = only(await deliveredBy(async () => {
        expect((await developer.api.delete(`${awardEmojiPath(target)}/${award.id}`)).status).toBe(204);
      }), "emoji_events");
      expect(revoked).toMatchObject({ event_type: "revoke", object_attributes: { id: award.id, action: "revoke", awardable_id: id } });
    }
  });
});

describe("group events and the group hierarchy", () => {
  it("a member added through the members API", async () => {
    const user = await createUser(bed.t);
    const payload = only(await deliveredBy(() => addMember(owner.api, "groups", group.id, user.id, 20)), "member_events");
    expect(payload).toMatchObject({ event_name: "user_add_to_group", group_id: group.id, group_path: group.path, user_id: user.id, user_username: user.username, group_access: "Reporter" });
  });

  it("removing a group member announces the removal of their subgroup memberships too", async () => {
    const child = await createGroup(owner.api, { parent_id: group.id });
    const user = await createUser(bed.t);
    await addMember(owner.api, "groups", group.id, user.id, 10);
    await addMember(owner.api, "groups", child.id, user.id, 30);
    const heard = await deliveredBy(async () => {
      expect((await owner.api.delete(`/groups/${group.id}/members/${user.id}`)).status).toBe(204);
    });
    expect(heard("member_events").map((r) => [r.json.event_name, r.json.group_id, r.json.user_id, r.json.group_access])).toEqual([
      ["user_remove_from_group", group.id, user.id, "Guest"], ["user_remove_from_group", child.id, user.id, "Developer"],
    ]);
    expect((await owner.api.get(`/groups/${child.id}/members/${user.id}`)).status).toBe(404);
  });

  it("a subgroup created through POST /groups, and events of its projects, reach the ancestors' hooks", async () => {
    let child: any;
    const heard = await deliveredBy(async () => (child = await createGroup(owner.api, { parent_id: group.id })));
    expect(heard("subgroup_events").map((r) => r.json)).toEqual([expect.objectContaining({
      event_name: "subgroup_create", group_id: child.id, full_path: child.full_path, parent_group_id: group.id, parent_full_path: group.full_path,
    })]);
    expect(heard("member_events").map((r) => r.json)).toEqual([expect.objectContaining({ event_name: "user_add_to_group", group_id: child.id, user_id: owner.id })]);

    const deep = await createProject(owner.api, { namespace_id: child.id });
    await hookOn(child.id, "child-issues", ["issues_events"]);
    const sibling = await createGroup(owner.api);
    await hookOn(sibling.id, "sibling-issues", ["issues_events"]);
    let issue: any;
    const fromChild = await deliveredBy(async () => (issue = await createIssue(owner.api, deep.id)));
    for (const path of ["issues_events", "child-issues"]) {
      expect(fromChild(path).map((r) => r.json.object_attributes.id)).toEqual([issue.id]);
      expect(fromChild(path)[0]!.json.project).toMatchObject({ id: deep.id, path_with_namespace: deep.path_with_namespace });
    }
    expect(fromChild("sibling-issues")).toEqual([]);
  });
});

describe("what did not happen is not sent", () => {
  it("requests refused by validation, inside or before their transaction, leave no delivery", async () => {
    const silentBefore = await bed.t.services.db.webHookDelivery.count();
    const issue = await createIssue(owner.api, project.id);
    const mr = await createMergeRequest(owner.api, project.id);
    await awardEmoji(owner.api, { projectId: project.id, kind: "issues", ref: issue.iid });
    const file = `${uniq("file")}.txt`;
    await commitTo(owner.api, project.id, "main", file);
    await settle();
    const queued = await bed.t.services.db.webHookDelivery.count();
    expect(queued).toBeGreaterThan(silentBefore);
    const refused = [
      await owner.api.post(`/projects/${project.id}/issues`, { title: "x".repeat(256) }),
      await owner.api.put(`/projects/${project.id}/issues/${issue.iid}`, { title: "   " }),
      await owner.api.post(`/projects/${project.id}/merge_requests`, { title: "No branch", source_branch: uniq("missing"), target_branch: "main" }),
      await owner.api.post(`/projects/${project.id}/merge_requests`, { title: "Twice", source_branch: mr.source_branch, target_branch: "main" }),
      await owner.api.post(awardEmojiPath({ projectId: project.id, kind: "issues", ref: issue.iid }), { name: "thumbsup" }),
      await owner.api.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { body: "" }),
      await owner.api.post(`/projects/${project.id}/repository/commits`, {
        branch: "main", commit_message: "again", actions: [{ action: "create", file_path: file, content: "x" }],
      }),
      await owner.api.post(`/groups/${group.id}/members`, { user_id: developer.id, access_level: 30 }),
    ];
    expect(refused.map((res) => [res.status, res.body])).toEqual([
      [400, { message: { title: ["is too long (maximum is 255 characters)"] } }],
      [400, { message: { title: ["can't be blank"] } }],
      [400, { message: { source_branch: ["does not exist"] } }],
      [409, { message: [`Another open merge request already exists for this source branch: !${mr.iid}`] }],
      [404, { message: "404 Award Emoji Name has already been taken Not Found" }],
      [400, { message: "400 Bad request - Note {:note=>[\"can't be blank\"]}" }],
      [400, { message: "A file with this name already exists" }],
      [409, { message: "Member already exists" }],
    ]);
    expect(await bed.t.services.db.webHookDelivery.count()).toBe(queued);
    await bed.drain();
    expect(bed.receiver.requests).toEqual([]);
  });

  it("a hook with every switch off hears nothing of any of the events above", async () => {
    const silent = await hookOn(group.id, "silent", []);
    await deliveredBy(async () => {
      const issue = await createIssue(owner.api, project.id, { confidential: true });
      await createNote(owner.api, project.id, "issues", issue.iid);
      await awardEmoji(owner.api, { projectId: project.id, kind: "issues", ref: issue.iid });
      await createMergeRequest(owner.api, project.id);
      await createGroup(owner.api, { parent_id: group.id });
    });
    expect(await bed.t.services.db.webHookDelivery.count({ where: { hookId: silent.id } })).toBe(0);
  });
});
