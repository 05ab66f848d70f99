// Browsing real git repositories through /api/v4: the tree (offset and keyset pages), archives of
// every format, compare, a commit's diff and refs, contributors, and the commits list's filters.
// Every expected answer is what `git` itself says about the project's bare repository.
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import path from "node:path";
import { createServerAdapter } from "@whatwg-node/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseLinks, rawRequest } from "../helpers/api.js";
import { BASE_URL, ROOT_TOKEN, startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, PROJECT_NOT_FOUND } from "../helpers/errors.js";
import { createProject, uniq } from "../helpers/factories.js";
import { gitOf, processesMentioning, unpack, type Git, type GitTreeEntry } from "../helpers/git.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { commitFiles, createBranch } from "../helpers/repository.js";
import { ACTORS, clientOf, createTeamProject, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let project: any; // private, with the fixture files below
let git: Git;
/** main's commits: the initial README, the fixture files, then renames/binary/deletion */
let initial: string;
let c1: string;
let c2: string;

const repoUrl = (p: any, rest: string) => `/projects/${p.id}/repository/${rest}`;
const BINARY_V1 = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const BINARY_V2 = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7) % 256));
const TRAILERS_MESSAGE = "Add the fixture files\n\nWith a body.\n\nSigned-off-by: Dev One <dev1@example.com>\nReviewed-by: Rev <rev@example.com>\nSigned-off-by: Dev Two <dev2@example.com>\n";

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  project = await createTeamProject(team);
  git = gitOf(t, project.id);
  initial = git.text("rev-parse", "main");
  const dev = team.developer.api;
  c1 = (
    await commitFiles(dev, project.id, "main", [
      { action: "create", file_path: "docs/guide.md", content: "# Guide\n" },
      { action: "create", file_path: "docs/api/ref.md", content: "# Reference\n" },
      { action: "create", file_path: "src/app.ts", content: "const a = 1;\nconst b = 2;\nconsole.log(a + b);\n" },
      { action: "create", file_path: "src/lib/util.ts", content: "export const id = (x: unknown) => x;\n" },
      { action: "create", file_path: "bin/run.sh", content: "#!/bin/sh\necho run\n", execute_filemode: true },
      { action: "create", file_path: "dir with space/file name.txt", content: "spaced\n" },
      { action: "create", file_path: "a.txt", content: "alpha\nbeta\ngamma\ndelta\n" },
      { action: "create", file_path: "a<b>&c.txt", content: "odd name\n" },
      { action: "create", file_path: "zeta.txt", content: "last\n" },
      { action: "create", file_path: "ünïcode.txt", content: "ü\n" },
      { action: "create", file_path: "image.bin", content: BINARY_V1.toString("base64"), encoding: "base64" },
    ], { commit_message: TRAILERS_MESSAGE })
  ).id;
  c2 = (
    await commitFiles(dev, project.id, "main", [
      { action: "move", previous_path: "a.txt", file_path: "renamed.txt" },
      { action: "update", file_path: "image.bin", content: BINARY_V2.toString("base64"), encoding: "base64" },
      { action: "delete", file_path: "zeta.txt" },
      { action: "update", file_path: "src/app.ts", content: "const a = 1;\nconst b = 3;\nconsole.log(a + b);\n" },
    ])
  ).id;
});

/** Tree#sorted_entries over git's listing: trees, then blobs, then submodules. */
const treesFirst = (entries: GitTreeEntry[]) => (["tree", "blob", "commit"] as const).flatMap((type) => entries.filter((e) => e.type === type));
/** Entities::TreeObject of a git entry listed under `dir`. */
const treeObject = (entry: GitTreeEntry, dir = "") => {
  const full = dir ? `${dir}/${entry.path}` : entry.path;
  return { id: entry.sha, name: full.slice(full.lastIndexOf("/") + 1), type: entry.type, path: full, mode: entry.mode };
};
const expectedTree = (treeish: string, options: { dir?: string; recursive?: boolean } = {}) =>
  treesFirst(git.lsTree(...(options.recursive ? ["-r", "-t"] : []), options.dir ? `${treeish}:${options.dir}` : treeish)).map((e) => treeObject(e, options.dir));

