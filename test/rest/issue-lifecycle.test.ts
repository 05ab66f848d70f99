// An issue's lifecycle endpoints beyond create/read/update, through /api/v4 and /graphql: DELETE
// (GitLab's destroy_issue: Planners and Owners, administrators), participants, closed_by (merge
// requests whose closing statements name the issue) and related_merge_requests (merge requests
// that mention the issue or that it mentions), per actor (anonymous, non-member, guest, planner,
// reporter, developer, maintainer, owner, admin), on public and private projects, with
// confidential issues and bad input.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subscribe } from "../../src/domain/shared/events.js";
import type { ApiClient } from "../helpers/api.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, NOT_FOUND, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { addMember, createProject, createUser, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { ACCESS_LEVEL, createTeam, createTeamProject, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let owner: TestUser, maintainer: TestUser, developer: TestUser, reporter: TestUser, planner: TestUser, guest: TestUser, stranger: TestUser;
let pub: any, priv: any;

const ISSUE_NOT_FOUND = { message: "404 Issue Not Found" };
const issuePath = (project: any, iid: number) => `/projects/${project.id}/issues/${iid}`;
const idsOf = (body: any[]) => body.map((row) => row.id);

/** Domain events published while `during` runs (a deletion publishes none: GitLab fires no hook). */
const published: string[] = [];
let recording = false;
for (const kind of ["issue", "note", "emoji"] as const) subscribe(kind, async () => void (recording && published.push(kind)));
afterAll(() => {
  recording = false;
});

async function projectWithMembers(overrides: Record<string, unknown> = {}): Promise<any> {
  const project = await createTeamProject(team, overrides);
  await addMember(owner.api, "projects", project.id, planner.id, ACCESS_LEVEL.planner);
  return project;
}

const actors = () => ({
  anonymous: t.anon, stranger: stranger.api, guest: guest.api, planner: planner.api, reporter: reporter.api,
  developer: developer.api, maintainer: maintainer.api, owner: owner.api, admin: t.root,
});
type ActorName = keyof ReturnType<typeof actors>;

beforeAll(async () => {
  t = await startTestApp();
  [team, planner] = await Promise.all([createTeam(t), createUser(t)]);
  ({ owner, maintainer, developer, reporter, guest, nonMember: stranger } = team);
  pub = await projectWithMembers({ visibility: "public" });
  priv = await projectWithMembers({ visibility: "private" });
});

