// Lists stay flat in table size: every statement a list request runs (with GitLab's filters and
// orders) is shown to SQLite's planner, and none may scan a table that grows with use or sort its
// rows in a temporary B-tree: each must walk an index that matches its filter and its order.
// The plans do not depend on the row counts (no ANALYZE statistics), so a small database shows
// what a database of millions of rows would do.
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createGroup, createUser, type TestUser } from "../helpers/factories.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { clientOf, createTeamWithProjects, type TeamWithProjects } from "../helpers/team.js";
import { onPostgresql } from "../helpers/test-database.js";

/** Tables whose size grows with use; small configuration tables (features, settings) may be scanned. */
const GROWING_TABLES = [
  "Issue", "IssueAssignee", "MergeRequest", "MergeRequestAssignee", "MergeRequestReviewer", "Note", "AwardEmoji", "Snippet",
  "WebHookLog", "WebHookDelivery", "Project", "User", "Namespace", "AccessToken", "ProjectMember", "GroupMember", "Commit",
  "Branch", "Approval", "RedirectRoute", "ProjectTopic", "Topic", "Event",
];

let t: TestApp;
let team: TeamWithProjects;
let reader: Database.Database;
let fixtures: { p: string; g: string; mrIid: number; noteId: number; hookId: number; owner: number; developer: number; username: string };

const LISTS: [name: string, path: (f: typeof fixtures) => string][] = [
  ["project issues", (f) => `${f.p}/issues`],
  ["project issues, opened", (f) => `${f.p}/issues?state=opened`],
  ["project issues, closed", (f) => `${f.p}/issues?state=closed`],
  ["project issues by updated_at", (f) => `${f.p}/issues?order_by=updated_at&sort=asc`],
  ["project issues by author", (f) => `${f.p}/issues?author_id=${f.owner}`],
  ["project issues by assignee", (f) => `${f.p}/issues?assignee_id=${f.developer}`],
  ["project issues, page 3", (f) => `${f.p}/issues?per_page=1&page=3`],
  ["project issues by label", (f) => `${f.p}/issues?labels=bug`],
  ["project issues by two labels", (f) => `${f.p}/issues?labels=bug,urgent`],
  ["project issues with any label", (f) => `${f.p}/issues?labels=Any`],
  ["project merge requests", (f) => `${f.p}/merge_requests`],
  ["project merge requests, opened", (f) => `${f.p}/merge_requests?state=opened`],
  ["project merge requests by updated_at", (f) => `${f.p}/merge_requests?order_by=updated_at`],
  ["project merge requests by label", (f) => `${f.p}/merge_requests?labels=bug`],
  ["issue notes", (f) => `${f.p}/issues/1/notes`],
  ["issue notes by updated_at", (f) => `${f.p}/issues/1/notes?order_by=updated_at&sort=asc`],
  ["merge request notes", (f) => `${f.p}/merge_requests/${f.mrIid}/notes`],
  ["issue award emoji", (f) => `${f.p}/issues/1/award_emoji`],
  ["merge request award emoji", (f) => `${f.p}/merge_requests/${f.mrIid}/award_emoji`],
  ["note award emoji", (f) => `${f.p}/issues/1/notes/${f.noteId}/award_emoji`],
  ["group hook events", (f) => `${f.g}/hooks/${f.hookId}/events`],
  ["group projects", (f) => `${f.g}/projects`],
  ["users", () => "/users"],
  ["users by username", (f) => `/users?username=${f.username}`],
  ["own events", () => "/events"],
  ["own events, oldest first", () => "/events?sort=asc"],
  ["own events by action and target type", () => "/events?action=created&target_type=issue"],
  ["a user's events", (f) => `/users/${f.owner}/events`],
  ["a user's events, oldest first", (f) => `/users/${f.owner}/events?sort=asc`],
  ["project events", (f) => `${f.p}/events`],
  ["project events by action and target type", (f) => `${f.p}/events?action=commented&target_type=note`],
  ["project events in a date range", (f) => `${f.p}/events?after=2000-01-01&before=2999-01-01`],
];

// SQLite's planner only: PostgreSQL chooses plans from statistics of the data it holds, so an
// empty test database says nothing of a large one (test/e2e/postgresql.test.ts keeps its indexes
// the same as SQLite's)
beforeAll(async () => {
  if (onPostgresql) return;
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  const project = team.publicProject;
  const p = `/projects/${project.id}`;
  const someone: TestUser = await createUser(t);
  for (let i = 0; i < 3; i++) {
    const issue = await team.owner.api.post(`${p}/issues`, { title: `Issue ${i}`, labels: "bug", assignee_ids: [team.developer.id] });
    expect(issue.status).toBe(201);
  }
  expect((await someone.api.post(`${p}/issues/1/award_emoji`, { name: "tada" })).status).toBe(201);
  const note = await team.developer.api.post(`${p}/issues/1/notes`, { body: "a note" });
  expect(note.status).toBe(201);
  const mr = await createMergeRequest(team.developer.api, project.id);
  const group = await createGroup(t.root);
  const hook = await t.root.post(`/groups/${group.id}/hooks`, { url: "http://8.8.8.8/hook" });
  expect(hook.status).toBe(201);
  fixtures = { p, g: `/groups/${group.id}`, mrIid: mr.iid, noteId: note.body.id, hookId: hook.body.id, owner: team.owner.id, developer: team.developer.id, username: someone.username };
  const file = t.services.config.databaseUrl.slice("file:".length);
  reader = new Database(file, { readonly: true, fileMustExist: true });
});

