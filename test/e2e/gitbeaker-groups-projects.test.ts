// @gitbeaker/rest 43.8 driving groups, projects, members and project/group access tokens against
// the real server process.
import { Gitlab } from "@gitbeaker/rest";
import { failure } from "./helpers/gitbeaker.js";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser, uniqueName, type E2eUser } from "./helpers/fixtures.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** A path-safe unique name (GitLab paths: letters, digits, '_', '-', '.'). */
const uniquePath = (prefix: string) => uniqueName(prefix).toLowerCase();

/** The HTTP status and error text of a rejected gitbeaker call. */
const ids = (rows: Array<{ id: unknown }>) => rows.map((r) => r.id as number);

describe("groups", () => {
  it("creates a group and a subgroup (parentId), shows them by id and by full path, lists subgroups, edits", async () => {
    const api = gitlab();
    const path = uniquePath("gb-grp");
    const group = await api.Groups.create(`Group ${path}`, path, { visibility: "private" });
    expect(group).toMatchObject({ name: `Group ${path}`, path, full_path: path, parent_id: null, visibility: "private" });

    const subPath = uniquePath("sub");
    const sub = await api.Groups.create(`Sub ${subPath}`, subPath, { parentId: group.id as number });
    expect(sub).toMatchObject({ path: subPath, full_path: `${path}/${subPath}`, parent_id: group.id, full_name: `Group ${path} / Sub ${subPath}` });

    expect((await api.Groups.show(group.id as number)).full_path).toBe(path);
    // gitbeaker sends the full path encoded: /groups/<path>%2F<sub>
    expect((await api.Groups.show(`${path}/${subPath}`)).id).toBe(sub.id);

    const second = await api.Groups.create(`Sub2 ${subPath}`, `${subPath}-2`, { parentId: group.id as number });
    const subgroups = await api.Groups.allSubgroups(path);
    expect(ids(subgroups).sort()).toEqual([sub.id, second.id].sort());

    const edited = await api.Groups.edit(sub.id as number, { name: `Edited ${subPath}`, description: "edited by gitbeaker" });
    expect(edited).toMatchObject({ id: sub.id, name: `Edited ${subPath}`, description: "edited by gitbeaker" });
    expect(await api.Groups.show(`${path}/${subPath}`)).toMatchObject({ name: `Edited ${subPath}`, description: "edited by gitbeaker" });
  });

  it("Groups.all with a small perPage walks every page (Link rel=next)", async () => {
    const api = gitlab();
    const tag = uniquePath("pg");
    const created: number[] = [];
    for (let i = 0; i < 5; i++) created.push((await api.Groups.create(`Paged ${tag} ${i}`, `${tag}-${i}`)).id as number);

    const { data, paginationInfo } = await api.Groups.all({ search: tag, perPage: 2, showExpanded: true });
    expect(ids(data).sort()).toEqual([...created].sort());
    expect(paginationInfo).toMatchObject({ total: 5, perPage: 2, totalPages: 3, current: 3, next: null });

    // every group the admin can see, page by page, equals one big page
    const everything = await suite.root.get("/groups?per_page=100");
    const walked = await api.Groups.all({ perPage: 2 });
    expect(ids(walked)).toEqual(everything.body.map((g: any) => g.id));
    expect(ids(walked)).toEqual(expect.arrayContaining(created));
  });

  it("a private group is a 404 to a non-member; a taken path is a 400", async () => {
    const api = gitlab();
    const path = uniquePath("hidden");
    const group = await api.Groups.create(`Hidden ${path}`, path);
    const outsider = await createUser(suite.server);
    expect(await failure(gitlab(outsider.token).Groups.show(group.id as number))).toEqual({ status: 404, message: "404 Group Not Found" });
    const taken = await failure(api.Groups.create(`Other ${path}`, path));
    expect(taken.status).toBe(400);
    expect(taken.message).toContain("has already been taken");
  });
});

