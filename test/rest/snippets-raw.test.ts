// GET /projects/:id/snippets/:snippet_id/raw through /api/v4: the snippet's first file as
// text/plain (as GitLab sends a text blob), per actor on public and private projects, snippet
// visibility, the project's snippet feature, unknown and bad ids, HEAD, the file name header, and
// the GraphQL field behind it.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, PROJECT_NOT_FOUND, SNIPPET_NOT_FOUND } from "../helpers/errors.js";
import { createUser, type TestUser } from "../helpers/factories.js";
import { createSnippet } from "../helpers/snippets-notes.js";
import { createTeamProject, createTeamWithProjects, type TeamWithProjects } from "../helpers/team.js";

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

const rawPath = (project: any, snippetId: number | string) => `/projects/${project.id}/snippets/${snippetId}/raw`;

/** What a caller who may read the snippet gets: the file's bytes, as text, named after the file. */
function expectFile(res: { status: number; headers: Headers; text: string }, fileName: string, content: string) {
  expect([res.status, res.text]).toEqual([200, content]);
  expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  expect(res.headers.get("content-disposition")).toBe(`inline; filename="${fileName}"; filename*=UTF-8''${fileName}`);
}

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  ({ owner, guest, reporter, developer, maintainer, nonMember: outsider, publicProject, privateProject } = team);
});

