// Threads and commits on the public graph: Issue/MergeRequest.discussions per actor against REST's
// GET .../discussions (internal notes from Reporter up, null when anonymous), resolution, paging
// both ways, Note.discussion, MergeRequest.commits, and a fixed statement count for a page of
// issues with their threads.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createProject, createUser, uniq } from "../helpers/factories.js";
import { graph, graphData, gid } from "../helpers/graph.js";
import { createIssue } from "../helpers/issues.js";
import { commitTo, createBranch, createMergeRequest } from "../helpers/merge-requests.js";
import { createNote } from "../helpers/snippets-notes.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let issue: any;
let plainNote: any;
let thread: any;
let reply: any;
let internalNote: any;
let mr: any;
let mrThread: any;
let commits: any[];
let privateIssue: any;

const ACTORS: Actor[] = ["anonymous", "nonMember", "guest", "reporter", "developer", "maintainer", "owner", "admin"];
const READ_INTERNAL: Actor[] = ["reporter", "developer", "maintainer", "owner", "admin"];
const discussionGid = (id: string) => `gid://forgeline/Discussion/${id}`;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  const pub = team.publicProject.id;
  issue = await createIssue(team.owner.api, pub, { title: "Threads" });
  const issuePath = `/projects/${pub}/issues/${issue.iid}`;
  plainNote = await createNote(team.guest.api, pub, "issues", issue.iid, { body: "plain" });
  thread = (await team.developer.api.post(`${issuePath}/discussions`, { body: "a thread" })).body;
  reply = (await team.reporter.api.post(`${issuePath}/discussions/${thread.id}/notes`, { body: "a reply" })).body;
  internalNote = await createNote(team.owner.api, pub, "issues", issue.iid, { body: "for reporters", internal: true });
  expect((await team.developer.api.put(`${issuePath}/discussions/${thread.id}`, { resolved: true })).status).toBe(200);

  const source = uniq("feature");
  await createBranch(team.developer.api, pub, source);
  mr = await createMergeRequest(team.developer.api, pub, { source_branch: source, createSourceBranch: false });
  commits = [await commitTo(team.developer.api, pub, mr.source_branch), await commitTo(team.developer.api, pub, mr.source_branch)];
  mrThread = (await team.developer.api.post(`/projects/${pub}/merge_requests/${mr.iid}/discussions`, { body: "review" })).body;

  privateIssue = await createIssue(team.owner.api, team.privateProject.id, { title: "Private" });
  await createNote(team.owner.api, team.privateProject.id, "issues", privateIssue.iid, { body: "hidden" });
});

const ISSUE_DISCUSSIONS = `query($path: ID!, $iid: String!, $first: Int, $last: Int, $after: String, $before: String) {
  project(fullPath: $path) { issue(iid: $iid) {
    discussions(first: $first, last: $last, after: $after, before: $before) {
      count pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      nodes { id replyId individualNote createdAt resolvable resolved resolvedAt resolvedBy { username }
        notes { nodes { id body internal } } } } } } }`;

const issueVars = () => ({ path: team.publicProject.path_with_namespace, iid: String(issue.iid) });