describe("projects", () => {
  let groupPath: string;
  let subPath: string;
  let subId: number;
  let otherGroupId: number;
  beforeAll(async () => {
    const api = gitlab();
    groupPath = uniquePath("gb-proj");
    const group = await api.Groups.create(`Projects ${groupPath}`, groupPath);
    subPath = `${groupPath}/inner`;
    subId = (await api.Groups.create("Inner", "inner", { parentId: group.id as number })).id as number;
    otherGroupId = (await api.Groups.create(`Target ${groupPath}`, `${groupPath}-target`)).id as number;
  });

  it("creates a project in a subgroup (namespaceId) and shows it by id and by encoded full path", async () => {
    const api = gitlab();
    const name = uniquePath("proj");
    const project = await api.Projects.create({ name, namespaceId: subId });
    expect(project).toMatchObject({ name, path: name, path_with_namespace: `${subPath}/${name}`, visibility: "private" });
    expect(project.namespace).toMatchObject({ id: subId, full_path: subPath, kind: "group" });

    expect((await api.Projects.show(project.id)).path_with_namespace).toBe(`${subPath}/${name}`);
    expect((await api.Projects.show(`${subPath}/${name}`)).id).toBe(project.id);
    const inGroup = await api.Groups.allProjects(subId);
    expect(ids(inGroup)).toContain(project.id);
  });

  it("Projects.all: search, offset pages and keyset pages (orderBy id) to the end", async () => {
    const api = gitlab();
    const tag = uniquePath("kset");
    const created: number[] = [];
    for (let i = 0; i < 5; i++) created.push((await api.Projects.create({ name: `${tag}-${i}`, namespaceId: subId })).id);

    const found = await api.Projects.all({ search: tag });
    expect(ids(found).sort((a, b) => a - b)).toEqual(created);

    const { data, paginationInfo } = await api.Projects.all({ search: tag, perPage: 2, showExpanded: true });
    expect(ids(data).sort((a, b) => a - b)).toEqual(created);
    expect(paginationInfo).toMatchObject({ total: 5, totalPages: 3, perPage: 2 });

    // keyset pages are linked by id_after, without offset headers
    const firstKeyset = await suite.root.get(`/projects?pagination=keyset&order_by=id&sort=asc&per_page=2&search=${tag}`);
    expect(firstKeyset.headers.get("link")).toContain(`id_after=${created[1]}`);
    expect(firstKeyset.headers.get("x-total")).toBeNull();
    const asc = await api.Projects.all({ pagination: "keyset", orderBy: "id", sort: "asc", perPage: 2, search: tag });
    expect(ids(asc)).toEqual(created);
    const desc = await api.Projects.all({ pagination: "keyset", orderBy: "id", sort: "desc", perPage: 2, search: tag });
    expect(ids(desc)).toEqual([...created].reverse());

    // all projects of the instance, keyset-walked, equal one big page
    const everything = await suite.root.get("/projects?per_page=100&order_by=id&sort=asc");
    const walked = await api.Projects.all({ pagination: "keyset", orderBy: "id", sort: "asc", perPage: 3 });
    expect(ids(walked)).toEqual(everything.body.map((p: any) => p.id));
  });

  it("Projects.edit renames the path; the old path still answers (301 followed)", async () => {
    const api = gitlab();
    const name = uniquePath("before");
    const project = await api.Projects.create({ name, namespaceId: subId });
    const newPath = uniquePath("after");
    const edited = await api.Projects.edit(project.id, { path: newPath, name: `Renamed ${newPath}` });
    expect(edited).toMatchObject({ id: project.id, path: newPath, name: `Renamed ${newPath}`, path_with_namespace: `${subPath}/${newPath}` });

    // on the wire: a 301 to /projects/<id>, which fetch follows for gitbeaker
    const raw = await fetch(`${suite.server.apiUrl}/projects/${encodeURIComponent(`${subPath}/${name}`)}`, {
      headers: { "private-token": suite.server.rootToken! }, redirect: "manual",
    });
    expect(raw.status).toBe(301);
    expect(raw.headers.get("location")).toBe(`${suite.server.apiUrl}/projects/${project.id}`);
    const viaOldPath = await api.Projects.show(`${subPath}/${name}`);
    expect(viaOldPath).toMatchObject({ id: project.id, path: newPath, path_with_namespace: `${subPath}/${newPath}` });
  });

  it("Projects.transfer moves the project to another group; the old path redirects", async () => {
    const api = gitlab();
    const name = uniquePath("moving");
    const project = await api.Projects.create({ name, namespaceId: subId });
    const moved = await api.Projects.transfer(project.id, otherGroupId);
    expect(moved).toMatchObject({ id: project.id, path_with_namespace: `${groupPath}-target/${name}` });
    expect(moved.namespace).toMatchObject({ id: otherGroupId });
    expect((await api.Projects.show(`${groupPath}-target/${name}`)).id).toBe(project.id);
    expect((await api.Projects.show(`${subPath}/${name}`)).namespace).toMatchObject({ id: otherGroupId });
  });

  it("errors: 404 for a non-member on a private project, 400 for a taken name", async () => {
    const api = gitlab();
    const name = uniquePath("secret");
    const project = await api.Projects.create({ name, namespaceId: subId });
    const outsider = await createUser(suite.server);
    const asOutsider = gitlab(outsider.token);
    expect(await failure(asOutsider.Projects.show(project.id))).toEqual({ status: 404, message: "404 Project Not Found" });
    expect(await failure(asOutsider.Projects.show(`${subPath}/${name}`))).toEqual({ status: 404, message: "404 Project Not Found" });
    expect(await failure(asOutsider.Projects.edit(project.id, { description: "no" }))).toEqual({ status: 404, message: "404 Project Not Found" });
    expect(ids(await asOutsider.Projects.all({ search: name }))).toEqual([]);

    const dup = await failure(api.Projects.create({ name, namespaceId: subId }));
    expect(dup.status).toBe(400);
    expect(JSON.parse(dup.message)).toMatchObject({ name: ["has already been taken"], path: ["has already been taken"] });
  });
});