describe("DELETE /projects/:id/issues/:issue_iid", () => {
  // ProjectPolicy: destroy_issue comes with owner_access (admins too) and planner_access (17.7)
  it.each<[ActorName, number, unknown]>([
    ["anonymous", 401, UNAUTHORIZED], ["stranger", 403, FORBIDDEN], ["guest", 403, FORBIDDEN], ["planner", 204, ""],
    ["reporter", 403, FORBIDDEN], ["developer", 403, FORBIDDEN], ["maintainer", 403, FORBIDDEN], ["owner", 204, ""], ["admin", 204, ""],
  ])("public project, %s: %i", async (actor, status, body) => {
    const issue = await createIssue(developer.api, pub.id);
    const res = await actors()[actor].delete(issuePath(pub, issue.iid));
    expect([res.status, res.body]).toEqual([status, body]);
    const after = await owner.api.get(issuePath(pub, issue.iid));
    expect(after.status).toBe(status === 204 ? 404 : 200);
    if (status === 204) expect(res.headers.get("content-type")).toBeNull();
  });

  it.each<[ActorName, number, unknown]>([
    ["anonymous", 401, UNAUTHORIZED], ["stranger", 404, PROJECT_NOT_FOUND], ["guest", 403, FORBIDDEN],
    ["developer", 403, FORBIDDEN], ["planner", 204, ""], ["owner", 204, ""], ["admin", 204, ""],
  ])("private project, %s: %i", async (actor, status, body) => {
    const issue = await createIssue(developer.api, priv.id);
    const res = await actors()[actor].delete(issuePath(priv, issue.iid));
    expect([res.status, res.body]).toEqual([status, body]);
  });

  it("the author may not delete their own issue (IssuePolicy grants authors no destroy_issue)", async () => {
    const issue = await createIssue(guest.api, pub.id);
    expect((await guest.api.delete(issuePath(pub, issue.iid))).status).toBe(403);
  });

  it("a confidential issue: 403 for whoever may not read it (the route looks it up without the read rule), 204 for a Planner", async () => {
    const issue = await createIssue(developer.api, pub.id, { confidential: true });
    for (const api of [stranger.api, guest.api, maintainer.api]) {
      const res = await api.delete(issuePath(pub, issue.iid));
      expect([res.status, res.body]).toEqual([403, FORBIDDEN]);
    }
    expect((await planner.api.delete(issuePath(pub, issue.iid))).status).toBe(204);
  });

  it.each<[string, number, unknown]>([
    ["999999", 404, ISSUE_NOT_FOUND],
    ["abc", 400, { error: "issue_iid is invalid" }],
  ])("issue_iid %s: %i", async (iid, status, body) => {
    const res = await owner.api.delete(`/projects/${pub.id}/issues/${iid}`);
    expect([res.status, res.body]).toEqual([status, body]);
  });

  it("an unknown project: 404 Project Not Found", async () => {
    const res = await t.root.delete("/projects/999999/issues/1");
    expect([res.status, res.body]).toEqual([404, PROJECT_NOT_FOUND]);
  });

  it("honours If-Unmodified-Since (destroy_conditionally!): 412 when the issue changed after it", async () => {
    const issue = await createIssue(developer.api, pub.id);
    const before = new Date(Date.parse(issue.updated_at) - 60_000).toUTCString();
    const stale = await owner.api.delete(issuePath(pub, issue.iid), { headers: { "If-Unmodified-Since": before } });
    expect([stale.status, stale.body]).toEqual([412, { message: "412 Precondition Failed" }]);
    expect((await owner.api.get(issuePath(pub, issue.iid))).status).toBe(200);
    const later = new Date(Date.parse(issue.updated_at) + 60_000).toUTCString();
    expect((await owner.api.delete(issuePath(pub, issue.iid), { headers: { "If-Unmodified-Since": later } })).status).toBe(204);
  });

  it("removes the notes, their reactions, the issue's reactions and assignees in one go, and nothing of other issues", async () => {
    const doomed = await createIssue(owner.api, pub.id, { assignee_ids: [developer.id], labels: "bug,ui" });
    const kept = await createIssue(owner.api, pub.id);
    const ids: number[] = [];
    for (const issue of [doomed, kept]) {
      const note = await developer.api.post(`${issuePath(pub, issue.iid)}/notes`, { body: "a comment" });
      expect(note.status, note.text).toBe(201);
      ids.push(issue.id);
      expect((await reporter.api.post(`${issuePath(pub, issue.iid)}/notes/${note.body.id}/award_emoji`, { name: "thumbsup" })).status).toBe(201);
      expect((await reporter.api.post(`${issuePath(pub, issue.iid)}/award_emoji`, { name: "rocket" })).status).toBe(201);
    }
    const db = t.services.db;
    const noteIds = async (issueId: number) => (await db.note.findMany({ where: { noteableType: "Issue", noteableId: issueId } })).map((n) => n.id);
    const doomedNotes = await noteIds(doomed.id);
    expect(await db.issueLabel.count({ where: { issueId: doomed.id } })).toBe(2);
    recording = true;
    const res = await owner.api.delete(issuePath(pub, doomed.iid));
    recording = false;
    expect(res.status).toBe(204);
    expect(published).toEqual([]);
    expect(await db.issue.findUnique({ where: { id: doomed.id } })).toBeNull();
    expect(await noteIds(doomed.id)).toEqual([]);
    expect(await db.issueAssignee.count({ where: { issueId: doomed.id } })).toBe(0);
    expect(await db.issueLabel.count({ where: { issueId: doomed.id } })).toBe(0);
    expect(await db.awardEmoji.count({ where: { awardableType: "Issue", awardableId: doomed.id } })).toBe(0);
    expect(await db.awardEmoji.count({ where: { awardableType: "Note", awardableId: { in: doomedNotes } } })).toBe(0);
    expect(await noteIds(kept.id)).toHaveLength(1);
    expect(await db.awardEmoji.count({ where: { awardableType: "Issue", awardableId: kept.id } })).toBe(1);
    expect(await db.awardEmoji.count({ where: { awardableType: "Note", awardableId: { in: await noteIds(kept.id) } } })).toBe(1);
    expect((await developer.api.get(`${issuePath(pub, doomed.iid)}/notes`)).status).toBe(404);
    // iids are not reused
    const next = await createIssue(owner.api, pub.id);
    expect(next.iid).toBeGreaterThan(kept.iid);
  });

  it("a second DELETE answers 404 Issue Not Found", async () => {
    const issue = await createIssue(developer.api, pub.id);
    expect((await owner.api.delete(issuePath(pub, issue.iid))).status).toBe(204);
    const again = await owner.api.delete(issuePath(pub, issue.iid));
    expect([again.status, again.body]).toEqual([404, ISSUE_NOT_FOUND]);
  });

  it("is the GraphQL mutation deleteIssue too", async () => {
    const issue = await createIssue(developer.api, pub.id);
    const denied = await developer.api.graphql(`mutation { deleteIssue(id: "${pub.id}", issue_iid: ${issue.iid}) }`);
    expect(denied.body.errors?.[0]?.extensions?.http?.status).toBe(403);
    const res = await owner.api.graphql(`mutation { deleteIssue(id: "${pub.path_with_namespace}", issue_iid: ${issue.iid}) }`);
    expect(res.body).toEqual({ data: { deleteIssue: true } });
  });
});