describe("GET /projects/:id/repository/tree", () => {
  const tree = (query: Record<string, string | number | boolean> = {}, p = project) => team.reporter.api.get(repoUrl(p, "tree"), { query: { per_page: 100, ...query } });

  it("lists the root of the default branch as git does: trees, then blobs, each in git's order", async () => {
    const res = await tree();
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expectedTree("main"));
    expect(res.body.map((e: any) => e.name)).toEqual(["bin", "dir with space", "docs", "src", "README.md", "a<b>&c.txt", "image.bin", "renamed.txt", "ünïcode.txt"]);
    expect(res.body.find((e: any) => e.name === "docs")).toMatchObject({ type: "tree", mode: "040000" });
    expect(res.body.find((e: any) => e.name === "README.md")).toMatchObject({ type: "blob", mode: "100644" });
  });

  it("lists a folder by path at a ref (branch, sha, abbreviated sha), trailing and leading slashes aside", async () => {
    expect((await tree({ path: "docs" })).body).toEqual(expectedTree("main", { dir: "docs" }));
    expect((await tree({ path: "docs/", ref: c1 })).body).toEqual(expectedTree(c1, { dir: "docs" }));
    expect((await tree({ path: "bin", ref: c1.slice(0, 10) })).body).toEqual([expect.objectContaining({ path: "bin/run.sh", mode: "100755" })]);
    expect((await tree({ path: "/" })).body).toEqual(expectedTree("main"));
    // the file deleted by c2 is still in c1's tree
    expect((await tree({ ref: c1 })).body.map((e: any) => e.name)).toContain("zeta.txt");
    expect((await tree({ path: "dir with space" })).body).toEqual(expectedTree("main", { dir: "dir with space" }));
  });

  it("lists everything below with recursive: every tree (at any depth) first, then every file", async () => {
    const res = await tree({ recursive: true });
    expect(res.body).toEqual(expectedTree("main", { recursive: true }));
    expect(res.body.slice(0, 6).map((e: any) => e.path)).toEqual(["bin", "dir with space", "docs", "docs/api", "src", "src/lib"]);
    const docs = await tree({ recursive: true, path: "docs" });
    expect(docs.body).toEqual(expectedTree("main", { dir: "docs", recursive: true }));
    expect(docs.body.map((e: any) => e.path)).toEqual(["docs/api", "docs/api/ref.md", "docs/guide.md"]);
  });

  it("lists a submodule after the blobs, as a commit entry", async () => {
    const mainTree = git.text("rev-parse", "main^{tree}");
    const withModule = git.mkTree([
      ...git.lsTree(mainTree).map((e) => `${e.mode} ${e.type} ${e.sha}\t${e.path}`),
      `160000 commit ${initial}\taaa-module`,
    ]);
    const commit = git.commitTree(withModule, [c2], "Add a submodule");
    const res = await tree({ ref: commit });
    expect(res.body).toEqual(expectedTree(commit));
    expect(res.body.at(-1)).toEqual({ id: initial, name: "aaa-module", type: "commit", path: "aaa-module", mode: "160000" });
  });

  it("pages by offset with totals (pagination=legacy, the default)", async () => {
    const all = expectedTree("main", { recursive: true });
    const page1 = await tree({ recursive: true, per_page: 4 });
    expect(page1.body).toEqual(all.slice(0, 4));
    expect(Object.fromEntries(["x-page", "x-per-page", "x-next-page", "x-prev-page", "x-total", "x-total-pages"].map((h) => [h, page1.headers.get(h)]))).toEqual({
      "x-page": "1", "x-per-page": "4", "x-next-page": "2", "x-prev-page": "", "x-total": String(all.length), "x-total-pages": String(Math.ceil(all.length / 4)),
    });
    const links = parseLinks(page1.headers.get("link"));
    expect(Object.keys(links)).toEqual(["next", "first", "last"]);
    const page2 = await team.reporter.api.get(links.next!.replace(`${BASE_URL}/api/v4`, ""), { raw: true });
    expect(page2.body).toEqual(all.slice(4, 8));
    expect(page2.headers.get("x-prev-page")).toBe("1");
    const last = await tree({ recursive: true, per_page: 4, page: Math.ceil(all.length / 4) });
    expect(last.body).toEqual(all.slice(4 * (Math.ceil(all.length / 4) - 1)));
    expect(last.headers.get("x-next-page")).toBe("");
    expect((await tree({ per_page: 500 })).headers.get("x-per-page")).toBe("100");
  });

  it("pages by keyset to the end: only a next link, its page_token the last path (base64 JSON)", async () => {
    const all = expectedTree("main", { recursive: true });
    const seen: any[] = [];
    let res = await tree({ recursive: true, pagination: "keyset", per_page: 3, ref: "main" });
    const tokens: string[] = [];
    for (;;) {
      expect(res.status).toBe(200);
      expect(res.headers.get("x-total")).toBeNull();
      expect(res.headers.get("x-page")).toBeNull();
      seen.push(...res.body);
      const next = parseLinks(res.headers.get("link")).next;
      if (!next) break;
      const url = new URL(next);
      expect(Object.fromEntries(url.searchParams)).toMatchObject({ recursive: "true", pagination: "keyset", per_page: "3", ref: "main" });
      tokens.push(url.searchParams.get("page_token")!);
      res = await team.reporter.api.get(`${url.pathname.replace("/api/v4", "")}${url.search}`, { raw: true });
    }
    expect(seen).toEqual(all);
    expect(res.headers.get("link")).toBeNull();
    expect(JSON.parse(Buffer.from(tokens[0]!, "base64").toString())).toEqual({ file_name: all[2]!.path });
    // a full last page advertises no empty page after it
    const exact = await tree({ recursive: true, pagination: "keyset", per_page: all.length });
    expect([exact.body.length, exact.headers.get("link")]).toEqual([all.length, null]);
  });

  it("writes page tokens as Gitaly does (Go's JSON escapes <, > and &), and takes an object id as the older token", async () => {
    const root = expectedTree("main");
    const odd = root.findIndex((e) => e.name === "a<b>&c.txt");
    const page = await tree({ pagination: "keyset", per_page: odd + 1 });
    const token = new URL(parseLinks(page.headers.get("link")).next!).searchParams.get("page_token")!;
    expect(Buffer.from(token, "base64").toString()).toBe('{"file_name":"a\\u003cb\\u003e\\u0026c.txt"}');
    const after = await tree({ pagination: "keyset", per_page: 2, page_token: token });
    expect(after.body).toEqual(root.slice(odd + 1, odd + 3));
    const byOid = await tree({ pagination: "keyset", per_page: 2, page_token: root[1]!.id });
    expect(byOid.body).toEqual(root.slice(2, 4));
    const unknown = await tree({ pagination: "keyset", page_token: "bm90LWEtdG9rZW4=" });
    expect([unknown.status, unknown.body]).toEqual([500, { message: "500 Internal Server Error" }]);
  });

  it("lists the whole recursive tree without headers with pagination=none, and refuses it without recursive", async () => {
    const res = await tree({ recursive: true, pagination: "none", per_page: 2 });
    expect(res.body).toEqual(expectedTree("main", { recursive: true }));
    expect([res.headers.get("link"), res.headers.get("x-total"), res.headers.get("x-page")]).toEqual([null, null, null]);
    const refused = await tree({ pagination: "none" });
    expect([refused.status, refused.body]).toEqual([400, { error: 'pagination cannot be "none" unless "recursive" is true' }]);
    expect((await tree({ pagination: "pages" })).body).toEqual({ error: "pagination does not have a valid value" });
  });

  it("answers GitLab's errors: unknown ref or empty repository, missing path, a file's path, traversal", async () => {
    const expectError = async (query: Record<string, string>, status: number, body: unknown, p = project) => {
      const res = await tree(query, p);
      expect([query, res.status, res.body]).toEqual([query, status, body]);
    };
    await expectError({ ref: "no-such-branch" }, 404, { message: "404 Tree Not Found" });
    const empty = await createProject(team.owner.api, { initialize_with_readme: false });
    const res = await team.owner.api.get(repoUrl(empty, "tree"));
    expect([res.status, res.body]).toEqual([404, { message: "404 Tree Not Found" }]);
    await expectError({ path: "nope" }, 404, { message: "404 invalid revision or path Not Found" });
    await expectError({ path: "docs/nope/deeper" }, 404, { message: "404 invalid revision or path Not Found" });
    await expectError({ path: "README.md" }, 200, []);
    await expectError({ path: "../" }, 404, { message: "404 Path cannot include traversal syntax Not Found" });
    await expectError({ path: "docs/../../etc" }, 404, { message: "404 Path cannot include traversal syntax Not Found" });
    await expectError({ path: "/etc" }, 404, { message: "404 Only relative path is accepted Not Found" });
  });

  it("gives a file's empty listing no pages on the first legacy page", async () => {
    const res = await tree({ path: "README.md" });
    expect([res.headers.get("x-total"), res.headers.get("x-total-pages")]).toEqual(["0", "0"]);
  });
});

