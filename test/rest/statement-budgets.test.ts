// Statements per request on the hot routes, as a budget that fails when a change adds queries:
// on a warm server (the request already answered once) a 20-row list with its users costs at
// most 3 SQL statements, a single resource at most 2, whoever asks. Counted at the driver
// (services.sqlStats), so raw SQL counts as much as Prisma's. Round trips (each wait for the
// database server) have a budget too: on PostgreSQL one more than the statements, the read of
// the cache versions that starts every request.
import { backgroundChecksDone } from "../../src/domain/merge-requests/mergeability.js";
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import type { ApiClient } from "../helpers/api.js";
import { createUser, type TestUser } from "../helpers/factories.js";
import { createProjectRule } from "../helpers/approvals.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

const EMOJI = ["thumbsup", "thumbsdown", "heart", "tada", "smile", "rocket", "eyes", "fire", "star", "clap", "wave", "pray", "muscle",
  "sunglasses", "thinking", "joy", "sob", "angry", "skull", "ghost", "alien", "robot", "cat", "dog", "100"];

const LIST_BUDGET = 3;
const SINGLE_BUDGET = 2;
const EVENTS_BUDGET = 4;
const LABELS_BUDGET = 4;
const LABEL_EVENTS_BUDGET = 4;

let t: TestApp;
let team: TeamWithProjects;
let reactors: TestUser[];
let paths: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp({ ALLOW_LOCAL_WEBHOOKS: "true" });
  team = await createTeamWithProjects(t);
  const project = team.publicProject;
  const p = `/projects/${project.id}`;
  // 22 milestones; the issues' rows carry two of them (one batched read of a page's milestones)
  const milestones: number[] = [];
  for (let i = 0; i < 22; i++) milestones.push((await team.owner.api.post(`${p}/milestones`, { title: `Milestone ${i}`, due_date: `2030-01-${10 + i}` })).body.id);
  for (let i = 0; i < 25; i++) {
    const created = await team.owner.api.post(`${p}/issues`, { title: `Issue ${i}`, labels: "bug", milestone_id: milestones[i % 2] });
    expect(created.status).toBe(201);
  }
  const issue = 1;
  reactors = await Promise.all(EMOJI.map(() => createUser(t)));
  for (const [i, user] of reactors.entries()) {
    const awarded = await user.api.post(`${p}/issues/${issue}/award_emoji`, { name: EMOJI[i] });
    expect(awarded.status, awarded.text).toBe(201);
  }
  // 22 project labels (the issues carry "bug", counted by with_counts) and a public group with 22 labels
  for (let i = 0; i < 22; i++) expect((await team.owner.api.post(`${p}/labels`, { name: `label-${i}`, color: "#00ff00", priority: i % 3 })).status).toBe(201);
  // (made by the administrator: the team's members stay outside any group, as the other lists' budgets assume)
  const group = (await t.root.post("/groups", { name: "Labelled", path: "labelled", visibility: "public" })).body;
  for (let i = 0; i < 22; i++) expect((await t.root.post(`/groups/${group.id}/labels`, { name: `group-label-${i}`, color: "#00ff00" })).status).toBe(201);
  // issue 2's labels replaced by the 22 project labels: 23 resource label events (22 adds, bug removed)
  const labelled = await team.developer.api.put(`${p}/issues/2`, { labels: Array.from({ length: 22 }, (_, i) => `label-${i}`).join(",") });
  expect(labelled.status, labelled.text).toBe(200);
  const mr = await createMergeRequest(team.developer.api, project.id);
  for (let i = 0; i < 22; i++) await reactors[i % reactors.length]!.api.post(`${p}/merge_requests/${mr.iid}/notes`, { body: `Note ${i}` });
  await createProjectRule(team.owner.api, project.id, { name: "Reviewers", approvals_required: 1, user_ids: [team.maintainer.id] });
  paths = {
    awards: `${p}/issues/${issue}/award_emoji?per_page=20`,
    issues: `${p}/issues?per_page=20`,
    notes: `${p}/merge_requests/${mr.iid}/notes?per_page=20`,
    project: p,
    projectByPath: `/projects/${encodeURIComponent(project.path_with_namespace)}`,
    issue: `${p}/issues/${issue}`,
    approvalState: `${p}/merge_requests/${mr.iid}/approval_state`,
    user: "/user",
    projectEvents: `${p}/events?per_page=20`,
    userEvents: `/users/${team.owner.id}/events?per_page=20`,
    milestones: `${p}/milestones?per_page=20`,
    milestone: `${p}/milestones/${milestones[0]}`,
    projectLabels: `${p}/labels?per_page=20`,
    projectLabelsCounted: `${p}/labels?per_page=20&with_counts=true`,
    groupLabels: `/groups/${group.id}/labels?per_page=20`,
    groupLabelsCounted: `/groups/${group.id}/labels?per_page=20&with_counts=true`,
    issuesLabelsDetails: `${p}/issues?per_page=20&with_labels_details=true`,
    labelEvents: `${p}/issues/2/resource_label_events?per_page=20`,
  };
});

