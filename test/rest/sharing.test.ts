// Sharing projects and groups with groups (POST/DELETE /projects/:id/share and /groups/:id/share):
// who may share, GitLab's refusals, and what a share gives: a project shared with a group counts
// the group's members and its ancestors' members at min(their level, the share's access); a group
// shared with a group counts that group's direct members only, on the group, its subgroups and
// their projects; expired and removed shares give nothing, lists and entities follow.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { addMember, createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
const GROUP_NOT_FOUND = { message: "404 Group Not Found" };
const LINK_NOT_FOUND = { message: "404 Group Link Not Found" };
const SHARE_NOT_FOUND = { message: "Not Found" };

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

/** A private group `parent/child` with `direct` a Developer of the child and `inherited` a Developer of the parent. */
async function invitedGroup(owner: TestUser = team.maintainer) {
  const [direct, inherited] = [await createUser(t), await createUser(t)];
  const parent = await createGroup(owner.api, { path: uniq("inv-parent") });
  const child = await createGroup(owner.api, { path: uniq("inv-child"), parent_id: parent.id });
  await addMember(owner.api, "groups", child.id, direct.id, 30);
  await addMember(owner.api, "groups", parent.id, inherited.id, 30);
  return { parent, child, direct, inherited };
}

describe("POST /projects/:id/share", () => {
  const EXPECTED: Record<Actor, number> = {
    anonymous: 401, nonMember: 404, guest: 403, reporter: 403, developer: 403, maintainer: 201, owner: 201, admin: 201,
  };
  it.each(Object.entries(EXPECTED))("on a private project, %s gets %i", async (actor, status) => {
    const project = await createProject(team.owner.api, { visibility: "private" });
    await addMember(team.owner.api, "projects", project.id, team.maintainer.id, 40);
    for (const user of [team.guest, team.reporter, team.developer]) {
      await addMember(team.owner.api, "projects", project.id, user.id, { guest: 10, reporter: 20, developer: 30 }[user === team.guest ? "guest" : user === team.reporter ? "reporter" : "developer"]);
    }
    const group = await createGroup(team.maintainer.api, { path: uniq("share-to") });
    for (const user of [team.owner, team.guest, team.reporter, team.developer]) await addMember(team.maintainer.api, "groups", group.id, user.id, 10);
    const res = await clientOf(t, team, actor as Actor).post(`/projects/${project.id}/share`, { group_id: group.id, group_access: 30 });
    expect(res.status).toBe(status);
    if (status === 201) {
      expect(res.body).toEqual({ id: expect.any(Number), project_id: project.id, group_id: group.id, group_access: 30, expires_at: null });
    }
    if (status === 401) expect(res.body).toEqual(UNAUTHORIZED);
    if (status === 403) expect(res.body).toEqual(FORBIDDEN);
    if (status === 404) expect(res.body).toEqual(PROJECT_NOT_FOUND);
  });

  it("checks its params first (400), then refuses a group the caller is not a member of (404 Not Found)", async () => {
    const project = team.privateProject;
    const group = await createGroup(team.owner.api, { path: uniq("not-mine") });
    const bad = await team.maintainer.api.post(`/projects/${project.id}/share`, { group_id: group.id, group_access: 35 });
    expect([bad.status, bad.body]).toEqual([400, { error: "group_access does not have a valid value" }]);
    const date = await team.maintainer.api.post(`/projects/${project.id}/share`, { group_id: group.id, group_access: 30, expires_at: "2026-13-40" });
    expect([date.status, date.body]).toEqual([400, { error: "expires_at is invalid" }]);
    const missing = await team.maintainer.api.post(`/projects/${project.id}/share`, { group_access: 30 });
    expect([missing.status, missing.body]).toEqual([400, { error: "group_id is missing" }]);
    // the maintainer is no member of `group` (public groups included: membership decides)
    expect((await team.maintainer.api.post(`/projects/${project.id}/share`, { group_id: group.id, group_access: 30 })).body).toEqual(SHARE_NOT_FOUND);
    expect((await team.maintainer.api.post(`/projects/${project.id}/share`, { group_id: 99999999, group_access: 30 })).body).toEqual(SHARE_NOT_FOUND);
    expect(await t.services.db.projectGroupLink.count({ where: { projectId: project.id, groupId: group.id } })).toBe(0);
  });

  it("sharing as Owner takes an Owner of the project; a second share with the same group is 409", async () => {
    const project = team.privateProject;
    const group = await createGroup(team.maintainer.api, { path: uniq("own") });
    await addMember(team.maintainer.api, "groups", group.id, team.owner.id, 10);
    expect((await team.maintainer.api.post(`/projects/${project.id}/share`, { group_id: group.id, group_access: 50 })).body).toEqual(FORBIDDEN);
    expect((await team.owner.api.post(`/projects/${project.id}/share`, { group_id: group.id, group_access: 50, expires_at: "2099-01-31" })).body)
      .toMatchObject({ group_access: 50, expires_at: "2099-01-31" });
    const again = await team.owner.api.post(`/projects/${project.id}/share`, { group_id: group.id, group_access: 10 });
    expect([again.status, again.body]).toEqual([409, { message: "Project already shared with this group" }]);
  });

  it("refuses the project's own group and its ancestors (409)", async () => {
    const parent = await createGroup(team.owner.api, { path: uniq("home") });
    const child = await createGroup(team.owner.api, { path: uniq("home-child"), parent_id: parent.id });
    const project = await createProject(team.owner.api, { namespace_id: child.id });
    for (const group of [parent, child]) {
      const res = await team.owner.api.post(`/projects/${project.id}/share`, { group_id: group.id, group_access: 30 });
      expect([res.status, res.body]).toEqual([409, { message: "Project cannot be shared with the group it is in or one of its ancestors." }]);
    }
  });
});

