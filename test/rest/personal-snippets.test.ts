// Personal snippets through /api/v4 (lib/api/snippets.rb): visibility per caller (anonymous,
// another user, the author, an administrator), the caller's list and the public list, raw and
// per-file raw, create (both request forms, internal by default), update and delete by the author
// only, Grape's parameter texts, GitLab's entity with project_id null, the user agent detail.
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../helpers/api.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, NOT_FOUND, SNIPPET_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { createUser, type TestUser } from "../helpers/factories.js";
import { runInRequest } from "../../src/observability/request-scope.js";

let t: TestApp;
let author: TestUser, other: TestUser;
let pub: any, internal: any, priv: any, othersPublic: any;

const create = (by: ApiClient, body: Record<string, unknown>) => by.post("/snippets", { file_name: "hello.rb", content: "puts 1", ...body });
const ids = (body: any[]) => body.map((s) => s.id);
const withoutAwards = ({ award_emoji: _a, ...rest }: any) => rest;

beforeAll(async () => {
  t = await startTestApp();
  [author, other] = await Promise.all([createUser(t), createUser(t)]);
  pub = (await create(author.api, { title: "Public one", visibility: "public", description: "d" })).body;
  internal = (await create(author.api, { title: "Internal one", visibility: "internal" })).body;
  priv = (await create(author.api, { title: "Private one", visibility: "private" })).body;
  othersPublic = (await create(other.api, { title: "Other's", visibility: "public" })).body;
});

describe("POST /snippets", () => {
  it("creates a personal snippet with GitLab's entity", async () => {
    const res = await create(author.api, { title: "Entity", visibility: "private", description: "about" });
    expect(res.status).toBe(201);
    const id = res.body.id;
    expect(withoutAwards(res.body)).toEqual({
      id,
      title: "Entity",
      description: "about",
      visibility: "private",
      author: expect.objectContaining({ id: author.id, username: author.username }),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      project_id: null,
      web_url: `${BASE_URL}/-/snippets/${id}`,
      raw_url: `${BASE_URL}/-/snippets/${id}/raw`,
      ssh_url_to_repo: expect.stringMatching(new RegExp(`:snippets/${id}\\.git$`)),
      http_url_to_repo: `${BASE_URL}/snippets/${id}.git`,
      file_name: "hello.rb",
      files: [{ path: "hello.rb", raw_url: `${BASE_URL}/-/snippets/${id}/raw/main/hello.rb` }],
      imported: false,
      imported_from: "none",
    });
  });

  it("is internal by default and takes files[]", async () => {
    const res = await author.api.post("/snippets", { title: "Two files", files: [{ file_path: "b.txt", content: "B" }, { file_path: "a.txt", content: "A" }] });
    expect(res.status).toBe(201);
    expect(res.body.visibility).toBe("internal");
    expect(res.body.files.map((f: any) => f.path)).toEqual(["a.txt", "b.txt"]);
  });

  it.each([
    [{ file_name: "a", content: "x" }, "title is missing, title is empty"],
    [{ title: "t", visibility: "secret", file_name: "a", content: "x" }, "visibility does not have a valid value"],
    [{ title: "t" }, "files, content are missing, exactly one parameter must be provided"],
  ])("answers 400 for %j", async (body, error) => {
    const res = await author.api.post("/snippets", body);
    expect([res.status, res.body]).toEqual([400, { error }]);
  });

  it("answers 401 anonymous", async () => {
    const res = await create(t.anon, { title: "x" });
    expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
  });
});

describe("GET /snippets/:id", () => {
  it.each([
    ["anonymous", () => t.anon, ["pub"]],
    ["another user", () => other.api, ["pub", "internal"]],
    ["the author", () => author.api, ["pub", "internal", "priv"]],
    ["an administrator", () => t.root, ["pub", "internal", "priv"]],
  ])("shows %s what its visibility allows", async (_who, client, visible) => {
    const all = { pub, internal, priv } as Record<string, any>;
    for (const [name, snippet] of Object.entries(all)) {
      const res = await client().get(`/snippets/${snippet.id}`);
      if (visible.includes(name)) expect([res.status, res.body.id]).toEqual([200, snippet.id]);
      else expect([res.status, res.body]).toEqual([404, SNIPPET_NOT_FOUND]);
    }
  });

  it("answers 404 for an unknown id and 400 for a bad one", async () => {
    expect((await t.root.get("/snippets/999999")).body).toEqual(SNIPPET_NOT_FOUND);
    expect((await t.root.get("/snippets/abc")).status).toBe(400);
  });

  it("reads a project snippet as its project's endpoints do", async () => {
    const project = (await author.api.post("/projects", { name: `p-${Date.now()}`, visibility: "private" })).body;
    const snippet = (await author.api.post(`/projects/${project.id}/snippets`, { title: "ps", visibility: "private", file_name: "x", content: "y" })).body;
    expect((await author.api.get(`/snippets/${snippet.id}`)).body.project_id).toBe(project.id);
    expect((await other.api.get(`/snippets/${snippet.id}`)).body).toEqual(SNIPPET_NOT_FOUND);
  });
});