describe("GET /projects/:id/repository/archive", () => {
  const fetchArchive = (suffix: string, query: Record<string, string> = {}, by = team.reporter.api) => by.get(repoUrl(project, `archive${suffix}`), { query });
  /** The files git has at `treeish` (under `dir`), as an unpacked archive holds them under `top`. */
  const expectedFiles = (treeish: string, top: string, dir?: string) =>
    new Map(
      git.lsTree("-r", treeish, ...(dir ? ["--", dir] : [])).map((e) => [`${top}/${e.path}`, { content: git.run(["cat-file", "blob", e.sha]), executable: e.mode === "100755" }]),
    );
  const bodyOf = async (suffix: string, query: Record<string, string> = {}) => {
    const response = await t.app.fetch(new Request(`http://forgeline.test/api/v4${repoUrl(project, `archive${suffix}`)}?${new URLSearchParams(query)}`, { headers: { "PRIVATE-TOKEN": team.reporter.token } }));
    return { response, body: Buffer.from(await response.arrayBuffer()) };
  };

  const formats: [string, string, "tar" | "zip", string][] = [
    ["", "tar.gz", "tar", "application/octet-stream"],
    [".tar.gz", "tar.gz", "tar", "application/octet-stream"],
    [".tgz", "tar.gz", "tar", "application/octet-stream"],
    [".gz", "tar.gz", "tar", "application/octet-stream"],
    [".tar", "tar", "tar", "application/octet-stream"],
    [".zip", "zip", "zip", "application/zip"],
    [".tar.bz2", "tar.bz2", "tar", "application/octet-stream"],
    [".tbz", "tar.bz2", "tar", "application/octet-stream"],
    [".tbz2", "tar.bz2", "tar", "application/octet-stream"],
    [".tb2", "tar.bz2", "tar", "application/octet-stream"],
    [".bz2", "tar.bz2", "tar", "application/octet-stream"],
  ];

  it.each(formats)("archive%s is a %s of the default branch under <project path>-main-<sha>", async (suffix, extension, unpacker, contentType) => {
    const { response, body } = await bodyOf(suffix);
    expect(response.status).toBe(200);
    const top = `${project.path}-main-${c2}`;
    expect(response.headers.get("content-type")).toBe(contentType);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${top}.${extension}"`);
    expect(response.headers.get("content-transfer-encoding")).toBe("binary");
    if (extension === "tar") expect(body.subarray(257, 262).toString()).toBe("ustar");
    else expect(body.subarray(0, 4).toString("hex")).toMatch({ "tar.gz": /^1f8b/, "tar.bz2": /^425a68/, zip: /^504b0304/ }[extension]!);
    expect(unpack(body, unpacker)).toEqual(expectedFiles("main", top));
  });

  it("archives a ref with a slash, a sha, a folder, and leaves out excluded paths", async () => {
    await createBranch(team.developer.api, project.id, "feature/x", c1);
    const branch = await bodyOf(".tar", { sha: "feature/x" });
    expect(branch.response.headers.get("content-disposition")).toBe(`attachment; filename="${project.path}-feature-x-${c1}.tar"`);
    expect(unpack(branch.body, "tar")).toEqual(expectedFiles(c1, `${project.path}-feature-x-${c1}`));
    const bySha = await bodyOf(".zip", { sha: c1 });
    expect(bySha.response.headers.get("content-disposition")).toBe(`attachment; filename="${project.path}-${c1}-${c1}.zip"`);
    const folder = await bodyOf(".tar", { path: "docs/api" });
    const top = `${project.path}-main-${c2}-docs-api`;
    expect(folder.response.headers.get("content-disposition")).toBe(`attachment; filename="${top}.tar"`);
    expect(unpack(folder.body, "tar")).toEqual(expectedFiles("main", top, "docs/api"));
    const excluded = await bodyOf(".tar", { exclude_paths: "docs,src/lib" });
    const all = expectedFiles("main", `${project.path}-main-${c2}`);
    expect([...unpack(excluded.body, "tar").keys()]).toEqual([...all.keys()].filter((name) => !/\/(docs|src\/lib)\//.test(name)));
  });

  it("takes the format param on the plain route, anything unknown there being a tar.gz", async () => {
    const zip = await bodyOf("", { format: "zip" });
    expect(zip.response.headers.get("content-type")).toBe("application/zip");
    expect(unpack(zip.body, "zip").size).toBe(expectedFiles("main", "x").size);
    const unknown = await bodyOf("", { format: "rar" });
    expect(unknown.response.headers.get("content-disposition")).toMatch(/\.tar\.gz"$/);
    expect(unknown.body.subarray(0, 2).toString("hex")).toBe("1f8b");
  });

  it("answers HEAD with the headers and without starting git", async () => {
    const { commit, gitDir } = bigCommit();
    const head = await t.app.fetch(new Request(`http://forgeline.test/api/v4${repoUrl(project, "archive.tar")}?sha=${commit}`, { method: "HEAD", headers: { "PRIVATE-TOKEN": ROOT_TOKEN } }));
    expect(head.status).toBe(200);
    expect(head.headers.get("content-disposition")).toContain(`-${commit}-${commit}.tar`);
    expect(await head.text()).toBe("");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(processesMentioning(gitDir).filter((line) => line.includes(" archive "))).toEqual([]);
  });

  it("answers 404 File Not Found for an unknown ref or path, and no route for an unknown extension", async () => {
    const queries: Record<string, string>[] = [{ sha: "no-such-ref" }, { sha: "--output=x" }, { path: "nope" }, { path: "../" }, { path: "docs/../.." }, { exclude_paths: "nope" }];
    for (const query of queries) {
      const res = await fetchArchive(".zip", query);
      expect([query, res.status, res.body]).toEqual([query, 404, { message: "404 File Not Found" }]);
    }
    for (const suffix of [".rar", ".ZIP", ".tar.xz"]) {
      const res = await fetchArchive(suffix);
      expect([suffix, res.status, res.body]).toEqual([suffix, 404, { error: "404 Not Found" }]);
    }
  });

  it("kills git when the client goes away mid-download (a real HTTP server)", async () => {
    const { commit, gitDir } = bigCommit();
    const adapter = createServerAdapter((request: Request) => t.app.fetch(request));
    const server = http.createServer(adapter);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const { port } = server.address() as AddressInfo;
      const request = http.get({ port, host: "127.0.0.1", path: `/api/v4${repoUrl(project, "archive.tar")}?sha=${commit}`, headers: { "PRIVATE-TOKEN": ROOT_TOKEN } });
      const [response] = (await once(request, "response")) as [http.IncomingMessage];
      expect(response.statusCode).toBe(200);
      await once(response, "data");
      expect(processesMentioning(gitDir).filter((line) => line.includes(" archive "))).toHaveLength(1);
      request.destroy();
      await waitFor(() => processesMentioning(gitDir).filter((line) => line.includes(" archive ")).length === 0);
    } finally {
      server.close();
    }
  });
});

/** A commit (no ref) holding 24 MB of random bytes: its archive outlasts any pipe buffer. */
function bigCommit() {
  const blob = git.writeBlob(Buffer.from(Array.from({ length: 24 * 1024 * 1024 / 4096 }, () => Math.random().toString(36).repeat(200).slice(0, 4096)).join("")));
  const tree = git.mkTree([`100644 blob ${blob}\tbig.txt`]);
  return { commit: git.commitTree(tree, [], `big ${uniq()}`), gitDir: git.gitDir };
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The files of `git diff --name-status -M` as Diff entity flags. */
function gitChanges(...range: string[]) {
  return git.lines("diff", "--name-status", "-M", ...range).map((line) => {
    const [status, oldPath, newPath] = line.split("\t") as [string, string, string?];
    return { old_path: oldPath, new_path: newPath ?? oldPath, new_file: status === "A", renamed_file: status.startsWith("R"), deleted_file: status === "D" };
  });
}

/** git's patch of one file from its first hunk on (the Diff entity's `diff`). */
function gitPatch(from: string, to: string, file: string) {
  const text = git.run(["diff", "--no-color", "--full-index", from, to, "--", file]).toString("utf8");
  return text.slice(text.indexOf("@@"));
}

const diffFlags = (diffs: any[]) => diffs.map(({ old_path, new_path, new_file, renamed_file, deleted_file }) => ({ old_path, new_path, new_file, renamed_file, deleted_file }));

describe("GET /projects/:id/repository/compare", () => {
  let feature: string;
  let branchProject: any;
  let bgit: Git;

  beforeAll(async () => {
    branchProject = await createTeamProject(team);
    bgit = gitOf(t, branchProject.id);
    const dev = team.developer.api;
    await commitFiles(dev, branchProject.id, "main", [{ action: "create", file_path: "shared.txt", content: "one\n" }]);
    await createBranch(dev, branchProject.id, "feature");
    await commitFiles(dev, branchProject.id, "feature", [{ action: "create", file_path: "feature.txt", content: "feature\n" }]);
    feature = (await commitFiles(dev, branchProject.id, "feature", [{ action: "update", file_path: "shared.txt", content: "one\ntwo\n" }])).id;
    await commitFiles(dev, branchProject.id, "main", [{ action: "create", file_path: "main-only.txt", content: "main\n" }]);
  });

  const compare = (query: Record<string, string | boolean | number>, p = branchProject) => team.reporter.api.get(repoUrl(p, "compare"), { query });

  it("compares from the merge base (three dots): the commits to has, oldest first, and the diff base...to", async () => {
    const res = await compare({ from: "main", to: "feature" });
    expect(res.status).toBe(200);
    const expectedShas = bgit.lines("rev-list", "--reverse", "feature", "^main");
    expect(res.body.commits.map((c: any) => c.id)).toEqual(expectedShas);
    expect(res.body.commit.id).toBe(expectedShas.at(-1));
    expect(res.body.commit).toMatchObject({ short_id: feature.slice(0, 8), parent_ids: [expectedShas[0]], web_url: expect.stringContaining(`/-/commit/${feature}`) });
    const gitDiffs = bgit.lines("diff", "--name-only", "main...feature");
    expect(res.body.diffs.map((d: any) => d.new_path)).toEqual(gitDiffs);
    const shared = res.body.diffs.find((d: any) => d.new_path === "shared.txt");
    const base = bgit.text("merge-base", "main", "feature");
    expect(shared.diff).toBe(bgit.run(["diff", "--no-color", base, "feature", "--", "shared.txt"]).toString().replace(/^[^@]*/, ""));
    expect(res.body).toMatchObject({ compare_timeout: false, compare_same_ref: false, web_url: `${BASE_URL}/${branchProject.path_with_namespace}/-/compare/${base}...${feature}` });
    expect(Object.keys(res.body)).toEqual(["commit", "commits", "diffs", "compare_timeout", "compare_same_ref", "web_url"]);
  });

  it("compares straight (two dots): the diff from `from` itself", async () => {
    const res = await compare({ from: "main", to: "feature", straight: true });
    expect(res.body.diffs.map((d: any) => d.new_path)).toEqual(bgit.lines("diff", "--name-only", "main", "feature"));
    expect(res.body.diffs.find((d: any) => d.old_path === "main-only.txt")).toMatchObject({ deleted_file: true });
    expect(res.body.commits.map((c: any) => c.id)).toEqual(bgit.lines("rev-list", "--reverse", "feature", "^main"));
    expect(res.body.web_url).toBe(`${BASE_URL}/${branchProject.path_with_namespace}/-/compare/${bgit.text("rev-parse", "main")}...${feature}`);
  });

  it("adds --- / +++ lines with unidiff", async () => {
    const res = await compare({ from: "main", to: "feature", unidiff: true });
    expect(res.body.diffs.find((d: any) => d.new_path === "feature.txt").diff).toMatch(/^--- \/dev\/null\n\+\+\+ b\/feature.txt\n@@ /);
    expect(res.body.diffs.find((d: any) => d.new_path === "shared.txt").diff).toMatch(/^--- a\/shared.txt\n\+\+\+ b\/shared.txt\n@@ /);
  });

  it("says when both refs are the same commit, and finds nothing between them", async () => {
    const res = await compare({ from: "feature", to: feature });
    expect(res.body).toMatchObject({ commit: null, commits: [], diffs: [], compare_same_ref: true, compare_timeout: false });
  });

  it("answers 404 Ref Not Found for an unknown `to`; an unknown `from` compares nothing", async () => {
    for (const to of ["nope", "-x", "--output=x", "main..feature"]) {
      const res = await compare({ from: "main", to });
      expect([to, res.status, res.body]).toEqual([to, 404, { message: "404 Ref Not Found" }]);
    }
    for (const from of ["nope", "--output=x", "-x"]) {
      const res = await compare({ from, to: "feature" });
      expect([from, res.status]).toEqual([from, 200]);
      expect(res.body).toMatchObject({ commit: null, commits: [], diffs: [], compare_same_ref: null });
    }
    expect(existsSync("x") || existsSync(path.join(bgit.gitDir, "x"))).toBe(false);
    expect((await team.reporter.api.get(repoUrl(branchProject, "compare"))).body).toEqual({ error: "from is missing, to is missing" });
    const fork = await compare({ from: "main", to: "feature", from_project_id: project.id });
    expect([fork.status, fork.body]).toEqual([400, { message: `Target project id:${project.id} is not a fork of project id:${branchProject.id}` }]);
    expect((await compare({ from: "main", to: "feature", from_project_id: branchProject.id })).status).toBe(200);
  });
});

describe("GET /projects/:id/repository/commits/:sha/diff", () => {
  const diffOf = (sha: string, query: Record<string, string | number | boolean> = {}) => team.reporter.api.get(repoUrl(project, `commits/${encodeURIComponent(sha)}/diff`), { query });

  it("shows a rename, a binary change, a deletion and an edit as git does, against the first parent", async () => {
    const res = await diffOf(c2);
    expect(res.status).toBe(200);
    expect(diffFlags(res.body)).toEqual(gitChanges(c1, c2));
    const byPath = (name: string) => res.body.find((d: any) => d.new_path === name);
    expect(byPath("renamed.txt")).toEqual({
      diff: "", collapsed: false, too_large: false, new_path: "renamed.txt", old_path: "a.txt",
      a_mode: "100644", b_mode: "100644", new_file: false, renamed_file: true, deleted_file: false, generated_file: null,
    });
    expect(byPath("image.bin").diff).toBe("Binary files a/image.bin and b/image.bin differ\n");
    expect(byPath("zeta.txt")).toMatchObject({ deleted_file: true, a_mode: "100644", b_mode: "0", diff: gitPatch(c1, c2, "zeta.txt") });
    expect(byPath("src/app.ts").diff).toBe(gitPatch(c1, c2, "src/app.ts"));
    expect(res.headers.get("x-total")).toBe(String(res.body.length));
  });

  it("shows a root commit's files as new, a branch or tag name standing for its commit", async () => {
    const res = await diffOf(initial);
    expect(res.body).toEqual([expect.objectContaining({ new_path: "README.md", new_file: true, a_mode: "0", b_mode: "100644", diff: gitPatch(git.text("hash-object", "-t", "tree", "/dev/null"), initial, "README.md") })]);
    expect((await diffOf("main")).body).toEqual((await diffOf(c2)).body);
  });

  it("pages with totals, and adds --- / +++ lines with unidiff", async () => {
    const all = (await diffOf(c1)).body;
    const page = await diffOf(c1, { per_page: 4, page: 2 });
    expect(page.body).toEqual(all.slice(4, 8));
    expect([page.headers.get("x-total"), page.headers.get("x-total-pages")]).toEqual([String(all.length), String(Math.ceil(all.length / 4))]);
    const unified = await diffOf(c2, { unidiff: true });
    expect(unified.body.find((d: any) => d.new_path === "zeta.txt").diff).toMatch(/^--- a\/zeta.txt\n\+\+\+ \/dev\/null\n@@ /);
  });

  it("answers 404 Commit Not Found for what names no commit", async () => {
    for (const sha of ["nope", "-x", "--output=x", "0".repeat(40)]) {
      const res = await diffOf(sha);
      expect([sha, res.status, res.body]).toEqual([sha, 404, { message: "404 Commit Not Found" }]);
    }
  });
});

describe("GET /projects/:id/repository/commits/:sha/refs", () => {
  const refsOf = (sha: string, query: Record<string, string> = {}) => team.reporter.api.get(repoUrl(project, `commits/${sha}/refs`), { query });

  beforeAll(async () => {
    await createBranch(team.developer.api, project.id, "b-at-c1", c1);
    await createBranch(team.developer.api, project.id, "a-at-initial", initial);
    expect((await team.maintainer.api.post(repoUrl(project, "tags"), { tag_name: "v1.0", ref: c1 })).status).toBe(201);
    expect((await team.maintainer.api.post(repoUrl(project, "tags"), { tag_name: "v0.1", ref: initial, message: "annotated" })).status).toBe(201);
  });

  const gitRefs = (sha: string, prefix: string) => git.lines("for-each-ref", `--contains=${sha}`, "--format=%(refname:lstrip=2)", prefix);

  it("lists the branches, then the tags, whose history holds the commit", async () => {
    for (const sha of [initial, c1, c2]) {
      const res = await refsOf(sha);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        ...gitRefs(sha, "refs/heads/").map((name) => ({ type: "branch", name })),
        ...gitRefs(sha, "refs/tags/").map((name) => ({ type: "tag", name })),
      ]);
    }
    expect((await refsOf(initial)).body).toEqual(expect.arrayContaining([{ type: "tag", name: "v0.1" }, { type: "branch", name: "a-at-initial" }]));
  });

  it("keeps to one kind with type, and pages with totals", async () => {
    expect((await refsOf(initial, { type: "branch" })).body).toEqual(gitRefs(initial, "refs/heads/").map((name) => ({ type: "branch", name })));
    expect((await refsOf(initial, { type: "tag" })).body).toEqual(gitRefs(initial, "refs/tags/").map((name) => ({ type: "tag", name })));
    const page = await refsOf(initial, { per_page: "1", page: "2" });
    expect(page.headers.get("x-total")).toBe(String(gitRefs(initial, "refs/heads/").length + gitRefs(initial, "refs/tags/").length));
    expect((await refsOf(initial, { type: "note" })).body).toEqual({ error: "type does not have a valid value" });
    expect((await refsOf("--output=x")).body).toEqual({ message: "404 Commit Not Found" });
  });
});

describe("GET /projects/:id/repository/contributors", () => {
  let people: any;
  let pgit: Git;

  beforeAll(async () => {
    people = await createTeamProject(team);
    pgit = gitOf(t, people.id);
    const as = (name: string, email: string) => ({ author_name: name, author_email: email });
    const dev = team.developer.api;
    await commitFiles(dev, people.id, "main", [{ action: "create", file_path: "z1", content: "1\n" }], as("zed", "zed@example.com"));
    await commitFiles(dev, people.id, "main", [{ action: "create", file_path: "z2", content: "2\n" }], as("Zed Newer", "zed@example.com"));
    await commitFiles(dev, people.id, "main", [{ action: "create", file_path: "a1", content: "3\n" }], as("alice", "Alice@example.com"));
    await commitFiles(dev, people.id, "main", [{ action: "create", file_path: "b1", content: "4\n" }], as("Bob", "bob@example.com"));
    await commitFiles(dev, people.id, "main", [{ action: "create", file_path: "b2", content: "5\n" }], as("Bob", "bob@example.com"));
    await commitFiles(dev, people.id, "main", [{ action: "create", file_path: "b3", content: "6\n" }], as("Bob", "bob@example.com"));
    // a merge by the maintainer, who wrote nothing else: merges are not counted
    const mr = await createMergeRequest(team.developer.api, people.id);
    await commitFiles(dev, people.id, mr.source_branch, [{ action: "create", file_path: "m1", content: "7\n" }], as("Mia", "mia@example.com"));
    expect((await team.maintainer.api.put(`/projects/${people.id}/merge_requests/${mr.iid}/merge`, {})).status).toBe(200);
  });

  /** git's non-merge authors of main, newest first, grouped by email: the newest non-blank name. */
  const gitContributors = () => {
    const byEmail = new Map<string, { name: string; email: string; commits: number; additions: number; deletions: number }>();
    for (const line of pgit.lines("log", "--no-merges", "--format=%ae%x09%an", "main")) {
      const [email, name] = line.split("\t") as [string, string];
      const entry = byEmail.get(email) ?? { name, email, commits: 0, additions: 0, deletions: 0 };
      entry.commits += 1;
      byEmail.set(email, entry);
    }
    return [...byEmail.values()];
  };
  const contributors = (query: Record<string, string> = {}) => team.reporter.api.get(repoUrl(people, "contributors"), { query });
  const names = (res: any) => res.body.map((c: any) => c.email);

  it("counts the non-merge commits of each author email, by commits ascending unless asked otherwise", async () => {
    const expected = gitContributors();
    expect(expected.map((c) => c.email)).not.toContain(`${team.maintainer.username}@example.com`);
    const res = await contributors();
    expect(res.status).toBe(200);
    expect([...res.body].sort((a: any, b: any) => a.email.localeCompare(b.email))).toEqual([...expected].sort((a, b) => a.email.localeCompare(b.email)));
    expect(res.body.find((c: any) => c.email === "zed@example.com")).toEqual({ name: "Zed Newer", email: "zed@example.com", commits: 2, additions: 0, deletions: 0 });
    const counts = res.body.map((c: any) => c.commits);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const desc = (await contributors({ sort: "desc" })).body.map((c: any) => c.commits);
    expect(desc).toEqual([...counts].sort((a, b) => b - a));
  });

  it("orders by name or email without regard to case", async () => {
    const byName = (await contributors({ order_by: "name" })).body.map((c: any) => c.name);
    expect(byName).toEqual([...byName].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(byName.indexOf("alice")).toBeLessThan(byName.indexOf("Bob"));
    const byEmail = await contributors({ order_by: "email", sort: "desc" });
    expect(names(byEmail)).toEqual(names(byEmail).slice().sort((a: string, b: string) => b.toLowerCase().localeCompare(a.toLowerCase())));
    expect((await contributors({ order_by: "size" })).body).toEqual({ error: "order_by does not have a valid value" });
  });

  it("reads another ref, lists nobody for a ref that names nothing, and pages with totals", async () => {
    const first = pgit.text("rev-list", "--max-parents=0", "main");
    expect((await contributors({ ref: first })).body).toEqual([expect.objectContaining({ commits: 1 })]);
    for (const ref of ["nope", "--output=x", "-x"]) expect((await contributors({ ref })).body).toEqual([]);
    const page = await contributors({ per_page: "2", page: "2" });
    expect(page.headers.get("x-total")).toBe(String(gitContributors().length));
  });
});

describe("GET /projects/:id/repository/commits: the other params", () => {
  const commits = (query: Record<string, string | number | boolean>, p = project) => team.reporter.api.get(repoUrl(p, "commits"), { query: { per_page: 100, ...query } });
  const ids = (res: any) => res.body.map((c: any) => c.id);

  it("filters by path (literally, a folder or a file)", async () => {
    expect(ids(await commits({ path: "docs" }))).toEqual(git.lines("rev-list", "main", "--", "docs"));
    expect(ids(await commits({ path: "zeta.txt" }))).toEqual(git.lines("rev-list", "main", "--", "zeta.txt"));
    expect(ids(await commits({ path: "*.txt" }))).toEqual([]);
  });

  it("filters by commit time with since and until", async () => {
    const tree = git.text("rev-parse", "main^{tree}");
    const old = git.commitTree(tree, [], "2020", "2020-01-01T00:00:00Z");
    const mid = git.commitTree(tree, [old], "2021", "2021-01-01T00:00:00Z");
    const recent = git.commitTree(tree, [mid], "2022", "2022-01-01T00:00:00Z");
    const range = await commits({ ref_name: recent, since: "2020-06-01T00:00:00Z", until: "2021-06-01T00:00:00Z" });
    expect(ids(range)).toEqual(git.lines("rev-list", "--since=2020-06-01T00:00:00Z", "--until=2021-06-01T00:00:00Z", recent));
    expect(ids(range)).toEqual([mid]);
    expect(ids(await commits({ ref_name: recent, since: "2021-06-01" }))).toEqual([recent]);
    expect((await commits({ since: "not a date" })).body).toEqual({ error: "since is invalid" });
  });

  it("filters by author", async () => {
    const tree = git.text("rev-parse", "main^{tree}");
    const byAda = git.commitTree(tree, [c2], "ada's", undefined, "Ada Lovelace <ada@example.com>");
    const byBo = git.commitTree(tree, [byAda], "bo's", undefined, "Bo <bo@example.com>");
    expect(ids(await commits({ ref_name: byBo, author: "Ada Lovelace" }))).toEqual([byAda]);
    expect(ids(await commits({ ref_name: byBo, author: "bo@example.com" }))).toEqual([byBo]);
  });

  it("follows first parents only with first_parent, and orders topologically with order=topo", async () => {
    const p = await createTeamProject(team);
    const pg = gitOf(t, p.id);
    const mr = await createMergeRequest(team.developer.api, p.id);
    await commitFiles(team.developer.api, p.id, mr.source_branch, [{ action: "create", file_path: "f1", content: "1\n" }]);
    await commitFiles(team.developer.api, p.id, "main", [{ action: "create", file_path: "m1", content: "1\n" }]);
    expect((await team.maintainer.api.put(`/projects/${p.id}/merge_requests/${mr.iid}/merge`, {})).status).toBe(200);
    expect(pg.lines("rev-list", "--merges", "main")).toHaveLength(1);
    const firstParent = await commits({ first_parent: true }, p);
    expect(ids(firstParent)).toEqual(pg.lines("rev-list", "--first-parent", "main"));
    expect(ids(await commits({}, p))).toEqual(pg.lines("rev-list", "main"));
    expect(ids(await commits({ order: "topo" }, p))).toEqual(pg.lines("rev-list", "--topo-order", "main"));
    expect((await commits({ order: "random" }, p)).body).toEqual({ error: "order does not have a valid value" });
  });

  it("adds each commit's stats with with_stats (lines against its first parent), and no stats key without", async () => {
    const withStats = await commits({ with_stats: true });
    for (const commit of withStats.body) {
      let additions = 0;
      let deletions = 0;
      for (const line of git.lines("diff", "--numstat", "--no-renames", commit.parent_ids[0] ?? git.text("hash-object", "-t", "tree", "/dev/null"), commit.id)) {
        const [added, deleted] = line.split("\t");
        if (added !== "-") additions += Number(added);
        if (deleted !== "-") deletions += Number(deleted);
      }
      expect([commit.id, commit.stats]).toEqual([commit.id, { additions, deletions, total: additions + deletions }]);
    }
    const plain = await commits({});
    expect(plain.body.every((c: any) => !("stats" in c))).toBe(true);
    expect(Object.keys(withStats.body[0])).toEqual([...Object.keys(plain.body[0]), "stats"]);
  });

  it("parses trailers only when asked: the last value of each key, and every value in extended_trailers", async () => {
    const parsed = git.run(["interpret-trailers", "--parse"], { input: git.run(["log", "-1", "--format=%B", c1]) }).toString().trim().split("\n");
    const pairs = parsed.map((line) => [line.slice(0, line.indexOf(": ")), line.slice(line.indexOf(": ") + 2)] as const);
    const asked = (await commits({ trailers: true })).body.find((c: any) => c.id === c1);
    expect(asked.trailers).toEqual(Object.fromEntries(pairs));
    expect(asked.extended_trailers).toEqual({
      "Signed-off-by": pairs.filter(([k]) => k === "Signed-off-by").map(([, v]) => v),
      "Reviewed-by": pairs.filter(([k]) => k === "Reviewed-by").map(([, v]) => v),
    });
    expect(asked.trailers["Signed-off-by"]).toBe("Dev Two <dev2@example.com>");
    const plain = (await commits({})).body.find((c: any) => c.id === c1);
    expect([plain.trailers, plain.extended_trailers]).toEqual([{}, {}]);
    expect((await commits({ trailers: true })).body.find((c: any) => c.id === c2).trailers).toEqual({});
  });

  it("lists nothing for a ref that is not one, without passing it to git as an option", async () => {
    for (const ref_name of ["--output=x", "-n1"]) expect([ref_name, (await commits({ ref_name })).body]).toEqual([ref_name, []]);
    expect(existsSync("x") || existsSync(path.join(git.gitDir, "x"))).toBe(false);
    const nul = await rawRequest(t.app, "GET", `/api/v4${repoUrl(project, "tree")}?ref=main%00x`, { headers: { "PRIVATE-TOKEN": ROOT_TOKEN } });
    expect([nul.status, nul.body]).toEqual([400, { error: "Bad Request" }]);
  });
});

describe("reading the repository, per actor", () => {
  const readers: Record<"private" | "public", Record<Actor, number>> = {
    private: { anonymous: 404, nonMember: 404, guest: 403, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
    public: { anonymous: 200, nonMember: 200, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
  };
  const cases = (["private", "public"] as const).flatMap((kind) => ACTORS.map((actor) => [kind, actor, readers[kind][actor]] as const));
  const urls = (p: any, sha: string) => [
    repoUrl(p, "tree"), repoUrl(p, "tree?recursive=true&pagination=keyset"), repoUrl(p, "archive"), repoUrl(p, "archive.zip"),
    repoUrl(p, "compare?from=main&to=main"), repoUrl(p, `commits/${sha}/diff`), repoUrl(p, `commits/${sha}/refs`), repoUrl(p, "contributors"),
    repoUrl(p, "commits?with_stats=true&trailers=true"),
  ];

  it.each(cases)("%s project, %s: tree, archive, compare, diff, refs, contributors answer %i", async (kind, actor, status) => {
    const p = kind === "private" ? team.privateProject : team.publicProject;
    const sha = gitOf(t, p.id).text("rev-parse", "main");
    for (const url of urls(p, sha)) {
      const res = await clientOf(t, team, actor).get(url, { raw: true });
      expect([url, res.status]).toEqual([url, status]);
      if (status === 404) expect(res.body).toEqual(PROJECT_NOT_FOUND);
      if (status === 403) expect(res.body).toEqual(FORBIDDEN);
    }
  });

  it("hides a members-only repository of a public project from non-members (404 Repository), not from guests", async () => {
    const p = await createTeamProject(team, { visibility: "public", repository_access_level: "private" });
    const sha = gitOf(t, p.id).text("rev-parse", "main");
    for (const url of urls(p, sha)) {
      for (const actor of ["anonymous", "nonMember"] as const) {
        const res = await clientOf(t, team, actor).get(url, { raw: true });
        expect([url, res.status, res.body]).toEqual([url, 404, { message: "404 Repository Not Found" }]);
      }
      for (const actor of ["guest", "admin"] as const) expect([url, (await clientOf(t, team, actor).get(url, { raw: true })).status]).toEqual([url, 200]);
    }
  });

  it("answers 404 Repository to everyone, admins included, when the repository is disabled", async () => {
    const p = await createTeamProject(team, { visibility: "public", repository_access_level: "disabled" });
    const sha = gitOf(t, p.id).text("rev-parse", "main");
    for (const url of urls(p, sha)) {
      for (const actor of ["anonymous", "owner", "admin"] as const) {
        const res = await clientOf(t, team, actor).get(url, { raw: true });
        expect([url, actor, res.status, res.body]).toEqual([url, actor, 404, { message: "404 Repository Not Found" }]);
      }
    }
  });
});

afterAll(() => {
  expect(existsSync("x")).toBe(false);
});
