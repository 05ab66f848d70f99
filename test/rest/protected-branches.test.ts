// Protected branches through /api/v4: read by whoever reads the code, managed by Maintainers;
// GitLab's entity with push / merge / unprotect access levels (roles, users, groups), defaults,
// the clients' request shapes, wildcard names, duplicates (409) and bad levels (400 / 422).
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { addMember, createGroup, uniq } from "../helpers/factories.js";
import { createBranch, protectBranch } from "../helpers/repository.js";
import { ACTORS, clientOf, createTeamProject, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let priv: any;
let pub: any;

const api = (actor: Actor) => clientOf(t, team, actor);

const url = (p: any) => `/projects/${p.id}/protected_branches`;
const role = (access_level: number, access_level_description: string) => ({
  id: expect.any(Number), access_level, access_level_description, user_id: null, group_id: null,
});
/** Only push access levels have a deploy key column in GitLab, so only they show deploy_key_id. */
const pushRole = (access_level: number, access_level_description: string) => ({ ...role(access_level, access_level_description), deploy_key_id: null });
const MAINTAINERS = role(40, "Maintainers");
const BODIES: Record<number, unknown> = { 401: UNAUTHORIZED, 403: FORBIDDEN, 404: PROJECT_NOT_FOUND };

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  ({ privateProject: priv, publicProject: pub } = team);
});

