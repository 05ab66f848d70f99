// Repository files and blobs through /api/v4, on the real bare repositories of each project: every
// expected value comes from `git` itself (test/helpers/git.ts). Reading a file (JSON, HEAD, raw
// with Workhorse's content types, blame), GitLab's param errors and path checks, writing files as
// commits (create, update with last_commit_id, delete, protected branches), blobs by id (only
// this project's), big blobs streamed and rate limited, and who may do what per role.
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, type ApiClient } from "../helpers/api.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, PROJECT_NOT_FOUND } from "../helpers/errors.js";
import { addMember, createProject, createUser } from "../helpers/factories.js";
import { gitOf } from "../helpers/git.js";
import { redPng } from "../helpers/images.js";
import { commitFiles, createBranch, protectBranch } from "../helpers/repository.js";
import { ACCESS_LEVEL, ACTORS, clientOf, createTeamProject, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
/** a private project of the team with the files the read tests look at */
let fixture: any;

const api = (actor: Actor) => clientOf(t, team, actor);
const git = (project: any) => gitOf(t, project.id);
const enc = encodeURIComponent;
const filesUrl = (p: any, filePath: string, suffix = "") => `/projects/${p.id}/repository/files/${enc(filePath)}${suffix}`;
const blobsUrl = (p: any, sha: string, suffix = "") => `/projects/${p.id}/repository/blobs/${sha}${suffix}`;
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const base64 = (content: string | Buffer) => Buffer.from(content).toString("base64");
const failure = (message: string) => ({ message });

const GUIDE_V1 = "one\ntwo\nthree\n";
const GUIDE_V2 = "one\nTWO\nthree\nfour\n";
const BINARY = Buffer.from(Array.from({ length: 600 }, (_v, i) => (i * 7) % 256)); // NULs and high bytes
const SVG = '<?xml version="1.0"?>\n<!-- drawn by hand -->\n<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>\n';

const FIELDS = [
  "file_name", "file_path", "size", "encoding", "content_sha256", "ref", "blob_id", "commit_id", "last_commit_id", "execute_filemode", "content",
];
const HEADERS = {
  file_name: "X-Gitlab-File-Name", file_path: "X-Gitlab-File-Path", size: "X-Gitlab-Size", encoding: "X-Gitlab-Encoding",
  content_sha256: "X-Gitlab-Content-Sha256", ref: "X-Gitlab-Ref", blob_id: "X-Gitlab-Blob-Id", commit_id: "X-Gitlab-Commit-Id",
  last_commit_id: "X-Gitlab-Last-Commit-Id", execute_filemode: "X-Gitlab-Execute-Filemode",
} as const;

/** The X-Gitlab-* headers of an answer, by the JSON field each one repeats. */
const gitlabHeaders = (headers: Headers) => Object.fromEntries(Object.entries(HEADERS).map(([field, name]) => [field, headers.get(name)]));

/** An answer's body as bytes (raw routes send files, not JSON). */
async function fetchBytes(by: ApiClient, url: string, method = "GET") {
  const headers: Record<string, string> = by.token ? { "PRIVATE-TOKEN": by.token } : {};
  const response = await t.app.fetch(new Request(`${BASE}${url}`, { method, headers }));
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  fixture = await createTeamProject(team);
  await commitFiles(team.developer.api, fixture.id, "main", [
    { action: "create", file_path: "docs/guide.md", content: GUIDE_V1 },
    { action: "create", file_path: "bin/tool.sh", content: "#!/bin/sh\necho hi\n" },
    { action: "chmod", file_path: "bin/tool.sh", execute_filemode: true },
    { action: "create", file_path: "image.png", content: base64(redPng()), encoding: "base64" },
    { action: "create", file_path: "pic.svg", content: SVG },
    { action: "create", file_path: "data.bin", content: base64(BINARY), encoding: "base64" },
    { action: "create", file_path: "page.html", content: "<!DOCTYPE html><html><body>hi</body></html>\n" },
    { action: "create", file_path: "page.xhtml", content: "<html xmlns=\"http://www.w3.org/1999/xhtml\"></html>\n" },
    { action: "create", file_path: "docs/naïve café.txt", content: "accents\n" },
  ]);
  const tag = await t.root.post(`/projects/${fixture.id}/repository/tags`, { tag_name: "v1", ref: "main" });
  expect(tag.status).toBe(201);
  await commitFiles(team.maintainer.api, fixture.id, "main", [{ action: "update", file_path: "docs/guide.md", content: GUIDE_V2 }]);
  await commitFiles(team.developer.api, fixture.id, "main", [{ action: "create", file_path: "other.txt", content: "other\n" }]);
});