/** The statements of one request on a warm server (answered once before), and their SQL. */
async function statementsOf(client: ApiClient, path: string): Promise<{ count: number; roundTrips: number; sql: string[]; status: number }> {
  await backgroundChecksDone(); // no mergeability check of the fixtures counted with the request
  expect((await client.get(path, { raw: true })).status).toBeLessThan(300);
  await backgroundChecksDone(); // nor one the warm-up started (a list of merge requests checks those never checked)
  const sql: string[] = [];
  t.services.sqlStats.trace = (text) => sql.push(text);
  const before = { ...t.services.sqlStats };
  try {
    const { status } = await client.get(path, { raw: true });
    return { count: t.services.sqlStats.statements - before.statements, roundTrips: t.services.sqlStats.roundTrips - before.roundTrips, sql, status };
  } finally {
    t.services.sqlStats.trace = undefined;
  }
}

/** The cache-version read that starts a request on PostgreSQL (SQLite asks its file's counter in-process). */
const versionReads = () => (t.services.dialect === "postgresql" ? 1 : 0);

const READERS: Actor[] = ["anonymous", "nonMember", "guest", "developer", "owner", "admin"];
/** GitLab's notes API wants a signed-in caller. */
const SIGNED_IN = READERS.filter((actor) => actor !== "anonymous");

const CASES: [name: string, key: string, budget: number, rows: number | null, actors: Actor[]][] = [
  // GitLab's milestone routes want a signed-in caller
  ["project milestones", "milestones", LIST_BUDGET, 20, SIGNED_IN],
  ["a project milestone", "milestone", SINGLE_BUDGET, null, SIGNED_IN],
  // the count, the page, the caller's subscriptions and (a project's) the project's priorities;
  // a group's list reads the group instead of the priorities
  ["project labels", "projectLabels", LABELS_BUDGET, 20, READERS],
  ["group labels", "groupLabels", LABELS_BUDGET, 20, SIGNED_IN],
  // ... with_counts: one grouped count each of open issues, closed issues and open merge requests
  // for the page, and the caller's group memberships and the shares into those groups (two
  // statements each, read once per request for all three visibility filters)
  ["project labels with_counts", "projectLabelsCounted", LABELS_BUDGET + 7, 20, READERS],
  ["group labels with_counts", "groupLabelsCounted", LABELS_BUDGET + 7, 20, SIGNED_IN],
  ["award emoji of an issue", "awards", LIST_BUDGET, 20, READERS],
  ["project issues", "issues", LIST_BUDGET, 20, READERS],
  // the labels as objects come from the label cache, as their titles do
  ["project issues with_labels_details", "issuesLabelsDetails", LIST_BUDGET, 20, READERS],
  // GitLab's resource event routes want a signed-in caller: the issue, the count, the page and its labels
  ["resource label events of an issue", "labelEvents", LABEL_EVENTS_BUDGET, 20, SIGNED_IN],
  ["merge request notes", "notes", LIST_BUDGET, 20, SIGNED_IN],
  ["a project by id", "project", SINGLE_BUDGET, null, READERS],
  ["a project by full path", "projectByPath", SINGLE_BUDGET, null, READERS],
  ["an issue", "issue", SINGLE_BUDGET, null, READERS],
  // the count, the page, the notes it names and one statement for the issues, merge requests and
  // snippets it names (directly or through the notes) with the issues' assignees; authors, projects
  // and the caller's levels come from the caches
  ["project events", "projectEvents", EVENTS_BUDGET, 20, READERS],
  // ... and, for signed-in callers who are not administrators, the two statements of the shared
  // visibility filter (the caller's group memberships: visible projects)
  ["a user's events", "userEvents", EVENTS_BUDGET + 1, 20, READERS],
];