describe("GET /projects/:id/issues/:issue_iid/participants", () => {
  const participants = (api: ApiClient, project: any, iid: number) => api.get(`${issuePath(project, iid)}/participants`);

  it("lists the assignees, the note authors, the author and the users mentioned, as UserBasic, in GitLab's order", async () => {
    const mentioned = await createUser(t);
    const issue = await createIssue(owner.api, pub.id, {
      assignee_ids: [maintainer.id, developer.id],
      description: `cc @${mentioned.username} and \`@${stranger.username}\` (code does not mention)`,
    });
    for (const [api, body] of [[reporter.api, "first"], [developer.api, "second"], [reporter.api, "third"]] as const) {
      expect((await api.post(`${issuePath(pub, issue.iid)}/notes`, { body })).status).toBe(201);
    }
    const res = await participants(t.anon, pub, issue.iid);
    expect(res.status, res.text).toBe(200);
    const assignees = [maintainer.id, developer.id].sort((a, b) => a - b);
    const expected = [...new Set([...assignees, reporter.id, developer.id, owner.id, mentioned.id])];
    expect(idsOf(res.body)).toEqual(expected);
    // UserBasic, as the issue's own `author`
    expect(Object.keys(res.body[0]).sort()).toEqual(Object.keys(issue.author).sort());
    expect(res.body[0]).toMatchObject({ id: assignees[0], state: "active", web_url: expect.stringMatching(new RegExp(`^${BASE_URL}/`)) });
    expect(res.headers.get("x-total")).toBe(String(expected.length));
    const page = await owner.api.get(`${issuePath(pub, issue.iid)}/participants`, { query: { per_page: 2, page: 2 } });
    expect(idsOf(page.body)).toEqual(expected.slice(2, 4));
    expect(page.headers.get("x-next-page")).toBe("3");
  });

  it("leaves out users who may not read the project (a private project's non-members)", async () => {
    const outsider = await createUser(t);
    const issue = await createIssue(developer.api, priv.id, { description: `@${outsider.username} @${guest.username} @nobody-such` });
    const res = await participants(developer.api, priv, issue.iid);
    expect(idsOf(res.body)).toEqual([developer.id, guest.id]);
  });

  it("counts mentions in internal notes only for users who may read internal notes (Reporter and above)", async () => {
    const issue = await createIssue(developer.api, pub.id);
    const note = await reporter.api.post(`${issuePath(pub, issue.iid)}/notes`, { body: `@${guest.username} @${maintainer.username}`, internal: true });
    expect(note.status, note.text).toBe(201);
    const res = await participants(guest.api, pub, issue.iid);
    expect(idsOf(res.body)).toEqual([reporter.id, developer.id, maintainer.id]);
  });

  it.each<[ActorName, number, unknown]>([
    ["anonymous", 404, PROJECT_NOT_FOUND], ["stranger", 404, PROJECT_NOT_FOUND], ["guest", 200, null], ["admin", 200, null],
  ])("private project, %s: %i", async (actor, status, body) => {
    const issue = await createIssue(developer.api, priv.id);
    const res = await participants(actors()[actor], priv, issue.iid);
    expect(res.status).toBe(status);
    if (body) expect(res.body).toEqual(body);
  });

  it.each<[ActorName, number]>([
    ["anonymous", 404], ["stranger", 404], ["guest", 404], ["planner", 200], ["reporter", 200], ["admin", 200],
  ])("confidential issue, %s: %i", async (actor, status) => {
    const issue = await createIssue(developer.api, pub.id, { confidential: true });
    const res = await participants(actors()[actor], pub, issue.iid);
    expect([res.status, status === 404 ? res.body : null]).toEqual([status, status === 404 ? NOT_FOUND : null]);
  });

  it("answers 404 Not found for an unknown issue and 400 for a bad iid", async () => {
    const missing = await participants(owner.api, pub, 999999);
    expect([missing.status, missing.body]).toEqual([404, NOT_FOUND]);
    const bad = await owner.api.get(`/projects/${pub.id}/issues/x/participants`);
    expect([bad.status, bad.body]).toEqual([400, { error: "issue_iid is invalid" }]);
  });
});

