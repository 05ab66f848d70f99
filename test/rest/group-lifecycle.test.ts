// Group lifecycle through /api/v4: DELETE /groups/:id (202; the subtree with its projects and
// everything hanging from them removed in one transaction; hooks told), POST /groups/:id/transfer
// (Groups::TransferService's rules and messages; paths and redirects of everything below), and
// GET /groups/:id/descendant_groups.
import { beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { createIssue } from "../helpers/issues.js";
import { createNote } from "../helpers/snippets-notes.js";
import { awardEmoji } from "../helpers/award-emoji.js";
import { redPng } from "../helpers/images.js";
import { queryDatabase } from "../helpers/test-database.js";

let t: TestApp;
let owner: TestUser, maintainer: TestUser, developer: TestUser, guest: TestUser, stranger: TestUser;

const ACCEPTED = { message: "202 Accepted" };
const GROUP_NOT_FOUND = { message: "404 Group Not Found" };
const FORBIDDEN = { message: "403 Forbidden" };
const enc = (path: string) => encodeURIComponent(path);
const ids = (list: any[]) => list.map((g) => g.id);

const rows = <T = any>(sql: string, ...params: unknown[]) => queryDatabase<T>(t.services.config.databaseUrl, sql, ...params);
const count = async (sql: string, ...params: unknown[]) => Number((await rows<{ n: unknown }>(sql, ...params))[0]!.n);

beforeAll(async () => {
  t = await startTestApp({ ALLOW_LOCAL_WEBHOOKS: "true" });
  [owner, maintainer, developer, guest, stranger] = await Promise.all(Array.from({ length: 5 }, () => createUser(t)));
});

/** A private group of `owner` with the others as members at their role. */
async function teamGroup(overrides: Record<string, unknown> = {}) {
  const group = await createGroup(owner.api, overrides);
  for (const [user, level] of [[guest, 10], [developer, 30], [maintainer, 40]] as const) {
    await addMember(owner.api, "groups", group.id, user.id, level);
  }
  return group;
}

describe("DELETE /groups/:id", () => {
  const cases: [string, () => TestApp["anon"], number, unknown][] = [
    ["anonymous", () => t.anon, 401, { message: "401 Unauthorized" }],
    ["a non-member", () => stranger.api, 404, GROUP_NOT_FOUND],
    ["a guest", () => guest.api, 403, FORBIDDEN],
    ["a developer", () => developer.api, 403, FORBIDDEN],
    ["a maintainer", () => maintainer.api, 403, FORBIDDEN],
    ["the owner", () => owner.api, 202, ACCEPTED],
    ["an admin", () => t.root, 202, ACCEPTED],
  ];

  it.each(cases)("as %s (remove_group: Owners and admins)", async (_who, client, status, body) => {
    const group = await teamGroup();
    const res = await client().delete(`/groups/${group.id}`);
    expect(res.status).toBe(status);
    expect(res.body).toEqual(body);
    expect((await owner.api.get(`/groups/${group.id}`)).status).toBe(status === 202 ? 404 : 200);
  });

  it("lets an Owner of an ancestor delete a subgroup by its full path", async () => {
    const parent = await teamGroup();
    const child = await createGroup(maintainer.api, { parent_id: parent.id });
    const res = await owner.api.delete(`/groups/${enc(child.full_path)}`);
    expect(res.status).toBe(202);
    expect((await owner.api.get(`/groups/${parent.id}/subgroups`)).body).toEqual([]);
  });

  it.each([["99999999"], [enc("no/such-group")]])("answers 404 for an unknown group %s", async (id) => {
    const res = await t.root.delete(`/groups/${id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(GROUP_NOT_FOUND);
  });

  it("answers 412 when If-Unmodified-Since is older than the group", async () => {
    const group = await teamGroup();
    const res = await owner.api.delete(`/groups/${group.id}`, { headers: { "If-Unmodified-Since": "Thu, 01 Jan 2015 00:00:00 GMT" } });
    expect(res.status).toBe(412);
    expect((await owner.api.get(`/groups/${group.id}`)).status).toBe(200);
  });

  it("removes the subgroups, their projects with what hangs from them, members, hooks, tokens and avatars; other groups stay", async () => {
    const top = await teamGroup();
    const form = new FormData();
    form.append("avatar", new Blob([new Uint8Array(redPng())], { type: "image/png" }), "a.png");
    const avatar = await owner.api.put(`/groups/${top.id}`, undefined, { form });
    expect(avatar.body.avatar_url, avatar.text).toMatch(/a\.png$/);
    const sub = await createGroup(owner.api, { parent_id: top.id });
    const deep = await createGroup(owner.api, { parent_id: sub.id });
    const kept = await teamGroup();
    const made: Record<string, any> = {};
    for (const [name, ns] of [["top", top], ["deep", deep], ["kept", kept]] as const) {
      const project = await createProject(owner.api, { namespace_id: ns.id });
      const issue = await createIssue(owner.api, project.id);
      const note = await createNote(owner.api, project.id, "issues", issue.iid);
      await awardEmoji(owner.api, { projectId: project.id, kind: "issues", ref: issue.iid, noteId: note.id });
      made[name] = { project, issue, note };
    }
    const hook = await owner.api.post(`/groups/${sub.id}/hooks`, { url: "http://127.0.0.1:9/sub" });
    expect(hook.status, hook.text).toBe(201);
    const token = await owner.api.post(`/groups/${deep.id}/access_tokens`, { name: "bot", scopes: ["api"], access_level: 30 });
    expect(token.status, token.text).toBe(201);
    const groupIds = [top.id, sub.id, deep.id];
    const inGroups = `(${groupIds.join(", ")})`;

    expect((await owner.api.delete(`/groups/${top.id}`)).status).toBe(202);

    expect(await count(`SELECT COUNT(*) AS n FROM "Namespace" WHERE "id" IN ${inGroups}`)).toBe(0);
    expect(await count(`SELECT COUNT(*) AS n FROM "GroupMember" WHERE "groupId" IN ${inGroups}`)).toBe(0);
    expect(await count(`SELECT COUNT(*) AS n FROM "WebHook" WHERE "groupId" IN ${inGroups}`)).toBe(0);
    for (const name of ["top", "deep"]) {
      const { project, issue, note } = made[name];
      expect(await count('SELECT COUNT(*) AS n FROM "Project" WHERE "id" = ?', project.id)).toBe(0);
      expect(await count('SELECT COUNT(*) AS n FROM "Issue" WHERE "id" = ?', issue.id)).toBe(0);
      expect(await count('SELECT COUNT(*) AS n FROM "Note" WHERE "id" = ?', note.id)).toBe(0);
      expect(await count('SELECT COUNT(*) AS n FROM "AwardEmoji" WHERE "awardableType" = ? AND "awardableId" = ?', "Note", note.id)).toBe(0);
      expect(await count('SELECT COUNT(*) AS n FROM "InternalId" WHERE "projectId" = ?', project.id)).toBe(0);
    }
    expect(await count('SELECT COUNT(*) AS n FROM "User" WHERE "id" = ?', token.body.user_id)).toBe(0);
    expect((await t.client(token.body.token).get("/user")).status).toBe(401);
    expect(await count('SELECT COUNT(*) AS n FROM "StoredFile" WHERE "path" LIKE ?', `group/avatar/${top.id}/%`)).toBe(0);
    // the other group and its project are as they were
    const { project, issue, note } = made.kept;
    expect((await owner.api.get(`/groups/${kept.id}`)).status).toBe(200);
    expect((await owner.api.get(`/projects/${project.id}/issues/${issue.iid}/notes/${note.id}/award_emoji`)).body).toHaveLength(1);
    expect((await owner.api.get(`/projects/${enc(made.deep.project.path_with_namespace)}`)).status).toBe(404);
  });

  it("tells the hooks of the ancestors: subgroup_destroy for each subgroup, project_destroy for each project", async () => {
    const top = await teamGroup();
    const hook = await owner.api.post(`/groups/${top.id}/hooks`, { url: "http://127.0.0.1:9/top", subgroup_events: true, project_events: true, push_events: false });
    expect(hook.status, hook.text).toBe(201);
    const sub = await createGroup(owner.api, { parent_id: top.id });
    const deep = await createGroup(owner.api, { parent_id: sub.id });
    const project = await createProject(owner.api, { namespace_id: deep.id });
    expect((await owner.api.delete(`/groups/${sub.id}`)).status).toBe(202);
    const deliveries = (await rows<{ trigger: string; payload: string }>('SELECT "trigger", "payload" FROM "WebHookDelivery" WHERE "hookId" = ? ORDER BY "id"', hook.body.id))
      .map((d) => ({ trigger: d.trigger, ...JSON.parse(d.payload) }));
    const removals = deliveries.filter((d) => d.event_name.endsWith("_destroy"));
    expect(removals.map((d) => [d.trigger, d.event_name, d.group_id ?? d.project_id])).toEqual([
      ["project_hooks", "project_destroy", project.id],
      ["subgroup_hooks", "subgroup_destroy", deep.id],
      ["subgroup_hooks", "subgroup_destroy", sub.id],
    ]);
    expect(removals[2]).toMatchObject({ parent_group_id: top.id, full_path: sub.full_path });
  });

  it("is the deleteGroup mutation on /graphql too", async () => {
    const group = await teamGroup();
    const res = await owner.api.graphql(`mutation($id: ID!) { deleteGroup(id: $id) { message } }`, { id: String(group.id) });
    expect(res.body).toEqual({ data: { deleteGroup: ACCEPTED } });
    expect((await owner.api.get(`/groups/${group.id}`)).status).toBe(404);
  });
});

describe("POST /groups/:id/transfer", () => {
  const failed = (reason: string) => ({ message: `Transfer failed: ${reason}` });

  it("refuses a transfer into the group itself or one of its subgroups", async () => {
    const group = await teamGroup();
    const sub = await createGroup(owner.api, { parent_id: group.id });
    const deep = await createGroup(owner.api, { parent_id: sub.id });
    for (const target of [group, sub, deep]) {
      const res = await owner.api.post(`/groups/${group.id}/transfer`, { group_id: target.id });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(failed("Cannot transfer group to one of its subgroup."));
    }
    expect((await owner.api.get(`/groups/${group.id}`)).body.full_path).toBe(group.full_path);
  });

  it("refuses a top-level group without a target and a group already under the target", async () => {
    const group = await teamGroup();
    const sub = await createGroup(owner.api, { parent_id: group.id });
    expect((await owner.api.post(`/groups/${group.id}/transfer`, {})).body).toEqual(failed("Group is already a root group."));
    expect((await owner.api.post(`/groups/${sub.id}/transfer`, { group_id: group.id })).body).toEqual(failed("Group is already associated to the parent group."));
  });

  it("needs create_subgroup (Maintainer) on the target", async () => {
    const group = await teamGroup();
    const target = await createGroup(stranger.api);
    await addMember(stranger.api, "groups", target.id, owner.id, 30);
    const res = await owner.api.post(`/groups/${group.id}/transfer`, { group_id: target.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(failed("You don't have enough permissions."));
  });

  it("refuses a target that already has a subgroup or a project with the group's path", async () => {
    const target = await teamGroup();
    const group = await teamGroup();
    await createGroup(owner.api, { parent_id: target.id, path: uniq("twin") }).then(async (twin) => {
      const clash = await teamGroup({ path: twin.path });
      const res = await owner.api.post(`/groups/${clash.id}/transfer`, { group_id: target.id });
      expect(res.body).toEqual(failed("The parent group already has a subgroup or a project with the same path."));
    });
    await createProject(owner.api, { namespace_id: target.id, path: group.path });
    const res = await owner.api.post(`/groups/${group.id}/transfer`, { group_id: target.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(failed("The parent group already has a subgroup or a project with the same path."));
  });

  it("answers 401, 404 and 403 as GitLab's before-filters and lookups do", async () => {
    const group = await teamGroup();
    const target = await teamGroup();
    expect((await t.anon.post(`/groups/${group.id}/transfer`, { group_id: target.id })).status).toBe(401);
    expect((await stranger.api.post(`/groups/${group.id}/transfer`, { group_id: target.id })).body).toEqual(GROUP_NOT_FOUND);
    expect((await maintainer.api.post(`/groups/${group.id}/transfer`, { group_id: target.id })).body).toEqual(FORBIDDEN);
    expect((await owner.api.post(`/groups/${group.id}/transfer`, { group_id: 99999999 })).body).toEqual(GROUP_NOT_FOUND);
    expect((await owner.api.post("/groups/99999999/transfer", { group_id: target.id })).body).toEqual(GROUP_NOT_FOUND);
    expect((await owner.api.post(`/groups/${group.id}/transfer`, { group_id: "x" })).body).toEqual({ error: "group_id is invalid" });
    const privateTarget = await createGroup(stranger.api);
    expect((await owner.api.post(`/groups/${group.id}/transfer`, { group_id: privateTarget.id })).body).toEqual(GROUP_NOT_FOUND);
  });

  it("moves the subtree: full paths, traversal, project paths with redirects from the old ones", async () => {
    const group = await teamGroup({ visibility: "public" });
    const sub = await createGroup(owner.api, { parent_id: group.id, visibility: "public" });
    const project = await createProject(owner.api, { namespace_id: sub.id, visibility: "public" });
    const target = await teamGroup({ visibility: "private" });
    const res = await owner.api.post(`/groups/${group.id}/transfer`, { group_id: target.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: group.id, parent_id: target.id, full_path: `${target.full_path}/${group.path}`, visibility: "private",
      web_url: `${BASE_URL}/groups/${target.full_path}/${group.path}`, projects: [],
    });
    const movedSub = (await owner.api.get(`/groups/${sub.id}`)).body;
    expect(movedSub).toMatchObject({ full_path: `${target.full_path}/${group.path}/${sub.path}`, visibility: "private" });
    const movedProject = (await owner.api.get(`/projects/${project.id}`)).body;
    expect(movedProject).toMatchObject({ path_with_namespace: `${movedSub.full_path}/${project.path}`, visibility: "private" });
    const redirect = await owner.api.get(`/projects/${enc(project.path_with_namespace)}`);
    expect(redirect.status).toBe(301);
    const descendants = ids((await owner.api.get(`/groups/${target.id}/descendant_groups`)).body);
    expect(descendants.sort((x, y) => x - y)).toEqual([group.id, sub.id].sort((x, y) => x - y));
    expect((await owner.api.get(`/groups/${target.id}/projects?include_subgroups=true`)).body.map((p: any) => p.id)).toEqual([project.id]);
    // the members of the new parent reach the moved project
    expect((await guest.api.get(`/projects/${project.id}`)).status).toBe(200);
    expect((await t.anon.get(`/projects/${project.id}`)).status).toBe(404);
  });

  it("makes a subgroup top-level, with the caller as Owner when it had none of its own", async () => {
    const parent = await teamGroup();
    const sub = await createGroup(maintainer.api, { parent_id: parent.id });
    await owner.api.delete(`/groups/${sub.id}/members/${maintainer.id}`);
    const res = await owner.api.post(`/groups/${sub.id}/transfer`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: sub.id, parent_id: null, full_path: sub.path });
    const members = (await owner.api.get(`/groups/${sub.id}/members`)).body;
    expect(members.map((m: any) => [m.id, m.access_level])).toEqual([[owner.id, 50]]);
    expect((await owner.api.get(`/groups/${parent.id}/subgroups`)).body).toEqual([]);
  });

  it("is the transferGroup mutation on /graphql too", async () => {
    const group = await teamGroup();
    const target = await teamGroup();
    const res = await owner.api.graphql(`mutation($id: ID!, $to: Int) { transferGroup(id: $id, group_id: $to) { id full_path parent_id } }`, { id: String(group.id), to: target.id });
    expect(res.body).toEqual({ data: { transferGroup: { id: group.id, full_path: `${target.full_path}/${group.path}`, parent_id: target.id } } });
  });
});

describe("GET /groups/:id/descendant_groups", () => {
  let top: any, a: any, b: any, a1: any, hidden: any;

  beforeAll(async () => {
    top = await createGroup(owner.api, { visibility: "public", path: uniq("top") });
    a = await createGroup(owner.api, { parent_id: top.id, visibility: "public", name: "Alpha" });
    b = await createGroup(owner.api, { parent_id: top.id, visibility: "public", name: "Beta" });
    a1 = await createGroup(owner.api, { parent_id: a.id, visibility: "public", name: "Alpha One" });
    hidden = await createGroup(owner.api, { parent_id: b.id, visibility: "private", name: "Beta Hidden" });
  });

  it("lists every level below the group, by name, as the Group entity", async () => {
    const res = await owner.api.get(`/groups/${top.id}/descendant_groups`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([a.id, a1.id, b.id, hidden.id]);
    expect(res.body[1]).toMatchObject({ id: a1.id, parent_id: a.id, full_path: a1.full_path, full_name: `${top.name} / Alpha / Alpha One` });
    expect(res.headers.get("x-total")).toBe("4");
    // subgroups stay one level
    expect(ids((await owner.api.get(`/groups/${top.id}/subgroups`)).body)).toEqual([a.id, b.id]);
  });

  it("shows anonymous callers and non-members only what they may see", async () => {
    expect(ids((await t.anon.get(`/groups/${top.id}/descendant_groups`)).body)).toEqual([a.id, a1.id, b.id]);
    // GroupsFinder: a signed-in caller's own hierarchy, plus what is open to them with all_available
    expect(ids((await stranger.api.get(`/groups/${top.id}/descendant_groups`)).body)).toEqual([]);
    expect(ids((await stranger.api.get(`/groups/${top.id}/descendant_groups?all_available=true`)).body)).toEqual([a.id, a1.id, b.id]);
    expect(ids((await t.root.get(`/groups/${top.id}/descendant_groups`)).body)).toEqual([a.id, a1.id, b.id, hidden.id]);
  });

  it("takes the subgroups filters: search, skip_groups, order_by, sort, visibility, pagination", async () => {
    const get = async (query: string) => ids((await owner.api.get(`/groups/${top.id}/descendant_groups?${query}`)).body);
    expect(await get("search=Alpha")).toEqual([a.id, a1.id]);
    expect(await get(`skip_groups[]=${a1.id}&skip_groups[]=${hidden.id}`)).toEqual([a.id, b.id]);
    expect(await get("order_by=id&sort=desc")).toEqual([hidden.id, a1.id, b.id, a.id]);
    expect(await get("visibility=private")).toEqual([hidden.id]);
    expect(await get("per_page=2&page=2")).toEqual([b.id, hidden.id]);
  });

  it("answers 404 for a group the caller cannot see or that does not exist", async () => {
    expect((await t.anon.get(`/groups/${hidden.id}/descendant_groups`)).body).toEqual(GROUP_NOT_FOUND);
    expect((await owner.api.get("/groups/99999999/descendant_groups")).status).toBe(404);
  });
});