describe.each(CASES)("%s", (_name, key, budget, rows, actors) => {
  it.each(actors)(`as %s: at most ${budget} statements, and one round trip each (plus the version read on PostgreSQL)`, async (actor) => {
    const client = clientOf(t, team, actor);
    const { count, roundTrips, sql, status } = await statementsOf(client, paths[key]!);
    expect(status).toBe(200);
    if (rows !== null) expect((await client.get(paths[key]!, { raw: true })).body).toHaveLength(rows);
    expect(count, sql.join("\n")).toBeLessThanOrEqual(budget);
    expect(roundTrips, sql.join("\n")).toBe(count + versionReads());
  });
});

describe("signed-in only", () => {
  it.each(["nonMember", "developer", "admin"] as const)("GET /user as %s: at most 2 statements", async (actor) => {
    const { count, roundTrips, sql } = await statementsOf(clientOf(t, team, actor), paths.user!);
    expect(count, sql.join("\n")).toBeLessThanOrEqual(SINGLE_BUDGET);
    expect(roundTrips, sql.join("\n")).toBe(count + versionReads());
  });

  // the merge request and its approvals; the approval configuration (settings, rules with their
  // people, protected branches) is kept between requests as the actor and memberships are
  it.each(SIGNED_IN)("approval_state as %s: at most 2 statements", async (actor) => {
    const { count, roundTrips, sql, status } = await statementsOf(clientOf(t, team, actor), paths.approvalState!);
    expect(status).toBe(200);
    expect(count, sql.join("\n")).toBeLessThanOrEqual(SINGLE_BUDGET);
    expect(roundTrips, sql.join("\n")).toBe(count + versionReads());
  });
});

describe("GET /namespaces (signed in only)", () => {
  // the count and the page; the Owners' and administrators' counts of a page of groups in one
  // more statement (the caller's level on each group comes from the memberships cache)
  const GROUPS = 22;
  beforeAll(async () => {
    for (let i = 0; i < GROUPS; i++) {
      const group = (await team.owner.api.post("/groups", { name: `Counted ${i}`, path: `counted-${i}` })).body;
      expect((await team.owner.api.post(`/groups/${group.id}/members`, { user_id: team.developer.id, access_level: 30 })).status).toBe(201);
    }
  });

  // the administrator's first page by id would hold only the users' namespaces: searched
  it.each([
    ["owner", "", 20, true], ["developer", "", 20, false], ["nonMember", "", 1, false], ["admin", "&search=counted", 20, true],
  ] as const)(`as %s, ?per_page=20%s: %i rows, at most ${LIST_BUDGET} statements`, async (actor, search, rows, counted) => {
    const client = clientOf(t, team, actor);
    const path = `/namespaces?per_page=20${search}`;
    const { count, roundTrips, sql, status } = await statementsOf(client, path);
    expect(status).toBe(200);
    const body = (await client.get(path, { raw: true })).body;
    expect(body).toHaveLength(rows);
    expect(body.some((n: any) => "members_count_with_descendants" in n)).toBe(counted);
    expect(count, sql.join("\n")).toBeLessThanOrEqual(LIST_BUDGET);
    expect(roundTrips, sql.join("\n")).toBe(count + versionReads());
  });

  it.each(["owner", "developer", "admin"] as const)(`GET /namespaces/:id (a group) as %s: at most ${SINGLE_BUDGET} statements`, async (actor) => {
    const { count, roundTrips, sql, status } = await statementsOf(clientOf(t, team, actor), "/namespaces/counted-0");
    expect(status).toBe(200);
    expect(count, sql.join("\n")).toBeLessThanOrEqual(SINGLE_BUDGET);
    expect(roundTrips, sql.join("\n")).toBe(count + versionReads());
  });
});