describe("what a project share gives", () => {
  it("the group's members and its ancestors' members, at min(their level, the share's access), until it expires or is removed", async () => {
    const project = await createProject(team.owner.api, { visibility: "private" });
    const { parent, child, direct, inherited } = await invitedGroup(team.owner);
    const outsider = await createUser(t);
    for (const user of [direct, inherited]) expect((await user.api.get(`/projects/${project.id}`)).body).toEqual(PROJECT_NOT_FOUND);

    const share = await team.owner.api.post(`/projects/${project.id}/share`, { group_id: child.id, group_access: 20 });
    expect(share.status).toBe(201);
    for (const user of [direct, inherited]) {
      const res = await user.api.get(`/projects/${project.id}`);
      expect(res.status).toBe(200);
      // Reporter through the share (min(Developer, Reporter)): issues yes, project settings no
      expect((await user.api.post(`/projects/${project.id}/issues`, { title: "via share" })).status).toBe(201);
      expect((await user.api.put(`/projects/${project.id}`, { description: "no" })).status).toBe(403);
      const mine = await user.api.get("/projects", { query: { membership: true, per_page: 100 } });
      expect(mine.body.map((p: any) => p.id)).toContain(project.id);
      const developerOf = await user.api.get("/projects", { query: { min_access_level: 30, per_page: 100 } });
      expect(developerOf.body.map((p: any) => p.id)).not.toContain(project.id);
    }
    expect((await outsider.api.get(`/projects/${project.id}`)).status).toBe(404);

    // the entities: the project lists the group for those who may see it; the group its shared projects
    const shown = await direct.api.get(`/projects/${project.id}`);
    expect(shown.body.shared_with_groups).toEqual([
      { group_id: child.id, group_name: child.name, group_full_path: child.full_path, group_access_level: 20, expires_at: null },
    ]);
    await addMember(team.owner.api, "projects", project.id, team.reporter.id, 20);
    expect((await team.reporter.api.get(`/projects/${project.id}`)).body.shared_with_groups).toEqual([]); // a private group they are no member of
    expect((await direct.api.get(`/groups/${child.id}`)).body.shared_projects.map((p: any) => p.id)).toEqual([project.id]);

    // expired: no access (and no longer listed)
    await t.services.db.projectGroupLink.updateMany({ where: { projectId: project.id }, data: { expiresAt: new Date(Date.now() - 86_400_000) } });
    t.forgetCaches();
    expect((await direct.api.get(`/projects/${project.id}`)).status).toBe(404);
    await t.services.db.projectGroupLink.updateMany({ where: { projectId: project.id }, data: { expiresAt: null } });
    expect((await direct.api.get(`/projects/${project.id}`)).status).toBe(200);

    // removed: the next request already knows (the memberships cache follows the links table)
    expect((await team.developer.api.delete(`/projects/${project.id}/share/${child.id}`)).status).toBe(404); // not a member at all
    expect((await team.owner.api.delete(`/projects/${project.id}/share/${parent.id}`)).body).toEqual(LINK_NOT_FOUND);
    expect((await team.owner.api.delete(`/projects/${project.id}/share/${child.id}`)).status).toBe(204);
    for (const user of [direct, inherited]) expect((await user.api.get(`/projects/${project.id}`)).status).toBe(404);
  });

  it("DELETE /projects/:id/share/:group_id: 401 anonymous, 403 below Maintainer", async () => {
    const { child } = await invitedGroup();
    expect((await team.maintainer.api.post(`/projects/${team.privateProject.id}/share`, { group_id: child.id, group_access: 10 })).status).toBe(201);
    const path = `/projects/${team.privateProject.id}/share/${child.id}`;
    expect((await t.anon.delete(path)).body).toEqual(UNAUTHORIZED);
    expect((await team.developer.api.delete(path)).body).toEqual(FORBIDDEN);
    expect((await team.maintainer.api.delete(path)).status).toBe(204);
  });
});