describe("GET /projects/:id/repository/files/:file_path", () => {
  it("answers the file at a ref as git has it: GitLab's fields in order, and the same facts as X-Gitlab-* headers", async () => {
    const g = git(fixture);
    const bytes = g.bytes("cat-file", "blob", "main:docs/guide.md");
    const res = await api("reporter").get(filesUrl(fixture, "docs/guide.md"), { query: { ref: "main" } });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(FIELDS);
    expect(res.body).toEqual({
      file_name: "guide.md",
      file_path: "docs/guide.md",
      size: Number(g.text("cat-file", "-s", "main:docs/guide.md")),
      encoding: "base64",
      content_sha256: sha256(bytes),
      ref: "main",
      blob_id: g.text("rev-parse", "main:docs/guide.md"),
      commit_id: g.text("rev-parse", "main"),
      last_commit_id: g.text("log", "-1", "--format=%H", "main", "--", "docs/guide.md"),
      execute_filemode: false,
      content: bytes.toString("base64"),
    });
    expect(res.body.last_commit_id).not.toBe(res.body.commit_id); // another file changed since
    expect(Buffer.from(res.body.content, "base64").toString()).toBe(GUIDE_V2);
    const { content: _content, ...facts } = res.body;
    expect(gitlabHeaders(res.headers)).toEqual(Object.fromEntries(Object.entries(facts).map(([k, v]) => [k, String(v)])));
    expect(res.headers.get("content-type")).toBe("application/json");
  });

  it("finds the file at a tag, a full or abbreviated sha, and an older commit's content there", async () => {
    const g = git(fixture);
    const tagged = g.text("rev-parse", "v1^{commit}");
    for (const ref of ["v1", tagged, tagged.slice(0, 8)]) {
      const res = await api("developer").get(filesUrl(fixture, "docs/guide.md"), { query: { ref } });
      expect(res.status, ref).toBe(200);
      expect(res.body).toMatchObject({ ref, commit_id: tagged, blob_id: g.text("rev-parse", "v1:docs/guide.md"), content: base64(GUIDE_V1) });
    }
  });

  it("says execute_filemode for an executable file, as git's mode 100755", async () => {
    const mode = git(fixture).text("ls-tree", "main", "bin/tool.sh").split(" ")[0];
    expect(mode).toBe("100755");
    const res = await api("reporter").get(filesUrl(fixture, "bin/tool.sh"), { query: { ref: "main" } });
    expect(res.body.execute_filemode).toBe(true);
    expect(res.headers.get("x-gitlab-execute-filemode")).toBe("true");
  });

  it("round-trips binary content through base64, byte for byte", async () => {
    const res = await api("reporter").get(filesUrl(fixture, "data.bin"), { query: { ref: "main" } });
    expect(Buffer.from(res.body.content, "base64").equals(BINARY)).toBe(true);
    expect(git(fixture).bytes("cat-file", "blob", "main:data.bin").equals(BINARY)).toBe(true);
    expect(res.body.content_sha256).toBe(sha256(BINARY));
  });

  it("sends a non-ASCII name's UTF-8 bytes in the headers, as GitLab does", async () => {
    const res = await fetchBytes(api("reporter"), `${filesUrl(fixture, "docs/naïve café.txt")}?ref=main`);
    expect(res.status).toBe(200);
    expect(Buffer.from(res.headers.get("x-gitlab-file-name")!, "latin1").toString("utf8")).toBe("naïve café.txt");
  });

  it("answers HEAD with the X-Gitlab-* headers and no body", async () => {
    const get = await api("reporter").get(filesUrl(fixture, "docs/guide.md"), { query: { ref: "main" } });
    const head = await api("reporter").request("HEAD", filesUrl(fixture, "docs/guide.md"), { query: { ref: "main" } });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(gitlabHeaders(head.headers)).toEqual(gitlabHeaders(get.headers));
    expect(head.headers.get("x-gitlab-blob-id")).toBe(git(fixture).text("rev-parse", "main:docs/guide.md"));
  });

  it.each([
    ["no ref", {}, 400, { error: "ref is missing" }],
    ["an empty ref", { ref: "" }, 400, { error: "ref is empty" }],
    ["a ref that names nothing", { ref: "nowhere" }, 404, { message: "404 Commit Not Found" }],
  ])("answers %s with %i", async (_case, query, status, body) => {
    const res = await api("reporter").get(filesUrl(fixture, "docs/guide.md"), { query });
    expect([res.status, res.body]).toEqual([status, body]);
  });

  it.each(["missing.md", "docs", "docs/", "bin//tool.sh", ".git/config"])("answers 404 File Not Found for %s (no file there)", async (filePath) => {
    const res = await api("reporter").get(filesUrl(fixture, filePath), { query: { ref: "main" } });
    expect([res.status, res.body]).toEqual([404, { message: "404 File Not Found" }]);
  });

  it("answers 404 Commit Not Found in an empty repository", async () => {
    const empty = await createProject(team.owner.api, { initialize_with_readme: false });
    const res = await team.owner.api.get(filesUrl(empty, "README.md"), { query: { ref: "main" } });
    expect([res.status, res.body]).toEqual([404, { message: "404 Commit Not Found" }]);
  });

  it("checks the params before the project: a bad request for a missing project is a 400", async () => {
    const res = await t.anon.get(filesUrl(fixture, "../x"));
    expect([res.status, res.body]).toEqual([400, { error: "file_path should be a valid file path, ref is missing" }]);
  });
});