describe("GET /projects/:id/repository/commits/:sha/statuses (signed in only)", () => {
  // the count and the page (measured: 2, whoever asks); the authors come from the users cache on
  // a warm server
  const STATUSES_BUDGET = 2;
  let path: string;
  beforeAll(async () => {
    const project = team.publicProject;
    const sha = (await team.owner.api.get(`/projects/${project.id}/repository/branches/main`)).body.commit.id;
    const authors = [team.developer.api, team.maintainer.api, team.owner.api, t.root];
    for (let i = 0; i < 22; i++) {
      const res = await authors[i % authors.length]!.post(`/projects/${project.id}/statuses/${sha}`, { state: "success", name: `job-${i}` });
      expect(res.status, res.text).toBe(201);
    }
    path = `/projects/${project.id}/repository/commits/${sha}/statuses?per_page=20`;
  });

  it.each(SIGNED_IN)(`as %s: 20 rows, at most ${STATUSES_BUDGET} statements`, async (actor) => {
    const client = clientOf(t, team, actor);
    const { count, roundTrips, sql, status } = await statementsOf(client, path);
    expect(status).toBe(200);
    expect((await client.get(path, { raw: true })).body).toHaveLength(20);
    expect(count, sql.join("\n")).toBeLessThanOrEqual(STATUSES_BUDGET);
    expect(roundTrips, sql.join("\n")).toBe(count + versionReads());
  });
});

describe("personal snippet lists (signed in only)", () => {
  beforeAll(async () => {
    // 21 public personal snippets, each by another author, and 21 of the developer's own
    for (const [i, user] of reactors.slice(0, 21).entries()) {
      expect((await user.api.post("/snippets", { title: `Public ${i}`, visibility: "public", file_name: "a.txt", content: "a" })).status).toBe(201);
      expect((await team.developer.api.post("/snippets", { title: `Own ${i}`, visibility: i % 2 ? "private" : "internal", file_name: "a.txt", content: "a" })).status).toBe(201);
    }
  });

  it.each([
    ["GET /snippets", "developer", "/snippets?per_page=20"],
    ["GET /snippets/public", "nonMember", "/snippets/public?per_page=20"],
    ["GET /snippets/public", "admin", "/snippets/public?per_page=20"],
    ["GET /snippets/all", "admin", "/snippets/all?per_page=20"],
  ] as const)(`%s as %s: at most ${LIST_BUDGET} statements for 20 rows`, async (_name, actor, path) => {
    const client = clientOf(t, team, actor);
    const { count, roundTrips, sql, status } = await statementsOf(client, path);
    expect(status).toBe(200);
    expect((await client.get(path, { raw: true })).body).toHaveLength(20);
    expect(count, sql.join("\n")).toBeLessThanOrEqual(LIST_BUDGET);
    expect(roundTrips, sql.join("\n")).toBe(count + versionReads());
  });

  // a signed-in non-administrator also pays the filter of the projects they are a member of: their
  // groups (the memberships, their traversal ids) and the groups shared with those (the links, theirs)
  it(`GET /snippets/all as developer: at most ${LIST_BUDGET + 4} statements for 20 rows`, async () => {
    const path = "/snippets/all?per_page=20";
    const { count, roundTrips, sql, status } = await statementsOf(team.developer.api, path);
    expect(status).toBe(200);
    expect((await team.developer.api.get(path, { raw: true })).body).toHaveLength(20);
    expect(count, sql.join("\n")).toBeLessThanOrEqual(LIST_BUDGET + 4);
    expect(roundTrips, sql.join("\n")).toBe(count + versionReads());
  });

  it(`GET /snippets/:id as the author: at most ${SINGLE_BUDGET} statements`, async () => {
    const own = (await team.developer.api.get("/snippets?per_page=1")).body[0];
    const { count, sql } = await statementsOf(team.developer.api, `/snippets/${own.id}`);
    expect(count, sql.join("\n")).toBeLessThanOrEqual(SINGLE_BUDGET);
  });
});

describe("award emoji pages (the count is read with the page)", () => {
  it.each([
    [1, 20, 20, "2"], [2, 20, 5, ""], [3, 20, 0, ""], [1, 100, 25, ""], [26, 1, 0, ""],
  ])("page %i of %i: %i rows, X-Total 25", async (page, perPage, rows, nextPage) => {
    const path = paths.awards!.replace("?per_page=20", `?page=${page}&per_page=${perPage}`);
    const res = await t.anon.get(path, { raw: true });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(rows);
    expect(res.headers.get("x-total")).toBe("25");
    expect(res.headers.get("x-total-pages")).toBe(String(Math.ceil(25 / perPage)));
    expect(res.headers.get("x-next-page")).toBe(nextPage);
  });
});

