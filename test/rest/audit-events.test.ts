// Audit events over /api/v4 (GitLab's Audit Events API): the AuditEvent entity, each recorded action
// with GitLab's event name and details (and no secret in them), who may read the instance's, a
// group's and a project's events, the date and entity filters, offset and keyset pagination, and
// GitLab's answers to bad input.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createUser, uniq } from "../helpers/factories.js";
import { setApprovalSettings, createProjectRule } from "../helpers/approvals.js";
import { runInRequest } from "../../src/observability/request-scope.js";
import { ACTORS, clientOf, createTeamProject, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let group: any;
let publicGroup: any;

const ENTITY_KEYS = ["id", "author_id", "entity_id", "entity_type", "event_name", "details", "created_at"];

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  group = await createGroup(team.owner.api, { visibility: "private" });
  publicGroup = await createGroup(team.owner.api, { visibility: "public" });
  for (const g of [group, publicGroup]) {
    for (const [user, level] of [[team.maintainer, 40], [team.developer, 30], [team.reporter, 20], [team.guest, 10]] as const) {
      await addMember(team.owner.api, "groups", g.id, user.id, level);
    }
  }
});

const all = async (path: string, query: Record<string, string | number> = {}) => {
  const res = await t.root.get(path, { query: { per_page: 100, ...query } });
  expect(res.status, res.text).toBe(200);
  return res.body as any[];
};
const named = (events: any[], name: string) => events.filter((e) => e.event_name === name);