describe("file paths", () => {
  // raw path segments, sent as they are: the router decodes them once, the validator once more
  const INVALID = [
    ["a parent directory", "..%2F..%2Fetc%2Fpasswd"],
    ["a parent inside the path", "docs%2F..%2F..%2Fsecret"],
    ["a path that is only .. (encoded: a URL resolves a bare ..)", "%252E%252E"],
    ["a trailing ..", "docs%2F.."],
    ["a backslash parent", "..%5Csecret"],
    ["an absolute path", "%2Fetc%2Fpasswd"],
    ["an absolute path encoded twice", "%252Fetc%252Fpasswd"],
    ["a parent encoded twice", "%252e%252e%252fsecret"],
    ["a newline", "docs%0Aguide.md"],
    ["a slash encoded three times (double-encoded for the validator)", "docs%25252Fguide.md"],
  ];
  const VALID_PATH_ERROR = { error: "file_path should be a valid file path" };

  it.each(INVALID)("refuses %s on every files route", async (_case, segment) => {
    const base = `/projects/${fixture.id}/repository/files/${segment}`;
    const dev = team.developer.api;
    const answers = [
      await dev.get(`${base}?ref=main`, { raw: true }),
      await dev.get(`${base}/raw?ref=main`, { raw: true }),
      await dev.get(`${base}/blame?ref=main`, { raw: true }),
      await dev.post(base, { branch: "main", commit_message: "m", content: "x" }, { raw: true }),
      await dev.put(base, { branch: "main", commit_message: "m", content: "x" }, { raw: true }),
      await dev.request("DELETE", base, { json: { branch: "main", commit_message: "m" }, raw: true }),
    ];
    for (const res of answers) expect([res.status, res.body]).toEqual([400, VALID_PATH_ERROR]);
    expect(git(fixture).text("ls-tree", "-r", "--name-only", "main")).not.toMatch(/secret|passwd/);
  });

  it("takes a once-encoded slash as part of the path and finds no route for a bare slash", async () => {
    const dev = team.developer.api;
    expect((await dev.get(`/projects/${fixture.id}/repository/files/docs%2Fguide.md?ref=main`, { raw: true })).status).toBe(200);
    const bare = await dev.get(`/projects/${fixture.id}/repository/files/docs/guide.md?ref=main`, { raw: true });
    expect([bare.status, bare.body]).toEqual([404, { error: "404 Not Found" }]);
    // encoded twice, the slash is a literal "%2F" in a file name: valid, and no such file
    const literal = await dev.get(`/projects/${fixture.id}/repository/files/docs%252Fguide.md?ref=main`, { raw: true });
    expect([literal.status, literal.body]).toEqual([404, { message: "404 File Not Found" }]);
  });

  it("refuses a NUL byte before any route, as GitLab's malformed-strings middleware does", async () => {
    const res = await team.developer.api.post(`/projects/${fixture.id}/repository/files/a%00b`, { branch: "main", commit_message: "m", content: "x" }, { raw: true });
    expect([res.status, res.body]).toEqual([400, { error: "Bad Request" }]);
  });

  it("lets Gitaly's path rules refuse a .git folder on write (reading one finds nothing)", async () => {
    const head = git(fixture).text("rev-parse", "main");
    const res = await team.developer.api.post(filesUrl(fixture, ".git/config"), { branch: "main", commit_message: "m", content: "x" });
    expect([res.status, res.body]).toEqual([400, failure("invalid path: '.git/config'")]);
    expect(git(fixture).text("rev-parse", "main")).toBe(head);
  });
});

describe("GET /projects/:id/repository/files/:file_path/raw", () => {
  const NO_CACHE = { "cache-control": "max-age=0, private, must-revalidate, no-store, no-cache", expires: "Fri, 01 Jan 1990 00:00:00 GMT" };
  const raw = (filePath: string, query = "?ref=main", method = "GET") => fetchBytes(api("reporter"), `${filesUrl(fixture, filePath, "/raw")}${query}`, method);

  it("sends the bytes git has, with the X-Gitlab-* headers, a length and no caching", async () => {
    const res = await raw("docs/guide.md");
    expect(res.status).toBe(200);
    expect(res.bytes.equals(git(fixture).bytes("cat-file", "blob", "main:docs/guide.md"))).toBe(true);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="guide.md"; filename*=UTF-8''guide.md`);
    expect(res.headers.get("content-length")).toBe(String(res.bytes.length));
    expect(res.headers.get("cache-control")).toBe(NO_CACHE["cache-control"]);
    expect(res.headers.get("expires")).toBe(NO_CACHE.expires);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const json = await api("reporter").get(filesUrl(fixture, "docs/guide.md"), { query: { ref: "main" } });
    expect(gitlabHeaders(res.headers)).toEqual(gitlabHeaders(json.headers));
  });

  it("reads the default branch without a ref (X-Gitlab-Ref empty) and refuses an empty ref", async () => {
    const res = await raw("docs/guide.md", "");
    expect(res.status).toBe(200);
    expect(res.bytes.toString()).toBe(GUIDE_V2);
    expect(res.headers.get("x-gitlab-ref")).toBe("");
    expect(res.headers.get("x-gitlab-commit-id")).toBe(git(fixture).text("rev-parse", "main"));
    const blank = await api("reporter").get(filesUrl(fixture, "docs/guide.md", "/raw"), { query: { ref: "" } });
    expect([blank.status, blank.body]).toEqual([400, { error: "ref is empty" }]);
    const old = await raw("docs/guide.md", "?ref=v1");
    expect(old.bytes.toString()).toBe(GUIDE_V1);
  });

  it.each([
    ["text", "docs/guide.md", "text/plain; charset=utf-8", "inline"],
    ["HTML (shown as text)", "page.html", "text/plain; charset=utf-8", "inline"],
    ["a PNG", "image.png", "image/png", "inline"],
    ["an SVG", "pic.svg", "image/svg+xml", "attachment"],
    ["other binary", "data.bin", "application/octet-stream", "attachment"],
  ])("sends %s with Workhorse's type and disposition", async (_case, filePath, type, disposition) => {
    const res = await raw(filePath);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    const name = filePath.split("/").pop()!;
    expect(res.headers.get("content-disposition")).toBe(`${disposition}; filename="${name}"; filename*=UTF-8''${name}`);
    expect(res.bytes.equals(git(fixture).bytes("cat-file", "blob", `main:${filePath}`))).toBe(true);
  });

  it("names an .xhtml file without its extension", async () => {
    const res = await raw("page.xhtml");
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="page"; filename*=UTF-8''page`);
  });

  it("answers HEAD with the headers only", async () => {
    const res = await raw("image.png", "?ref=main", "HEAD");
    expect(res.status).toBe(200);
    expect(res.bytes.length).toBe(0);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-length")).toBe(String(redPng().length));
    expect(res.headers.get("x-gitlab-blob-id")).toBe(git(fixture).text("rev-parse", "main:image.png"));
  });

  it("answers errors as JSON: 404 File Not Found, 404 Commit Not Found", async () => {
    const missing = await api("reporter").get(filesUrl(fixture, "missing.txt", "/raw"));
    expect([missing.status, missing.body]).toEqual([404, { message: "404 File Not Found" }]);
    const commit = await api("reporter").get(filesUrl(fixture, "docs/guide.md", "/raw"), { query: { ref: "nowhere" } });
    expect([commit.status, commit.body]).toEqual([404, { message: "404 Commit Not Found" }]);
  });
});