describe("Issue.discussions", () => {
  it.each(ACTORS)("shows the threads %s may read, as REST lists them", async (actor) => {
    const client = clientOf(t, team, actor);
    const data = await graphData(client, ISSUE_DISCUSSIONS, issueVars());
    if (actor === "anonymous") {
      expect(data.project.issue.discussions).toBeNull();
      return;
    }
    const page = data.project.issue.discussions;
    const expectedNotes = [[plainNote], [thread.notes[0], reply], ...(READ_INTERNAL.includes(actor) ? [[internalNote]] : [])];
    expect(page.nodes.map((d: any) => d.notes.nodes.map((n: any) => n.id))).toEqual(expectedNotes.map((notes) => notes.map((n: any) => gid("Note", n.id))));
    expect(page.count).toBe(expectedNotes.length);
    const rest = (await client.get(`/projects/${team.publicProject.id}/issues/${issue.iid}/discussions`)).body;
    expect(page.nodes.map((d: any) => d.id)).toEqual(rest.map((d: any) => discussionGid(d.id)));
    expect(page.nodes.map((d: any) => d.individualNote)).toEqual(rest.map((d: any) => d.individual_note));
  });

  it("tells a resolved thread from single notes", async () => {
    const data = await graphData(team.guest.api, ISSUE_DISCUSSIONS, issueVars());
    const [single, resolvedThread] = data.project.issue.discussions.nodes;
    const restThread = (await team.guest.api.get(`/projects/${team.publicProject.id}/issues/${issue.iid}/discussions/${thread.id}`)).body;
    const [restSingle] = (await team.guest.api.get(`/projects/${team.publicProject.id}/issues/${issue.iid}/discussions`)).body;
    expect(restSingle.notes[0].id).toBe(plainNote.id);
    expect(single).toMatchObject({ id: discussionGid(restSingle.id), individualNote: true, resolvable: false, resolved: false, resolvedAt: null, resolvedBy: null });
    expect(resolvedThread).toEqual({
      id: discussionGid(thread.id),
      replyId: discussionGid(thread.id),
      individualNote: false,
      createdAt: thread.notes[0].created_at,
      resolvable: true,
      resolved: true,
      resolvedAt: restThread.notes.map((n: any) => n.resolved_at).sort().pop(),
      resolvedBy: { username: team.developer.username },
      notes: { nodes: [{ id: gid("Note", thread.notes[0].id), body: "a thread", internal: false }, { id: gid("Note", reply.id), body: "a reply", internal: false }] },
    });
  });

  it("hides internal notes from guests in Issue.notes too", async () => {
    const q = `query($path: ID!, $iid: String!) { project(fullPath: $path) { issue(iid: $iid) { notes { count nodes { id } } } } }`;
    const ids = async (actor: Actor) => (await graphData(clientOf(t, team, actor), q, issueVars())).project.issue.notes.nodes.map((n: any) => n.id);
    expect(await ids("guest")).not.toContain(gid("Note", internalNote.id));
    expect(await ids("reporter")).toContain(gid("Note", internalNote.id));
  });

  it("filters notes by kind (Forgeline writes no system notes: activity is empty)", async () => {
    const q = `query($path: ID!, $iid: String!) { project(fullPath: $path) { issue(iid: $iid) {
      all: notes { count } comments: notes(filter: ONLY_COMMENTS) { count } activity: notes(filter: ONLY_ACTIVITY) { count } } } }`;
    const data = await graphData(team.reporter.api, q, issueVars());
    expect(data.project.issue).toEqual({ all: { count: 4 }, comments: { count: 4 }, activity: { count: 0 } });
  });

  async function walk(direction: "forward" | "backward"): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 10; guard++) {
      const vars = direction === "forward" ? { first: 1, after: cursor } : { last: 1, before: cursor };
      const data: any = await graphData(team.reporter.api, ISSUE_DISCUSSIONS, { ...issueVars(), ...vars });
      const page = data.project.issue.discussions;
      if (direction === "forward") seen.push(...page.nodes.map((d: any) => d.id));
      else seen.unshift(...page.nodes.map((d: any) => d.id));
      if (!(direction === "forward" ? page.pageInfo.hasNextPage : page.pageInfo.hasPreviousPage)) return seen;
      cursor = direction === "forward" ? page.pageInfo.endCursor : page.pageInfo.startCursor;
    }
    throw new Error("the connection never ended");
  }

  it("walks to the end both ways", async () => {
    const all = (await graphData(team.reporter.api, ISSUE_DISCUSSIONS, issueVars())).project.issue.discussions.nodes.map((d: any) => d.id);
    expect(all).toHaveLength(3);
    expect(await walk("forward")).toEqual(all);
    expect(await walk("backward")).toEqual(all);
  });

  it.each([
    ["a cursor it did not issue", { first: 1, after: "bogus" }, "Invalid cursor"],
    ["a negative first", { first: -1 }, 'Argument "first" must be a non-negative integer'],
  ])("refuses %s", async (_name, vars, message) => {
    const res = await graph(team.reporter.api, ISSUE_DISCUSSIONS, { ...issueVars(), ...vars });
    expect(res.body.errors?.[0]?.message).toBe(message);
  });

  it.each(["anonymous", "nonMember"] as Actor[])("hides an issue of a private project and its threads from %s", async (actor) => {
    const vars = { path: team.privateProject.path_with_namespace, iid: String(privateIssue.iid) };
    expect((await graphData(clientOf(t, team, actor), ISSUE_DISCUSSIONS, vars)).project).toBeNull();
    const node = await graphData(clientOf(t, team, actor), `query($id: ID!) { node(id: $id) { ... on Issue { discussions { count } } } }`, { id: gid("Issue", privateIssue.id) });
    expect(node.node).toBeNull();
    expect((await graphData(team.guest.api, ISSUE_DISCUSSIONS, vars)).project.issue.discussions.count).toBe(1);
  });
});

