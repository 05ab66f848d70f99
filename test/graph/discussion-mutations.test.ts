// createDiscussion, replies through createNote(discussionId) and discussionToggleResolve on the
// public graph per actor (public and private projects), the threads seen through a query
// afterwards, refusals as GitLab's "resource not available", bad input in `errors`, read_api
// tokens refused.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createUser } from "../helpers/factories.js";
import { graph, graphData, gid, expectNotAvailable } from "../helpers/graph.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { createNote, createSnippet } from "../helpers/snippets-notes.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let issue: any;
let privateIssue: any;
let mr: any;
let snippet: any;
const discussionGid = (id: string) => `gid://forgeline/Discussion/${id}`;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  issue = await createIssue(team.owner.api, team.publicProject.id, { title: "Public" });
  privateIssue = await createIssue(team.owner.api, team.privateProject.id, { title: "Private" });
  mr = await createMergeRequest(team.owner.api, team.publicProject.id);
  snippet = await createSnippet(team.owner.api, team.publicProject.id, { visibility: "public" });
});

const CREATE = `mutation($input: CreateDiscussionInput!) { createDiscussion(input: $input) {
  errors note { id body author { username } discussion { id individualNote notes { nodes { body } } } } } }`;
const REPLY = `mutation($input: CreateNoteInput!) { createNote(input: $input) { errors note { id body discussion { id notes { nodes { body } } } } } }`;
const RESOLVE = `mutation($input: DiscussionToggleResolveInput!) { discussionToggleResolve(input: $input) {
  errors discussion { id resolvable resolved resolvedBy { username } } } }`;
const ISSUE_THREADS = `query($path: ID!, $iid: String!) { project(fullPath: $path) { issue(iid: $iid) {
  discussions { nodes { id individualNote notes { nodes { body } } } } } } }`;
const MR_THREADS = `query($path: ID!, $iid: String!) { project(fullPath: $path) { mergeRequest(iid: $iid) {
  discussions { nodes { id resolved resolvedBy { username } } } } } }`;

const threadsOf = async (project: any, anIssue: any) =>
  (await graphData(team.owner.api, ISSUE_THREADS, { path: project.path_with_namespace, iid: String(anIssue.iid) })).project.issue.discussions.nodes;

describe("createDiscussion", () => {
  it.each(["nonMember", "guest", "reporter", "developer", "maintainer", "owner", "admin"] as Actor[])(
    "starts a thread on the public issue as %s",
    async (actor) => {
      const data = await graphData(clientOf(t, team, actor), CREATE, { input: { noteableId: gid("Issue", issue.id), body: `thread by ${actor}` } });
      expect(data.createDiscussion.errors).toEqual([]);
      const { note } = data.createDiscussion;
      expect(note).toMatchObject({ body: `thread by ${actor}`, discussion: { individualNote: false, notes: { nodes: [{ body: `thread by ${actor}` }] } } });
      const threads = await threadsOf(team.publicProject, issue);
      expect(threads).toContainEqual({ id: note.discussion.id, individualNote: false, notes: { nodes: [{ body: `thread by ${actor}` }] } });
    },
  );

  it.each(["guest", "admin"] as Actor[])("starts a thread on the private issue as %s", async (actor) => {
    const data = await graphData(clientOf(t, team, actor), CREATE, { input: { noteableId: gid("Issue", privateIssue.id), body: `private ${actor}` } });
    expect(data.createDiscussion.errors).toEqual([]);
    expect((await threadsOf(team.privateProject, privateIssue)).map((d: any) => d.notes.nodes[0].body)).toContain(`private ${actor}`);
  });

  it.each(["anonymous", "nonMember"] as Actor[])("refuses %s on the private issue without telling it exists", async (actor) => {
    expectNotAvailable(await graph(clientOf(t, team, actor), CREATE, { input: { noteableId: gid("Issue", privateIssue.id), body: "x" } }), "createDiscussion");
    expectNotAvailable(await graph(clientOf(t, team, actor), CREATE, { input: { noteableId: gid("Issue", 999999), body: "x" } }), "createDiscussion");
  });

  it("refuses anonymous callers on the public issue", async () => {
    expectNotAvailable(await graph(t.anon, CREATE, { input: { noteableId: gid("Issue", issue.id), body: "x" } }), "createDiscussion");
  });

  it("starts threads on merge requests and snippets", async () => {
    for (const noteableId of [gid("MergeRequest", mr.id), gid("Snippet", snippet.id)]) {
      const data = await graphData(team.developer.api, CREATE, { input: { noteableId, body: "on it" } });
      expect(data.createDiscussion).toMatchObject({ errors: [], note: { body: "on it", discussion: { individualNote: false } } });
    }
  });

  it("lists bad input in errors and refuses other ids", async () => {
    const blank = await graphData(team.developer.api, CREATE, { input: { noteableId: gid("Issue", issue.id), body: " " } });
    expect(blank.createDiscussion.note).toBeNull();
    expect(blank.createDiscussion.errors).toHaveLength(1);
    expect(blank.createDiscussion.errors[0]).toContain("can't be blank");
    expectNotAvailable(await graph(team.developer.api, CREATE, { input: { noteableId: gid("Project", team.publicProject.id), body: "x" } }), "createDiscussion");
  });

  it("refuses a read_api token", async () => {
    const reader = await createUser(t, {}, ["read_api"]);
    const res = await graph(reader.api, CREATE, { input: { noteableId: gid("Issue", issue.id), body: "x" } });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ http: { status: 403 } });
  });
});