describe("recorded actions", () => {
  it("records a member added, changed and removed on a project, with GitLab's legacy details", async () => {
    const user = await createUser(t);
    const p = team.privateProject;
    expect((await team.owner.api.post(`/projects/${p.id}/members`, { user_id: user.id, access_level: 30 })).status).toBe(201);
    expect((await team.owner.api.put(`/projects/${p.id}/members/${user.id}`, { access_level: 40 })).status).toBe(200);
    expect((await team.owner.api.delete(`/projects/${p.id}/members/${user.id}`)).status).toBe(204);
    const events = (await all(`/projects/${p.id}/audit_events`)).filter((e) => e.details.target_id === user.id);
    expect(events.map((e) => e.event_name)).toEqual(["member_destroyed", "member_updated", "member_created"]);
    const [destroyed, updated, created] = events;
    expect(Object.keys(created)).toEqual(ENTITY_KEYS);
    expect(created).toMatchObject({ author_id: team.owner.id, entity_id: p.id, entity_type: "Project" });
    expect(created.details).toMatchObject({
      add: "user_access", as: "Developer", author_name: `User ${team.owner.username}`, author_class: "User",
      target_id: user.id, target_type: "User", target_details: `User ${user.username}`, event_name: "member_created",
      entity_path: p.path_with_namespace,
    });
    expect(updated.details).toMatchObject({ change: "access_level", from: "Developer", to: "Maintainer" });
    expect(destroyed.details).toMatchObject({ remove: "user_access" });
  });

  it("records group memberships on the group", async () => {
    const user = await createUser(t);
    await addMember(team.owner.api, "groups", group.id, user.id, 20);
    const [event] = named(await all(`/groups/${group.id}/audit_events`), "member_created").filter((e) => e.details.target_id === user.id);
    expect(event).toMatchObject({ entity_type: "Group", entity_id: group.id, details: { as: "Reporter", entity_path: group.full_path } });
  });

  it("records personal access tokens created and revoked on their user, without the token", async () => {
    const user = await createUser(t);
    const created = await t.root.post(`/users/${user.id}/personal_access_tokens`, { name: "ci", scopes: ["api"] });
    expect(created.status).toBe(201);
    expect((await t.root.delete(`/personal_access_tokens/${created.body.id}`)).status).toBe(204);
    const events = (await all("/audit_events", { entity_type: "User", entity_id: user.id })).filter((e) => e.details.target_id === created.body.id);
    expect(events.map((e) => e.event_name)).toEqual(["personal_access_token_revoked", "personal_access_token_created"]);
    expect(events[1].details).toMatchObject({
      custom_message: `Created personal access token with id ${created.body.id}`, target_type: "PersonalAccessToken", target_details: "ci",
      entity_path: user.username,
    });
    expect(JSON.stringify(events)).not.toContain(created.body.token);
  });

  it("records project access tokens created and revoked on the project", async () => {
    const p = team.privateProject;
    const created = await team.owner.api.post(`/projects/${p.id}/access_tokens`, { name: "bot", scopes: ["read_api"], access_level: 30, expires_at: "2027-01-01" });
    expect(created.status, created.text).toBe(201);
    expect((await team.owner.api.delete(`/projects/${p.id}/access_tokens/${created.body.id}`)).status).toBe(204);
    const events = (await all(`/projects/${p.id}/audit_events`)).filter((e) => e.event_name.startsWith("project_access_token"));
    expect(events.map((e) => e.event_name)).toEqual(["project_access_token_deleted", "project_access_token_created"]);
    expect(events[1].details.custom_message).toBe(
      `Created project access token with token_id: ${created.body.id} with scopes: ["read_api"] and Developer access level.`,
    );
    expect(JSON.stringify(events)).not.toContain(created.body.token);
  });

  it("records webhooks created and deleted, never their URL or token", async () => {
    const p = team.publicProject;
    const hook = await team.owner.api.post(`/projects/${p.id}/hooks`, { url: "http://user:pass@8.8.8.8/hook", token: "hook-secret-token" });
    expect(hook.status, hook.text).toBe(201);
    expect((await team.owner.api.delete(`/projects/${p.id}/hooks/${hook.body.id}`)).status).toBe(204);
    const events = (await all(`/projects/${p.id}/audit_events`)).filter((e) => e.event_name.startsWith("webhook_"));
    expect(events.map((e) => e.event_name)).toEqual(["webhook_destroyed", "webhook_created"]);
    expect(events[1].details).toMatchObject({ target_type: "ProjectHook", target_id: hook.body.id, custom_message: "Created project hook" });
    const text = JSON.stringify(events);
    expect(text).not.toContain("pass@");
    expect(text).not.toContain("hook-secret-token");
    const groupHook = await team.owner.api.post(`/groups/${group.id}/hooks`, { url: "http://8.8.8.8/g" });
    expect(groupHook.status).toBe(201);
    expect(named(await all(`/groups/${group.id}/audit_events`), "webhook_created")[0].details).toMatchObject({ target_type: "GroupHook" });
  });

  it("records OAuth applications created, renewed and deleted on the instance scope, never the secret", async () => {
    const app = await t.root.post("/applications", { name: uniq("app"), redirect_uri: "https://example.com/cb", scopes: "api" });
    expect(app.status, app.text).toBe(200);
    const renewed = await t.root.post(`/applications/${app.body.id}/renew-secret`);
    expect(renewed.status).toBe(200);
    expect((await t.root.delete(`/applications/${app.body.id}`)).status).toBe(204);
    const events = (await all("/audit_events", { entity_type: "Gitlab::Audit::InstanceScope" })).filter((e) => e.details.target_id === app.body.id);
    expect(events.map((e) => e.event_name)).toEqual(["oauth_application_deleted", "oauth_application_updated", "oauth_application_created"]);
    expect(events[2]).toMatchObject({ entity_id: 1, details: { target_type: "Doorkeeper::Application", target_details: app.body.application_name } });
    const text = JSON.stringify(events);
    expect(text).not.toContain(app.body.secret);
    expect(text).not.toContain(renewed.body.secret);
  });

  it("records protected branches added and removed", async () => {
    const p = team.privateProject;
    expect((await team.maintainer.api.post(`/projects/${p.id}/protected_branches`, { name: "release/*" })).status).toBe(201);
    expect((await team.maintainer.api.delete(`/projects/${p.id}/protected_branches/${encodeURIComponent("release/*")}`)).status).toBe(204);
    const events = (await all(`/projects/${p.id}/audit_events`)).filter((e) => e.details.target_type === "ProtectedBranch");
    expect(events.map((e) => [e.event_name, e.author_id, e.details.target_details])).toEqual([
      ["protected_branch_removed", team.maintainer.id, "release/*"],
      ["protected_branch_created", team.maintainer.id, "release/*"],
    ]);
  });

  it("records a project's and a group's visibility changes, and nothing when it stays", async () => {
    const g = await createGroup(team.owner.api, { visibility: "private" });
    expect((await team.owner.api.put(`/groups/${g.id}`, { visibility: "internal" })).status).toBe(200);
    expect((await team.owner.api.put(`/groups/${g.id}`, { description: "same visibility" })).status).toBe(200);
    const groupEvents = named(await all(`/groups/${g.id}/audit_events`), "group_visibility_level_updated");
    expect(groupEvents.map((e) => [e.details.change, e.details.from, e.details.to])).toEqual([["visibility", "Private", "Internal"]]);
    const project = await team.owner.api.post("/projects", { name: uniq("vis"), visibility: "private" });
    expect((await team.owner.api.put(`/projects/${project.body.id}`, { visibility: "public" })).status).toBe(200);
    const [event] = named(await all(`/projects/${project.body.id}/audit_events`), "project_visibility_level_updated");
    expect(event.details).toMatchObject({ change: "visibility", from: "Private", to: "Public", target_type: "Project" });
  });

  it("records users blocked, unblocked, banned, unbanned and deleted by an administrator", async () => {
    const user = await createUser(t);
    for (const verb of ["block", "unblock", "ban", "unban"]) expect((await t.root.post(`/users/${user.id}/${verb}`)).status).toBe(201);
    expect((await t.root.delete(`/users/${user.id}`)).status).toBe(204);
    const events = await all("/audit_events", { entity_type: "User", entity_id: user.id });
    expect(events.filter((e) => e.details.target_type === "User").map((e) => e.event_name)).toEqual(
      ["user_destroyed", "user_unbanned", "user_banned", "user_unblocked", "user_blocked"],
    );
    expect(events.filter((e) => e.event_name === "user_blocked")[0].details).toMatchObject({ custom_message: "Blocked user", target_details: user.username, author_name: "Administrator" });
    // the log outlives the user
    expect(events.every((e) => e.entity_id === user.id)).toBe(true);
  });
});

