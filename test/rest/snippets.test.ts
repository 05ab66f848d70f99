// Project snippets through /api/v4: every endpoint per actor (anonymous, non-member, guest,
// reporter, developer, maintainer, owner, admin) on public and private projects, snippet
// visibility, the project's snippet feature, both request forms of create (`file_name` + `content`
// and `files[]`), the `files[]` actions of update, Grape's parameter texts, GitLab's service
// errors, If-Unmodified-Since, pagination and the entity.
import { beforeAll, describe, expect, it } from "vitest";
import { parseLinks } from "../helpers/api.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, NOT_FOUND, PROJECT_NOT_FOUND, SNIPPET_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { addMember, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { createNote, createSnippet } from "../helpers/snippets-notes.js";
import { ACCESS_LEVEL, createTeamProject, createTeamWithProjects, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let owner: TestUser;
let guest: TestUser;
let reporter: TestUser;
let developer: TestUser;
let maintainer: TestUser;
let outsider: TestUser;
let publicProject: any;
let privateProject: any;

const snippetsPath = (project: any) => `/projects/${project.id}/snippets`;
const snippetPath = (project: any, snippet: any) => `/projects/${project.id}/snippets/${snippet.id}`;
const ids = (body: any[]) => body.map((s) => s.id);

/** The snippet JSON without `award_emoji`, which the emoji reactions area adds to the type. */
const withoutAwards = ({ award_emoji: _awards, ...rest }: any) => rest;

/** The entity GitLab renders for a project snippet. */
function entity(project: any, author: TestUser | { id: number; username: string }, fields: Record<string, unknown> & { id: number; files: string[] }) {
  const web = `${BASE_URL}/${project.path_with_namespace}/-/snippets/${fields.id}`;
  const { files, ...rest } = fields;
  return {
    description: null,
    visibility: "public",
    author: {
      id: author.id,
      username: author.username,
      name: `User ${author.username}`,
      state: "active",
      locked: false,
      avatar_url: expect.any(String),
      web_url: `${BASE_URL}/${author.username}`,
    },
    created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    project_id: project.id,
    web_url: web,
    raw_url: `${web}/raw`,
    ssh_url_to_repo: `git@forgeline.test:${project.path_with_namespace}/snippets/${fields.id}.git`,
    http_url_to_repo: `${BASE_URL}/${project.path_with_namespace}/snippets/${fields.id}.git`,
    file_name: files[0],
    files: files.map((path) => ({ path, raw_url: `${web}/raw/main/${path}` })),
    imported: false,
    imported_from: "none",
    ...rest,
  };
}

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  ({ owner, guest, reporter, developer, maintainer, nonMember: outsider, publicProject, privateProject } = team);
});