describe("createNote with discussionId", () => {
  let thread: any;
  let single: any;
  let otherThread: any;
  let snippetNote: any;
  beforeAll(async () => {
    thread = (await team.developer.api.post(`/projects/${team.publicProject.id}/issues/${issue.iid}/discussions`, { body: "replied to" })).body;
    single = await createNote(team.developer.api, team.publicProject.id, "issues", issue.iid, { body: "single" });
    otherThread = (await team.owner.api.post(`/projects/${team.privateProject.id}/issues/${privateIssue.iid}/discussions`, { body: "private thread" })).body;
    snippetNote = await createNote(team.owner.api, team.publicProject.id, "snippets", snippet.id, { body: "snippet note" });
  });
  const reply = (noteableId: string, discussionId: string, body = "a reply") => ({ input: { noteableId, discussionId: discussionGid(discussionId), body } });

  it.each(["nonMember", "guest", "admin"] as Actor[])("replies to a thread as %s", async (actor) => {
    const data = await graphData(clientOf(t, team, actor), REPLY, reply(gid("Issue", issue.id), thread.id, `reply by ${actor}`));
    expect(data.createNote.errors).toEqual([]);
    expect(data.createNote.note.discussion.id).toBe(discussionGid(thread.id));
    const seen = (await threadsOf(team.publicProject, issue)).find((d: any) => d.id === discussionGid(thread.id));
    expect(seen.notes.nodes.map((n: any) => n.body)).toContain(`reply by ${actor}`);
    expect(seen.notes.nodes[0].body).toBe("replied to");
  });

  it("turns a single note into a thread when replied to", async () => {
    const data = await graphData(team.guest.api, REPLY, reply(gid("Issue", issue.id), await discussionIdOfNote(single)));
    expect(data.createNote.errors).toEqual([]);
    const seen = (await threadsOf(team.publicProject, issue)).find((d: any) => d.id === data.createNote.note.discussion.id);
    expect(seen).toMatchObject({ individualNote: false, notes: { nodes: [{ body: "single" }, { body: "a reply" }] } });
  });

  it("refuses a thread of another noteable, a malformed id and anonymous callers", async () => {
    expectNotAvailable(await graph(team.owner.api, REPLY, reply(gid("Issue", issue.id), otherThread.id)), "createNote");
    const malformed = { input: { noteableId: gid("Issue", issue.id), discussionId: "gid://forgeline/Discussion/xyz", body: "x" } };
    expectNotAvailable(await graph(team.owner.api, REPLY, malformed), "createNote");
    expectNotAvailable(await graph(t.anon, REPLY, reply(gid("Issue", issue.id), thread.id)), "createNote");
    expectNotAvailable(await graph(team.nonMember.api, REPLY, reply(gid("Issue", privateIssue.id), otherThread.id)), "createNote");
  });

  it("refuses replies to a single snippet note with the domain's reason", async () => {
    const data = await graphData(team.owner.api, REPLY, reply(gid("Snippet", snippet.id), await discussionIdOfNote(snippetNote, "snippets", snippet.id)));
    expect(data.createNote.note).toBeNull();
    expect(data.createNote.errors).toEqual(["Bad request - Discussion can not be replied to."]);
  });
});