/** A request as it arrives over HTTP from `ip` (the in-process client has no socket). */
const PEER = "203.0.113.42";
const fromPeer = <T>(ip: string, send: () => Promise<T>) =>
  runInRequest({ correlationId: "test", method: "POST", path: "/", dbStatements: 0, dbRoundTrips: 0, dbMilliseconds: 0, remoteAddress: ip }, send);

describe("approval rules and settings", () => {
  const REFUSED: [Actor, number][] = [["anonymous", 401], ["nonMember", 404], ["guest", 403], ["reporter", 403], ["developer", 403]];
  const approvalEvents = async (projectId: number) =>
    (await all(`/projects/${projectId}/audit_events`)).filter((e) => e.event_name.includes("approv"));

  it("records a project rule created, its approvals required changed and deleted: one event each, by its author", async () => {
    const p = await createTeamProject(team);
    const rule = await fromPeer(PEER, () => createProjectRule(team.maintainer.api, p.id, { name: "Security", approvals_required: 2, user_ids: [team.developer.id] }));
    expect((await team.owner.api.put(`/projects/${p.id}/approval_rules/${rule.id}`, { name: "Security", approvals_required: 3 })).status).toBe(200);
    expect((await t.root.delete(`/projects/${p.id}/approval_rules/${rule.id}`)).status).toBe(204);
    const events = await approvalEvents(p.id);
    expect(events.map((e) => [e.event_name, e.author_id, e.entity_type, e.entity_id])).toEqual([
      ["approval_rule_deleted", 1, "Project", p.id],
      ["update_approval_rules", team.owner.id, "Project", p.id],
      ["approval_rule_created", team.maintainer.id, "Project", p.id],
    ]);
    const [deleted, updated, created] = events;
    expect(created.details).toMatchObject({
      custom_message: "Added approval rule with number of required approvals of 2", target_id: rule.id,
      target_type: "ApprovalProjectRule", target_details: "Security", event_name: "approval_rule_created", entity_path: p.path_with_namespace,
    });
    expect(updated.details).toMatchObject({ change: "number of required approvals", from: 2, to: 3, target_id: rule.id, target_details: "Security" });
    expect(deleted.details).toMatchObject({ custom_message: "Deleted approval rule", target_id: rule.id, author_name: "Administrator" });
    // the client's address, as GitLab's details show it (the socket's: Forgeline trusts no proxy header); none without a peer
    expect(Object.keys(created.details).slice(-2)).toEqual(["ip_address", "entity_path"]);
    expect(created.details.ip_address).toBe(PEER);
    expect(updated.details).not.toHaveProperty("ip_address");
  });

  it("records nothing for a rule write refused to anyone below Maintainer, nor for an invalid one", async () => {
    const p = await createTeamProject(team, { visibility: "private" });
    const rule = await createProjectRule(team.owner.api, p.id, { name: "Kept", approvals_required: 1 });
    const before = (await approvalEvents(p.id)).length;
    for (const [actor, status] of REFUSED) {
      const api = clientOf(t, team, actor);
      expect([actor, (await api.post(`/projects/${p.id}/approval_rules`, { name: `n-${actor}`, approvals_required: 1 })).status]).toEqual([actor, status]);
      expect([actor, (await api.put(`/projects/${p.id}/approval_rules/${rule.id}`, { name: "Kept", approvals_required: 5 })).status]).toEqual([actor, status]);
      expect([actor, (await api.delete(`/projects/${p.id}/approval_rules/${rule.id}`)).status]).toEqual([actor, status]);
      expect([actor, (await api.post(`/projects/${p.id}/approvals`, { reset_approvals_on_push: false })).status]).toEqual([actor, status]);
    }
    const invalid = await team.owner.api.post(`/projects/${p.id}/approval_rules`, { name: "Kept", approvals_required: 1 });
    expect(invalid.status).toBe(400);
    expect(await approvalEvents(p.id)).toHaveLength(before);
    const rules = await team.owner.api.get(`/projects/${p.id}/approval_rules`);
    expect(rules.body.map((r: any) => [r.name, r.approvals_required])).toEqual([["Kept", 1]]);
  });

  it("records each approval setting changed with GitLab's names, nothing for a setting that stays or is not audited", async () => {
    const p = await createTeamProject(team);
    await setApprovalSettings(team.maintainer.api, p.id, {
      reset_approvals_on_push: false, merge_requests_author_approval: true, approvals_before_merge: 2,
    });
    await setApprovalSettings(team.maintainer.api, p.id, { reset_approvals_on_push: false, require_password_to_approve: true });
    const events = await approvalEvents(p.id);
    expect(events.map((e) => [e.event_name, e.details.change, e.details.from, e.details.to, e.author_id])).toEqual([
      ["project_require_password_to_approve_updated", "require user password for approvals", false, true, team.maintainer.id],
      ["project_reset_approvals_on_push_updated", "require new approvals when new commits are added to an MR", true, false, team.maintainer.id],
      ["project_merge_requests_author_approval_updated", "prevent merge request approval from authors", true, false, team.maintainer.id],
    ]);
    expect(events[0].details).toMatchObject({ target_type: "Project", target_id: p.id, target_details: p.path_with_namespace });
  });
});