describe("writes", () => {
  // the next iid, the insert, its contribution event, the labels its names resolve to, the links
  // to them, their resource label events, the delivery rows and COMMIT (the hooks that hear the
  // event come from the cache; the payload's labels are those the write resolved; the answer's
  // comment and vote counts are those of a new issue: none)
  const CREATE_ISSUE_BUDGET = 8;
  it(`POST issue with a group hook listening: at most ${CREATE_ISSUE_BUDGET} statements, one delivery row`, async () => {
    const group = (await t.root.post("/groups", { name: "Hooked", path: "hooked", visibility: "public" })).body;
    const project = (await t.root.post("/projects", { name: "Hooked", namespace_id: group.id })).body;
    expect((await t.root.post(`/groups/${group.id}/hooks`, { url: "http://127.0.0.1:9/hook", issues_events: true })).status).toBe(201);
    const path = `/projects/${project.id}/issues`;
    expect((await t.root.post(path, { title: "warm-up", labels: "bench" })).status).toBe(201);
    const sql: string[] = [];
    t.services.sqlStats.trace = (text) => sql.push(text);
    const before = t.services.sqlStats.statements;
    const created = await t.root.post(path, { title: "counted", labels: "bench" }).finally(() => (t.services.sqlStats.trace = undefined));
    expect(created.status).toBe(201);
    expect(t.services.sqlStats.statements - before, sql.join("\n")).toBeLessThanOrEqual(CREATE_ISSUE_BUDGET);
    const deliveries = await t.services.db.webHookDelivery.findMany({ where: { trigger: "issue_hooks" } });
    expect(deliveries.map((d) => JSON.parse(d.payload).object_attributes.title)).toEqual(["warm-up", "counted"]);
  });
});

describe("caches stay correct", () => {
  it("a member removed from a private project loses access on the next request", async () => {
    const path = `/projects/${team.privateProject.id}/issues?per_page=20`;
    const guest = await createUser(t);
    await team.owner.api.post(`/projects/${team.privateProject.id}/members`, { user_id: guest.id, access_level: 10 });
    expect((await guest.api.get(path)).status).toBe(200);
    expect((await guest.api.get(path)).status).toBe(200); // cached now
    expect((await team.owner.api.delete(`/projects/${team.privateProject.id}/members/${guest.id}`)).status).toBe(204);
    expect((await guest.api.get(path)).status).toBe(404);
  });

  it("a revoked token is refused on the next request", async () => {
    const user = await createUser(t);
    expect((await user.api.get("/user")).status).toBe(200);
    const tokens = await user.api.get("/personal_access_tokens");
    expect((await user.api.delete(`/personal_access_tokens/${tokens.body[0].id}`)).status).toBe(204);
    expect((await user.api.get("/user")).status).toBe(401);
  });

  it("a project made private disappears for anonymous callers on the next request", async () => {
    const project = (await team.owner.api.post("/projects", { name: "Flip", path: `flip-${Date.now()}`, visibility: "public" })).body;
    expect((await t.anon.get(`/projects/${project.id}`)).status).toBe(200);
    expect((await team.owner.api.put(`/projects/${project.id}`, { visibility: "private" })).status).toBe(200);
    expect((await t.anon.get(`/projects/${project.id}`)).status).toBe(404);
  });

  it("a user renamed behind the application's back shows under the new name in lists", async () => {
    const reactor = reactors[0]!;
    expect((await t.anon.get(paths.awards!, { raw: true })).status).toBe(200);
    await t.services.db.user.update({ where: { id: reactor.id }, data: { name: "Renamed Reactor" } });
    const awards = await t.anon.get(paths.awards!, { raw: true });
    expect(awards.body.find((award: any) => award.user.id === reactor.id).user.name).toBe("Renamed Reactor");
  });
});

describe("GET /projects/:id/uploads (Maintainers and above)", () => {
  // the count, the page (without the files' content) and the uploaders of the page in one batch
  beforeAll(async () => {
    const uploaders = [team.guest, team.developer, team.maintainer];
    for (let i = 0; i < 22; i++) {
      const form = new FormData();
      form.append("file", new Blob([`file ${i}`]), `file-${i}.txt`);
      expect((await uploaders[i % uploaders.length]!.api.post(`/projects/${team.publicProject.id}/uploads`, undefined, { form })).status).toBe(201);
    }
  });

  it.each(["maintainer", "owner", "admin"] as const)(`as %s, ?per_page=20: 20 rows, at most ${LIST_BUDGET} statements`, async (actor) => {
    const client = clientOf(t, team, actor);
    const path = `/projects/${team.publicProject.id}/uploads?per_page=20`;
    const { count, roundTrips, sql, status } = await statementsOf(client, path);
    expect(status).toBe(200);
    expect((await client.get(path, { raw: true })).body).toHaveLength(20);
    expect(count, sql.join("\n")).toBeLessThanOrEqual(LIST_BUDGET);
    expect(roundTrips, sql.join("\n")).toBe(count + versionReads());
  });
});