/** The discussion id of a note, from REST's discussions of its noteable. */
async function discussionIdOfNote(note: any, kind = "issues", ref: number = issue.iid): Promise<string> {
  const discussions = (await team.owner.api.get(`/projects/${team.publicProject.id}/${kind}/${ref}/discussions`)).body;
  return discussions.find((d: any) => d.notes.some((n: any) => n.id === note.id)).id;
}

describe("discussionToggleResolve", () => {
  let thread: any;
  let privateThread: any;
  let snippetThread: any;
  beforeAll(async () => {
    thread = (await team.guest.api.post(`/projects/${team.publicProject.id}/merge_requests/${mr.iid}/discussions`, { body: "please fix" })).body;
    privateThread = (await team.owner.api.post(`/projects/${team.privateProject.id}/issues/${privateIssue.iid}/discussions`, { body: "resolve me" })).body;
    snippetThread = (await team.owner.api.post(`/projects/${team.publicProject.id}/snippets/${snippet.id}/discussions`, { body: "no" })).body;
  });
  const toggle = (id: string, resolve: boolean) => ({ input: { id: discussionGid(id), resolve } });
  const mrThread = async () =>
    (await graphData(team.owner.api, MR_THREADS, { path: team.publicProject.path_with_namespace, iid: String(mr.iid) }))
      .project.mergeRequest.discussions.nodes.find((d: any) => d.id === discussionGid(thread.id));

  it.each(["developer", "maintainer", "owner", "admin"] as Actor[])("resolves and unresolves a merge request thread as %s", async (actor) => {
    const username = actor === "admin" ? "root" : team[actor as "developer"].username;
    const resolved = await graphData(clientOf(t, team, actor), RESOLVE, toggle(thread.id, true));
    expect(resolved.discussionToggleResolve).toEqual({
      errors: [],
      discussion: { id: discussionGid(thread.id), resolvable: true, resolved: true, resolvedBy: { username } },
    });
    expect(await mrThread()).toMatchObject({ resolved: true, resolvedBy: { username } });
    const reopened = await graphData(clientOf(t, team, actor), RESOLVE, toggle(thread.id, false));
    expect(reopened.discussionToggleResolve.discussion).toMatchObject({ resolved: false, resolvedBy: null });
    expect(await mrThread()).toMatchObject({ resolved: false, resolvedBy: null });
  });

  it.each(["anonymous", "nonMember", "guest", "reporter"] as Actor[])("refuses %s (below Developer, not the author)", async (actor) => {
    expectNotAvailable(await graph(clientOf(t, team, actor), RESOLVE, toggle(thread.id, true)), "discussionToggleResolve");
    expect((await mrThread()).resolved).toBe(false);
  });

  it("resolves a thread of the private project for its members only", async () => {
    expectNotAvailable(await graph(team.nonMember.api, RESOLVE, toggle(privateThread.id, true)), "discussionToggleResolve");
    const data = await graphData(team.developer.api, RESOLVE, toggle(privateThread.id, true));
    expect(data.discussionToggleResolve.discussion).toMatchObject({ resolved: true });
  });

  it("refuses snippet threads, unknown and malformed ids", async () => {
    expectNotAvailable(await graph(team.owner.api, RESOLVE, toggle(snippetThread.id, true)), "discussionToggleResolve");
    expectNotAvailable(await graph(team.owner.api, RESOLVE, toggle("0".repeat(40), true)), "discussionToggleResolve");
    expectNotAvailable(await graph(team.owner.api, RESOLVE, { input: { id: gid("Note", 1), resolve: true } }), "discussionToggleResolve");
  });

  it("refuses a read_api token", async () => {
    const reader = await createUser(t, {}, ["read_api"]);
    const res = await graph(reader.api, RESOLVE, toggle(thread.id, true));
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ http: { status: 403 } });
  });
});