describe("POST /projects/:id/protected_branches", () => {
  const managers: Record<"private" | "public", Record<Actor, number>> = {
    private: { anonymous: 401, nonMember: 404, guest: 403, reporter: 403, developer: 403, maintainer: 201, owner: 201, admin: 201 },
    public: { anonymous: 401, nonMember: 403, guest: 403, reporter: 403, developer: 403, maintainer: 201, owner: 201, admin: 201 },
  };
  const cases = (["private", "public"] as const).flatMap((kind) => ACTORS.map((actor) => [kind, actor, managers[kind][actor]] as const));

  it.each(cases)("%s project, %s: %i", async (kind, actor, status) => {
    const project = kind === "private" ? priv : pub;
    const name = uniq("pb");
    const res = await api(actor).post(url(project), { name });
    expect(res.status).toBe(status);
    if (status !== 201) expect(res.body).toEqual(BODIES[status]);
    else expect(res.body.name).toBe(name);
  });

  it("protects with Maintainers for everything by default, as GitLab's entity", async () => {
    const res = await team.maintainer.api.post(url(priv), { name: "stable" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number), name: "stable",
      push_access_levels: [pushRole(40, "Maintainers")], merge_access_levels: [MAINTAINERS], unprotect_access_levels: [MAINTAINERS],
      allow_force_push: false, code_owner_approval_required: false, inherited: false,
    });
  });

  it("takes gitbeaker's query parameters with a {} body and python's JSON body", async () => {
    const gitbeaker = await team.maintainer.api.post(`${url(priv)}?push_access_level=30&merge_access_level=0&name=gb-main`, {}, { raw: true });
    expect(gitbeaker.status).toBe(201);
    expect(gitbeaker.body).toMatchObject({
      name: "gb-main", push_access_levels: [pushRole(30, "Developers + Maintainers")], merge_access_levels: [role(0, "No one")],
    });
    const python = await team.maintainer.api.post(url(priv), { name: "py-main", push_access_level: 60, merge_access_level: 40, allow_force_push: true });
    expect(python.status).toBe(201);
    expect(python.body).toMatchObject({ push_access_levels: [pushRole(60, "Instance admins")], allow_force_push: true });
  });

  it("stores allowed_to_* users, groups and roles, with their names as descriptions", async () => {
    const group = await createGroup(team.owner.api);
    const res = await team.maintainer.api.post(url(priv), {
      name: uniq("lists"),
      allowed_to_push: [{ user_id: team.developer.id }, { group_id: group.id }],
      allowed_to_merge: [{ access_level: 30 }],
      unprotect_access_level: 60,
      code_owner_approval_required: true,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.push_access_levels).toEqual([
      { id: expect.any(Number), access_level: 40, access_level_description: `User ${team.developer.username}`, deploy_key_id: null, user_id: team.developer.id, group_id: null },
      { id: expect.any(Number), access_level: 40, access_level_description: group.name, deploy_key_id: null, user_id: null, group_id: group.id },
    ]);
    expect(res.body.merge_access_levels).toEqual([role(30, "Developers + Maintainers")]);
    expect(res.body.unprotect_access_levels).toEqual([role(60, "Instance admins")]);
    expect(res.body.code_owner_approval_required).toBe(true);
  });

  it("answers 409 for a name that is already protected", async () => {
    await protectBranch(team.maintainer.api, priv.id, "dup");
    const res = await team.maintainer.api.post(url(priv), { name: "dup" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: "Protected branch 'dup' already exists" });
  });

  it.each([
    ["no name", {}, { error: "name is missing" }],
    ["a push level outside the list", { name: "x", push_access_level: 20 }, { error: "push_access_level does not have a valid value" }],
    ["No one may unprotect", { name: "x", unprotect_access_level: 0 }, { error: "unprotect_access_level does not have a valid value" }],
    ["a bad level in a list", { name: "x", allowed_to_merge: [{ access_level: 10 }] }, { error: "allowed_to_merge[0][access_level] does not have a valid value" }],
    ["a non-integer level", { name: "x", merge_access_level: "high" }, { error: "merge_access_level is invalid" }],
  ])("answers 400 for %s", async (_case, body, expected) => {
    const res = await team.maintainer.api.post(url(priv), body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });

  it("answers 422 with the model's full messages for a level given twice or a blank name", async () => {
    const twice = await team.maintainer.api.post(url(priv), { name: uniq("twice"), push_access_level: 40, allowed_to_push: [{ access_level: 40 }] });
    expect(twice.status).toBe(422);
    expect(twice.body).toEqual({ message: ["Push access levels access level has already been taken"] });
    const blank = await team.maintainer.api.post(url(priv), { name: " " });
    expect(blank.status).toBe(422);
    expect(blank.body).toEqual({ message: ["Name can't be blank"] });
  });
});

describe("GET /projects/:id/protected_branches and /:name", () => {
  const readers: Record<"private" | "public", Record<Actor, number>> = {
    private: { anonymous: 404, nonMember: 404, guest: 403, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
    public: { anonymous: 200, nonMember: 200, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
  };
  const cases = (["private", "public"] as const).flatMap((kind) => ACTORS.map((actor) => [kind, actor, readers[kind][actor]] as const));

  it.each(cases)("%s project, %s: %i (read_code)", async (kind, actor, status) => {
    const project = kind === "private" ? priv : pub;
    const name = uniq("read");
    await protectBranch(team.owner.api, project.id, name);
    for (const path of [url(project), `${url(project)}/${name}`]) {
      const res = await api(actor).get(path);
      expect(res.status, path).toBe(status);
      if (status !== 200) expect(res.body).toEqual(BODIES[status]);
    }
  });

  it("lists in creation order with pagination headers, and filters with search", async () => {
    const project = await createTeamProject(team);
    for (const name of ["main", "release/*", "Release-2"]) await protectBranch(team.maintainer.api, project.id, name);
    const res = await team.developer.api.get(url(project), { query: { per_page: 2 } });
    expect(res.body.map((p: any) => p.name)).toEqual(["main", "release/*"]);
    expect(res.headers.get("x-total")).toBe("3");
    expect(res.headers.get("x-next-page")).toBe("2");
    const found = await team.developer.api.get(url(project), { query: { search: "RELEASE" } });
    expect(found.body.map((p: any) => p.name)).toEqual(["release/*", "Release-2"]);
  });

  it("shows one rule by its exact (encoded) name; anything else is 404 Not found", async () => {
    const project = await createTeamProject(team);
    const created = await protectBranch(team.maintainer.api, project.id, "release/*", { push_access_level: 30 });
    const res = await team.reporter.api.get(`${url(project)}/release%2F*`, { raw: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
    for (const name of ["release%2F1", "main"]) {
      const missing = await team.reporter.api.get(`${url(project)}/${name}`, { raw: true });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: "404 Not found" });
    }
  });
});

describe("DELETE /projects/:id/protected_branches/:name", () => {
  const unprotectors: Record<Actor, number> = {
    anonymous: 401, nonMember: 404, guest: 403, reporter: 403, developer: 403, maintainer: 204, owner: 204, admin: 204,
  };

  it.each(ACTORS)("%s on a private project", async (actor) => {
    const name = uniq("del");
    await protectBranch(team.owner.api, priv.id, name);
    const res = await api(actor).delete(`${url(priv)}/${name}`);
    expect(res.status).toBe(unprotectors[actor]);
    if (res.status !== 204) expect(res.body).toEqual(BODIES[res.status]);
    expect((await t.root.get(`${url(priv)}/${name}`)).status).toBe(res.status === 204 ? 404 : 200);
  });

  it("unprotects a wildcard: its branches are no longer protected", async () => {
    const project = await createTeamProject(team);
    await protectBranch(team.maintainer.api, project.id, "release/*");
    await createBranch(team.maintainer.api, project.id, "release/1");
    const branch = () => team.developer.api.get(`/projects/${project.id}/repository/branches/release%2F1`, { raw: true });
    expect((await branch()).body.protected).toBe(true);
    expect((await team.maintainer.api.delete(`${url(project)}/release%2F*`, { raw: true })).status).toBe(204);
    expect((await branch()).body.protected).toBe(false);
  });

  it("answers 404 Not found for an unknown name before any permission check", async () => {
    for (const who of [team.developer.api, team.maintainer.api]) {
      const res = await who.delete(`${url(priv)}/nothing-here`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Not found" });
    }
  });

  it("keeps a rule whose unprotect level is Instance admins from Maintainers", async () => {
    const name = uniq("admins");
    await protectBranch(team.owner.api, priv.id, name, { unprotect_access_level: 60 });
    for (const who of [team.maintainer.api, team.owner.api]) expect((await who.delete(`${url(priv)}/${name}`)).status).toBe(403);
    expect((await t.root.delete(`${url(priv)}/${name}`)).status).toBe(204);
  });

  it("lets a user named in allowed_to_unprotect unprotect, and answers 412 to an old If-Unmodified-Since", async () => {
    const name = uniq("named");
    const project = await createTeamProject(team);
    const outsider = team.nonMember;
    await addMember(team.owner.api, "projects", project.id, outsider.id, 40);
    await protectBranch(team.owner.api, project.id, name, { allowed_to_unprotect: [{ user_id: team.maintainer.id }] });
    expect((await outsider.api.delete(`${url(project)}/${name}`)).status).toBe(403);
    const stale = await team.maintainer.api.delete(`${url(project)}/${name}`, { headers: { "If-Unmodified-Since": "Mon, 01 Jan 2001 00:00:00 GMT" } });
    expect(stale.status).toBe(412);
    expect((await team.maintainer.api.delete(`${url(project)}/${name}`)).status).toBe(204);
  });
});

describe("group entries of a protected branch", () => {
  it("let members of the group or of its ancestors push, but not once their membership has expired", async () => {
    const parent = await createGroup(team.owner.api);
    const child = await createGroup(team.owner.api, { parent_id: parent.id });
    const branch = uniq("by-group");
    await createBranch(team.maintainer.api, priv.id, branch);
    await protectBranch(team.maintainer.api, priv.id, branch, { allowed_to_push: [{ group_id: child.id }] });
    const push = () => team.developer.api.post(`/projects/${priv.id}/repository/commits`, {
      branch, commit_message: "change", actions: [{ action: "create", file_path: `${uniq("f")}.txt`, content: "x\n" }],
    });
    const refused = { message: "403 Forbidden - You are not allowed to push into this branch" };

    expect((await push()).body).toEqual(refused);
    await addMember(team.owner.api, "groups", parent.id, team.developer.id, 10);
    expect((await push()).status).toBe(201);
    const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000);
    await t.services.db.groupMember.updateMany({ where: { groupId: parent.id, userId: team.developer.id }, data: { expiresAt: yesterday } });
    const expired = await push();
    expect(expired.status).toBe(403);
    expect(expired.body).toEqual(refused);
  });
});