describe("GET /projects/:id/snippets/:snippet_id/raw", () => {
  const content = "puts 'raw'\nputs \"second line\"\n";
  let publicSnippet: any;
  let internalSnippet: any;
  let privateSnippet: any;

  beforeAll(async () => {
    publicSnippet = await createSnippet(reporter.api, publicProject.id, { visibility: "public", file_name: "raw.rb", content });
    internalSnippet = await createSnippet(reporter.api, publicProject.id, { visibility: "internal", file_name: "internal.txt", content: "i" });
    privateSnippet = await createSnippet(reporter.api, publicProject.id, { visibility: "private", file_name: "private.txt", content: "p" });
  });

  it("sends a public snippet of a public project to every actor, anonymous included", async () => {
    for (const api of [t.anon, outsider.api, guest.api, reporter.api, developer.api, maintainer.api, owner.api, t.root]) {
      expectFile(await api.get(rawPath(publicProject, publicSnippet.id)), "raw.rb", content);
    }
  });

  it("sends internal snippets to signed-in callers, private ones to members and admins; others get 404 Snippet", async () => {
    const internalAnon = await t.anon.get(rawPath(publicProject, internalSnippet.id));
    expect([internalAnon.status, internalAnon.body]).toEqual([404, SNIPPET_NOT_FOUND]);
    expectFile(await outsider.api.get(rawPath(publicProject, internalSnippet.id)), "internal.txt", "i");
    for (const api of [t.anon, outsider.api]) {
      const res = await api.get(rawPath(publicProject, privateSnippet.id));
      expect([res.status, res.body]).toEqual([404, SNIPPET_NOT_FOUND]);
      expect(res.headers.get("content-type")).toBe("application/json");
    }
    for (const api of [guest.api, reporter.api, developer.api, maintainer.api, owner.api, t.root]) {
      expectFile(await api.get(rawPath(publicProject, privateSnippet.id)), "private.txt", "p");
    }
  });

  it("hides the snippets of a private project from anonymous callers and non-members (404 Project)", async () => {
    const snippet = await createSnippet(developer.api, privateProject.id, { visibility: "public", file_name: "p.md", content: "# p" });
    for (const api of [t.anon, outsider.api]) {
      const res = await api.get(rawPath(privateProject, snippet.id));
      expect([res.status, res.body]).toEqual([404, PROJECT_NOT_FOUND]);
    }
    for (const api of [guest.api, reporter.api, developer.api, maintainer.api, owner.api, t.root]) {
      expectFile(await api.get(rawPath(privateProject, snippet.id)), "p.md", "# p");
    }
  });

  it("answers 404 Snippet Not Found for an unknown id or another project's snippet, 400 for a bad id", async () => {
    for (const path of [rawPath(publicProject, 999999), rawPath(privateProject, publicSnippet.id)]) {
      const res = await t.root.get(path);
      expect([res.status, res.body]).toEqual([404, SNIPPET_NOT_FOUND]);
    }
    const bad = await t.root.get(rawPath(publicProject, "abc"));
    expect([bad.status, bad.body]).toEqual([400, { error: "snippet_id is invalid" }]);
    const project = await t.root.get(`/projects/999999/snippets/${publicSnippet.id}/raw`);
    expect([project.status, project.body]).toEqual([404, PROJECT_NOT_FOUND]);
  });

  it("answers 403 when the project's snippets are disabled, or for members only and the caller is not one", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const snippet = await createSnippet(owner.api, project.id, { visibility: "public" });
    await t.root.put(`/projects/${project.id}`, { snippets_access_level: "private" });
    for (const api of [outsider.api, t.anon]) {
      const res = await api.get(rawPath(project, snippet.id));
      expect([res.status, res.body]).toEqual([403, FORBIDDEN]);
    }
    expect((await guest.api.get(rawPath(project, snippet.id))).status).toBe(200);
    await t.root.put(`/projects/${project.id}`, { snippets_access_level: "disabled" });
    for (const api of [owner.api, t.root]) {
      const res = await api.get(rawPath(project, snippet.id));
      expect([res.status, res.body]).toEqual([403, FORBIDDEN]);
    }
  });

  it("sends the first file by path of a snippet with several, named without its folders, and follows updates", async () => {
    const snippet = await createSnippet(developer.api, publicProject.id, {
      files: [{ file_path: "z.txt", content: "last" }, { file_path: "b/a.txt", content: "first" }],
    });
    expectFile(await guest.api.get(rawPath(publicProject, snippet.id)), "a.txt", "first"); // the blob's name, without folders
    const moved = await developer.api.put(`/projects/${publicProject.id}/snippets/${snippet.id}`, {
      files: [{ action: "delete", file_path: "b/a.txt" }, { action: "update", file_path: "z.txt", content: "changed" }],
    });
    expect(moved.status, moved.text).toBe(200);
    expectFile(await guest.api.get(rawPath(publicProject, snippet.id)), "z.txt", "changed");
  });

  it("names files with characters outside ASCII as Rails does: transliterated, then percent-escaped", async () => {
    const snippet = await createSnippet(developer.api, publicProject.id, { file_name: "Résumé naïve 日本.txt", content: "x" });
    const res = await t.anon.get(rawPath(publicProject, snippet.id));
    expect(res.headers.get("content-disposition")).toBe(
      `inline; filename="Resume naive %3F%3F.txt"; filename*=UTF-8''R%C3%A9sum%C3%A9%20na%C3%AFve%20%E6%97%A5%E6%9C%AC.txt`,
    );
  });

  it("answers HEAD with the headers and no body, and finds the project by its full path", async () => {
    const head = await t.anon.request("HEAD", rawPath(publicProject, publicSnippet.id));
    expect([head.status, head.text, head.headers.get("content-type")]).toEqual([200, "", "text/plain; charset=utf-8"]);
    const byPath = await t.anon.get(`/projects/${encodeURIComponent(publicProject.path_with_namespace)}/snippets/${publicSnippet.id}/raw`);
    expectFile(byPath, "raw.rb", content);
  });

  it("is the GraphQL field projectSnippetRaw: the blob's name and content, or GitLab's 404", async () => {
    const query = `query($id: ID!, $snippet: Int!) { projectSnippetRaw(id: $id, snippet_id: $snippet) { file_name content } }`;
    const found = await guest.api.graphql(query, { id: String(publicProject.id), snippet: privateSnippet.id });
    expect(found.body).toEqual({ data: { projectSnippetRaw: { file_name: "private.txt", content: "p" } } });
    const hidden = await outsider.api.graphql(query, { id: String(publicProject.id), snippet: privateSnippet.id });
    expect(hidden.body.errors?.[0]?.message).toBe("404 Snippet Not Found");
  });

  it("is readable with a read_api token", async () => {
    const reader = await createUser(t, {}, ["read_api"]);
    expectFile(await reader.api.get(rawPath(publicProject, internalSnippet.id)), "internal.txt", "i");
  });
});