describe("raw", () => {
  it("sends the first file, and a file by ref and path", async () => {
    const res = await t.anon.get(`/snippets/${pub.id}/raw`);
    expect([res.status, res.text]).toEqual([200, "puts 1"]);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const file = await t.anon.get(`/snippets/${pub.id}/files/main/hello.rb/raw`);
    expect([file.status, file.text]).toEqual([200, "puts 1"]);
  });

  it("answers 404 for a hidden snippet, an unknown file or ref", async () => {
    expect((await other.api.get(`/snippets/${priv.id}/raw`)).body).toEqual(SNIPPET_NOT_FOUND);
    expect((await other.api.get(`/snippets/${priv.id}/files/main/hello.rb/raw`)).body).toEqual(SNIPPET_NOT_FOUND);
    expect((await t.anon.get(`/snippets/${pub.id}/files/main/nope.rb/raw`)).body).toEqual({ message: "404 File Not Found" });
    expect((await t.anon.get(`/snippets/${pub.id}/files/other/hello.rb/raw`)).body).toEqual({ message: "404 File Not Found" });
  });
});

describe("GET /snippets and /snippets/public", () => {
  it("lists the caller's own personal snippets, newest first", async () => {
    const res = await author.api.get("/snippets", { query: { per_page: 100 } });
    expect(res.status).toBe(200);
    const listed = ids(res.body);
    expect(listed).toEqual(expect.arrayContaining([pub.id, internal.id, priv.id]));
    expect(listed).not.toContain(othersPublic.id);
    expect(listed).toEqual([...listed].sort((a, b) => b - a));
    expect(ids((await other.api.get("/snippets")).body)).toEqual([othersPublic.id]);
  });

  it("lists everyone's public personal snippets", async () => {
    const listed = ids((await other.api.get("/snippets/public")).body);
    expect(listed).toEqual(expect.arrayContaining([pub.id, othersPublic.id]));
    expect(listed).not.toContain(internal.id);
    expect(listed).not.toContain(priv.id);
  });

  it("pages with GitLab's headers", async () => {
    const res = await author.api.get("/snippets", { query: { per_page: 1, page: 2 } });
    expect(res.body).toHaveLength(1);
    expect(res.headers.get("x-page")).toBe("2");
    expect(Number(res.headers.get("x-total"))).toBeGreaterThanOrEqual(3);
  });

  it("answers 401 anonymous", async () => {
    for (const path of ["/snippets", "/snippets/public", "/snippets/all"]) expect((await t.anon.get(path)).body).toEqual(UNAUTHORIZED);
  });

  it("filters by created_after and created_before (inclusive), and refuses a date that is none", async () => {
    const at = (await author.api.get(`/snippets/${internal.id}`)).body.created_at;
    const after = ids((await author.api.get("/snippets", { query: { created_after: at, per_page: 100 } })).body);
    expect(after).toContain(internal.id);
    expect(after).not.toContain(pub.id);
    const before = ids((await author.api.get("/snippets", { query: { created_before: at, per_page: 100 } })).body);
    expect(before).toEqual(expect.arrayContaining([pub.id, internal.id]));
    expect(before).not.toContain(priv.id);
    expect((await other.api.get("/snippets/public", { query: { created_before: at, per_page: 100 } })).body.map((s: any) => s.id)).not.toContain(othersPublic.id);
    const bad = await author.api.get("/snippets/all", { query: { created_after: "yesterday-ish" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "created_after is invalid" });
  });
});

describe("GET /snippets/all", () => {
  let project: { public: any; private: any; closed: any };
  let snippets: Record<string, any>;

  beforeAll(async () => {
    const make = async (visibility: string, extra: Record<string, unknown> = {}) => {
      const res = await author.api.post("/projects", { name: `all-${visibility}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`, visibility, ...extra });
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    project = { public: await make("public"), private: await make("private"), closed: await make("public", { snippets_access_level: "private" }) };
    const snippet = async (p: any, visibility: string) => {
      const res = await author.api.post(`/projects/${p.id}/snippets`, { title: `${visibility} in ${p.path}`, file_name: "a.txt", content: "x", visibility });
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    snippets = {
      publicInPublic: await snippet(project.public, "public"),
      privateInPublic: await snippet(project.public, "private"),
      privateInPrivate: await snippet(project.private, "private"),
      publicInClosed: await snippet(project.closed, "public"),
    };
  });

  it("shows another user the readable personal snippets and the open snippets of open projects", async () => {
    const res = await other.api.get("/snippets/all", { query: { per_page: 100 } });
    expect(res.status).toBe(200);
    const listed = ids(res.body);
    expect(listed).toEqual(expect.arrayContaining([pub.id, internal.id, othersPublic.id, snippets.publicInPublic.id]));
    for (const hidden of [priv, snippets.privateInPublic, snippets.privateInPrivate, snippets.publicInClosed]) expect(listed).not.toContain(hidden.id);
    expect(listed).toEqual([...listed].sort((a, b) => b - a));
    const projectSnippet = res.body.find((s: any) => s.id === snippets.publicInPublic.id);
    expect(projectSnippet).toMatchObject({ project_id: project.public.id, web_url: `${BASE_URL}/${project.public.path_with_namespace}/-/snippets/${snippets.publicInPublic.id}` });
  });

  it("shows a member every snippet of their projects, and an administrator everything", async () => {
    const mine = ids((await author.api.get("/snippets/all", { query: { per_page: 100 } })).body);
    expect(mine).toEqual(expect.arrayContaining([priv.id, ...Object.values(snippets).map((s) => s.id)]));
    expect(mine).not.toContain(undefined);
    const all = ids((await t.root.get("/snippets/all", { query: { per_page: 100 } })).body);
    expect(all).toEqual(expect.arrayContaining([priv.id, othersPublic.id, ...Object.values(snippets).map((s) => s.id)]));
  });

  it("stops showing a project's snippets once the feature is disabled, to members and administrators", async () => {
    expect((await author.api.put(`/projects/${project.private.id}`, { snippets_access_level: "disabled" })).status).toBe(200);
    expect(ids((await author.api.get("/snippets/all", { query: { per_page: 100 } })).body)).not.toContain(snippets.privateInPrivate.id);
    expect(ids((await t.root.get("/snippets/all", { query: { per_page: 100 } })).body)).not.toContain(snippets.privateInPrivate.id);
    expect(ids((await t.root.get("/snippets/all", { query: { per_page: 100 } })).body)).toContain(snippets.privateInPublic.id);
  });
});

describe("PUT and DELETE /snippets/:id", () => {
  it("lets the author change a snippet", async () => {
    const s = (await create(author.api, { title: "Before", visibility: "private" })).body;
    const res = await author.api.put(`/snippets/${s.id}`, { title: "After", content: "puts 2", visibility: "public" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: "After", visibility: "public", project_id: null });
    expect((await t.anon.get(`/snippets/${s.id}/raw`)).text).toBe("puts 2");
  });

  it("finds only the caller's own snippets: another user and even an administrator get 404", async () => {
    for (const client of [other.api, t.root]) {
      expect((await client.put(`/snippets/${pub.id}`, { title: "Hijack" })).body).toEqual(SNIPPET_NOT_FOUND);
      expect((await client.delete(`/snippets/${pub.id}`)).body).toEqual(SNIPPET_NOT_FOUND);
    }
    expect((await t.anon.get(`/snippets/${pub.id}`)).body.title).toBe("Public one");
  });

  it("answers Grape's 400 before the lookup and 401 anonymous", async () => {
    const res = await author.api.put(`/snippets/${pub.id}`, {});
    expect([res.status, res.body.error]).toEqual([400, "content, description, files, file_name, title, visibility are missing, at least one parameter must be provided"]);
    expect((await t.anon.put(`/snippets/${pub.id}`, { title: "x" })).body).toEqual(UNAUTHORIZED);
    expect((await t.anon.delete(`/snippets/${pub.id}`)).body).toEqual(UNAUTHORIZED);
  });

  it("deletes the author's snippet", async () => {
    const s = (await create(author.api, { title: "Doomed", visibility: "public" })).body;
    expect((await author.api.delete(`/snippets/${s.id}`)).status).toBe(204);
    expect((await t.anon.get(`/snippets/${s.id}`)).body).toEqual(SNIPPET_NOT_FOUND);
  });
});

describe("GET /snippets/:id/user_agent_detail", () => {
  it("shows administrators the creating request's client; others are refused first", async () => {
    const record = { correlationId: "t", method: "POST", path: "/", dbStatements: 0, dbRoundTrips: 0, dbMilliseconds: 0, remoteAddress: "198.51.100.7" };
    const s = (await runInRequest(record, () => create(author.api, { title: "UA", visibility: "public" }).then((r) => r))).body;
    const withUa = (
      await runInRequest(record, () => author.api.post("/snippets", { title: "UA2", file_name: "a", content: "b" }, { headers: { "User-Agent": "curl/8.0" } }))
    ).body;
    const res = await t.root.get(`/snippets/${withUa.id}/user_agent_detail`);
    expect([res.status, res.body]).toEqual([200, { user_agent: "curl/8.0", ip_address: "198.51.100.7", akismet_submitted: false }]);
    // this test client sends no User-Agent by default: nothing was stored
    expect((await t.root.get(`/snippets/${s.id}/user_agent_detail`)).body).toEqual({ message: "404 UserAgentDetail Not Found" });
    expect((await t.root.get(`/snippets/999999/user_agent_detail`)).body).toEqual(NOT_FOUND);
    expect((await author.api.get(`/snippets/${withUa.id}/user_agent_detail`)).body).toEqual(FORBIDDEN);
    expect((await t.anon.get(`/snippets/999999/user_agent_detail`)).body).toEqual(UNAUTHORIZED);
  });
});