describe("GET /projects/:id/repository/files/:file_path/blame", () => {
  /** `git blame -l -s`: each line's commit and text, grouped into ranges of one commit. */
  function gitBlame(project: any, filePath: string, lines?: [number, number]) {
    const args = ["blame", "-l", "-s", ...(lines ? ["-L", `${lines[0]},${lines[1]}`] : []), "main", "--", filePath];
    const groups: { sha: string; lines: string[] }[] = [];
    for (const line of git(project).text(...args).split("\n")) {
      const [, sha, text] = /^([0-9a-f]{40}) +\d+\) (.*)$/.exec(line)!;
      if (groups.at(-1)?.sha === sha) groups.at(-1)!.lines.push(text!);
      else groups.push({ sha: sha!, lines: [text!] });
    }
    return groups;
  }

  it("groups the lines of a file changed by two commits by commit, as git blame does", async () => {
    const res = await api("reporter").get(filesUrl(fixture, "docs/guide.md", "/blame"), { query: { ref: "main" } });
    expect(res.status, res.text).toBe(200);
    const expected = gitBlame(fixture, "docs/guide.md");
    // one and three from the first commit, TWO and four from the second
    expect(expected.map((group) => group.lines)).toEqual([["one"], ["TWO"], ["three"], ["four"]]);
    expect(new Set(expected.map((group) => group.sha)).size).toBe(2);
    expect(res.body.map((range: any) => ({ sha: range.commit.id, lines: range.lines }))).toEqual(expected);
    expect(res.body.flatMap((range: any) => range.lines)).toEqual(GUIDE_V2.trimEnd().split("\n"));
    for (const range of res.body) {
      const commit = (await api("reporter").get(`/projects/${fixture.id}/repository/commits/${range.commit.id}`)).body;
      expect(Object.keys(range.commit)).toEqual([
        "id", "parent_ids", "message", "authored_date", "author_name", "author_email", "committed_date", "committer_name", "committer_email",
      ]);
      expect(range.commit).toEqual({
        id: commit.id, parent_ids: commit.parent_ids, message: commit.message,
        authored_date: commit.authored_date, author_name: commit.author_name, author_email: commit.author_email,
        committed_date: commit.committed_date, committer_name: commit.committer_name, committer_email: commit.committer_email,
      });
      expect(range.commit.parent_ids).toEqual(git(fixture).text("rev-list", "--parents", "-n", "1", range.commit.id).split(" ").slice(1));
    }
    expect(res.headers.get("x-gitlab-last-commit-id")).toBe(git(fixture).text("log", "-1", "--format=%H", "main", "--", "docs/guide.md"));
  });

  it("blames only range[start]..range[end], and nothing past the end of the file", async () => {
    const url = filesUrl(fixture, "docs/guide.md", "/blame");
    const res = await api("reporter").get(`${url}?ref=main&range[start]=2&range[end]=3`);
    expect(res.body.map((range: any) => ({ sha: range.commit.id, lines: range.lines }))).toEqual(gitBlame(fixture, "docs/guide.md", [2, 3]));
    const past = await api("reporter").get(`${url}?ref=main&range[start]=9&range[end]=12`);
    expect([past.status, past.body]).toEqual([200, []]);
  });

  it.each([
    ["start after end", "range[start]=3&range[end]=2", { message: "range[start] must be less than or equal to range[end]" }],
    ["a zero start", "range[start]=0&range[end]=2", { error: "range[start] does not have a valid value" }],
    ["no end", "range[start]=1", { error: "range[end] is missing" }],
    ["a start that is no number", "range[start]=abc&range[end]=2", { error: "range[start] is invalid" }],
  ])("answers 400 for %s", async (_case, query, body) => {
    const res = await api("reporter").get(`${filesUrl(fixture, "docs/guide.md", "/blame")}?ref=main&${query}`);
    expect([res.status, res.body]).toEqual([400, body]);
  });

  it("answers HEAD with the X-Gitlab-* headers, and needs a ref", async () => {
    const head = await api("reporter").request("HEAD", filesUrl(fixture, "docs/guide.md", "/blame"), { query: { ref: "main" } });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-gitlab-blob-id")).toBe(git(fixture).text("rev-parse", "main:docs/guide.md"));
    const noRef = await api("reporter").get(filesUrl(fixture, "docs/guide.md", "/blame"));
    expect([noRef.status, noRef.body]).toEqual([400, { error: "ref is missing" }]);
  });
});