describe("Note.discussion", () => {
  const q = `query($id: ID!) { node(id: $id) { ... on Note { discussion { id resolved notes { nodes { id } } } } } }`;

  it("is the note's thread", async () => {
    const data = await graphData(team.guest.api, q, { id: gid("Note", reply.id) });
    expect(data.node.discussion).toEqual({ id: discussionGid(thread.id), resolved: true, notes: { nodes: [{ id: gid("Note", thread.notes[0].id) }, { id: gid("Note", reply.id) }] } });
  });

  it("hides an internal note and its thread from a guest", async () => {
    expect((await graphData(team.guest.api, q, { id: gid("Note", internalNote.id) })).node).toBeNull();
    expect((await graphData(team.reporter.api, q, { id: gid("Note", internalNote.id) })).node.discussion.notes.nodes).toEqual([{ id: gid("Note", internalNote.id) }]);
  });
});

const MR_QUERY = `query($path: ID!, $iid: String!, $first: Int, $last: Int, $after: String, $before: String) {
  project(fullPath: $path) { mergeRequest(iid: $iid) {
    discussions { nodes { id resolvable resolved notes { nodes { body } } } }
    commits(first: $first, last: $last, after: $after, before: $before) {
      count pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      nodes { id sha shortId title message authorName authorEmail authoredDate committedDate webUrl } } } } }`;

const mrVars = () => ({ path: team.publicProject.path_with_namespace, iid: String(mr.iid) });