describe("GET /projects/:id/releases", () => {
  // the count, the page and the page's links in one batch; the authors come from the users cache,
  // the tags' commits from git in one read and the project's path is the one the list was found with
  const RELEASES_BUDGET = 3;
  beforeAll(async () => {
    const authors = [team.developer, team.maintainer, team.owner];
    for (let i = 0; i < 22; i++) {
      const res = await authors[i % authors.length]!.api.post(`/projects/${team.publicProject.id}/releases`, {
        tag_name: `r${i}`, ref: "main", assets: { links: [{ name: "a", url: `https://a.example/${i}` }, { name: "b", url: `https://b.example/${i}` }] },
      });
      expect(res.status, res.text).toBe(201);
    }
  });

  it.each(READERS)(`as %s, ?per_page=20: 20 rows, at most ${RELEASES_BUDGET} statements`, async (actor) => {
    const client = clientOf(t, team, actor);
    const path = `/projects/${team.publicProject.id}/releases?per_page=20`;
    const { count, roundTrips, sql, status } = await statementsOf(client, path);
    expect(status).toBe(200);
    const body = (await client.get(path, { raw: true })).body;
    expect(body).toHaveLength(20);
    expect(body.every((release: any) => release.assets.links.length === 2 && release.author && release.commit)).toBe(true);
    expect(count, sql.join("\n")).toBeLessThanOrEqual(RELEASES_BUDGET);
    expect(roundTrips, sql.join("\n")).toBe(count + versionReads());
  });
});

describe("GET /projects/:id/releases with milestones", () => {
  // the list's three, then the page's milestone links and their issues' counts (the milestones
  // themselves from the milestones cache)
  const RELEASES_WITH_MILESTONES_BUDGET = 5;
  beforeAll(async () => {
    const p = `/projects/${team.privateProject.id}`;
    const ids: number[] = [];
    for (const title of ["Budget 1", "Budget 2"]) ids.push((await team.owner.api.post(`${p}/milestones`, { title })).body.id);
    expect((await team.owner.api.post(`${p}/issues`, { title: "Counted", milestone_id: ids[0] })).status).toBe(201);
    for (let i = 0; i < 22; i++) {
      const res = await team.developer.api.post(`/projects/${team.privateProject.id}/releases`, {
        tag_name: `m${i}`, ref: "main", milestone_ids: ids, assets: { links: [{ name: "a", url: `https://a.example/${i}` }] },
      });
      expect(res.status, res.text).toBe(201);
    }
  });

  it.each(["guest", "developer", "owner", "admin"] as const)(`as %s, ?per_page=20: 20 rows with 2 milestones each, at most ${RELEASES_WITH_MILESTONES_BUDGET} statements`, async (actor) => {
    const client = clientOf(t, team, actor);
    const path = `/projects/${team.privateProject.id}/releases?per_page=20`;
    const { count, roundTrips, sql, status } = await statementsOf(client, path);
    expect(status).toBe(200);
    const body = (await client.get(path, { raw: true })).body;
    expect(body).toHaveLength(20);
    expect(body.every((release: any) => release.milestones.length === 2 && release.milestones[0].issue_stats)).toBe(true);
    expect(count, sql.join("\n")).toBeLessThanOrEqual(RELEASES_WITH_MILESTONES_BUDGET);
    expect(roundTrips, sql.join("\n")).toBe(count + versionReads());
  });
});