describe("writing files", () => {
  const write = (by: ApiClient, method: "POST" | "PUT" | "DELETE", project: any, filePath: string, body: Record<string, unknown>) =>
    by.request(method, filesUrl(project, filePath), { json: body });
  const show = (project: any, spec: string) => git(project).bytes("cat-file", "blob", spec);

  it("POST commits a new file on the branch and answers 201 with the path and branch", async () => {
    const project = await createTeamProject(team);
    const before = git(project).text("rev-parse", "main");
    const res = await write(team.developer.api, "POST", project, "src/app.ts", { branch: "main", content: "export {};\n", commit_message: "Add app" });
    expect([res.status, res.body]).toEqual([201, { file_path: "src/app.ts", branch: "main" }]);
    const g = git(project);
    expect(g.text("rev-parse", "main^")).toBe(before);
    expect(show(project, "main:src/app.ts").toString()).toBe("export {};\n");
    expect(g.text("log", "-1", "--format=%s|%an|%ae|%cn|%ce", "main")).toBe(
      `Add app|User ${team.developer.username}|${team.developer.username}@example.com|User ${team.developer.username}|${team.developer.username}@example.com`,
    );
    const branch = await team.developer.api.get(`/projects/${project.id}/repository/branches/main`);
    expect(branch.body.commit.id).toBe(g.text("rev-parse", "main"));
  });

  it("POST takes base64 content, author_name/author_email, execute_filemode and a new branch from start_branch", async () => {
    const project = await createTeamProject(team);
    const base = git(project).text("rev-parse", "main");
    const res = await write(team.developer.api, "POST", project, "tools/run", {
      branch: "feature", start_branch: "main", content: base64(BINARY), encoding: "base64", commit_message: "Tool",
      author_name: "Jane Doe", author_email: "jane@example.com", execute_filemode: true,
    });
    expect([res.status, res.body]).toEqual([201, { file_path: "tools/run", branch: "feature" }]);
    const g = git(project);
    expect(show(project, "feature:tools/run").equals(BINARY)).toBe(true);
    expect(g.text("ls-tree", "feature", "tools/run").split(" ")[0]).toBe("100755");
    expect(g.text("rev-parse", "feature^")).toBe(base);
    expect(g.text("rev-parse", "main")).toBe(base);
    expect(g.text("log", "-1", "--format=%an|%ae|%cn", "feature")).toBe(`Jane Doe|jane@example.com|User ${team.developer.username}`);
  });

  it("POST creates the first commit of an empty repository", async () => {
    const project = await createProject(team.owner.api, { initialize_with_readme: false });
    const res = await write(team.owner.api, "POST", project, "README.md", { branch: "main", content: "# Hi\n", commit_message: "First" });
    expect(res.status, res.text).toBe(201);
    expect(git(project).text("rev-list", "--count", "main")).toBe("1");
    expect(show(project, "main:README.md").toString()).toBe("# Hi\n");
  });

  it("PUT replaces the content (200), keeps the mode unless execute_filemode says otherwise", async () => {
    const project = await createTeamProject(team);
    const res = await write(team.developer.api, "PUT", project, "README.md", { branch: "main", content: "new\n", commit_message: "Edit" });
    expect([res.status, res.body]).toEqual([200, { file_path: "README.md", branch: "main" }]);
    expect(show(project, "main:README.md").toString()).toBe("new\n");
    expect(git(project).text("ls-tree", "main", "README.md").split(" ")[0]).toBe("100644");
    const chmod = await write(team.developer.api, "PUT", project, "README.md", { branch: "main", content: "newer\n", commit_message: "Exec", execute_filemode: true });
    expect(chmod.status).toBe(200);
    expect(git(project).text("ls-tree", "main", "README.md").split(" ")[0]).toBe("100755");
    expect(show(project, "main:README.md").toString()).toBe("newer\n");
  });

  it("PUT with last_commit_id refuses a file changed since (and ignores a last_commit_id git does not know)", async () => {
    const project = await createTeamProject(team);
    const seen = (await team.developer.api.get(filesUrl(project, "README.md"), { query: { ref: "main" } })).body.last_commit_id;
    expect(seen).toBe(git(project).text("log", "-1", "--format=%H", "main", "--", "README.md"));
    await commitFiles(team.maintainer.api, project.id, "main", [{ action: "update", file_path: "README.md", content: "theirs\n" }]);
    const head = git(project).text("rev-parse", "main");
    const stale = await write(team.developer.api, "PUT", project, "README.md", { branch: "main", content: "mine\n", commit_message: "Mine", last_commit_id: seen });
    expect([stale.status, stale.body]).toEqual([400, failure("You are attempting to update a file that has changed since you started editing it.")]);
    expect(git(project).text("rev-parse", "main")).toBe(head);
    const current = git(project).text("log", "-1", "--format=%H", "main", "--", "README.md");
    const fresh = await write(team.developer.api, "PUT", project, "README.md", { branch: "main", content: "mine\n", commit_message: "Mine", last_commit_id: current });
    expect(fresh.status, fresh.text).toBe(200);
    const unknown = await write(team.developer.api, "PUT", project, "README.md", { branch: "main", content: "again\n", commit_message: "Again", last_commit_id: "f".repeat(40) });
    expect(unknown.status).toBe(200);
    // another file's change since does not count
    await commitFiles(team.maintainer.api, project.id, "main", [{ action: "create", file_path: "unrelated.txt", content: "x" }]);
    const latest = git(project).text("log", "-1", "--format=%H", "main", "--", "README.md");
    const after = await write(team.developer.api, "PUT", project, "README.md", { branch: "main", content: "last\n", commit_message: "Last", last_commit_id: latest });
    expect(after.status).toBe(200);
  });

  it("DELETE removes the file in a commit and answers 204", async () => {
    const project = await createTeamProject(team);
    await commitFiles(team.developer.api, project.id, "main", [{ action: "create", file_path: "dir/gone.txt", content: "x" }]);
    const res = await write(team.developer.api, "DELETE", project, "dir/gone.txt", { branch: "main", commit_message: "Remove" });
    expect([res.status, res.text]).toEqual([204, ""]);
    expect(git(project).text("ls-tree", "-r", "--name-only", "main")).toBe("README.md");
    expect(git(project).text("log", "-1", "--format=%s", "main")).toBe("Remove");
  });

  it.each([
    ["POST", "no params", {}, { error: "branch is missing, commit_message is missing, content is missing" }],
    ["DELETE", "no params", {}, { error: "branch is missing, commit_message is missing" }],
    ["POST", "blank branch and message", { branch: " ", commit_message: "", content: "x" }, { error: "branch is empty, commit_message is empty" }],
    ["PUT", "an unknown encoding", { branch: "main", commit_message: "m", content: "x", encoding: "hex" }, { error: "encoding does not have a valid value" }],
    ["POST", "an existing file", { branch: "main", commit_message: "m", content: "x", path: "README.md" }, failure("A file with this name already exists")],
    ["POST", "a path where a directory is", { branch: "main", commit_message: "m", content: "x", path: "dir" }, failure("A directory with this name already exists")],
    ["PUT", "a missing file", { branch: "main", commit_message: "m", content: "x", path: "missing.txt" }, failure("A file with this name doesn't exist")],
    ["DELETE", "a missing file", { branch: "main", commit_message: "m", path: "missing.txt" }, failure("A file with this name doesn't exist")],
    ["POST", "a branch that does not exist", { branch: "nowhere", commit_message: "m", content: "x" }, failure("You can only create or edit files when you are on a branch")],
    ["POST", "a new branch that exists", { branch: "taken", start_branch: "main", commit_message: "m", content: "x" },
      failure("A branch called 'taken' already exists. Switch to that branch in order to make changes")],
    ["POST", "an invalid new branch name", { branch: "bad..name", start_branch: "main", commit_message: "m", content: "x" },
      failure("Something went wrong when we tried to create 'bad..name' for you: Branch name is invalid")],
  ])("%s answers 400 for %s and moves no branch", async (method, _case, body, expected) => {
    const project = await createTeamProject(team);
    await createBranch(team.developer.api, project.id, "taken");
    await commitFiles(team.developer.api, project.id, "main", [{ action: "create", file_path: "dir/inner.txt", content: "x" }]);
    const refs = git(project).text("for-each-ref", "--format=%(refname) %(objectname)");
    const { path: filePath = "new.txt", ...params } = body as Record<string, unknown>;
    const res = await write(team.developer.api, method as "POST", project, filePath as string, params);
    expect([res.status, res.body]).toEqual([400, expected]);
    expect(git(project).text("for-each-ref", "--format=%(refname) %(objectname)")).toBe(refs);
  });

  it("refuses a protected branch with the service's 400 to those its rule does not let push", async () => {
    const project = await createTeamProject(team);
    await protectBranch(team.maintainer.api, project.id, "main");
    const head = git(project).text("rev-parse", "main");
    const body = { branch: "main", commit_message: "m", content: "x" };
    const refused = await write(team.developer.api, "POST", project, "dev.txt", body);
    expect([refused.status, refused.body]).toEqual([400, failure("You are not allowed to push into this branch")]);
    expect(git(project).text("rev-parse", "main")).toBe(head);
    for (const method of ["PUT", "DELETE"] as const) {
      const res = await write(team.developer.api, method, project, "README.md", body);
      expect([res.status, res.body]).toEqual([400, failure("You are not allowed to push into this branch")]);
    }
    expect((await write(team.maintainer.api, "POST", project, "maintainer.txt", body)).status).toBe(201);
    expect(git(project).text("rev-parse", "main^")).toBe(head);
  });
});