describe("GET .../closed_by and .../related_merge_requests", () => {
  let project: any, sibling: any, foreign: any;
  let issue: any, other: any;
  let closes: any, fixesFull: any, resolvesUrl: any, closedLater: any, mentions: any, otherBranch: any, inCode: any, otherIssue: any;
  let siblingMr: any, foreignMr: any, referencedByIssue: any, commentMentions: any;

  beforeAll(async () => {
    project = await projectWithMembers({ visibility: "public" });
    sibling = await createProject(owner.api, { visibility: "public" });
    const foreignOwner = await createUser(t);
    foreign = await createProject(foreignOwner.api, { visibility: "private" });
    issue = await createIssue(owner.api, project.id);
    other = await createIssue(owner.api, project.id);
    const full = project.path_with_namespace;
    const mr = (fields: Record<string, unknown>, p = project, by = developer.api) => createMergeRequest(by, p.id, fields);
    closes = await mr({ description: `Some work.\n\nCloses #${issue.iid}` });
    fixesFull = await mr({ title: `Fixes ${full}#${issue.iid}` });
    resolvesUrl = await mr({ description: `Resolves: ${BASE_URL}/${full}/-/issues/${issue.iid}` });
    closedLater = await mr({ description: `implements issues #${other.iid}, #${issue.iid}` });
    expect((await developer.api.put(`/projects/${project.id}/merge_requests/${closedLater.iid}`, { state_event: "close" })).status).toBe(200);
    mentions = await mr({ description: `See #${issue.iid} for the background` });
    const stable = `stable-${Date.now()}`;
    await developer.api.post(`/projects/${project.id}/repository/branches`, { branch: stable, ref: "main" });
    otherBranch = await mr({ description: `Closes #${issue.iid}`, target_branch: stable });
    inCode = await mr({ description: `\`Closes #${issue.iid}\` is what you would write` });
    otherIssue = await mr({ description: `Closes #${issue.iid}0 and #${other.iid}` });
    siblingMr = await mr({ description: `Part of ${project.path}#${issue.iid}` }, sibling, owner.api);
    foreignMr = await createMergeRequest(foreignOwner.api, foreign.id, { description: `Related: ${full}#${issue.iid}` });
    referencedByIssue = await mr({ description: "unrelated text" });
    commentMentions = await mr({ description: "nothing here" });
    expect((await developer.api.post(`/projects/${project.id}/merge_requests/${commentMentions.iid}/notes`, { body: `Would close #${issue.iid}` })).status).toBe(201);
    expect((await owner.api.put(issuePath(project, issue.iid), { description: `Implemented in !${referencedByIssue.iid}` })).status).toBe(200);
  });

  describe("closed_by", () => {
    const closedBy = (api: ApiClient, p = project, iid = issue.iid) => api.get(`${issuePath(p, iid)}/closed_by`);

    it("lists the project's merge requests into the default branch whose closing statement names the issue, newest first, merged or closed too", async () => {
      const res = await closedBy(t.anon);
      expect(res.status, res.text).toBe(200);
      expect(idsOf(res.body)).toEqual([closedLater.id, resolvesUrl.id, fixesFull.id, closes.id]);
      expect(res.headers.get("x-total")).toBe("4");
      for (const row of [mentions, otherBranch, inCode, otherIssue, siblingMr]) expect(idsOf(res.body)).not.toContain(row.id);
    });

    it("answers MergeRequestBasic (no subscribed, no changes_count)", async () => {
      const [row] = (await closedBy(developer.api)).body.filter((mr: any) => mr.id === closes.id);
      expect(row).toMatchObject({ id: closes.id, iid: closes.iid, project_id: project.id, state: "opened", target_branch: "main", references: { short: `!${closes.iid}` } });
      expect(row).not.toHaveProperty("subscribed");
      expect(row).not.toHaveProperty("changes_count");
    });

    it("is empty for an issue nothing closes, and for callers who may not read merge requests", async () => {
      expect(idsOf((await closedBy(developer.api, project, other.iid)).body)).toEqual([otherIssue.id, closedLater.id]);
      const quiet = await projectWithMembers({ visibility: "public" });
      const quietIssue = await createIssue(owner.api, quiet.id);
      await createMergeRequest(developer.api, quiet.id, { description: `Closes #${quietIssue.iid}` });
      expect((await closedBy(t.anon, quiet, quietIssue.iid)).body).toHaveLength(1);
      expect((await owner.api.put(`/projects/${quiet.id}`, { merge_requests_access_level: "private" })).status).toBe(200);
      const anonymous = await closedBy(t.anon, quiet, quietIssue.iid);
      expect([anonymous.status, anonymous.body]).toEqual([200, []]);
      expect((await closedBy(guest.api, quiet, quietIssue.iid)).body).toEqual([]); // members-only merge requests need Reporter
      expect((await closedBy(reporter.api, quiet, quietIssue.iid)).body).toHaveLength(1);
    });

    it.each<[ActorName, number, unknown]>([
      ["anonymous", 404, PROJECT_NOT_FOUND], ["stranger", 404, PROJECT_NOT_FOUND], ["guest", 200, null],
    ])("private project, %s: %i", async (actor, status, body) => {
      const privIssue = await createIssue(developer.api, priv.id);
      const res = await closedBy(actors()[actor], priv, privIssue.iid);
      expect(res.status).toBe(status);
      if (body) expect(res.body).toEqual(body);
    });

    it("a confidential issue answers 404 Not found to a Guest, the list to a Reporter", async () => {
      const secret = await createIssue(owner.api, project.id, { confidential: true });
      const res = await closedBy(guest.api, project, secret.iid);
      expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
      expect((await closedBy(reporter.api, project, secret.iid)).status).toBe(200);
    });

    it("answers 404 Not found for an unknown issue and 400 for a bad iid", async () => {
      const missing = await closedBy(developer.api, project, 999999);
      expect([missing.status, missing.body]).toEqual([404, NOT_FOUND]);
      const bad = await developer.api.get(`/projects/${project.id}/issues/1.5/closed_by`);
      expect([bad.status, bad.body]).toEqual([400, { error: "issue_iid is invalid" }]);
    });
  });

  describe("related_merge_requests", () => {
    const related = (api: ApiClient, p = project, iid = issue.iid) => api.get(`${issuePath(p, iid)}/related_merge_requests`);

    it("lists what mentions the issue and what it mentions, readable ones only: its project's by iid, then the namespace's, then others", async () => {
      const res = await related(developer.api);
      expect(res.status, res.text).toBe(200);
      const own = [closes, fixesFull, resolvesUrl, closedLater, mentions, otherBranch, otherIssue, referencedByIssue, commentMentions]
        .filter((mr) => mr !== otherIssue)
        .sort((a, b) => a.iid - b.iid);
      expect(idsOf(res.body)).toEqual([...own.map((mr) => mr.id), siblingMr.id]);
      expect(idsOf(res.body)).not.toContain(inCode.id);
      expect(idsOf(res.body)).not.toContain(foreignMr.id); // a private project the developer cannot see
      const asAdmin = await related(t.root);
      expect(idsOf(asAdmin.body)).toEqual([...own.map((mr) => mr.id), siblingMr.id, foreignMr.id]);
      expect(asAdmin.body.at(-1).references.relative).toBe(`${foreign.path_with_namespace}!${foreignMr.iid}`);
      expect(asAdmin.body.at(-2).references.relative).toBe(`${sibling.path}!${siblingMr.iid}`);
    });

    it("answers Entities::MergeRequest without subscribed (include_subscribed: false)", async () => {
      const res = await related(t.anon);
      expect(res.status).toBe(200);
      const row = res.body.find((mr: any) => mr.id === mentions.id);
      expect(row).toMatchObject({ id: mentions.id, changes_count: expect.any(String), diff_refs: expect.any(Object), first_contribution: false });
      expect(row).not.toHaveProperty("subscribed");
    });

    it("paginates", async () => {
      const res = await developer.api.get(`${issuePath(project, issue.iid)}/related_merge_requests`, { query: { per_page: 3 } });
      expect(res.body).toHaveLength(3);
      expect(res.headers.get("x-total")).toBe("9");
      expect(res.headers.get("x-next-page")).toBe("2");
    });

    it("is empty when nothing mentions the issue", async () => {
      const lonely = await createIssue(owner.api, project.id);
      expect((await related(developer.api, project, lonely.iid)).body).toEqual([]);
    });

    it.each<[ActorName, number]>([["anonymous", 404], ["stranger", 404], ["guest", 404], ["reporter", 200], ["admin", 200]])(
      "a confidential issue, %s: %i",
      async (actor, status) => {
        const secret = await createIssue(owner.api, project.id, { confidential: true });
        expect((await related(actors()[actor], project, secret.iid)).status).toBe(status);
      },
    );

    it("a private project is 404 Project Not Found to an anonymous caller", async () => {
      const privIssue = await createIssue(developer.api, priv.id);
      const res = await related(t.anon, priv, privIssue.iid);
      expect([res.status, res.body]).toEqual([404, PROJECT_NOT_FOUND]);
    });

    it("answers the same through GraphQL", async () => {
      const query = `{ issueRelatedMergeRequests(id: "${project.id}", issue_iid: ${issue.iid}, per_page: 100) { id iid }
        issueClosedBy(id: "${project.id}", issue_iid: ${issue.iid}) { id }
        issueParticipants(id: "${project.id}", issue_iid: ${issue.iid}) { id username } }`;
      const res = await developer.api.graphql(query);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.issueRelatedMergeRequests.map((mr: any) => mr.id)).toEqual(idsOf((await related(developer.api)).body));
      expect(res.body.data.issueClosedBy.map((mr: any) => mr.id)).toEqual([closedLater.id, resolvesUrl.id, fixesFull.id, closes.id]);
      expect(res.body.data.issueParticipants.map((u: any) => u.id)).toEqual([owner.id]);
    });
  });
});
