// Nested pages of the public graph in a fixed number of statements: MergeRequest.commits under a
// page of merge requests, Hook.events under a page of project and group hooks (5 parents cost what
// 20 cost), and Noteable.notes reading only the page it shows, checked on a merge request with
// 300 notes paged to the end both ways (and its filters, internal notes per actor).
import { beforeAll, describe, expect, it } from "vitest";
import { backgroundChecksDone } from "../../src/domain/merge-requests/mergeability.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createGroup, createProject } from "../helpers/factories.js";
import { graphData } from "../helpers/graph.js";
import { commitTo, createMergeRequest } from "../helpers/merge-requests.js";
import { createTeamWithProjects, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

/**
 * Statements of the query on a warm server (answered once before), counted at the driver, once
 * the background mergeability checks the fixtures set off are done.
 */
async function statementsOf(query: string, variables: Record<string, unknown>) {
  await backgroundChecksDone();
  await graphData(team.owner.api, query, variables);
  const before = t.services.sqlStats.statements;
  const data = await graphData(team.owner.api, query, variables);
  return { count: t.services.sqlStats.statements - before, data };
}

describe("MergeRequest.commits under a page of merge requests", () => {
  const NESTED = `query($path: ID!, $first: Int!) { project(fullPath: $path) { mergeRequests(first: $first, sort: CREATED_ASC) { nodes {
    iid commits(first: 2) { count pageInfo { hasNextPage } nodes { sha title } } } } } }`;

  it("costs the same statements for 5 and for 20 merge requests, each with its own commits newest first", async () => {
    const project = await createProject(team.owner.api, { visibility: "public" });
    const expected: string[][] = [];
    for (let i = 0; i < 20; i++) {
      const mr = await createMergeRequest(team.owner.api, project.id);
      const commits = [mr.sha]; // the fixture's own first commit
      for (let c = 0; c <= i % 3; c++) commits.push((await commitTo(team.owner.api, project.id, mr.source_branch)).id);
      expected.push(commits.reverse());
    }
    // one merge request merged: measured against the target as it was when merged
    const merged = (await team.owner.api.put(`/projects/${project.id}/merge_requests/1/merge`, {})).body;
    expect(merged.state).toBe("merged");
    const five = await statementsOf(NESTED, { path: project.path_with_namespace, first: 5 });
    const twenty = await statementsOf(NESTED, { path: project.path_with_namespace, first: 20 });
    const nodes = twenty.data.project.mergeRequests.nodes;
    expect(nodes).toHaveLength(20);
    for (const [i, node] of nodes.entries()) {
      const rest = (await team.owner.api.get(`/projects/${project.id}/merge_requests/${node.iid}/commits`)).body.map((c: any) => c.id);
      expect(rest).toEqual(expected[i]);
      expect(node.commits).toEqual({ count: rest.length, pageInfo: { hasNextPage: rest.length > 2 }, nodes: rest.slice(0, 2).map((sha: string) => ({ sha, title: expect.any(String) })) });
    }
    expect(five.data.project.mergeRequests.nodes).toEqual(nodes.slice(0, 5));
    expect(twenty.count).toBe(five.count);
    console.log(`MergeRequest.commits: ${five.count} statements for 5 merge requests, ${twenty.count} for 20`);
  }, 120_000); // 20 merge requests and 40 commits made through the API first
});

/** Deliveries of a hook, the newest `count - 1` minutes ago, status codes cycling through 200, 500, 404. */
async function recordDeliveries(hookId: number, count: number) {
  const base = Date.now() - 60_000 * count;
  for (let i = 0; i < count; i++) {
    const code = [200, 500, 404][i % 3]!;
    await t.services.db.webHookLog.create({
      data: {
        hookId, trigger: "push_hooks", url: "http://8.8.8.8/hook", requestHeaders: "{}", requestData: "{}", responseHeaders: "{}",
        responseBody: "", responseStatus: String(code), responseCode: code, executionDuration: i, idempotencyKey: `k${hookId}-${i}`,
        createdAt: new Date(base + i * 60_000),
      },
    });
  }
}

describe("Hook.events under a page of hooks", () => {
  const EVENTS = `events(first: 2, status: $status) { count pageInfo { hasNextPage } nodes { responseStatus executionDuration } }`;
  const PROJECT = `query($path: ID!, $first: Int!, $status: [String!]) { project(fullPath: $path) { hooks(first: $first) { nodes { url ${EVENTS} } } } }`;
  const GROUP = `query($path: ID!, $first: Int!, $status: [String!]) { group(fullPath: $path) { hooks(first: $first) { nodes { url ${EVENTS} } } } }`;

  /** 20 hooks, the n-th with n % 4 deliveries (durations 0.., newest the largest). */
  async function hooksWithDeliveries(owner: "projects" | "groups", id: number) {
    for (let n = 0; n < 20; n++) {
      const res = await t.root.post(`/${owner}/${id}/hooks`, { url: `http://8.8.8.8/hook/${n}`, push_events: true });
      expect(res.status, res.text).toBe(201);
      await recordDeliveries(res.body.id, n % 4);
    }
  }

  /** Hook n's events as the page shows them, from REST's GET .../hooks/:id/events. */
  async function expectEventsAsRest(owner: "projects" | "groups", id: number, hooks: any[], status?: string) {
    const restHooks = (await t.root.get(`/${owner}/${id}/hooks?per_page=100`)).body;
    for (const [n, hook] of hooks.entries()) {
      const rest = (await t.root.get(`/${owner}/${id}/hooks/${restHooks[n].id}/events${status ? `?status=${status}` : ""}`)).body;
      expect(hook.url).toBe(restHooks[n].url);
      expect(hook.events).toEqual({
        count: rest.length,
        pageInfo: { hasNextPage: rest.length > 2 },
        nodes: rest.slice(0, 2).map((e: any) => ({ responseStatus: e.response_status, executionDuration: e.execution_duration })),
      });
    }
  }

  it("costs the same statements for 5 and for 20 project hooks", async () => {
    const project = await createProject(team.owner.api);
    await hooksWithDeliveries("projects", project.id);
    const vars = { path: project.path_with_namespace };
    const five = await statementsOf(PROJECT, { ...vars, first: 5 });
    const twenty = await statementsOf(PROJECT, { ...vars, first: 20 });
    expect(twenty.data.project.hooks.nodes).toHaveLength(20);
    await expectEventsAsRest("projects", project.id, twenty.data.project.hooks.nodes);
    expect(twenty.count).toBe(five.count);
    const failed = await statementsOf(PROJECT, { ...vars, first: 20, status: ["server_failure", "404"] });
    await expectEventsAsRest("projects", project.id, failed.data.project.hooks.nodes, "server_failure,404");
    expect(failed.count).toBe(five.count);
    console.log(`ProjectHook.events: ${five.count} statements for 5 hooks, ${twenty.count} for 20`);
  });

  it("costs the same statements for 5 and for 20 group hooks", async () => {
    const group = await createGroup(team.owner.api);
    await hooksWithDeliveries("groups", group.id);
    const five = await statementsOf(GROUP, { path: group.full_path, first: 5 });
    const twenty = await statementsOf(GROUP, { path: group.full_path, first: 20 });
    expect(twenty.data.group.hooks.nodes).toHaveLength(20);
    await expectEventsAsRest("groups", group.id, twenty.data.group.hooks.nodes);
    expect(twenty.count).toBe(five.count);
    console.log(`GroupHook.events: ${five.count} statements for 5 hooks, ${twenty.count} for 20`);
  });
});

describe("Noteable.notes reads only the page it shows", () => {
  const NOTES = `query($path: ID!, $iid: String!, $first: Int, $after: String, $last: Int, $before: String, $filter: NotesFilterType) {
    project(fullPath: $path) { mergeRequest(iid: $iid) {
      notes(first: $first, after: $after, last: $last, before: $before, filter: $filter) {
        count pageInfo { hasNextPage hasPreviousPage startCursor endCursor } nodes { id body internal } } } } }`;
  const PAGE = 40;
  let vars: Record<string, unknown>;
  /** the merge request's notes as REST lists them to its owner, oldest first */
  let all: { id: string; body: string; internal: boolean }[];

  beforeAll(async () => {
    const project = team.publicProject;
    const mr = await createMergeRequest(team.owner.api, project.id);
    vars = { path: project.path_with_namespace, iid: String(mr.iid) };
    // 300 notes in one statement (through the API they would take a minute), every seventh internal,
    // some sharing a creation time (ties go by id)
    const base = Date.now() - 3_600_000;
    await t.services.db.note.createMany({
      data: Array.from({ length: 300 }, (_, i) => ({
        projectId: project.id, noteableType: "MergeRequest", noteableId: mr.id, authorId: team.owner.id,
        body: `note ${i}`, internal: i % 7 === 3, system: i % 5 === 0, createdAt: new Date(base + Math.floor(i / 2) * 1000),
      })),
    });
    const rest = [];
    for (let page = 1; page <= 3; page++) {
      rest.push(...(await team.owner.api.get(`/projects/${project.id}/merge_requests/${mr.iid}/notes?sort=asc&per_page=100&page=${page}`)).body);
    }
    all = rest.map((note: any) => ({ id: `gid://forgeline/Note/${note.id}`, body: note.body, internal: note.internal }));
    expect(all).toHaveLength(300);
  });

  async function notesPage(client: typeof team.owner.api, variables: Record<string, unknown>) {
    return (await graphData(client, NOTES, { ...vars, ...variables })).project.mergeRequest.notes;
  }

  it("pages 300 notes forward with first/after to the end, a page deep in the list costing what the first costs", async () => {
    const seen = [];
    const statements = [];
    let after: string | null = null;
    for (;;) {
      const before = t.services.sqlStats.statements;
      const page: any = await notesPage(team.owner.api, { first: PAGE, after });
      statements.push(t.services.sqlStats.statements - before);
      expect(page.count).toBe(300);
      seen.push(...page.nodes);
      if (!page.pageInfo.hasNextPage) break;
      expect(page.nodes).toHaveLength(PAGE);
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(all);
    expect(statements).toHaveLength(Math.ceil(300 / PAGE));
    expect(new Set(statements.slice(1)).size).toBe(1);
  });

  it("pages them backward with last/before to the start", async () => {
    const seen = [];
    let before: string | null = null;
    for (;;) {
      const page: any = await notesPage(team.owner.api, { last: PAGE, before });
      expect(page.count).toBe(300);
      seen.unshift(...page.nodes);
      if (!page.pageInfo.hasPreviousPage) break;
      before = page.pageInfo.startCursor;
    }
    expect(seen).toEqual(all);
    expect((await notesPage(team.owner.api, { last: 3 })).nodes).toEqual(all.slice(-3));
  });

  it("leaves internal notes out for a guest and pages what is left", async () => {
    const visible = all.filter((note) => !note.internal);
    const first = await notesPage(team.guest.api, { first: 100 });
    expect(first).toMatchObject({ count: visible.length, pageInfo: { hasNextPage: true } });
    const rest = await notesPage(team.guest.api, { first: 100, after: first.pageInfo.endCursor });
    expect([...first.nodes, ...rest.nodes]).toEqual(visible.slice(0, 200));
    const tail = await notesPage(team.guest.api, { last: 10 });
    expect(tail.nodes).toEqual(visible.slice(-10));
    expect(await notesPage(t.anon, { first: 1 })).toBeNull();
  });

  it("filters comments and activity in the query, counts included", async () => {
    const system = new Set(Array.from({ length: 300 }, (_, i) => i).filter((i) => i % 5 === 0).map((i) => `note ${i}`));
    const comments = await notesPage(team.owner.api, { first: 100, filter: "ONLY_COMMENTS" });
    expect(comments.count).toBe(all.filter((note) => !system.has(note.body)).length);
    expect(comments.nodes).toEqual(all.filter((note) => !system.has(note.body)).slice(0, 100));
    const activity = await notesPage(team.owner.api, { first: 100, after: null, filter: "ONLY_ACTIVITY" });
    expect(activity).toMatchObject({ count: 60, pageInfo: { hasNextPage: false } });
    expect(activity.nodes).toEqual(all.filter((note) => system.has(note.body)));
  });

  it("reads a page of 20 noteables' notes in the statements 5 cost", async () => {
    const project = await createProject(team.owner.api, { visibility: "public" });
    const mrs = [];
    for (let i = 0; i < 20; i++) mrs.push(await createMergeRequest(team.owner.api, project.id));
    await t.services.db.note.createMany({
      data: mrs.flatMap((mr, n) => Array.from({ length: n * 3 }, (_, i) => ({
        projectId: project.id, noteableType: "MergeRequest", noteableId: mr.id, authorId: team.owner.id, body: `${n}/${i}`,
      }))),
    });
    const NESTED = `query($path: ID!, $first: Int!) { project(fullPath: $path) { mergeRequests(first: $first, sort: CREATED_ASC) { nodes {
      notes(first: 4, after: "${Buffer.from("OffsetConnection:1").toString("base64")}") { count nodes { body } } } } } }`;
    const five = await statementsOf(NESTED, { path: project.path_with_namespace, first: 5 });
    const twenty = await statementsOf(NESTED, { path: project.path_with_namespace, first: 20 });
    expect(twenty.data.project.mergeRequests.nodes.map((mr: any) => mr.notes)).toEqual(
      mrs.map((_, n) => ({ count: n * 3, nodes: Array.from({ length: Math.max(0, Math.min(4, n * 3 - 2)) }, (_, i) => ({ body: `${n}/${i + 2}` })) })),
    );
    expect(twenty.count).toBe(five.count);
    console.log(`Noteable.notes: ${five.count} statements for 5 merge requests, ${twenty.count} for 20`);
  });
});