describe("MergeRequest discussions and commits", () => {
  it.each(ACTORS)("shows the merge request's commits to %s as REST does, newest first", async (actor) => {
    const client = clientOf(t, team, actor);
    const data = await graphData(client, MR_QUERY, mrVars());
    const rest = (await client.get(`/projects/${team.publicProject.id}/merge_requests/${mr.iid}/commits`)).body;
    expect(rest.map((c: any) => c.id)).toEqual([commits[1].id, commits[0].id]);
    expect(data.project.mergeRequest.commits).toMatchObject({ count: 2, pageInfo: { hasNextPage: false, hasPreviousPage: false } });
    expect(data.project.mergeRequest.commits.nodes).toEqual(
      rest.map((c: any) => ({
        id: `gid://forgeline/Commit/${c.id}`,
        sha: c.id,
        shortId: c.short_id,
        title: c.title,
        message: c.message,
        authorName: c.author_name,
        authorEmail: c.author_email,
        authoredDate: c.authored_date,
        committedDate: c.committed_date,
        webUrl: c.web_url,
      })),
    );
    if (actor === "anonymous") expect(data.project.mergeRequest.discussions).toBeNull();
    else expect(data.project.mergeRequest.discussions.nodes).toEqual([{ id: discussionGid(mrThread.id), resolvable: true, resolved: false, notes: { nodes: [{ body: "review" }] } }]);
  });

  it("pages the commits both ways", async () => {
    const first = (await graphData(team.guest.api, MR_QUERY, { ...mrVars(), first: 1 })).project.mergeRequest.commits;
    expect(first).toMatchObject({ count: 2, nodes: [{ sha: commits[1].id }], pageInfo: { hasNextPage: true } });
    const next = (await graphData(team.guest.api, MR_QUERY, { ...mrVars(), first: 1, after: first.pageInfo.endCursor })).project.mergeRequest.commits;
    expect(next).toMatchObject({ nodes: [{ sha: commits[0].id }], pageInfo: { hasNextPage: false, hasPreviousPage: true } });
    const last = (await graphData(team.guest.api, MR_QUERY, { ...mrVars(), last: 1 })).project.mergeRequest.commits;
    expect(last).toMatchObject({ nodes: [{ sha: commits[0].id }], pageInfo: { hasPreviousPage: true } });
    const before = (await graphData(team.guest.api, MR_QUERY, { ...mrVars(), last: 1, before: last.pageInfo.startCursor })).project.mergeRequest.commits;
    expect(before).toMatchObject({ nodes: [{ sha: commits[1].id }], pageInfo: { hasPreviousPage: false } });
  });

  it("is null with the merge request for those who may not see merge requests", async () => {
    const project = await createProject(team.owner.api, { visibility: "public", merge_requests_access_level: "private" });
    const hidden = await createMergeRequest(team.owner.api, project.id);
    const vars = { path: project.path_with_namespace, iid: String(hidden.iid) };
    expect((await graphData(team.nonMember.api, MR_QUERY, vars)).project.mergeRequest).toBeNull();
    expect((await graphData(team.owner.api, MR_QUERY, vars)).project.mergeRequest.commits.count).toBe(1); // the fixture's commit
  });
});

describe("statements per nested page", () => {
  const NESTED = `query($path: ID!, $first: Int!) { project(fullPath: $path) { issues(first: $first) { nodes {
    title discussions { nodes { id resolved resolvedBy { username } notes { nodes { body } } } } } } } }`;

  async function statementsFor(path: string, first: number) {
    await graphData(team.owner.api, NESTED, { path, first });
    const before = t.services.sqlStats.statements;
    const data = await graphData(team.owner.api, NESTED, { path, first });
    return { count: t.services.sqlStats.statements - before, rows: data.project.issues.nodes };
  }

  it("reads project → 20 issues → their threads and notes in a fixed number of statements", async () => {
    const project = await createProject(team.owner.api, { visibility: "public" });
    const authors = await Promise.all(Array.from({ length: 3 }, () => createUser(t)));
    for (let i = 0; i < 22; i++) {
      const author = authors[i % authors.length]!;
      const created = await createIssue(team.owner.api, project.id, { title: `Nested ${i}` });
      const started = (await author.api.post(`/projects/${project.id}/issues/${created.iid}/discussions`, { body: `thread ${i}` })).body;
      await team.owner.api.post(`/projects/${project.id}/issues/${created.iid}/discussions/${started.id}/notes`, { body: "reply" });
      await team.owner.api.put(`/projects/${project.id}/issues/${created.iid}/discussions/${started.id}`, { resolved: true });
    }
    const twenty = await statementsFor(project.path_with_namespace, 20);
    const five = await statementsFor(project.path_with_namespace, 5);
    expect(twenty.rows).toHaveLength(20);
    expect(five.rows).toHaveLength(5);
    expect(twenty.rows.every((i: any) => i.discussions.nodes.length === 1 && i.discussions.nodes[0].notes.nodes.length === 2 && i.discussions.nodes[0].resolved)).toBe(true);
    expect(twenty.count).toBe(five.count);
    // the page, its count, the notes' batch
    expect(twenty.count).toBeLessThanOrEqual(3);
  });
});