describe("members", () => {
  let groupId: number;
  let subId: number;
  let projectId: number;
  let alice: E2eUser;
  let bob: E2eUser;
  beforeAll(async () => {
    const api = gitlab();
    const path = uniquePath("gb-mem");
    groupId = (await api.Groups.create(`Members ${path}`, path)).id as number;
    subId = (await api.Groups.create("Sub", "sub", { parentId: groupId })).id as number;
    projectId = (await api.Projects.create({ name: "members-project", namespaceId: subId })).id;
    alice = await createUser(suite.server);
    bob = await createUser(suite.server);
  });

  it("GroupMembers add / all / show / edit / remove, inherited by subgroups and their projects", async () => {
    const api = gitlab();
    const added = await api.GroupMembers.add(groupId, 30, { userId: alice.id });
    expect(added).toMatchObject({ id: alice.id, username: alice.username, access_level: 30 });
    const direct = await api.GroupMembers.all(groupId);
    expect(direct.map((m) => [m.username, m.access_level])).toEqual([["root", 50], [alice.username, 30]]);
    expect(await api.GroupMembers.show(groupId, alice.id)).toMatchObject({ id: alice.id, access_level: 30 });

    const edited = await api.GroupMembers.edit(groupId, alice.id, 40, { expiresAt: inDays(10) });
    expect(edited).toMatchObject({ id: alice.id, access_level: 40, expires_at: inDays(10) });

    // the subgroup's only direct member is its creator; /members/all adds the inherited ones
    expect((await api.GroupMembers.all(subId)).map((m) => [m.username, m.access_level])).toEqual([["root", 50]]);
    const inherited = await api.GroupMembers.all(subId, { includeInherited: true });
    expect(inherited.map((m) => [m.id, m.access_level])).toContainEqual([alice.id, 40]);
    const projectAll = await api.ProjectMembers.all(projectId, { includeInherited: true });
    expect(projectAll.map((m) => [m.id, m.access_level])).toContainEqual([alice.id, 40]);
    expect(await api.ProjectMembers.show(projectId, alice.id, { includeInherited: true })).toMatchObject({ id: alice.id, access_level: 40 });
    expect((await gitlab(alice.token).Projects.show(projectId)).id).toBe(projectId);

    await api.GroupMembers.remove(groupId, alice.id);
    expect(ids(await api.GroupMembers.all(groupId))).not.toContain(alice.id);
    expect((await failure(gitlab(alice.token).Projects.show(projectId))).status).toBe(404);
  });

  it("ProjectMembers add / all / show / edit / remove", async () => {
    const api = gitlab();
    expect(await api.ProjectMembers.add(projectId, 20, { userId: bob.id })).toMatchObject({ id: bob.id, access_level: 20 });
    expect(await api.ProjectMembers.all(projectId)).toEqual([expect.objectContaining({ id: bob.id, username: bob.username, access_level: 20 })]);
    expect((await gitlab(bob.token).Projects.show(projectId)).permissions).toMatchObject({ project_access: { access_level: 20 } });

    expect(await api.ProjectMembers.edit(projectId, bob.id, 30)).toMatchObject({ id: bob.id, access_level: 30 });
    expect(await api.ProjectMembers.show(projectId, bob.id)).toMatchObject({ id: bob.id, access_level: 30 });

    await api.ProjectMembers.remove(projectId, bob.id);
    expect(await api.ProjectMembers.all(projectId)).toEqual([]);
    expect((await failure(gitlab(bob.token).Projects.show(projectId))).status).toBe(404);
  });

  it("errors: 409 for an existing member, 403 for a Developer adding members, 404 for a non-member", async () => {
    const api = gitlab();
    await api.ProjectMembers.add(projectId, 30, { userId: bob.id });
    expect(await failure(api.ProjectMembers.add(projectId, 30, { userId: bob.id }))).toEqual({ status: 409, message: "Member already exists" });
    expect(await failure(gitlab(bob.token).ProjectMembers.add(projectId, 30, { userId: alice.id }))).toEqual({ status: 403, message: "403 Forbidden" });
    expect(await failure(api.GroupMembers.show(groupId, bob.id))).toEqual({ status: 404, message: "404 Not found" });
    const outsider = await createUser(suite.server);
    expect(await failure(gitlab(outsider.token).GroupMembers.all(groupId))).toEqual({ status: 404, message: "404 Group Not Found" });
  });
});