afterAll(() => reader?.close());

/** The SELECT statements one request runs (answered once before, so prepared; caches emptied, so every read runs). */
async function statementsOf(path: string, client = t.root): Promise<string[]> {
  const first = await client.get(path, { raw: true });
  expect(first.status, `${path}: ${first.text}`).toBe(200);
  t.forgetCaches(); // counts and other kept values are read again
  const sql: string[] = [];
  t.services.sqlStats.trace = (text) => sql.push(text);
  try {
    await client.get(path, { raw: true });
  } finally {
    t.services.sqlStats.trace = undefined;
  }
  return sql.filter((text) => text.startsWith("SELECT"));
}

/** The planner's steps for a statement (parameters bound to NULL: the plan does not depend on them). */
function planOf(sql: string): string[] {
  const statement = reader.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const parameters = (sql.match(/\?/g) ?? []).length;
  return (statement.all(...Array(parameters).fill(null)) as { detail: string }[]).map((row) => row.detail);
}

const growing = (detail: string) => GROWING_TABLES.some((table) => new RegExp(`\\b(main\\.)?${table}\\b`).test(detail));

/** A walk of the table in id order that stops after the page (ORDER BY the primary key, then LIMIT). */
const idOrderWalk = (detail: string, sql: string) => {
  const table = /^SCAN (?:main\.)?(\w+)/.exec(detail)?.[1];
  return table !== undefined && new RegExp(`ORDER BY \`main\`\\.\`${table}\`\\.\`id\` (ASC|DESC) LIMIT`).test(sql);
};

/** Plan steps that read a growing table in full, or sort rows of one outside an index. */
function problemsIn(sql: string, plan: string[]): string[] {
  const readsGrowing = plan.some(growing);
  return plan.filter(
    (detail) =>
      (/^SCAN /.test(detail) && growing(detail) && !/USING (COVERING )?INDEX/.test(detail) && !idOrderWalk(detail, sql)) ||
      (/USE TEMP B-TREE FOR (ORDER BY|RIGHT PART OF ORDER BY|LAST TERM OF ORDER BY)/.test(detail) && readsGrowing),
  );
}

describe.skipIf(onPostgresql)("query plans of list requests", () => {
  it.each(LISTS)("%s: indexes only", async (name, pathOf) => {
    const path = pathOf(fixtures);
    const statements = await statementsOf(path);
    expect(statements.length, name).toBeGreaterThan(0);
    const problems = statements.flatMap((sql) => problemsIn(sql, planOf(sql)).map((detail) => `${detail}\n    in ${sql}`));
    expect(problems, `${name} (${path})`).toEqual([]);
  });
});

describe.skipIf(onPostgresql)("the capped count of a project's issues", () => {
  // Callers who may not read every confidential issue see `confidential = false OR author OR
  // assignee`; the list indexes carry those columns, so counting up to 10,001 rows never visits them.
  it.each(["anonymous", "nonMember", "guest", "developer", "admin"] as const)("as %s: reads an index alone", async (actor) => {
    const statements = await statementsOf(`${fixtures.p}/issues`, clientOf(t, team, actor));
    const count = statements.find((sql) => sql.startsWith("SELECT COUNT(*)"));
    expect(count, statements.join("\n")).toBeDefined();
    const issueSteps = planOf(count!).filter((detail) => /\b(main\.)?Issue\b/.test(detail));
    expect(issueSteps.length).toBeGreaterThan(0);
    for (const step of issueSteps) expect(step).toMatch(/USING COVERING INDEX/);
  });
});

describe.skipIf(onPostgresql)("query plans of the events lists for every caller", () => {
  // the visible-projects filter differs by caller (admin: none; members: their projects; anonymous: public ones)
  const EVENTS: [string, (f: typeof fixtures) => string][] = [
    ["a user's events", (f) => `/users/${f.owner}/events`],
    ["project events", (f) => `${f.p}/events`],
  ];
  it.each(["anonymous", "nonMember", "guest", "developer", "admin"] as const)("as %s: indexes only", async (actor) => {
    const lists = actor === "anonymous" ? EVENTS : [...EVENTS, ["own events", () => "/events"] as (typeof EVENTS)[number]];
    for (const [name, pathOf] of lists) {
      const statements = await statementsOf(pathOf(fixtures), clientOf(t, team, actor));
      const problems = statements.flatMap((sql) => problemsIn(sql, planOf(sql)).map((detail) => `${detail}\n    in ${sql}`));
      expect(problems, `${name} as ${actor}`).toEqual([]);
    }
  });
});