describe("GET /search, /groups/:id/search, /projects/:id/search (signed in only)", () => {
  // A public group (the administrator's, the team outside it) with a public project of 22 issues,
  // 22 milestones and a merge request with 22 notes, and 22 public snippets, all holding the term.
  // Each scope costs what its list costs, plus (SQLite) the FTS5 read of the matching ids for
  // issues and merge requests: measured, per actor, as budgets [administrator, non-member or
  // guest, member]. The callers who are not administrators pay the visibility filters of the lists
  // they search through (the projects open to them; for members, their group memberships and the
  // shares into those groups too); a group adds the read of the group; a merge request's entity
  // costs what it costs in the merge request lists (assignees, reviewers, projects, namespaces,
  // counts, the branch it shows). users: one page of users (global) or the members of the group or
  // project, read whole; notes: the project's readable issues, then the page's notes and their
  // noteables' iids.
  const TERM = "needle";
  let searches: [name: string, path: string, rows: number, budgets: [admin: number, outsider: number, member: number]][];
  beforeAll(async () => {
    const group = (await t.root.post("/groups", { name: "Searched", path: "searched", visibility: "public" })).body;
    const project = (await t.root.post("/projects", { name: `Searched ${TERM}`, namespace_id: group.id, visibility: "public", initialize_with_readme: true })).body;
    const p = `/projects/${project.id}`;
    for (let i = 0; i < 22; i++) {
      expect((await t.root.post(`${p}/issues`, { title: `Issue ${i} with a ${TERM}`, description: `body ${i}` })).status).toBe(201);
      expect((await t.root.post(`${p}/milestones`, { title: `Milestone ${i} ${TERM}` })).status).toBe(201);
    }
    const mr = await createMergeRequest(t.root, project.id, { title: `A ${TERM} merge request` });
    for (let i = 0; i < 22; i++) expect((await t.root.post(`${p}/merge_requests/${mr.iid}/notes`, { body: `Note ${i} ${TERM}` })).status).toBe(201);
    for (let i = 0; i < 22; i++) expect((await t.root.post("/snippets", { title: `Snippet ${i} ${TERM}`, visibility: "public", file_name: "a.txt", content: "a" })).status).toBe(201);
    const q = (scope: string) => `search?scope=${scope}&search=${TERM}&per_page=20`;
    const g = `/groups/${group.id}/`;
    searches = [
      ["global projects", `/${q("projects")}`, 1, [5, 7, 9]],
      ["global issues", `/${q("issues")}`, 20, [3, 6, 8]],
      ["global merge_requests", `/${q("merge_requests")}`, 1, [10, 12, 14]],
      ["global milestones", `/${q("milestones")}`, 20, [2, 4, 6]],
      ["global snippet_titles", `/${q("snippet_titles")}`, 20, [5, 7, 9]],
      ["global users", `/search?scope=users&search=${encodeURIComponent(team.developer.username)}&per_page=20`, 1, [2, 2, 2]],
      ["group projects", `${g}${q("projects")}`, 1, [6, 8, 10]],
      ["group issues", `${g}${q("issues")}`, 20, [4, 7, 9]],
      ["group merge_requests", `${g}${q("merge_requests")}`, 1, [11, 13, 15]],
      ["group milestones", `${g}${q("milestones")}`, 20, [3, 5, 7]],
      ["group users", `${g}search?scope=users&search=root&per_page=20`, 1, [4, 4, 4]],
      ["project issues", `${p}/${q("issues")}`, 20, [3, 3, 3]],
      ["project merge_requests", `${p}/${q("merge_requests")}`, 1, [10, 10, 10]],
      ["project milestones", `${p}/${q("milestones")}`, 20, [2, 2, 2]],
      ["project notes", `${p}/${q("notes")}`, 20, [4, 4, 4]],
      ["project users", `${p}/search?scope=users&search=root&per_page=20`, 1, [7, 7, 7]],
    ];
  });

  const WHO = { admin: 0, nonMember: 1, guest: 1, developer: 2, owner: 2 } as const;
  it.each(Object.keys(WHO) as (keyof typeof WHO)[])("as %s: each scope within its budget, one round trip per statement", async (actor) => {
    const client = clientOf(t, team, actor);
    for (const [name, path, rows, budgets] of searches) {
      const { count, roundTrips, sql, status } = await statementsOf(client, path);
      expect([name, status]).toEqual([name, 200]);
      expect([name, (await client.get(path, { raw: true })).body.length]).toEqual([name, rows]);
      expect(count, `${name}\n${sql.join("\n")}`).toBeLessThanOrEqual(budgets[WHO[actor]]);
      expect(roundTrips, `${name}\n${sql.join("\n")}`).toBe(count + versionReads());
    }
  });
});