describe("project and group access tokens", () => {
  let groupId: number;
  let projectId: number;
  let elsewhereId: number;
  beforeAll(async () => {
    const api = gitlab();
    const path = uniquePath("gb-tok");
    groupId = (await api.Groups.create(`Tokens ${path}`, path)).id as number;
    projectId = (await api.Projects.create({ name: "tokens-project", namespaceId: groupId })).id;
    elsewhereId = (await api.Projects.create({ name: uniquePath("elsewhere") })).id;
  });

  it("ProjectAccessTokens create / all / show / revoke; the bot token reads the private project", async () => {
    const api = gitlab();
    const created = await api.ProjectAccessTokens.create(projectId, "gb-project-bot", ["read_api"], inDays(30), { accessLevel: 20 });
    expect(created).toMatchObject({ name: "gb-project-bot", scopes: ["read_api"], access_level: 20, active: true, revoked: false, expires_at: inDays(30) });
    expect(typeof created.token).toBe("string");

    const listed = await api.ProjectAccessTokens.all(projectId);
    expect(listed.map((t) => [t.id, t.name])).toEqual([[created.id, "gb-project-bot"]]);
    expect(await api.ProjectAccessTokens.show(projectId, created.id)).toMatchObject({ id: created.id, user_id: created.user_id, access_level: 20 });

    const bot = gitlab(created.token as string);
    expect(await bot.Projects.show(projectId)).toMatchObject({ id: projectId, permissions: { project_access: { access_level: 20 } } });
    expect(await failure(bot.Projects.show(elsewhereId))).toEqual({ status: 404, message: "404 Project Not Found" });
    // read_api: no writes
    expect((await failure(bot.Projects.edit(projectId, { description: "bot" }))).status).toBe(403);
    // the bot is a project member
    expect(ids(await api.ProjectMembers.all(projectId))).toContain(created.user_id);

    await api.ProjectAccessTokens.revoke(projectId, created.id);
    expect(await api.ProjectAccessTokens.show(projectId, created.id)).toMatchObject({ revoked: true, active: false });
    expect((await failure(bot.Projects.show(projectId))).status).toBe(401);
  });

  it("GroupAccessTokens create / all / show / revoke; the bot token reads the group's private project", async () => {
    const api = gitlab();
    const created = await api.GroupAccessTokens.create(groupId, "gb-group-bot", ["api"], inDays(7), { accessLevel: 30 });
    expect(created).toMatchObject({ name: "gb-group-bot", scopes: ["api"], access_level: 30, active: true });
    expect(ids(await api.GroupAccessTokens.all(groupId))).toEqual([created.id]);
    expect(await api.GroupAccessTokens.show(groupId, created.id)).toMatchObject({ id: created.id, name: "gb-group-bot" });

    const bot = gitlab(created.token as string);
    expect((await bot.Projects.show(projectId)).id).toBe(projectId);
    expect((await bot.Groups.show(groupId)).id).toBe(groupId);
    expect((await failure(bot.Projects.show(elsewhereId))).status).toBe(404);

    await api.GroupAccessTokens.revoke(groupId, created.id);
    expect((await failure(bot.Projects.show(projectId))).status).toBe(401);
  });

  it("errors: a non-maintainer cannot create tokens (400), an unknown token id is a 404", async () => {
    const api = gitlab();
    const dev = await createUser(suite.server);
    await api.ProjectMembers.add(projectId, 30, { userId: dev.id });
    expect(await failure(gitlab(dev.token).ProjectAccessTokens.create(projectId, "nope", ["api"], inDays(5)))).toEqual({
      status: 400, message: "400 Bad request - User does not have permission to create project access token",
    });
    expect(await failure(api.GroupAccessTokens.show(groupId, 999_999))).toEqual({ status: 404, message: "404 group Access Token Not Found" });
  });
});
