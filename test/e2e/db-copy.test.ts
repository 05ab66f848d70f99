// `npm run db:copy -- --from file:... --to postgresql://... --repositories-to DIR`: a SQLite instance
// used through the API, stopped, copied into a new PostgreSQL database and repositories folder, and
// served from there with the same key: the same users, tokens, projects, repositories (commits,
// files), issues (labels filter, next iid), reactions, hooks (secrets still readable), avatars (also
// one still in a file) and new ids past the copied ones. A second copy into the same database, a
// copy without --repositories-to or into a repositories folder that is not empty are refused.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import Database from "better-sqlite3";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { GitStore } from "../../src/git/store.js";
import { bluePng, redPng } from "../helpers/images.js";
import { databaseUrlFor, onPostgresql, withAdmin } from "../helpers/test-database.js";
import { restClient } from "./helpers/rest.js";
import { REPO_ROOT, startServer, type RunningServer } from "./helpers/server.js";

const database = `forgeline_copy_${process.pid}_${Date.now().toString(36)}`;
const target = databaseUrlFor(database);
const running: RunningServer[] = [];
let sqliteFile = "";
const repositoriesTarget = path.join(mkdtempSync(path.join(os.tmpdir(), "forgeline-copy-")), "repositories");

afterAll(async () => {
  await Promise.all(running.map((server) => server.stop()));
  await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)).catch(() => undefined);
  rmSync(path.dirname(repositoriesTarget), { recursive: true, force: true });
});

async function copy(from: string, ...more: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/db-copy.ts", "--from", from, "--to", target, ...more], {
      cwd: REPO_ROOT, env: { ...process.env, NODE_OPTIONS: "" },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error: any) {
    return { code: error.code, output: `${error.stdout}${error.stderr}` };
  }
}