describe("who may read", () => {
  const INSTANCE: Record<Actor, number> = { anonymous: 401, nonMember: 403, guest: 403, reporter: 403, developer: 403, maintainer: 403, owner: 403, admin: 200 };
  it.each(ACTORS)("GET /audit_events: %s", async (actor) => {
    const res = await clientOf(t, team, actor).get("/audit_events");
    expect(res.status).toBe(INSTANCE[actor]);
    if (res.status === 401) expect(res.body).toEqual({ message: "401 Unauthorized" });
    if (res.status === 403) expect(res.body).toEqual({ message: "403 Forbidden" });
  });

  // read_*_audit_events: Developers and above; Developers see only their own events
  const PRIVATE: Record<Actor, number> = { anonymous: 404, nonMember: 404, guest: 403, reporter: 403, developer: 200, maintainer: 200, owner: 200, admin: 200 };
  const PUBLIC: Record<Actor, number> = { ...PRIVATE, anonymous: 403, nonMember: 403 };
  it.each(ACTORS)("a private and a public project's events: %s", async (actor) => {
    const api = clientOf(t, team, actor);
    const priv = await api.get(`/projects/${team.privateProject.id}/audit_events`);
    expect(priv.status).toBe(PRIVATE[actor]);
    if (priv.status === 404) expect(priv.body).toEqual({ message: "404 Project Not Found" });
    expect((await api.get(`/projects/${team.publicProject.id}/audit_events`)).status).toBe(PUBLIC[actor]);
  });
  it.each(ACTORS)("a private and a public group's events: %s", async (actor) => {
    const api = clientOf(t, team, actor);
    const priv = await api.get(`/groups/${group.id}/audit_events`);
    expect(priv.status).toBe(PRIVATE[actor]);
    if (priv.status === 404) expect(priv.body).toEqual({ message: "404 Group Not Found" });
    expect((await api.get(`/groups/${publicGroup.id}/audit_events`)).status).toBe(PUBLIC[actor]);
  });

  it("shows a project's Developers their own events only, and a group's Maintainers too; Owners and Maintainers of the project all", async () => {
    const p = team.publicProject;
    expect((await team.developer.api.post(`/projects/${p.id}/hooks`, { url: "http://8.8.8.8/x" })).status).toBe(403);
    await team.owner.api.post(`/projects/${p.id}/protected_branches`, { name: uniq("own") });
    const maint = await team.maintainer.api.post(`/projects/${p.id}/protected_branches`, { name: uniq("maint") });
    expect(maint.status).toBe(201);
    const everyone = (await team.maintainer.api.get(`/projects/${p.id}/audit_events`, { query: { per_page: 100 } })).body;
    expect(new Set(everyone.map((e: any) => e.author_id))).toEqual(new Set([team.owner.id, team.maintainer.id]));
    const developer = (await team.developer.api.get(`/projects/${p.id}/audit_events`)).body;
    expect(developer.every((e: any) => e.author_id === team.developer.id)).toBe(true);
    const groupMaintainer = (await team.maintainer.api.get(`/groups/${group.id}/audit_events`)).body;
    expect(groupMaintainer.every((e: any) => e.author_id === team.maintainer.id)).toBe(true);
    const groupOwner = (await team.owner.api.get(`/groups/${group.id}/audit_events`)).body;
    expect(groupOwner.length).toBeGreaterThan(0);
  });

  it("answers one event by id only inside its entity, else 404 Not found", async () => {
    const [event] = await all(`/projects/${team.privateProject.id}/audit_events`);
    expect((await team.owner.api.get(`/projects/${team.privateProject.id}/audit_events/${event.id}`)).body).toEqual(event);
    expect((await t.root.get(`/audit_events/${event.id}`)).body).toEqual(event);
    const elsewhere = await team.owner.api.get(`/projects/${team.publicProject.id}/audit_events/${event.id}`);
    expect([elsewhere.status, elsewhere.body]).toEqual([404, { message: "404 Not found" }]);
    const inGroup = await team.owner.api.get(`/groups/${group.id}/audit_events/${event.id}`);
    expect([inGroup.status, inGroup.body]).toEqual([404, { message: "404 Not found" }]);
    expect((await t.root.get("/audit_events/999999999")).body).toEqual({ message: "404 Not found" });
    expect((await team.guest.api.get(`/projects/${team.privateProject.id}/audit_events/${event.id}`)).status).toBe(403);
    expect((await t.anon.get(`/audit_events/${event.id}`)).status).toBe(401);
  });
});