describe("POST /groups/:id/share and what a group share gives", () => {
  it("the shared group's Owners share it; its direct members only get min(level, access) on it, its subgroups and projects", async () => {
    const shared = await createGroup(team.owner.api, { path: uniq("shared") });
    const sub = await createGroup(team.owner.api, { path: uniq("shared-sub"), parent_id: shared.id });
    const project = await createProject(team.owner.api, { namespace_id: sub.id });
    await addMember(team.owner.api, "groups", shared.id, team.maintainer.id, 40);
    const { child, direct, inherited } = await invitedGroup(team.maintainer);
    await addMember(team.maintainer.api, "groups", child.id, team.owner.id, 10);

    // a Maintainer of the shared group may not; a group the Owner cannot see is not found
    expect((await team.maintainer.api.post(`/groups/${shared.id}/share`, { group_id: child.id, group_access: 30 })).body).toEqual(SHARE_NOT_FOUND);
    const hidden = await createGroup(team.developer.api, { path: uniq("hidden") });
    expect((await team.owner.api.post(`/groups/${shared.id}/share`, { group_id: hidden.id, group_access: 30 })).body).toEqual(GROUP_NOT_FOUND);
    expect((await team.nonMember.api.post(`/groups/${shared.id}/share`, { group_id: child.id, group_access: 30 })).body).toEqual(GROUP_NOT_FOUND);
    expect((await t.anon.post(`/groups/${shared.id}/share`, { group_id: child.id, group_access: 30 })).body).toEqual(UNAUTHORIZED);
    const bad = await team.owner.api.post(`/groups/${shared.id}/share`, { group_id: child.id, group_access: 60 });
    expect([bad.status, bad.body]).toEqual([400, { error: "group_access does not have a valid value" }]);

    const res = await team.owner.api.post(`/groups/${shared.id}/share`, { group_id: child.id, group_access: 30 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: shared.id, full_path: shared.full_path });
    expect(res.body.shared_with_groups).toEqual([
      { group_id: child.id, group_name: child.name, group_full_path: child.full_path, group_access_level: 30, expires_at: null },
    ]);
    const again = await team.owner.api.post(`/groups/${shared.id}/share`, { group_id: child.id, group_access: 10 });
    expect([again.status, again.body]).toEqual([409, { message: "Shared group The group has already been shared with this group" }]);

    // direct members of the invited group: Developer on the group, its subgroup and its projects
    for (const path of [`/groups/${shared.id}`, `/groups/${sub.id}`, `/projects/${project.id}`]) expect((await direct.api.get(path)).status).toBe(200);
    expect((await direct.api.post(`/projects/${project.id}/issues`, { title: "shared" })).status).toBe(201);
    const groups = await direct.api.get("/groups", { query: { per_page: 100 } });
    expect(groups.body.map((g: any) => g.id)).toEqual(expect.arrayContaining([shared.id, sub.id]));
    const projects = await direct.api.get("/projects", { query: { min_access_level: 30, per_page: 100 } });
    expect(projects.body.map((p: any) => p.id)).toContain(project.id);
    // inherited members of the invited group get nothing
    for (const path of [`/groups/${shared.id}`, `/projects/${project.id}`]) expect((await inherited.api.get(path)).status).toBe(404);

    // removing: 404 Group Link for another group, "Not Found" below Owner, then 204 and no more access
    expect((await team.owner.api.delete(`/groups/${shared.id}/share/${hidden.id}`)).body).toEqual(LINK_NOT_FOUND);
    expect((await team.maintainer.api.delete(`/groups/${shared.id}/share/${child.id}`)).body).toEqual(SHARE_NOT_FOUND);
    expect((await team.owner.api.delete(`/groups/${shared.id}/share/${child.id}`)).status).toBe(204);
    for (const path of [`/groups/${shared.id}`, `/projects/${project.id}`]) expect((await direct.api.get(path)).status).toBe(404);
  });
});

describe("GET /projects/:id/members/all with shares", () => {
  it("lists a shared group's members at their shared level, only when the caller may see that group", async () => {
    const project = await createProject(team.owner.api, { visibility: "private" });
    await addMember(team.owner.api, "projects", project.id, team.reporter.id, 20);
    const { child, direct, inherited } = await invitedGroup(team.owner);
    expect((await team.owner.api.post(`/projects/${project.id}/share`, { group_id: child.id, group_access: 20 })).status).toBe(201);
    const levels = async (client: typeof team.owner.api) => {
      const res = await client.get(`/projects/${project.id}/members/all`, { query: { per_page: 100 } });
      expect(res.status).toBe(200);
      return Object.fromEntries(res.body.map((m: any) => [m.id, m.access_level]));
    };
    // the owner is a member of the invited (private) groups: both shared members at min(Developer, Reporter)
    expect(await levels(team.owner.api)).toMatchObject({ [direct.id]: 20, [inherited.id]: 20 });
    // a project member who cannot see the private invited group does not see its members
    const seen = await levels(team.reporter.api);
    expect(seen[direct.id]).toBeUndefined();
    expect(seen[inherited.id]).toBeUndefined();
    expect(seen[team.reporter.id]).toBe(20);
    expect((await team.owner.api.get(`/projects/${project.id}/members/all/${direct.id}`)).body).toMatchObject({ id: direct.id, access_level: 20 });
  });
});