describe("GET /projects/:id/repository/blobs/:sha", () => {
  it("answers a blob by full or abbreviated id with git's size and bytes", async () => {
    const g = git(fixture);
    const sha = g.text("rev-parse", "main:data.bin");
    for (const name of [sha, sha.slice(0, 10), sha.toUpperCase()]) {
      const res = await api("reporter").get(blobsUrl(fixture, name));
      expect(res.status, name).toBe(200);
      expect(Object.keys(res.body)).toEqual(["size", "encoding", "content", "sha"]);
      expect(res.body).toEqual({ size: Number(g.text("cat-file", "-s", sha)), encoding: "base64", content: g.bytes("cat-file", "blob", sha).toString("base64"), sha });
    }
  });

  it("answers 404 Blob Not Found for an unknown id, a tree, a commit, or a blob of another project", async () => {
    const g = git(fixture);
    const other = await createTeamProject(team);
    const elsewhere = git(other).writeBlob(Buffer.from(`only in project ${other.id}\n`));
    const names = ["123456", "f".repeat(40), g.text("rev-parse", "main:docs"), g.text("rev-parse", "main"), elsewhere, "main:README.md"];
    for (const name of names) {
      const res = await api("reporter").get(blobsUrl(fixture, enc(name)));
      expect([name, res.status, res.body]).toEqual([name, 404, { message: "404 Blob Not Found" }]);
      expect((await api("reporter").get(blobsUrl(fixture, enc(name), "/raw"))).status).toBe(404);
    }
    expect((await t.root.get(blobsUrl(other, elsewhere))).status).toBe(200);
  });

  it("sends the raw blob with Workhorse's type, no file name and no X-Gitlab-* headers", async () => {
    const g = git(fixture);
    const cases = [["docs/guide.md", "text/plain; charset=utf-8", "inline"], ["data.bin", "application/octet-stream", "attachment"], ["pic.svg", "image/svg+xml", "attachment"], ["image.png", "image/png", "inline"]];
    for (const [filePath, type, disposition] of cases) {
      const sha = g.text("rev-parse", `main:${filePath}`);
      const res = await fetchBytes(api("reporter"), blobsUrl(fixture, sha, "/raw"));
      expect([filePath, res.status, res.headers.get("content-type"), res.headers.get("content-disposition")]).toEqual([filePath, 200, type, disposition]);
      expect(res.bytes.equals(g.bytes("cat-file", "blob", sha))).toBe(true);
      expect(res.headers.get("x-gitlab-blob-id")).toBeNull();
      expect(res.headers.get("cache-control")).toBe("max-age=0, private, must-revalidate, no-store, no-cache");
    }
  });
});

