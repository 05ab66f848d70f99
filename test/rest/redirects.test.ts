// Moved projects: the old full path of a renamed, transferred or re-parented project answers GET
// with 301 to the numeric-id URL, and other methods with 405; numeric ids never redirect.
import { beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { addMember, createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let owner: TestUser, stranger: TestUser;
let group: any;

const enc = (path: string) => encodeURIComponent(path);
const API = `${BASE_URL}/api/v4`;
const MOVED = { message: "Non GET methods are not allowed for moved projects" };

/** A project in `group` renamed to a new path; returns it with its old full path. */
async function renamedProject(overrides: Record<string, unknown> = {}) {
  const project = await createProject(owner.api, { namespace_id: group.id, ...overrides });
  const res = await owner.api.put(`/projects/${project.id}`, { path: uniq("renamed") });
  expect(res.status).toBe(200);
  return { ...res.body, oldPath: project.path_with_namespace as string };
}

beforeAll(async () => {
  t = await startTestApp();
  [owner, stranger] = await Promise.all([createUser(t), createUser(t)]);
  group = await createGroup(owner.api, { visibility: "public" });
});

describe("GET on an old project path", () => {
  it("answers 301 with a plain-text body and Location to the numeric id", async () => {
    const project = await renamedProject({ visibility: "public" });
    const res = await t.anon.get(`/projects/${enc(project.oldPath)}`);
    const location = `${API}/projects/${project.id}`;
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe(location);
    expect(res.headers.get("content-type")).toBe("text/plain");
    expect(res.text).toBe(`This resource has been moved permanently to ${location}`);
  });

  it("keeps the rest of the path and the query string", async () => {
    const project = await renamedProject();
    const res = await owner.api.get(`/projects/${enc(project.oldPath)}/members/all?per_page=5&query=x`, { raw: true });
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe(`${API}/projects/${project.id}/members/all?per_page=5&query=x`);
  });

  it("matches the old path case-insensitively and keeps the new one working", async () => {
    const project = await renamedProject();
    expect((await owner.api.get(`/projects/${enc(project.oldPath.toUpperCase())}`)).status).toBe(301);
    const current = await owner.api.get(`/projects/${enc(project.path_with_namespace)}`);
    expect(current.status).toBe(200);
    expect(current.body.id).toBe(project.id);
    expect((await owner.api.get(`/projects/${project.id}`)).status).toBe(200);
  });

  it("does not reveal a private project that moved", async () => {
    const project = await renamedProject();
    for (const api of [t.anon, stranger.api]) {
      const res = await api.get(`/projects/${enc(project.oldPath)}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Project Not Found" });
    }
  });

  it("follows a chain of renames to the project's current id", async () => {
    const project = await renamedProject();
    const again = await owner.api.put(`/projects/${project.id}`, { path: uniq("again") });
    expect(again.status).toBe(200);
    for (const old of [project.oldPath, project.path_with_namespace]) {
      expect((await owner.api.get(`/projects/${enc(old)}`)).headers.get("location")).toBe(`${API}/projects/${project.id}`);
    }
  });
});

describe("other methods on an old project path", () => {
  it.each([
    ["PUT", "", { description: "x" }],
    ["POST", "/members", { user_id: 1, access_level: 30 }],
    ["DELETE", "/members/1", undefined],
    ["PUT", "/transfer", { namespace: "x" }],
  ])("%s %s answers 405", async (method, rest, json) => {
    const project = await renamedProject();
    const res = await owner.api.request(method, `/projects/${enc(project.oldPath)}${rest}`, { json });
    expect(res.status).toBe(405);
    expect(res.body).toEqual(MOVED);
  });
});

describe("what leaves a redirect", () => {
  it("a transfer", async () => {
    const project = await createProject(owner.api);
    const target = await createGroup(owner.api);
    expect((await owner.api.put(`/projects/${project.id}/transfer`, { namespace: target.id })).status).toBe(200);
    const res = await owner.api.get(`/projects/${enc(project.path_with_namespace)}`);
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe(`${API}/projects/${project.id}`);
  });

  it("a rename of an ancestor group (every project below moves)", async () => {
    const top = await createGroup(owner.api);
    const mid = await createGroup(owner.api, { parent_id: top.id });
    const a = await createProject(owner.api, { namespace_id: top.id });
    const b = await createProject(owner.api, { namespace_id: mid.id });
    expect((await owner.api.put(`/groups/${top.id}`, { path: uniq("top") })).status).toBe(200);
    for (const project of [a, b]) {
      const res = await owner.api.get(`/projects/${enc(project.path_with_namespace)}`);
      expect(res.status).toBe(301);
      expect(res.headers.get("location")).toBe(`${API}/projects/${project.id}`);
    }
  });

  it("not a change of name alone", async () => {
    const project = await createProject(owner.api, { namespace_id: group.id });
    await owner.api.put(`/projects/${project.id}`, { name: "Just Renamed" });
    expect((await owner.api.get(`/projects/${enc(project.path_with_namespace)}`)).status).toBe(200);
  });
});

describe("taking over an old path", () => {
  it("a new project created on the old path answers there, without a redirect", async () => {
    const project = await renamedProject();
    const oldPath = project.oldPath.split("/").pop();
    const successor = await createProject(owner.api, { namespace_id: group.id, path: oldPath, name: "Successor" });
    const res = await owner.api.get(`/projects/${enc(project.oldPath)}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(successor.id);
    expect((await owner.api.put(`/projects/${enc(project.oldPath)}`, { description: "mine now" })).status).toBe(200);
  });

  it("a project renamed back to its old path answers there again", async () => {
    const project = await renamedProject();
    const back = await owner.api.put(`/projects/${project.id}`, { path: project.oldPath.split("/").pop() });
    expect(back.status).toBe(200);
    expect((await owner.api.get(`/projects/${enc(project.oldPath)}`)).status).toBe(200);
    expect((await owner.api.get(`/projects/${enc(project.path_with_namespace)}`)).status).toBe(301);
  });

  it("a member keeps access through the redirect target", async () => {
    const member = await createUser(t);
    const project = await renamedProject();
    await addMember(owner.api, "projects", project.id, member.id, 30);
    const res = await member.api.get(`/projects/${enc(project.oldPath)}`);
    expect(res.status).toBe(301);
  });
});