describe("POST /projects/:id/snippets", () => {
  it("creates a snippet from `file_name` + `content` (python-gitlab's form): 201 with the entity", async () => {
    const res = await reporter.api.post(snippetsPath(publicProject), {
      title: "Hello", description: "greets", visibility: "internal", file_name: "hello.rb", content: "puts 'hi'",
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(withoutAwards(res.body)).toEqual(entity(publicProject, reporter, {
      id: res.body.id, title: "Hello", description: "greets", visibility: "internal", files: ["hello.rb"],
    }));
  });

  it("creates a snippet from `files[]` (gitbeaker's form), files listed by path", async () => {
    const res = await developer.api.post(snippetsPath(privateProject), {
      title: "Two files", visibility: "private",
      files: [{ file_path: "b.txt", content: "B" }, { file_path: "a/x.md", content: "A" }],
    });
    expect(res.status, res.text).toBe(201);
    expect(withoutAwards(res.body)).toEqual(entity(privateProject, developer, {
      id: res.body.id, title: "Two files", visibility: "private", files: ["a/x.md", "b.txt"],
    }));
  });

  it("accepts form-encoded `files[0][file_path]` params", async () => {
    const form = new URLSearchParams({
      title: "Form", visibility: "public", "files[0][file_path]": "f.txt", "files[0][content]": "form content",
    });
    const res = await maintainer.api.post(snippetsPath(publicProject), undefined, { form });
    expect(res.status, res.text).toBe(201);
    expect(res.body.files.map((f: any) => f.path)).toEqual(["f.txt"]);
  });

  it("names a file sent with a blank name snippetfile1.txt, and the next ones after it", async () => {
    const single = await createSnippet(reporter.api, publicProject.id, { file_name: "", content: "x" });
    expect(single.file_name).toBe("snippetfile1.txt");
    const many = await createSnippet(reporter.api, publicProject.id, {
      files: [{ file_path: "snippetfile4.txt", content: "a" }, { file_path: "keep.txt", content: "b" }],
    });
    expect(many.files.map((f: any) => f.path)).toEqual(["keep.txt", "snippetfile4.txt"]);
  });

  it.each([
    ["reporter", () => reporter.api],
    ["developer", () => developer.api],
    ["maintainer", () => maintainer.api],
    ["owner", () => owner.api],
    ["admin", () => t.root],
  ])("lets a %s create snippets in public and private projects", async (_who, api) => {
    for (const project of [publicProject, privateProject]) {
      const res = await api().post(snippetsPath(project), { title: uniq("t"), visibility: "private", file_name: "a.txt", content: "a" });
      expect(res.status, res.text).toBe(201);
      expect(res.body.project_id).toBe(project.id);
    }
  });

  it("refuses guests and non-members (403), anonymous callers (401 on public, 404 on private)", async () => {
    const params = { title: "No", visibility: "public", file_name: "a.txt", content: "a" };
    for (const api of [guest.api, outsider.api]) {
      const res = await api.post(snippetsPath(publicProject), params);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(FORBIDDEN);
    }
    expect((await guest.api.post(snippetsPath(privateProject), params)).body).toEqual(FORBIDDEN);
    const hidden = await outsider.api.post(snippetsPath(privateProject), params);
    expect([hidden.status, hidden.body]).toEqual([404, PROJECT_NOT_FOUND]);
    const anon = await t.anon.post(snippetsPath(publicProject), params);
    expect([anon.status, anon.body]).toEqual([401, UNAUTHORIZED]);
    const anonPrivate = await t.anon.post(snippetsPath(privateProject), params);
    expect([anonPrivate.status, anonPrivate.body]).toEqual([404, PROJECT_NOT_FOUND]);
  });

  it.each([
    [{}, "title is missing, title is empty, visibility is missing, visibility does not have a valid value, files, content are missing, exactly one parameter must be provided"],
    [{ title: "", visibility: "public", file_name: "a", content: "a" }, "title is empty"],
    [{ title: "  ", visibility: "public", file_name: "a", content: "a" }, "title is empty"],
    [{ title: "T", visibility: "secret", file_name: "a", content: "a" }, "visibility does not have a valid value"],
    [{ title: "T", file_name: "a", content: "a" }, "visibility is missing, visibility does not have a valid value"],
    [{ title: "T", visibility: "public", content: "a" }, "file_name is missing"],
    [{ title: "T", visibility: "public", file_name: "a", content: "" }, "content is empty"],
    [{ title: "T", visibility: "public", file_name: "a" }, "files, content are missing, exactly one parameter must be provided"],
    [{ title: "T", visibility: "public", file_name: "a", content: "a", files: [{ file_path: "b", content: "b" }] }, "files, content are mutually exclusive"],
    [{ title: "T", visibility: "public", files: [{}] }, "files[0][file_path] is missing, files[0][file_path] is empty, files[0][content] is missing, files[0][content] is empty"],
    [{ title: "T", visibility: "public", files: [{ file_path: "ok", content: "a" }, { file_path: "", content: "" }] }, "files[1][file_path] is empty, files[1][content] is empty"],
    [{ title: "T", visibility: "public", files: [{ file_path: "../etc/passwd", content: "a" }] }, "files[0][file_path] should be a valid file path"],
    [{ title: "T", visibility: "public", files: [{ file_path: "/abs", content: "a" }] }, "files[0][file_path] should be a valid file path"],
    [{ title: "T", visibility: "public", files: "not-a-list" }, "files is invalid"],
  ])("answers 400 with Grape's text for %j", async (params, error) => {
    const res = await reporter.api.post(snippetsPath(publicProject), params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
  });

  it("checks the parameters before the sign-in, as GitLab does", async () => {
    const res = await t.anon.post(snippetsPath(publicProject), { visibility: "public", file_name: "a", content: "a" });
    expect([res.status, res.body]).toEqual([400, { error: "title is missing, title is empty" }]);
  });

  it("answers the services' errors: file_name with files (422), long title (400), a path twice (400)", async () => {
    const both = await reporter.api.post(snippetsPath(publicProject), {
      title: "T", visibility: "public", file_name: "x", files: [{ file_path: "a", content: "a" }],
    });
    expect([both.status, both.body]).toEqual([422, { message: { error: "File name and snippet files cannot be used together" } }]);
    const long = await reporter.api.post(snippetsPath(publicProject), { title: "t".repeat(256), visibility: "public", file_name: "a", content: "a" });
    expect([long.status, long.body]).toEqual([400, { message: { error: "Title is too long (maximum is 255 characters)" } }]);
    const twice = await reporter.api.post(snippetsPath(publicProject), {
      title: "T", visibility: "public", files: [{ file_path: "a", content: "1" }, { file_path: "a", content: "2" }],
    });
    expect([twice.status, twice.body]).toEqual([400, { message: { error: "Repository Error creating the snippet" } }]);
  });

  it("answers 404 for an unknown project", async () => {
    const res = await t.root.post("/projects/999999/snippets", { title: "T", visibility: "public", file_name: "a", content: "a" });
    expect([res.status, res.body]).toEqual([404, PROJECT_NOT_FOUND]);
  });
});

describe("the project's snippet feature", () => {
  it("disabled: every snippet endpoint answers 403, even to the owner and admins", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const snippet = await createSnippet(owner.api, project.id);
    const update = await t.root.put(`/projects/${project.id}`, { snippets_access_level: "disabled" });
    expect(update.status, update.text).toBe(200);
    for (const api of [owner.api, t.root, t.anon]) {
      for (const res of [
        await api.get(snippetsPath(project)),
        await api.get(snippetPath(project, snippet)),
        await api.post(snippetsPath(project), { title: "T", visibility: "public", file_name: "a", content: "a" }),
        await api.put(snippetPath(project, snippet), { title: "new" }),
        await api.delete(snippetPath(project, snippet)),
      ]) {
        expect([res.status, res.body]).toEqual([403, FORBIDDEN]);
      }
    }
  });

  it("private (members only): non-members get 403, members read every snippet", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const snippet = await createSnippet(owner.api, project.id, { visibility: "public" });
    await t.root.put(`/projects/${project.id}`, { snippets_access_level: "private" });
    for (const api of [outsider.api, t.anon]) {
      const res = await api.get(snippetPath(project, snippet));
      expect([res.status, res.body]).toEqual([403, FORBIDDEN]);
    }
    const res = await guest.api.get(snippetsPath(project));
    expect([res.status, ids(res.body)]).toEqual([200, [snippet.id]]);
  });
});

describe("GET /projects/:id/snippets/:snippet_id", () => {
  let publicSnippet: any;
  let internalSnippet: any;
  let privateSnippet: any;

  beforeAll(async () => {
    publicSnippet = await createSnippet(reporter.api, publicProject.id, { visibility: "public", title: "Pub", description: "d" });
    internalSnippet = await createSnippet(reporter.api, publicProject.id, { visibility: "internal" });
    privateSnippet = await createSnippet(reporter.api, publicProject.id, { visibility: "private" });
  });

  it("shows a public snippet of a public project to anyone, anonymous included", async () => {
    for (const api of [t.anon, outsider.api, guest.api, t.root]) {
      const res = await api.get(snippetPath(publicProject, publicSnippet));
      expect(res.status).toBe(200);
      expect(withoutAwards(res.body)).toEqual(entity(publicProject, reporter, { id: publicSnippet.id, title: "Pub", description: "d", files: ["snippet.rb"] }));
    }
  });

  it("shows internal snippets to signed-in users and private ones to members and admins only", async () => {
    const internalAnon = await t.anon.get(snippetPath(publicProject, internalSnippet));
    expect([internalAnon.status, internalAnon.body]).toEqual([404, NOT_FOUND]);
    expect((await outsider.api.get(snippetPath(publicProject, internalSnippet))).status).toBe(200);
    for (const api of [t.anon, outsider.api]) {
      const res = await api.get(snippetPath(publicProject, privateSnippet));
      expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    }
    for (const api of [guest.api, reporter.api, developer.api, maintainer.api, owner.api, t.root]) {
      expect((await api.get(snippetPath(publicProject, privateSnippet))).status).toBe(200);
    }
  });

  it("hides snippets of a private project from anonymous callers and non-members (404 Project)", async () => {
    const snippet = await createSnippet(reporter.api, privateProject.id, { visibility: "public" });
    for (const api of [t.anon, outsider.api]) {
      const res = await api.get(snippetPath(privateProject, snippet));
      expect([res.status, res.body]).toEqual([404, PROJECT_NOT_FOUND]);
    }
    expect((await guest.api.get(snippetPath(privateProject, snippet))).status).toBe(200);
  });

  it("answers 404 Not found for an unknown id and for a snippet of another project, 400 for a bad id", async () => {
    for (const path of [`${snippetsPath(publicProject)}/999999`, `${snippetsPath(privateProject)}/${publicSnippet.id}`]) {
      const res = await t.root.get(path);
      expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    }
    const bad = await t.root.get(`${snippetsPath(publicProject)}/abc`);
    expect([bad.status, bad.body]).toEqual([400, { error: "snippet_id is invalid" }]);
  });

  it("finds the project by its full path", async () => {
    const res = await t.anon.get(`/projects/${encodeURIComponent(publicProject.path_with_namespace)}/snippets/${publicSnippet.id}`);
    expect([res.status, res.body.id]).toEqual([200, publicSnippet.id]);
  });
});

describe("GET /projects/:id/snippets", () => {
  let project: any;
  let made: any[];

  beforeAll(async () => {
    project = await createTeamProject(team, { visibility: "public" });
    made = [];
    for (const visibility of ["public", "internal", "private", "public", "private"]) {
      made.push(await createSnippet(reporter.api, project.id, { visibility }));
    }
  });

  const newestFirst = (list: any[]) => list.map((s) => s.id).reverse();

  it("lists every snippet to members and admins, newest first", async () => {
    for (const api of [guest.api, reporter.api, developer.api, maintainer.api, owner.api, t.root]) {
      const res = await api.get(snippetsPath(project));
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual(newestFirst(made));
      expect(res.headers.get("x-total")).toBe("5");
    }
  });

  it("lists public and internal snippets to non-members", async () => {
    const res = await outsider.api.get(snippetsPath(project));
    expect(ids(res.body)).toEqual(newestFirst(made.filter((s) => s.visibility !== "private")));
  });

  it("needs a signed-in caller (401), and hides private projects (404)", async () => {
    const anon = await t.anon.get(snippetsPath(project));
    expect([anon.status, anon.body]).toEqual([401, UNAUTHORIZED]);
    for (const api of [t.anon, outsider.api]) {
      const res = await api.get(snippetsPath(privateProject));
      expect([res.status, res.body]).toEqual([404, PROJECT_NOT_FOUND]);
    }
  });

  it("paginates with GitLab's headers", async () => {
    const res = await owner.api.get(snippetsPath(project), { query: { per_page: 2, page: 2 } });
    expect(ids(res.body)).toEqual(newestFirst(made).slice(2, 4));
    expect(res.headers.get("x-page")).toBe("2");
    expect(res.headers.get("x-per-page")).toBe("2");
    expect(res.headers.get("x-total")).toBe("5");
    expect(res.headers.get("x-total-pages")).toBe("3");
    expect(res.headers.get("x-next-page")).toBe("3");
    expect(res.headers.get("x-prev-page")).toBe("1");
    const links = parseLinks(res.headers.get("link"));
    expect(Object.keys(links)).toEqual(["prev", "next", "first", "last"]);
    expect(links.next).toBe(`${BASE_URL}/api/v4/projects/${project.id}/snippets?page=3&per_page=2`);
  });
});

describe("PUT /projects/:id/snippets/:snippet_id", () => {
  it("lets the author, Maintainers, the owner and admins change a snippet; others get 403", async () => {
    const snippet = await createSnippet(reporter.api, publicProject.id, { visibility: "public" });
    for (const api of [guest.api, developer.api, outsider.api]) {
      const res = await api.put(snippetPath(publicProject, snippet), { title: "nope" });
      expect([res.status, res.body]).toEqual([403, FORBIDDEN]);
    }
    for (const [who, api] of [["reporter", reporter.api], ["maintainer", maintainer.api], ["owner", owner.api], ["admin", t.root]] as const) {
      const res = await api.put(snippetPath(publicProject, snippet), { title: `by ${who}` });
      expect(res.status, who).toBe(200);
      expect(res.body.title).toBe(`by ${who}`);
    }
    const anon = await t.anon.put(snippetPath(publicProject, snippet), { title: "anon" });
    expect([anon.status, anon.body]).toEqual([401, UNAUTHORIZED]);
  });

  it("changes title, description and visibility, keeping the files", async () => {
    const snippet = await createSnippet(reporter.api, privateProject.id, { visibility: "private", file_name: "keep.txt", content: "kept" });
    const res = await reporter.api.put(snippetPath(privateProject, snippet), { title: "New", description: "desc", visibility: "internal" });
    expect(res.status).toBe(200);
    expect(withoutAwards(res.body)).toEqual(entity(privateProject, reporter, {
      id: snippet.id, title: "New", description: "desc", visibility: "internal", files: ["keep.txt"],
    }));
    expect(res.body.created_at).toBe(snippet.created_at);
  });

  it("changes the only file with `content` and `file_name`", async () => {
    const snippet = await createSnippet(reporter.api, publicProject.id, { file_name: "old.rb", content: "old" });
    const renamed = await reporter.api.put(snippetPath(publicProject, snippet), { file_name: "new.rb", content: "new" });
    expect(renamed.body.files.map((f: any) => f.path)).toEqual(["new.rb"]);
    const row = await t.services.db.snippetFile.findMany({ where: { snippetId: snippet.id } });
    expect(row.map((f) => [f.path, f.content])).toEqual([["new.rb", "new"]]);
  });

  it("refuses `content` / `file_name` on a snippet with several files (400)", async () => {
    const snippet = await createSnippet(reporter.api, publicProject.id, {
      files: [{ file_path: "a", content: "a" }, { file_path: "b", content: "b" }],
    });
    const res = await reporter.api.put(snippetPath(publicProject, snippet), { content: "x" });
    expect([res.status, res.body]).toEqual([400, { message: { error: "To update Snippets with multiple files, you must use the `files` parameter" } }]);
  });

  it("applies `files[]` actions in order: create, update, move, delete", async () => {
    const snippet = await createSnippet(reporter.api, publicProject.id, {
      files: [{ file_path: "a.txt", content: "a" }, { file_path: "b.txt", content: "b" }, { file_path: "c.txt", content: "c" }],
    });
    const res = await reporter.api.put(snippetPath(publicProject, snippet), {
      files: [
        { action: "create", file_path: "d.txt", content: "d" },
        { action: "update", file_path: "a.txt", content: "a2" },
        { action: "move", previous_path: "b.txt", file_path: "e.txt" },
        { action: "delete", file_path: "c.txt" },
        { action: "create", content: "unnamed" },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.files.map((f: any) => f.path)).toEqual(["a.txt", "d.txt", "e.txt", "snippetfile1.txt"]);
    const rows = await t.services.db.snippetFile.findMany({ where: { snippetId: snippet.id }, orderBy: { path: "asc" } });
    expect(rows.map((f) => [f.path, f.content])).toEqual([["a.txt", "a2"], ["d.txt", "d"], ["e.txt", "b"], ["snippetfile1.txt", "unnamed"]]);
  });

  it.each([
    [[{ action: "update", file_path: "a.txt" }]],
    [[{ action: "create", file_path: "n.txt" }]],
    [[{ action: "delete" }]],
    [[{ action: "move", file_path: "x.txt" }]],
    [[{ action: "move", previous_path: "a.txt", file_path: "a.txt" }]],
    [[{ action: "update", previous_path: "b.txt", file_path: "a.txt", content: "x" }]],
  ])("answers 422 for the invalid actions %j", async (files) => {
    const snippet = await createSnippet(reporter.api, publicProject.id, { file_name: "a.txt", content: "a" });
    const res = await reporter.api.put(snippetPath(publicProject, snippet), { files });
    expect([res.status, res.body]).toEqual([422, { message: { error: "Snippet actions have invalid data" } }]);
  });

  it.each([
    [[{ action: "update", file_path: "missing.txt", content: "x" }]],
    [[{ action: "create", file_path: "a.txt", content: "x" }]],
    [[{ action: "delete", file_path: "a.txt" }]],
    [[{ action: "move", previous_path: "missing.txt", file_path: "b.txt" }]],
  ])("answers 400 when the repository would refuse %j", async (files) => {
    const snippet = await createSnippet(reporter.api, publicProject.id, { file_name: "a.txt", content: "a" });
    const res = await reporter.api.put(snippetPath(publicProject, snippet), { files });
    expect([res.status, res.body]).toEqual([400, { message: { error: "Repository Error updating the snippet" } }]);
    const rows = await t.services.db.snippetFile.findMany({ where: { snippetId: snippet.id } });
    expect(rows.map((f) => [f.path, f.content])).toEqual([["a.txt", "a"]]);
  });

  it.each([
    [{}, "content, description, files, file_name, title, visibility are missing, at least one parameter must be provided"],
    [{ title: "" }, "title is empty"],
    [{ content: " " }, "content is empty"],
    [{ visibility: "everyone" }, "visibility does not have a valid value"],
    [{ files: [{ file_path: "a" }] }, "files[0][action] is missing, files[0][action] does not have a valid value"],
    [{ files: [{ action: "rename", file_path: "a" }] }, "files[0][action] does not have a valid value"],
    [{ files: [{ action: "create", file_path: "../a", content: "a" }] }, "files[0][file_path] should be a valid file path"],
    [{ files: [{ action: "create", file_path: "a", content: "a" }], content: "b" }, "files, content are mutually exclusive"],
    [{ files: [{ action: "create", file_path: "a", content: "a" }], file_name: "b" }, "files, file_name are mutually exclusive"],
  ])("answers 400 with Grape's text for %j", async (params, error) => {
    const snippet = await createSnippet(reporter.api, publicProject.id);
    const res = await reporter.api.put(snippetPath(publicProject, snippet), params);
    expect([res.status, res.body]).toEqual([400, { error }]);
  });

  it("answers 404 Snippet Not Found for an unknown or unreadable snippet, and long titles 400", async () => {
    const hidden = await createSnippet(reporter.api, publicProject.id, { visibility: "private" });
    for (const [api, path] of [[t.root, `${snippetsPath(publicProject)}/999999`], [outsider.api, snippetPath(publicProject, hidden)]] as const) {
      const res = await api.put(path, { title: "x" });
      expect([res.status, res.body]).toEqual([404, SNIPPET_NOT_FOUND]);
    }
    const long = await reporter.api.put(snippetPath(publicProject, hidden), { title: "x".repeat(256) });
    expect([long.status, long.body]).toEqual([400, { message: { error: "Title is too long (maximum is 255 characters)" } }]);
  });

  it("refuses changes in an archived project (403)", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const snippet = await createSnippet(reporter.api, project.id);
    expect((await t.root.put(`/projects/${project.id}`, { archived: true })).status).toBe(200);
    for (const api of [reporter.api, owner.api, t.root]) {
      expect((await api.put(snippetPath(project, snippet), { title: "x" })).body).toEqual(FORBIDDEN);
      expect((await api.delete(snippetPath(project, snippet))).body).toEqual(FORBIDDEN);
      expect((await api.post(snippetsPath(project), { title: "T", visibility: "public", file_name: "a", content: "a" })).body).toEqual(FORBIDDEN);
    }
    expect((await t.anon.get(snippetPath(project, snippet))).status).toBe(200);
  });
});

describe("DELETE /projects/:id/snippets/:snippet_id", () => {
  it("lets the author (Reporter+), Maintainers, the owner and admins delete; others get 403", async () => {
    const snippets = await Promise.all([1, 2, 3, 4].map(() => createSnippet(reporter.api, publicProject.id)));
    for (const api of [guest.api, developer.api, outsider.api]) {
      const res = await api.delete(snippetPath(publicProject, snippets[0]));
      expect([res.status, res.body]).toEqual([403, FORBIDDEN]);
    }
    const anon = await t.anon.delete(snippetPath(publicProject, snippets[0]));
    expect([anon.status, anon.body]).toEqual([401, UNAUTHORIZED]);
    for (const [i, api] of [reporter.api, maintainer.api, owner.api, t.root].entries()) {
      const res = await api.delete(snippetPath(publicProject, snippets[i]));
      expect(res.status).toBe(204);
      expect(res.text).toBe("");
      expect((await t.root.get(snippetPath(publicProject, snippets[i]))).status).toBe(404);
    }
  });

  it("keeps an author demoted below Reporter from deleting, though they may still edit", async () => {
    const author = await createUser(t);
    const project = await createProject(owner.api, { visibility: "public" });
    await addMember(owner.api, "projects", project.id, author.id, ACCESS_LEVEL.reporter);
    const snippet = await createSnippet(author.api, project.id);
    expect((await owner.api.put(`/projects/${project.id}/members/${author.id}`, { access_level: ACCESS_LEVEL.guest })).status).toBe(200);
    expect((await author.api.put(snippetPath(project, snippet), { title: "still mine" })).status).toBe(200);
    expect((await author.api.delete(snippetPath(project, snippet))).body).toEqual(FORBIDDEN);
  });

  it("answers 404 Snippet Not Found for an unknown snippet and 412 when changed after If-Unmodified-Since", async () => {
    const missing = await t.root.delete(`${snippetsPath(publicProject)}/999999`);
    expect([missing.status, missing.body]).toEqual([404, SNIPPET_NOT_FOUND]);
    const snippet = await createSnippet(reporter.api, publicProject.id);
    const stale = await reporter.api.delete(snippetPath(publicProject, snippet), { headers: { "If-Unmodified-Since": "Thu, 01 Jan 2015 00:00:00 GMT" } });
    expect([stale.status, stale.body]).toEqual([412, { message: "412 Precondition Failed" }]);
    const fresh = await reporter.api.delete(snippetPath(publicProject, snippet), { headers: { "If-Unmodified-Since": new Date(Date.now() + 60_000).toUTCString() } });
    expect(fresh.status).toBe(204);
  });

  it("removes the snippet's notes, their reactions and the snippet's reactions with it, and nothing of another snippet", async () => {
    const [doomed, kept] = [await createSnippet(reporter.api, publicProject.id), await createSnippet(reporter.api, publicProject.id)];
    const notes = [];
    for (const snippet of [doomed, kept]) {
      const note = await createNote(guest.api, publicProject.id, "snippets", snippet.id);
      notes.push(note);
      const path = snippetPath(publicProject, snippet);
      expect((await developer.api.post(`${path}/award_emoji`, { name: "rocket" })).status).toBe(201);
      expect((await developer.api.post(`${path}/notes/${note.id}/award_emoji`, { name: "thumbsup" })).status).toBe(201);
    }
    expect((await reporter.api.delete(snippetPath(publicProject, doomed))).status).toBe(204);
    const db = t.services.db;
    expect(await db.note.findUnique({ where: { id: notes[0].id } })).toBeNull();
    const reactionsOn = (type: string, id: number) => db.awardEmoji.count({ where: { awardableType: type, awardableId: id } });
    expect([await reactionsOn("Snippet", doomed.id), await reactionsOn("Note", notes[0].id)]).toEqual([0, 0]);
    expect([await reactionsOn("Snippet", kept.id), await reactionsOn("Note", notes[1].id)]).toEqual([1, 1]);
  });
});