describe("filters, pagination and bad input", () => {
  it("filters by created_after and created_before (inclusive) and by entity", async () => {
    const events = await all("/audit_events");
    const newest = events[0];
    const at = newest.created_at;
    const after = await all("/audit_events", { created_after: at });
    expect(after.map((e) => e.id)).toContain(newest.id);
    expect(after.every((e) => e.created_at >= at)).toBe(true);
    const before = await all("/audit_events", { created_before: "2000-01-01T00:00:00Z" });
    expect(before).toEqual([]);
    const projectOnly = await all("/audit_events", { entity_type: "Project", entity_id: team.privateProject.id });
    expect(projectOnly.length).toBeGreaterThan(0);
    expect(projectOnly.every((e) => e.entity_type === "Project" && e.entity_id === team.privateProject.id)).toBe(true);
    const scoped = await all(`/projects/${team.privateProject.id}/audit_events`, { created_after: "2999-01-01T00:00:00Z" });
    expect(scoped).toEqual([]);
  });

  it("pages by offset with GitLab's headers, newest first", async () => {
    const res = await t.root.get("/audit_events", { query: { per_page: 2, page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.headers.get("x-page")).toBe("2");
    expect(Number(res.headers.get("x-total"))).toBeGreaterThan(4);
    expect(res.body[0].id).toBeGreaterThan(res.body[1].id);
  });

  it("walks keyset pagination to the end through Link rel=next, the same rows as offset", async () => {
    const expected = (await all(`/projects/${team.privateProject.id}/audit_events`)).map((e) => e.id);
    let url: string | null = `/projects/${team.privateProject.id}/audit_events?pagination=keyset&order_by=id&sort=desc&per_page=2`;
    const seen: number[] = [];
    for (let pages = 0; url && pages < 100; pages++) {
      const res: any = await t.root.get(url, { raw: true });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-total")).toBeNull();
      seen.push(...res.body.map((e: any) => e.id));
      const link = res.headers.get("link");
      url = link ? /<http:\/\/forgeline\.test\/api\/v4([^>]+)>; rel="next"/.exec(link)![1]! : null;
      if (url) expect(link).toContain("cursor=");
    }
    expect(seen).toEqual(expected);
  });

  it("refuses keyset pagination in another order, and a cursor it did not issue", async () => {
    for (const query of [{ order_by: "created_at" }, { sort: "asc" }] as Record<string, string>[]) {
      const res = await t.root.get("/audit_events", { query: { pagination: "keyset", ...query } });
      expect([res.status, res.body]).toEqual([405, { error: "Keyset pagination is not yet available for this type of request" }]);
    }
    const bad = await t.root.get("/audit_events", { query: { pagination: "keyset", cursor: "nope" } });
    expect([bad.status, bad.body]).toEqual([400, { error: "cursor is invalid" }]);
  });

  it("answers 400 with Grape's texts for bad dates, entity types and ids", async () => {
    const cases: [string, Record<string, string>, string][] = [
      ["/audit_events", { created_after: "yesterday" }, "created_after is invalid"],
      ["/audit_events", { created_before: "2024-13-45" }, "created_before is invalid"],
      ["/audit_events", { entity_type: "Issue" }, "entity_type does not have a valid value"],
      ["/audit_events", { entity_type: "User", entity_id: "abc" }, "entity_id is invalid"],
      [`/projects/${team.privateProject.id}/audit_events`, { created_after: "nope" }, "created_after is invalid"],
      [`/groups/${group.id}/audit_events`, { created_before: "nope" }, "created_before is invalid"],
    ];
    for (const [path, query, error] of cases) {
      const res = await t.root.get(path, { query });
      expect([path, res.status, res.body]).toEqual([path, 400, { error }]);
    }
    const badId = await t.root.get("/audit_events/abc");
    expect([badId.status, badId.body]).toEqual([400, { error: "id is invalid" }]);
  });
});

/** The statements of one request on a warm server (answered once before), as test/rest/statement-budgets.test.ts counts them. */
async function statementsOf(path: string, client = t.root): Promise<{ count: number; roundTrips: number; sql: string[] }> {
  expect((await client.get(path, { raw: true })).status).toBe(200);
  const sql: string[] = [];
  t.services.sqlStats.trace = (text) => sql.push(text);
  const before = { ...t.services.sqlStats };
  try {
    expect((await client.get(path, { raw: true })).status).toBe(200);
    return { count: t.services.sqlStats.statements - before.statements, roundTrips: t.services.sqlStats.roundTrips - before.roundTrips, sql };
  } finally {
    t.services.sqlStats.trace = undefined;
  }
}
const versionReads = () => (t.services.dialect === "postgresql" ? 1 : 0);

describe("statement budgets", () => {
  // offset: the count and the page; keyset: the page; a project comes from the projects cache, a group is read (one more)
  const BUDGETS: [string, () => string, number][] = [
    ["GET /audit_events?per_page=20", () => "/audit_events?per_page=20", 2],
    ["GET /audit_events?pagination=keyset", () => "/audit_events?pagination=keyset&per_page=20", 1],
    ["GET /projects/:id/audit_events?per_page=20", () => `/projects/${team.privateProject.id}/audit_events?per_page=20`, 2],
    ["GET /projects/:id/audit_events?pagination=keyset", () => `/projects/${team.privateProject.id}/audit_events?pagination=keyset&per_page=20`, 1],
    ["GET /groups/:id/audit_events?per_page=20", () => `/groups/${group.id}/audit_events?per_page=20`, 3],
    ["GET /groups/:id/audit_events?pagination=keyset", () => `/groups/${group.id}/audit_events?pagination=keyset&per_page=20`, 2],
  ];
  it.each(BUDGETS)("%s: at most the budget", async (_name, path, budget) => {
    const { count, roundTrips, sql } = await statementsOf(path(), path().startsWith("/audit") ? t.root : team.owner.api);
    expect(count, sql.join("\n")).toBeLessThanOrEqual(budget);
    expect(roundTrips, sql.join("\n")).toBe(count + versionReads());
  });
});
