import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
// Project lifecycle through /api/v4: DELETE /projects/:id (202 as GitLab, everything hanging from
// the project removed in one transaction, other projects untouched, project_destroy for group
// hooks), GET /projects/:id/groups, and initialize_with_readme (an empty repository without it).
import { beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { commitTo, createMergeRequest } from "../helpers/merge-requests.js";
import { createNote, createSnippet } from "../helpers/snippets-notes.js";
import { awardEmoji } from "../helpers/award-emoji.js";
import { approve, createProjectRule, projectBot } from "../helpers/approvals.js";
import { protectBranch } from "../helpers/repository.js";
import { queryDatabase } from "../helpers/test-database.js";
import { ACTORS, clientOf, createTeam, createTeamProject, type Actor, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let groupOwner: TestUser, groupMaintainer: TestUser;
// group (private) > sub (private), with a hook hearing project events on group
let group: any, sub: any;

const ACCEPTED = { message: "202 Accepted" };
const PROJECT_NOT_FOUND = { message: "404 Project Not Found" };
const enc = (path: string) => encodeURIComponent(path);

const rows = <T = any>(sql: string, ...params: unknown[]) => queryDatabase<T>(t.services.config.databaseUrl, sql, ...params);
const count = async (sql: string, ...params: unknown[]) => Number((await rows<{ n: unknown }>(sql, ...params))[0]!.n);

beforeAll(async () => {
  t = await startTestApp({ ALLOW_LOCAL_WEBHOOKS: "true" });
  team = await createTeam(t);
  [groupOwner, groupMaintainer] = await Promise.all([createUser(t), createUser(t)]);
  group = await createGroup(groupOwner.api);
  sub = await createGroup(groupOwner.api, { parent_id: group.id });
  await addMember(groupOwner.api, "groups", group.id, groupMaintainer.id, 40);
  const hook = await groupOwner.api.post(`/groups/${group.id}/hooks`, { url: "http://127.0.0.1:9/projects", project_events: true, push_events: false });
  expect(hook.status, hook.text).toBe(201);
});

/** A project of the group with something of every kind hanging from it. */
async function populatedProject(namespaceId: number, topic: string) {
  const by = groupOwner.api;
  const project = await createProject(by, { namespace_id: namespaceId, topics: [topic], visibility: "private" });
  const issue = await createIssue(by, project.id);
  const mr = await createMergeRequest(by, project.id);
  const snippet = await createSnippet(by, project.id);
  const note = await createNote(by, project.id, "issues", issue.iid);
  await createNote(by, project.id, "merge_requests", mr.iid);
  await createNote(by, project.id, "snippets", snippet.id);
  for (const target of [
    { kind: "issues" as const, ref: issue.iid }, { kind: "merge_requests" as const, ref: mr.iid },
    { kind: "snippets" as const, ref: snippet.id }, { kind: "issues" as const, ref: issue.iid, noteId: note.id },
  ]) await awardEmoji(by, { projectId: project.id, ...target });
  await createProjectRule(by, project.id, { name: uniq("rule"), approvals_required: 1, user_ids: [groupMaintainer.id] });
  await approve(groupMaintainer.api, project.id, mr.iid);
  await protectBranch(by, project.id, "release/*");
  const bot = await projectBot(t, by, project.id);
  const renamed = await by.put(`/projects/${project.id}`, { path: uniq("renamed") });
  expect(renamed.status, renamed.text).toBe(200);
  return { project, issue, mr, snippet, note, bot };
}

const PROJECT_TABLES = [
  "Issue", "MergeRequest", "Note", "Snippet", "Branch", "ProjectMember", "RedirectRoute", "ProjectTopic",
  "ProtectedBranch", "InternalId", "ApprovalRule",
];

/** Rows of every kind that belong to the project (directly or through its issues, MRs, snippets, notes). */
async function remnants(fixture: Awaited<ReturnType<typeof populatedProject>>): Promise<Record<string, number>> {
  const { project, issue, mr, snippet, note, bot } = fixture;
  const counts: Record<string, number> = {};
  for (const table of PROJECT_TABLES) counts[table] = await count(`SELECT COUNT(*) AS n FROM "${table}" WHERE "projectId" = ?`, project.id);
  counts.Project = await count('SELECT COUNT(*) AS n FROM "Project" WHERE "id" = ?', project.id);
  counts.AwardEmoji = await count(
    'SELECT COUNT(*) AS n FROM "AwardEmoji" WHERE ("awardableType" = ? AND "awardableId" = ?) OR ("awardableType" = ? AND "awardableId" = ?) OR ("awardableType" = ? AND "awardableId" = ?) OR ("awardableType" = ? AND "awardableId" = ?)',
    "Issue", issue.id, "MergeRequest", mr.id, "Snippet", snippet.id, "Note", note.id,
  );
  counts.Approval = await count('SELECT COUNT(*) AS n FROM "Approval" WHERE "mergeRequestId" = ?', mr.id);
  counts.SnippetFile = await count('SELECT COUNT(*) AS n FROM "SnippetFile" WHERE "snippetId" = ?', snippet.id);
  counts.BotUser = await count('SELECT COUNT(*) AS n FROM "User" WHERE "id" = ?', bot.id);
  counts.AccessToken = await count('SELECT COUNT(*) AS n FROM "AccessToken" WHERE "kind" = ? AND "resourceId" = ?', "project", project.id);
  counts.Repository = existsSync(t.services.git.pathOf(project.id)) ? 1 : 0;
  return counts;
}

describe("DELETE /projects/:id", () => {
  const expected: Record<Actor, [number, unknown]> = {
    anonymous: [401, { message: "401 Unauthorized" }],
    nonMember: [404, PROJECT_NOT_FOUND],
    guest: [403, { message: "403 Forbidden" }],
    reporter: [403, { message: "403 Forbidden" }],
    developer: [403, { message: "403 Forbidden" }],
    maintainer: [403, { message: "403 Forbidden" }],
    owner: [202, ACCEPTED],
    admin: [202, ACCEPTED],
  };

  it.each(ACTORS)("as %s (remove_project: Owners and admins)", async (actor) => {
    const project = await createTeamProject(team);
    const res = await clientOf(t, team, actor).delete(`/projects/${project.id}`);
    const [status, body] = expected[actor];
    expect(res.status).toBe(status);
    expect(res.body).toEqual(body);
    expect((await team.owner.api.get(`/projects/${project.id}`)).status).toBe(status === 202 ? 404 : 200);
  });

  it("lets an Owner of the group (inherited) delete, not a Maintainer", async () => {
    const project = await createProject(groupOwner.api, { namespace_id: sub.id });
    expect((await groupMaintainer.api.delete(`/projects/${project.id}`)).status).toBe(403);
    const res = await groupOwner.api.delete(`/projects/${enc(project.path_with_namespace)}`);
    expect(res.status).toBe(202);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toEqual(ACCEPTED);
  });

  it.each([["99999999"], [enc("no/such-project")]])("answers 404 for an unknown project %s", async (id) => {
    const res = await t.root.delete(`/projects/${id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(PROJECT_NOT_FOUND);
  });

  it("answers 404 the second time", async () => {
    const project = await createTeamProject(team);
    expect((await team.owner.api.delete(`/projects/${project.id}`)).status).toBe(202);
    expect((await team.owner.api.delete(`/projects/${project.id}`)).body).toEqual(PROJECT_NOT_FOUND);
  });

  it("answers 405 on an old path of a moved project, as other non-GET methods do", async () => {
    const project = await createProject(groupOwner.api, { namespace_id: group.id });
    await groupOwner.api.put(`/projects/${project.id}`, { path: uniq("moved") });
    const res = await groupOwner.api.delete(`/projects/${enc(project.path_with_namespace)}`);
    expect(res.status).toBe(405);
    expect((await groupOwner.api.get(`/projects/${project.id}`)).status).toBe(200);
  });

  it("answers 412 when If-Unmodified-Since is older than the project (destroy_conditionally!)", async () => {
    const project = await createTeamProject(team);
    const res = await team.owner.api.delete(`/projects/${project.id}`, { headers: { "If-Unmodified-Since": "Thu, 01 Jan 2015 00:00:00 GMT" } });
    expect(res.status).toBe(412);
    expect(res.body).toEqual({ message: "412 Precondition Failed" });
    expect((await team.owner.api.get(`/projects/${project.id}`)).status).toBe(200);
  });

  it("removes everything hanging from the project and leaves another project as it was", async () => {
    const topic = uniq("lifecycle");
    const doomed = await populatedProject(group.id, topic);
    const kept = await populatedProject(group.id, topic);
    const keptBefore = await remnants(kept);
    expect(Object.values(keptBefore).every((n) => n > 0), JSON.stringify(keptBefore)).toBe(true);
    const topicBefore = (await t.root.get(`/topics?search=${topic}`)).body[0];
    expect(topicBefore.total_projects_count).toBe(2);

    // the bot's contribution elsewhere (a public project's issue) stays, by the ghost user
    const elsewhere = await createProject(groupOwner.api, { visibility: "public" });
    const elsewhereIssue = await createIssue(groupOwner.api, elsewhere.id);
    const botNote = await createNote(doomed.bot.api, elsewhere.id, "issues", elsewhereIssue.iid, { body: "from the bot" });

    const res = await groupOwner.api.delete(`/projects/${doomed.project.id}`);
    expect(res.status).toBe(202);
    // the repository's folder goes once the deletion has committed
    await expect.poll(() => existsSync(t.services.git.pathOf(doomed.project.id))).toBe(false);
    const keptNote = (await groupOwner.api.get(`/projects/${elsewhere.id}/issues/${elsewhereIssue.iid}/notes/${botNote.id}`)).body;
    expect(keptNote).toMatchObject({ body: "from the bot", author: { username: expect.stringMatching(/^ghost\d*$/) } });

    const left = await remnants(doomed);
    expect(left).toEqual(Object.fromEntries(Object.keys(left).map((key) => [key, 0])));
    expect(await remnants(kept)).toEqual(keptBefore);
    expect((await t.root.get(`/topics?search=${topic}`)).body[0]).toMatchObject({ id: topicBefore.id, total_projects_count: 1 });
    // the bot's token no longer authenticates; the old path no longer redirects
    expect((await doomed.bot.api.get("/user")).status).toBe(401);
    expect((await groupOwner.api.get(`/projects/${enc(doomed.project.path_with_namespace)}`)).status).toBe(404);
    expect((await groupOwner.api.get(`/projects/${kept.project.id}/issues/${kept.issue.iid}/award_emoji`)).body).toHaveLength(1);
  });

  it("fires project_create and project_destroy for the hooks of the group and its ancestors that hear project events", async () => {
    const project = await createProject(groupOwner.api, { namespace_id: sub.id, name: "Doomed", path: uniq("doomed") });
    expect((await groupOwner.api.delete(`/projects/${project.id}`)).status).toBe(202);
    const deliveries = await rows<{ payload: string }>('SELECT "payload" FROM "WebHookDelivery" WHERE "trigger" = ? ORDER BY "id"', "project_hooks");
    const payloads = deliveries.map((d) => JSON.parse(d.payload)).filter((p) => p.project_id === project.id);
    expect(payloads.map((p) => p.event_name)).toEqual(["project_create", "project_destroy"]);
    expect(payloads[1]).toEqual({
      event_name: "project_destroy",
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
      name: "Doomed",
      path: project.path,
      path_with_namespace: project.path_with_namespace,
      project_id: project.id,
      owner_name: sub.name,
      owner_email: "",
      owners: [{ name: `User ${groupOwner.username}`, email: "[REDACTED]" }],
      project_visibility: "private",
    });
    expect(payloads[0]).toMatchObject({ event_name: "project_create", project_id: project.id, path_with_namespace: project.path_with_namespace });
    // a project in a personal namespace has no group hooks to tell
    const personal = await createProject(groupOwner.api);
    expect((await groupOwner.api.delete(`/projects/${personal.id}`)).status).toBe(202);
    const all = await rows<{ payload: string }>('SELECT "payload" FROM "WebHookDelivery" WHERE "trigger" = ?', "project_hooks");
    expect(all.map((d) => JSON.parse(d.payload)).filter((p) => p.project_id === personal.id)).toEqual([]);
  });

  it("is the deleteProject mutation on /graphql too", async () => {
    const project = await createTeamProject(team);
    const res = await team.owner.api.graphql(`mutation($id: ID!) { deleteProject(id: $id) { message } }`, { id: String(project.id) });
    expect(res.body).toEqual({ data: { deleteProject: ACCEPTED } });
    expect((await team.owner.api.get(`/projects/${project.id}`)).status).toBe(404);
  });
});

describe("GET /projects/:id/groups", () => {
  let deepGroup: any, project: any;
  const ENTITY_KEYS = ["avatar_url", "full_name", "full_path", "id", "name", "web_url"];

  beforeAll(async () => {
    deepGroup = await createGroup(groupOwner.api, { parent_id: sub.id, name: "Deep Group" });
    project = await createProject(groupOwner.api, { namespace_id: deepGroup.id });
  });

  it("lists the project's group and its ancestors, newest first, as PublicGroupDetails", async () => {
    const res = await groupMaintainer.api.get(`/projects/${project.id}/groups`);
    expect(res.status).toBe(200);
    expect(res.body.map((g: any) => g.id)).toEqual([deepGroup.id, sub.id, group.id]);
    expect(Object.keys(res.body[0]).sort()).toEqual(ENTITY_KEYS);
    expect(res.body[0]).toEqual({
      id: deepGroup.id, web_url: `${BASE_URL}/groups/${deepGroup.full_path}`, name: "Deep Group", avatar_url: null,
      full_name: `${group.name} / ${sub.name} / Deep Group`, full_path: deepGroup.full_path,
    });
    expect(res.headers.get("x-total")).toBe("3");
  });

  it("filters with search and skip_groups, and pages", async () => {
    expect((await groupOwner.api.get(`/projects/${project.id}/groups?search=Deep`)).body.map((g: any) => g.id)).toEqual([deepGroup.id]);
    const skipped = await groupOwner.api.get(`/projects/${project.id}/groups?skip_groups[]=${sub.id}&skip_groups[]=${deepGroup.id}`);
    expect(skipped.body.map((g: any) => g.id)).toEqual([group.id]);
    const page = await groupOwner.api.get(`/projects/${project.id}/groups?per_page=1&page=2`);
    expect(page.body.map((g: any) => g.id)).toEqual([sub.id]);
    expect(page.headers.get("x-next-page")).toBe("3");
  });

  it("lists nothing for a project in a personal namespace, with or without shared groups", async () => {
    const personal = await createProject(team.owner.api);
    expect((await team.owner.api.get(`/projects/${personal.id}/groups`)).body).toEqual([]);
    expect((await team.owner.api.get(`/projects/${personal.id}/groups?with_shared=true`)).body).toEqual([]);
  });

  it("needs read access to the project: 404 otherwise; public projects are open to anonymous callers", async () => {
    expect((await t.anon.get(`/projects/${project.id}/groups`)).body).toEqual(PROJECT_NOT_FOUND);
    expect((await team.nonMember.api.get(`/projects/${project.id}/groups`)).status).toBe(404);
    const publicGroup = await createGroup(groupOwner.api, { visibility: "public" });
    const open = await createProject(groupOwner.api, { namespace_id: publicGroup.id, visibility: "public" });
    expect((await t.anon.get(`/projects/${open.id}/groups`)).body.map((g: any) => g.id)).toEqual([publicGroup.id]);
    expect((await t.root.get("/projects/99999999/groups")).status).toBe(404);
  });

  it("refuses an access level that is not one (Gitlab::Access.all_values)", async () => {
    const res = await groupOwner.api.get(`/projects/${project.id}/groups?with_shared=true&shared_min_access_level=11`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "shared_min_access_level does not have a valid value" });
  });
});

describe("initialize_with_readme on POST /projects", () => {
  it("without it: an empty repository, GitLab's default branch name, no README", async () => {
    const res = await team.owner.api.post("/projects", { name: uniq("Empty") });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ empty_repo: true, readme_url: null, default_branch: "main" });
    expect((await team.owner.api.get(`/projects/${res.body.id}/repository/branches`)).body).toEqual([]);
    expect((await team.owner.api.get(`/projects/${res.body.id}/repository/commits`)).body).toEqual([]);
    const refs = execFileSync("git", ["--git-dir", t.services.git.pathOf(res.body.id), "for-each-ref"], { encoding: "utf8" });
    expect(refs).toBe("");
  });

  it("with it: README.md committed on the default branch, readme_url pointing at it", async () => {
    const res = await team.owner.api.post("/projects", { name: "With Readme", path: uniq("readme"), initialize_with_readme: true, default_branch: "trunk" });
    expect(res.status).toBe(201);
    const web = res.body.web_url;
    expect(res.body).toMatchObject({ empty_repo: false, default_branch: "trunk", readme_url: `${web}/-/blob/trunk/README.md` });
    const commits = (await team.owner.api.get(`/projects/${res.body.id}/repository/commits`)).body;
    expect(commits.map((c: any) => c.title)).toEqual(["Initial commit"]);
    const branches = (await team.owner.api.get(`/projects/${res.body.id}/repository/branches`)).body;
    expect(branches.map((b: any) => [b.name, b.default])).toEqual([["trunk", true]]);
  });

  it("tells every project created at once that its repository holds the README, though the others' writes keep it out of the cache", async () => {
    const created = await Promise.all(Array.from({ length: 8 }, () =>
      team.owner.api.post("/projects", { name: uniq("Together"), initialize_with_readme: true })));
    for (const res of created) {
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ empty_repo: false, readme_url: `${res.body.web_url}/-/blob/main/README.md` });
    }
  });

  it("fires push hooks for the first commit through the push path", async () => {
    const hooked = await createGroup(groupOwner.api);
    expect((await groupOwner.api.post(`/groups/${hooked.id}/hooks`, { url: "http://127.0.0.1:9/push", push_events: true })).status).toBe(201);
    const project = await createProject(groupOwner.api, { namespace_id: hooked.id });
    const quiet = await createProject(groupOwner.api, { namespace_id: hooked.id, initialize_with_readme: false });
    const pushes = (await rows<{ payload: string }>('SELECT "payload" FROM "WebHookDelivery" WHERE "trigger" = ?', "push_hooks"))
      .map((d) => JSON.parse(d.payload));
    expect(pushes.filter((p) => p.project_id === project.id).map((p) => [p.ref, p.total_commits_count])).toEqual([["refs/heads/main", 1]]);
    expect(pushes.filter((p) => p.project_id === quiet.id)).toEqual([]);
  });

  it("an empty repository takes its first commit on any branch, which becomes the default", async () => {
    const project = await createProject(team.owner.api, { initialize_with_readme: false });
    const commit = await commitTo(team.owner.api, project.id, "develop", "README.md");
    expect(commit.parent_ids).toEqual([]);
    const after = (await team.owner.api.get(`/projects/${project.id}`)).body;
    expect(after).toMatchObject({ empty_repo: false, default_branch: "develop", readme_url: `${project.web_url}/-/blob/develop/README.md` });
    // the next commit needs an existing start branch again
    const refused = await team.owner.api.post(`/projects/${project.id}/repository/commits`, {
      branch: "other", start_branch: "missing", commit_message: "x", actions: [{ action: "create", file_path: "x", content: "x" }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: "You can only create or edit files when you are on a branch" });
  });
});