describe("big blobs", () => {
  const BIG = 10 * 1024 * 1024 + 1; // over GitLab's MAX_BLOB_SIZE
  let project: any;
  let big: Buffer;
  let blobSha: string;
  let commitSha: string;

  beforeAll(async () => {
    project = await createTeamProject(team);
    big = Buffer.alloc(BIG);
    for (let i = 0; i + 4 <= BIG; i += 4096) big.writeUInt32BE((i * 2654435761) >>> 0, i); // not all zeros, mostly binary
    const g = git(project);
    blobSha = g.writeBlob(big);
    // a commit holding it, written with git's plumbing (no branch needed: files are read by sha)
    const treeSha = g.withInput(`100644 blob ${blobSha}\tbig.bin\n`, "mktree");
    commitSha = g.withInput("", "-c", "user.name=T", "-c", "user.email=t@example.com", "commit-tree", treeSha, "-m", "big");
  });

  it("streams the raw file and blob with git's bytes", async () => {
    const file = await fetchBytes(api("reporter"), `${filesUrl(project, "big.bin", "/raw")}?ref=${commitSha}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-length")).toBe(String(BIG));
    expect(file.headers.get("content-type")).toBe("application/octet-stream");
    expect(file.headers.get("x-gitlab-content-sha256")).toBe(sha256(big));
    expect(sha256(file.bytes)).toBe(sha256(big));
    const blob = await fetchBytes(api("reporter"), blobsUrl(project, blobSha, "/raw"));
    expect(sha256(blob.bytes)).toBe(sha256(big));
    const head = await fetchBytes(api("reporter"), `${filesUrl(project, "big.bin", "/raw")}?ref=${commitSha}`, "HEAD");
    expect([head.status, head.bytes.length, head.headers.get("x-gitlab-size")]).toEqual([200, 0, String(BIG)]);
  });

  it("answers the JSON of a blob over 10 MB five times a minute per project, then 429", async () => {
    // the app's clock held inside one minute, so the requests share one rate-limit window
    const clock = t.services.now;
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
    t.services.now = () => minute;
    try {
      await fiveThenRefused();
    } finally {
      t.services.now = clock;
    }
  });

  async function fiveThenRefused() {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await api("reporter").get(blobsUrl(project, blobSha))).status);
    const file = await api("reporter").get(filesUrl(project, "big.bin"), { query: { ref: commitSha } });
    expect(Buffer.from(file.body.content, "base64").equals(big)).toBe(true);
    statuses.push(file.status, (await api("developer").get(blobsUrl(project, blobSha))).status);
    const refused = await api("reporter").get(blobsUrl(project, blobSha));
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect([refused.status, refused.body]).toEqual([429, { message: { error: "This endpoint has been requested too many times. Try again later." } }]);
    // small files are never counted
    expect((await api("reporter").get(filesUrl(project, "README.md"), { query: { ref: "main" } })).status).toBe(200);
  }
});

describe("who may read and write", () => {
  const readers: Record<"private" | "public", Record<Actor, number>> = {
    private: { anonymous: 404, nonMember: 404, guest: 403, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
    public: { anonymous: 200, nonMember: 200, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
  };
  const writers: Record<"private" | "public", Record<Actor, number>> = {
    private: { anonymous: 404, nonMember: 404, guest: 403, reporter: 403, developer: 201, maintainer: 201, owner: 201, admin: 201 },
    public: { anonymous: 403, nonMember: 403, guest: 403, reporter: 403, developer: 201, maintainer: 201, owner: 201, admin: 201 },
  };
  const bodies: Record<number, unknown> = { 403: FORBIDDEN, 404: PROJECT_NOT_FOUND };
  const kinds = ["private", "public"] as const;
  const projectOf = (kind: "private" | "public") => (kind === "private" ? team.privateProject : team.publicProject);
  const readUrls = (p: any) => {
    const sha = git(p).text("rev-parse", "main:README.md");
    return [
      `${filesUrl(p, "README.md")}?ref=main`, `${filesUrl(p, "README.md", "/raw")}?ref=main`, `${filesUrl(p, "README.md", "/blame")}?ref=main`,
      blobsUrl(p, sha), blobsUrl(p, sha, "/raw"),
    ];
  };

  it.each(kinds.flatMap((kind) => ACTORS.map((actor) => [kind, actor, readers[kind][actor]] as const)))(
    "%s project, %s: file, raw, blame, blob and raw blob answer %i",
    async (kind, actor, status) => {
      for (const url of readUrls(projectOf(kind))) {
        const res = await api(actor).get(url, { raw: true });
        expect([url, res.status]).toEqual([url, status]);
        if (status !== 200) expect(res.body).toEqual(bodies[status]);
      }
    },
  );

  it.each(kinds.flatMap((kind) => ACTORS.map((actor) => [kind, actor, writers[kind][actor]] as const)))(
    "%s project, %s: creating a file answers %i",
    async (kind, actor, status) => {
      const project = projectOf(kind);
      const head = git(project).text("rev-parse", "main");
      const filePath = `by-${actor}-${Math.random().toString(36).slice(2)}.txt`;
      const res = await api(actor).post(filesUrl(project, filePath), { branch: "main", commit_message: "m", content: "x" });
      expect(res.status).toBe(status);
      if (status !== 201) {
        expect(res.body).toEqual(bodies[status]);
        expect(git(project).text("rev-parse", "main")).toBe(head);
      } else {
        expect(show(project, filePath)).toBe("x");
      }
    },
  );
  const show = (project: any, filePath: string) => git(project).bytes("cat-file", "blob", `main:${filePath}`).toString();

  it("answers 403 to everyone, admins included, when the repository feature is disabled (authorize_read_code!)", async () => {
    const project = await createTeamProject(team, { visibility: "public", repository_access_level: "disabled" });
    const sha = git(project).text("rev-parse", "main:README.md");
    for (const actor of ["anonymous", "owner", "admin"] as const) {
      for (const url of [`${filesUrl(project, "README.md")}?ref=main`, `${filesUrl(project, "README.md", "/raw")}`, blobsUrl(project, sha)]) {
        const res = await api(actor).get(url, { raw: true });
        expect([url, actor, res.status, res.body]).toEqual([url, actor, 403, FORBIDDEN]);
      }
    }
    const write = await api("owner").post(filesUrl(project, "x.txt"), { branch: "main", commit_message: "m", content: "x" });
    expect([write.status, write.body]).toEqual([403, FORBIDDEN]);
  });

  it("answers 403 to non-members reading a members-only repository of a public project", async () => {
    const project = await createTeamProject(team, { visibility: "public", repository_access_level: "private" });
    for (const actor of ["anonymous", "nonMember"] as const) {
      const res = await api(actor).get(filesUrl(project, "README.md"), { query: { ref: "main" } });
      expect([res.status, res.body]).toEqual([403, FORBIDDEN]);
    }
    expect((await api("guest").get(filesUrl(project, "README.md"), { query: { ref: "main" } })).status).toBe(200);
  });

  it("lets a read_repository token read files but not write them", async () => {
    const reader = await createUser(t, {}, ["read_repository"]);
    await addMember(team.owner.api, "projects", fixture.id, reader.id, ACCESS_LEVEL.developer);
    expect((await reader.api.get(filesUrl(fixture, "README.md"), { query: { ref: "main" } })).status).toBe(200);
    expect((await reader.api.get(filesUrl(fixture, "README.md", "/raw"))).status).toBe(200);
    const write = await reader.api.post(filesUrl(fixture, "r.txt"), { branch: "main", commit_message: "m", content: "x" });
    expect(write.status).toBe(403);
  });
});