// SQLite to PostgreSQL whatever the leg; run once, in the SQLite leg
describe.skipIf(onPostgresql)("db:copy from SQLite to PostgreSQL", () => {
  it("copies every row, keeps ids and secrets, and the copy serves as the original did", async () => {
    const sqlite = await startServer({ env: { ALLOW_LOCAL_WEBHOOKS: "true" } });
    running.push(sqlite);
    sqliteFile = path.join(sqlite.dataDir, "forgeline.db");
    const root = restClient(sqlite);
    const user = (await root.post("/users", { username: "mover", name: "Mover", email: "mover@example.com", password: "password-123456" })).body;
    const token = (await root.post(`/users/${user.id}/personal_access_tokens`, { name: "t", scopes: ["api"] })).body.token;
    const group = (await root.post("/groups", { name: "Move", path: "move", visibility: "public" })).body;
    const subgroup = (await root.post("/groups", { name: "Sub", path: "sub", parent_id: group.id, visibility: "public" })).body;
    const created = await root.post("/projects", { name: "Box", path: "box", namespace_id: subgroup.id, visibility: "public", initialize_with_readme: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const project = created.body;
    const p = `/projects/${project.id}`;
    const committed = await root.post(`${p}/repository/commits`, {
      branch: "main", commit_message: "Add notes", actions: [{ action: "create", file_path: "docs/notes.md", content: "moved along\n" }],
    });
    expect(committed.status, JSON.stringify(committed.body)).toBe(201);
    const history = (await root.get(`${p}/repository/commits`)).body.map((commit: { id: string }) => commit.id);
    for (const [title, labels] of [["one", "bug"], ["two", "bug,ui"], ["three", ""]]) expect((await root.post(`${p}/issues`, { title, labels })).status).toBe(201);
    expect((await root.post(`${p}/issues/2/award_emoji`, { name: "thumbsup" })).status).toBe(201);
    const hook = (await root.post(`/groups/${group.id}/hooks`, { url: "http://127.0.0.1:9/hook?secret=abc", token: "hook-token", issues_events: true })).body;
    const form = new FormData();
    form.append("avatar", new Blob([new Uint8Array(redPng())], { type: "image/png" }), "red.png");
    const withAvatar = await fetch(`${sqlite.apiUrl}/groups/${group.id}`, { method: "PUT", headers: { "PRIVATE-TOKEN": sqlite.rootToken! }, body: form });
    expect(withAvatar.status).toBe(200);
    const avatarUrl = new URL((await withAvatar.json()).avatar_url).pathname;
    expect((await sqlite.stop())).toBe(0);
    running.pop();
    // an avatar from before avatars were kept in the database: a file in the uploads folder
    const legacy = "group/avatar/legacy/blue.png";
    mkdirSync(path.join(sqlite.dataDir, "uploads", "group/avatar/legacy"), { recursive: true });
    writeFileSync(path.join(sqlite.dataDir, "uploads", legacy), bluePng());
    const file = new Database(sqliteFile);
    file.prepare('UPDATE "Namespace" SET "avatarPath" = ? WHERE "id" = ?').run(legacy, subgroup.id);
    file.close();

    await withAdmin((admin) => admin.query(`CREATE DATABASE "${database}"`));
    const withoutRepositories = await copy(`file:${sqliteFile}`);
    expect(withoutRepositories.code).not.toBe(0);
    expect(withoutRepositories.output).toContain("repositories: name the PostgreSQL servers' REPOSITORIES_DIR with --repositories-to");
    const copied = await copy(`file:${sqliteFile}`, "--repositories-to", repositoriesTarget);
    expect(copied.code, copied.output).toBe(0);
    expect(copied.output).toMatch(/^and 1 repositories from .* to /m);
    expect(existsSync(path.join(new GitStore(repositoriesTarget).pathOf(project.id), "HEAD"))).toBe(true);
    expect(copied.output).toMatch(/^Issue\s+3\s+3$/m);
    expect(copied.output).toMatch(/^IssueLabel\s+3\s+3$/m);
    expect(copied.output).toMatch(/^Namespace\s+\d+\s+\d+$/m);
    expect(copied.output).toMatch(/^StoredFile\s+1\s+2$/m);
    expect(copied.output).toContain("and 1 avatar files from");

    const key = readFileSync(path.join(sqlite.dataDir, "encryption.key"), "utf8").trim();
    const pg = await startServer({ env: { DATABASE_URL: target, WEBHOOK_ENCRYPTION_KEY: key, ALLOW_LOCAL_WEBHOOKS: "true", REPOSITORIES_DIR: repositoriesTarget } });
    running.push(pg);
    const pgRoot = restClient(pg);
    expect((await restClient(pg, token).get("/user")).body.username).toBe("mover");
    expect((await pgRoot.get(`/projects/${encodeURIComponent("move/sub/box")}`)).body.id).toBe(project.id);
    const bugs = await pgRoot.get(`${p}/issues?labels=bug&sort=asc`);
    expect(bugs.status, JSON.stringify(bugs.body)).toBe(200);
    expect(bugs.body.map((issue: { title: string }) => issue.title)).toEqual(["one", "two"]);
    // the repository, from the copied folder
    expect((await pgRoot.get(`${p}/repository/commits`)).body.map((commit: { id: string }) => commit.id)).toEqual(history);
    const notes = await fetch(`${pg.apiUrl}${p}/repository/files/docs%2Fnotes.md/raw?ref=main`, { headers: { "PRIVATE-TOKEN": pg.rootToken! } });
    expect(await notes.text()).toBe("moved along\n");
    expect((await pgRoot.get(`${p}/issues/2/award_emoji`)).body.map((award: { name: string }) => award.name)).toEqual(["thumbsup"]);
    // the hook's URL was decrypted with the SQLite instance's key (variables are masked as GitLab does)
    expect((await pgRoot.get(`/groups/${group.id}/hooks/${hook.id}`)).body.url).toBe(hook.url);
    expect(Buffer.from(await (await fetch(pg.url + avatarUrl)).arrayBuffer()).equals(redPng())).toBe(true);
    const subgroupAvatar = new URL((await pgRoot.get(`/groups/${subgroup.id}`)).body.avatar_url).pathname;
    expect(Buffer.from(await (await fetch(pg.url + subgroupAvatar)).arrayBuffer()).equals(bluePng())).toBe(true);
    // counters and sequences continue past the copied rows
    expect((await pgRoot.post(`${p}/issues`, { title: "four" })).body.iid).toBe(4);
    const next = (await pgRoot.post("/users", { username: "newcomer", name: "N", email: "n@example.com", password: "password-123456" })).body;
    expect(next.id).toBeGreaterThan(user.id);
  }, 180_000);

  it("refuses a target that already holds rows or repositories, and a source that is not a Forgeline database", async () => {
    const intoUsedFolder = await copy(`file:${sqliteFile}`, "--repositories-to", repositoriesTarget);
    expect(intoUsedFolder.code).not.toBe(0);
    expect(intoUsedFolder.output).toContain(`db:copy: the repositories target ${repositoriesTarget} is not empty`);
    const emptyFolder = path.join(path.dirname(repositoriesTarget), "other");
    const again = await copy(`file:${sqliteFile}`, "--repositories-to", emptyFolder);
    expect(again.code).not.toBe(0);
    expect(again.output).toContain("db:copy: the target database is not empty");
    expect(existsSync(path.join(emptyFolder, "@hashed"))).toBe(false);
    const missing = await copy("file:/nonexistent/forgeline.db");
    expect(missing.code).not.toBe(0);
  }, 60_000);
});
