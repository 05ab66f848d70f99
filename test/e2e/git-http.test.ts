// Git over HTTP against the real server with the real `git` command: clone (anonymous public,
// token, oauth2:, password), fetch, pushes of commits, branches and tags, force pushes, every
// refusal with GitLab's message on the client's screen, the push webhook received by a loopback
// receiver, merge requests and approvals following a push, and the API reading back exactly what
// git says. The server runs with ALLOW_LOCAL_WEBHOOKS=true and a small push size limit.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../webhooks/receiver.js";
import { createUser, uniqueName, type E2eUser } from "./helpers/fixtures.js";
import { cloneUrl, commitFile, git, gitOk, serverGitProcesses, workDir } from "./helpers/git.js";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { executeOnDatabase } from "../helpers/test-database.js";
import { restClient } from "./helpers/rest.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer({ env: { ALLOW_LOCAL_WEBHOOKS: "true", MAX_PUSH_SIZE_MB: "1" } });
const DELIVERY_TIMEOUT_MS = 15_000;

let owner: E2eUser;
let developer: E2eUser;
let reporter: E2eUser;
let guest: E2eUser;
let stranger: E2eUser;
let group: { id: number; full_path: string };
let receiver: Receiver;

const enc = encodeURIComponent;
const pathOf = (project: { path_with_namespace: string }) => project.path_with_namespace;
const as = (user: E2eUser) => ({ user: user.username, password: user.token });

beforeAll(async () => {
  [owner, developer, reporter, guest, stranger] = await Promise.all(["owner", "dev", "rep", "guest", "stranger"].map((p) => createUser(suite.server, { username: uniqueName(p) })));
  const created = await suite.root.post("/groups", { name: uniqueName("g"), path: uniqueName("g").toLowerCase().replace(/_/g, "-"), visibility: "public" });
  expect(created.status).toBe(201);
  group = created.body;
  for (const [user, level] of [[owner, 50], [developer, 30], [reporter, 20], [guest, 10]] as const) {
    expect((await suite.root.post(`/groups/${group.id}/members`, { user_id: user.id, access_level: level })).status).toBe(201);
  }
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());
beforeEach(() => receiver.clear());

async function newProject(options: Record<string, unknown> = {}) {
  const res = await owner.api.post("/projects", { name: uniqueName("repo"), namespace_id: group.id, initialize_with_readme: true, ...options });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A clone of the project in a fresh folder, by `who` (default the developer). */
async function cloned(project: any, who: E2eUser = developer): Promise<string> {
  const dir = path.join(workDir(), "clone");
  await gitOk(["clone", "-q", cloneUrl(suite.server, pathOf(project), as(who)), dir]);
  return dir;
}

/** The hook deliveries that reached the receiver at `hookPath`, once `count` arrived. */
async function arrived(hookPath: string, count: number) {
  const until = Date.now() + DELIVERY_TIMEOUT_MS;
  while (receiver.requests.filter((r) => r.path === hookPath).length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return receiver.requests.filter((r) => r.path === hookPath);
}

describe("clone and fetch", () => {
  it("clones a public project anonymously, over protocol v2 and v0, with the files and history the API shows", async () => {
    const project = await newProject({ visibility: "public" });
    for (const version of ["2", "0"]) {
      const dir = path.join(workDir(), "anon");
      await gitOk(["-c", `protocol.version=${version}`, "clone", "-q", cloneUrl(suite.server, pathOf(project)), dir]);
      expect(readFileSync(path.join(dir, "README.md"), "utf8")).toBe(`# ${project.name}\n`);
      const head = (await gitOk(["rev-parse", "HEAD"], { cwd: dir })).trim();
      const branch = (await suite.root.get(`/projects/${project.id}/repository/branches/main`)).body;
      expect(branch.commit.id).toBe(head);
    }
  });

  it("answers a private project without credentials with 401 and a Basic challenge, as GitLab", async () => {
    const project = await newProject();
    const res = await fetch(`${suite.server.url}/${pathOf(project)}.git/info/refs?service=git-upload-pack`);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="GitLab"');
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toMatch(/^HTTP Basic: Access denied\. If a password was provided for Git authentication/);
    const run = await git(["clone", cloneUrl(suite.server, pathOf(project)), path.join(workDir(), "x")]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("could not read Username");
  });

  it("says 404 to a signed-in stranger (not 403), and 401 to wrong, revoked or expired tokens", async () => {
    const project = await newProject();
    const refs = (auth: string) => fetch(`${suite.server.url}/${pathOf(project)}.git/info/refs?service=git-upload-pack`, { headers: { Authorization: `Basic ${Buffer.from(auth).toString("base64")}` } });
    const strangerRes = await refs(`${stranger.username}:${stranger.token}`);
    expect(strangerRes.status).toBe(404);
    expect(await strangerRes.text()).toBe("The project you were looking for could not be found or you don't have permission to view it.\n");
    expect((await refs("anyone:not-a-token")).status).toBe(401);
    const token = (await suite.root.post(`/users/${owner.id}/personal_access_tokens`, { name: "r", scopes: ["api"] })).body;
    expect((await refs(`x:${token.token}`)).status).toBe(200);
    expect((await suite.root.delete(`/personal_access_tokens/${token.id}`)).status).toBe(204);
    expect((await refs(`x:${token.token}`)).status).toBe(401);
    const expiring = (await suite.root.post(`/users/${owner.id}/personal_access_tokens`, { name: "e", scopes: ["api"], expires_at: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) })).body;
    expect((await refs(`x:${expiring.token}`)).status).toBe(200);
  });

  it("takes any username with a token, `oauth2` included, and a username with the account's password", async () => {
    const project = await newProject();
    for (const user of ["oauth2", "whatever", developer.username]) {
      await gitOk(["ls-remote", cloneUrl(suite.server, pathOf(project), { user, password: developer.token })]);
    }
    await gitOk(["ls-remote", cloneUrl(suite.server, pathOf(project), { user: developer.username, password: "password-123456" })]);
    const wrong = await git(["ls-remote", cloneUrl(suite.server, pathOf(project), { user: developer.username, password: "wrong-password" })]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain("HTTP Basic: Access denied");
  });

  it("lets any signed-in user clone an internal project, and a project access token clone its project", async () => {
    const internal = await newProject({ visibility: "internal" });
    await cloned(internal, stranger);
    const project = await newProject();
    const bot = await owner.api.post(`/projects/${project.id}/access_tokens`, { name: "ci", scopes: ["read_repository"], access_level: 20, expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10) });
    expect(bot.status, JSON.stringify(bot.body)).toBe(201);
    await gitOk(["clone", "-q", cloneUrl(suite.server, pathOf(project), { user: "project-bot", password: bot.body.token }), path.join(workDir(), "bot")]);
    const elsewhere = await newProject();
    const run = await git(["ls-remote", cloneUrl(suite.server, pathOf(elsewhere), { user: "bot", password: bot.body.token })]);
    expect(run.stderr).toContain("The project you were looking for could not be found or you don't have permission to view it.");
  });

  it("refuses a token past its expiry date (401)", async () => {
    const project = await newProject();
    const token = (await suite.root.post(`/users/${developer.id}/personal_access_tokens`, { name: "old", scopes: ["api"] })).body;
    await gitOk(["ls-remote", cloneUrl(suite.server, pathOf(project), { user: "x", password: token.token })]);
    // as Prisma stores times (ISO text on SQLite, a timestamp on PostgreSQL)
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().replace("Z", "+00:00");
    await executeOnDatabase(suite.server.databaseUrl, 'UPDATE "AccessToken" SET "expiresAt" = ? WHERE "id" = ?', yesterday, token.id);
    // the token cache learns of the change from the table's version, as for a revocation
    const run = await git(["ls-remote", cloneUrl(suite.server, pathOf(project), { user: "x", password: token.token })]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("HTTP Basic: Access denied");
  });

  it("lets Reporters clone a private project, not Guests (403, GitLab's text)", async () => {
    const project = await newProject();
    await cloned(project, reporter);
    const run = await git(["clone", cloneUrl(suite.server, pathOf(project), as(guest)), path.join(workDir(), "g")]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("remote: You are not allowed to download code from this project.");
  });

  it("refuses blocked users (401) and deactivated ones (403 with the reason)", async () => {
    const project = await newProject({ visibility: "internal" });
    const blocked = await createUser(suite.server, { username: uniqueName("blocked") });
    const deactivated = await createUser(suite.server, { username: uniqueName("deact") });
    await gitOk(["ls-remote", cloneUrl(suite.server, pathOf(project), as(blocked))]);
    expect((await suite.root.post(`/users/${blocked.id}/block`)).status).toBe(201);
    expect((await suite.root.post(`/users/${deactivated.id}/deactivate`)).status).toBe(201);
    const refs = (user: E2eUser) => fetch(`${suite.server.url}/${pathOf(project)}.git/info/refs?service=git-upload-pack`, {
      headers: { Authorization: `Basic ${Buffer.from(`${user.username}:${user.token}`).toString("base64")}` },
    });
    expect((await refs(blocked)).status).toBe(401);
    const res = await refs(deactivated);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Your account has been deactivated by your administrator.");
  });

  it("limits tokens to their scopes: read_repository clones but may not push", async () => {
    const project = await newProject();
    const token = (await suite.root.post(`/users/${developer.id}/personal_access_tokens`, { name: "ro", scopes: ["read_repository"] })).body.token;
    const dir = path.join(workDir(), "ro");
    await gitOk(["clone", "-q", cloneUrl(suite.server, pathOf(project), { user: "x", password: token }), dir]);
    await commitFile(dir, "ro.txt", "ro\n");
    const push = await git(["push", "origin", "main"], { cwd: dir });
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain("remote: You are not allowed to upload code.");
  });

  it("redirects info/refs without .git to the .git URL, and serves the POSTs on both", async () => {
    const project = await newProject({ visibility: "public" });
    const res = await fetch(`${suite.server.url}/${pathOf(project)}/info/refs?service=git-upload-pack`, { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe(`/${pathOf(project)}.git/info/refs?service=git-upload-pack`);
    const dir = path.join(workDir(), "nogit");
    await gitOk(["clone", "-q", `http://127.0.0.1:${suite.server.port}/${pathOf(project)}`, dir]);
    expect(readFileSync(path.join(dir, "README.md"), "utf8")).toContain(project.name);
  });
});

describe("push", () => {
  it("pushes commits, a branch and tags that the API then shows exactly as git log / ls-tree / show say", async () => {
    const project = await newProject();
    const dir = await cloned(project);
    await commitFile(dir, "src/app.js", "console.log(1);\n", "Add app");
    const second = await commitFile(dir, "docs/readme.txt", "docs\n", "Add docs\n\nWith a body.");
    await gitOk(["push", "-q", "origin", "main"], { cwd: dir });
    await gitOk(["checkout", "-q", "-b", "topic"], { cwd: dir });
    const topic = await commitFile(dir, "topic.txt", "t\n", "Topic work");
    await gitOk(["tag", "v1.0", second], { cwd: dir });
    await gitOk(["tag", "-a", "v2.0", "-m", "Release two", topic], { cwd: dir });
    const push = await git(["push", "origin", "topic", "v1.0", "v2.0"], { cwd: dir });
    expect(push.code, push.stderr).toBe(0);
    expect(push.stderr).toContain("remote: To create a merge request for topic, visit:");
    expect(push.stderr).toContain(`remote:   ${suite.server.url}/${pathOf(project)}/-/merge_requests/new?merge_request%5Bsource_branch%5D=topic`);

    const log = (await gitOk(["log", "--format=%H%x00%P%x00%an%x00%ae%x00%s", "main"], { cwd: dir })).trim().split("\n").map((l) => l.split("\0"));
    const commits = (await developer.api.get(`/projects/${project.id}/repository/commits?ref_name=main`)).body;
    expect(commits.map((c: any) => [c.id, c.parent_ids.join(" "), c.author_name, c.author_email, c.title])).toEqual(log);
    const shown = (await developer.api.get(`/projects/${project.id}/repository/commits/${second}`)).body;
    const raw = await gitOk(["cat-file", "commit", second], { cwd: dir });
    expect(shown.message).toBe(raw.slice(raw.indexOf("\n\n") + 2));
    const branches = (await developer.api.get(`/projects/${project.id}/repository/branches`)).body;
    expect(branches.map((b: any) => [b.name, b.commit.id])).toEqual([["main", second], ["topic", topic]]);
    const tags = (await developer.api.get(`/projects/${project.id}/repository/tags?order_by=name&sort=asc`)).body;
    const v2Object = (await gitOk(["rev-parse", "v2.0"], { cwd: dir })).trim();
    expect(tags.map((t: any) => [t.name, t.target, t.commit.id, t.message])).toEqual([["v1.0", second, second, ""], ["v2.0", v2Object, topic, "Release two"]]);
  });

  it("gives archives of what was pushed that unpack to the pushed files", async () => {
    const project = await newProject();
    const dir = await cloned(project);
    await commitFile(dir, "src/main.c", "int main(void) { return 0; }\n");
    writeFileSync(path.join(dir, "run.sh"), "#!/bin/sh\necho hi\n", { mode: 0o755 });
    await gitOk(["add", "run.sh"], { cwd: dir });
    await gitOk(["commit", "-q", "-m", "Add a script"], { cwd: dir });
    await gitOk(["push", "-q", "origin", "main"], { cwd: dir });
    const head = (await gitOk(["rev-parse", "HEAD"], { cwd: dir })).trim();
    const res = await fetch(`${suite.server.apiUrl}/projects/${project.id}/repository/archive.tar.gz?sha=main`, { headers: { "PRIVATE-TOKEN": developer.token } });
    expect(res.status).toBe(200);
    const archive = path.join(workDir(), "a.tar.gz");
    writeFileSync(archive, Buffer.from(await res.arrayBuffer()));
    const unpacked = workDir();
    execFileSync("tar", ["-xzf", archive, "-C", unpacked]);
    const top = path.join(unpacked, `${project.path}-main-${head}`);
    for (const file of ["README.md", "src/main.c", "run.sh"]) {
      expect(readFileSync(path.join(top, file)).equals(readFileSync(path.join(dir, file))), file).toBe(true);
    }
  });

  it("fetches what another clone pushed", async () => {
    const project = await newProject();
    const [a, b] = [await cloned(project), await cloned(project)];
    const sha = await commitFile(a, "a.txt", "a\n");
    await gitOk(["push", "-q", "origin", "main"], { cwd: a });
    await gitOk(["fetch", "-q", "origin"], { cwd: b });
    expect((await gitOk(["rev-parse", "origin/main"], { cwd: b })).trim()).toBe(sha);
  });

  it("accepts force pushes to unprotected branches and deletes branches and tags", async () => {
    const project = await newProject();
    const dir = await cloned(project);
    await gitOk(["checkout", "-q", "-b", "work"], { cwd: dir });
    await commitFile(dir, "w1.txt", "1\n");
    await gitOk(["push", "-q", "origin", "work"], { cwd: dir });
    await gitOk(["reset", "-q", "--hard", "HEAD~1"], { cwd: dir });
    const rewritten = await commitFile(dir, "w2.txt", "2\n");
    await gitOk(["push", "-q", "-f", "origin", "work"], { cwd: dir });
    expect((await developer.api.get(`/projects/${project.id}/repository/branches/work`)).body.commit.id).toBe(rewritten);
    await gitOk(["tag", "gone", rewritten], { cwd: dir });
    await gitOk(["push", "-q", "origin", "gone"], { cwd: dir });
    await gitOk(["push", "-q", "origin", ":work", ":refs/tags/gone"], { cwd: dir });
    expect((await developer.api.get(`/projects/${project.id}/repository/branches/work`)).status).toBe(404);
    expect((await developer.api.get(`/projects/${project.id}/repository/tags/gone`)).status).toBe(404);
  });

  it("makes the first branch pushed into an empty repository its default branch", async () => {
    const project = (await owner.api.post("/projects", { name: uniqueName("empty"), namespace_id: group.id })).body;
    expect(project.empty_repo).toBe(true);
    const dir = workDir();
    await gitOk(["init", "-q", "-b", "trunk"], { cwd: dir });
    await commitFile(dir, "first.txt", "first\n");
    await gitOk(["push", "-q", cloneUrl(suite.server, pathOf(project), as(owner)), "trunk"], { cwd: dir });
    const after = (await owner.api.get(`/projects/${project.id}`)).body;
    expect(after).toMatchObject({ default_branch: "trunk", empty_repo: false });
    const clone = path.join(workDir(), "c");
    await gitOk(["clone", "-q", cloneUrl(suite.server, pathOf(project), as(owner)), clone]);
    expect((await gitOk(["symbolic-ref", "HEAD"], { cwd: clone })).trim()).toBe("refs/heads/trunk");
  });
});

describe("push refusals, with GitLab's message on the client's screen", () => {
  const refusal = async (dir: string, args: string[], message: string) => {
    const run = await git(["push", ...args], { cwd: dir });
    expect(run.code, run.stderr).not.toBe(0);
    expect(run.stderr).toContain(`remote: GitLab: ${message}`);
    expect(run.stderr).toContain("(pre-receive hook declined)");
  };

  it("refuses Reporters at the HTTP stage and every protected-branch rule per ref, moving nothing", async () => {
    const project = await newProject();
    const rep = await cloned(project, reporter);
    await commitFile(rep, "r.txt", "r\n");
    const run = await git(["push", "origin", "main"], { cwd: rep });
    expect(run.stderr).toContain("remote: You are not allowed to push code to this project.");

    expect((await owner.api.post(`/projects/${project.id}/protected_branches`, { name: "main", push_access_level: 40 })).status).toBe(201);
    const dir = await cloned(project);
    const before = (await developer.api.get(`/projects/${project.id}/repository/branches/main`)).body.commit.id;
    await commitFile(dir, "d.txt", "d\n");
    await refusal(dir, ["origin", "main"], "You are not allowed to push code to protected branches on this project.");
    await refusal(dir, ["origin", ":main"], "The default branch of a project cannot be deleted.");
    await refusal(dir, ["origin", `HEAD:refs/heads/${"a".repeat(40)}`], "You cannot create a branch with a SHA-1 or SHA-256 branch name.");
    // a refused push moves no ref, the accepted refs of the same push included
    await refusal(dir, ["origin", "HEAD:refs/heads/fine", "main"], "You are not allowed to push code to protected branches on this project.");
    expect((await developer.api.get(`/projects/${project.id}/repository/branches/fine`)).status).toBe(404);
    expect((await developer.api.get(`/projects/${project.id}/repository/branches/main`)).body.commit.id).toBe(before);

    const maint = await cloned(project, owner);
    await gitOk(["reset", "-q", "--hard", "HEAD"], { cwd: maint });
    await commitFile(maint, "m.txt", "m\n");
    await gitOk(["push", "-q", "origin", "main"], { cwd: maint });
    await gitOk(["reset", "-q", "--hard", "HEAD~1"], { cwd: maint });
    await commitFile(maint, "m2.txt", "m2\n");
    await refusal(maint, ["-f", "origin", "main"], "You are not allowed to force push code to a protected branch on this project.");
    expect((await owner.api.post(`/projects/${project.id}/protected_branches`, { name: "release/*", push_access_level: 40 })).status).toBe(201);
    await gitOk(["push", "-q", "origin", "HEAD:refs/heads/release/1"], { cwd: maint });
    await refusal(maint, ["origin", ":release/1"], "You can only delete protected branches using the web interface.");
    await refusal(dir, ["origin", ":release/1"], "You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.");
    await refusal(dir, ["origin", "HEAD:refs/heads/release/2"], "You are not allowed to create protected branches on this project.");
  });

  it("lets a force push through where the rule allows it", async () => {
    const project = await newProject();
    expect((await owner.api.post(`/projects/${project.id}/protected_branches`, { name: "main", push_access_level: 30, allow_force_push: true })).status).toBe(201);
    const dir = await cloned(project);
    await gitOk(["commit", "-q", "--amend", "-m", "Rewritten"], { cwd: dir });
    await gitOk(["push", "-q", "-f", "origin", "main"], { cwd: dir });
  });

  it("refuses tags named as the default branch and bad tag names, and GitLab's own refs", async () => {
    const project = await newProject();
    const dir = await cloned(project);
    await refusal(dir, ["origin", "HEAD:refs/tags/main"], "You cannot use default branch name to create a tag");
    await refusal(dir, ["origin", `HEAD:refs/tags/${"b".repeat(40)}`], "You cannot create a tag with a SHA-1 or SHA-256 tag name.");
    const hidden = await git(["push", "origin", "HEAD:refs/merge-requests/1/head"], { cwd: dir });
    expect(hidden.code).not.toBe(0);
    expect(hidden.stderr).toContain("deny updating a hidden ref");
  });

  it("refuses objects git's fsck refuses (a tree entry named .git), lets through an old history's bad timezone", async () => {
    const project = await newProject();
    const dir = await cloned(project);
    const head = (await gitOk(["rev-parse", "HEAD"], { cwd: dir })).trim();
    const blob = (await gitOk(["hash-object", "-w", "--stdin"], { cwd: dir, input: "x\n" })).trim();
    const dotGit = (await gitOk(["mktree"], { cwd: dir, input: `100644 blob ${blob}\t.git\n` })).trim();
    const evil = (await gitOk(["commit-tree", dotGit, "-p", head, "-m", "a .git entry"], { cwd: dir })).trim();
    const refused = await git(["push", "origin", `${evil}:refs/heads/evil`], { cwd: dir });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/hasDotgit/);
    expect((await developer.api.get(`/projects/${project.id}/repository/branches/evil`)).status).toBe(404);
    const tree = (await gitOk(["rev-parse", "HEAD^{tree}"], { cwd: dir })).trim();
    const oldStyle = `tree ${tree}\nparent ${head}\nauthor Old <old@example.com> 1100000000 +0\ncommitter Old <old@example.com> 1100000000 +0\n\nFrom an old history\n`;
    const old = (await gitOk(["hash-object", "-t", "commit", "--literally", "-w", "--stdin"], { cwd: dir, input: oldStyle })).trim();
    await gitOk(["push", "-q", "origin", `${old}:refs/heads/old`], { cwd: dir });
    expect((await developer.api.get(`/projects/${project.id}/repository/branches/old`)).body.commit.id).toBe(old);
  });

  it("refuses a pack over MAX_PUSH_SIZE_MB, moving nothing", async () => {
    const project = await newProject();
    const dir = await cloned(project);
    const { randomBytes } = await import("node:crypto");
    await commitFile(dir, "big.bin", randomBytes(3 * 1024 * 1024).toString("base64"));
    const run = await git(["push", "origin", "main"], { cwd: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/pack exceeds maximum allowed size/);
    const head = (await developer.api.get(`/projects/${project.id}/repository/branches/main`)).body.commit.id;
    expect(head).toBe((await gitOk(["rev-parse", "HEAD~1"], { cwd: dir })).trim());
  });
});

describe("what a push sets off", () => {
  it("sends the push webhook with the pushed shas, their files and the total count", async () => {
    const project = await newProject();
    expect((await owner.api.post(`/projects/${project.id}/hooks`, { url: `${receiver.url}/push-${project.id}`, push_events: true, tag_push_events: true })).status).toBe(201);
    const dir = await cloned(project);
    const shas: string[] = [];
    for (let i = 0; i < 22; i++) shas.push(await commitFile(dir, `f${i}.txt`, `${i}\n`, `Commit ${i}`));
    const before = (await gitOk(["rev-parse", "origin/main"], { cwd: dir })).trim();
    await gitOk(["push", "-q", "origin", "main"], { cwd: dir });
    const [delivery] = await arrived(`/push-${project.id}`, 1);
    expect(delivery!.json).toMatchObject({
      object_kind: "push", before, after: shas.at(-1), ref: "refs/heads/main", checkout_sha: shas.at(-1), total_commits_count: 22,
      user_username: developer.username, project_id: project.id,
    });
    expect(delivery!.json.commits.map((c: any) => c.id)).toEqual(shas.slice(-20));
    expect(delivery!.json.commits[0]).toMatchObject({ title: "Commit 2", added: ["f2.txt"], modified: [], removed: [], author: { name: "Dev Eloper", email: "dev@example.com" } });
  });

  it("sends no push hooks for more than 3 branches created at once, but records them", async () => {
    const project = await newProject();
    expect((await owner.api.post(`/projects/${project.id}/hooks`, { url: `${receiver.url}/many-${project.id}`, push_events: true })).status).toBe(201);
    const dir = await cloned(project);
    await gitOk(["push", "-q", "origin", "HEAD:refs/heads/b1", "HEAD:refs/heads/b2", "HEAD:refs/heads/b3", "HEAD:refs/heads/b4"], { cwd: dir });
    await gitOk(["push", "-q", "origin", "HEAD:refs/heads/b5"], { cwd: dir });
    const got = await arrived(`/many-${project.id}`, 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.requests.filter((r) => r.path === `/many-${project.id}`).map((r) => r.json.ref)).toEqual(["refs/heads/b5"]);
    expect(got).toHaveLength(1);
    const names = (await developer.api.get(`/projects/${project.id}/repository/branches`)).body.map((b: any) => b.name);
    expect(names).toEqual(["b1", "b2", "b3", "b4", "b5", "main"]);
  });

  it("moves an open merge request's head, sends its update hook with oldrev, and resets approvals on push", async () => {
    const project = await newProject();
    expect((await owner.api.post(`/projects/${project.id}/approvals`, { reset_approvals_on_push: true })).status).toBe(201);
    expect((await owner.api.post(`/projects/${project.id}/hooks`, { url: `${receiver.url}/mr-${project.id}`, merge_requests_events: true, push_events: false })).status).toBe(201);
    const dir = await cloned(project);
    await gitOk(["checkout", "-q", "-b", "feature"], { cwd: dir });
    const first = await commitFile(dir, "f.txt", "1\n");
    await gitOk(["push", "-q", "origin", "feature"], { cwd: dir });
    const mr = (await developer.api.post(`/projects/${project.id}/merge_requests`, { source_branch: "feature", target_branch: "main", title: "Feature" })).body;
    expect(mr.sha).toBe(first);
    expect((await owner.api.post(`/projects/${project.id}/merge_requests/${mr.iid}/approve`)).status).toBe(201);
    expect((await developer.api.get(`/projects/${project.id}/merge_requests/${mr.iid}/approvals`)).body.approved_by).toHaveLength(1);
    receiver.clear();
    const second = await commitFile(dir, "f.txt", "2\n");
    const push = await git(["push", "origin", "feature"], { cwd: dir });
    expect(push.stderr).toContain(`remote: View merge request for feature:`);
    expect(push.stderr).toContain(`${suite.server.url}/${pathOf(project)}/-/merge_requests/${mr.iid}`);
    const after = (await developer.api.get(`/projects/${project.id}/merge_requests/${mr.iid}`)).body;
    expect(after.sha).toBe(second);
    expect((await developer.api.get(`/projects/${project.id}/merge_requests/${mr.iid}/approvals`)).body.approved_by).toEqual([]);
    const update = (await arrived(`/mr-${project.id}`, 1)).find((r) => r.json.object_attributes?.action === "update");
    expect(update?.json.object_attributes).toMatchObject({ oldrev: first, last_commit: { id: second } });
    const commits = (await developer.api.get(`/projects/${project.id}/merge_requests/${mr.iid}/commits`)).body.map((c: any) => c.id);
    expect(commits).toEqual([second, first]);
  });
});

describe("merge requests on what was pushed", () => {
  it("finds a conflict pushed from both sides, refuses the merge, and serves the merge request's refs to git fetch", async () => {
    const project = await newProject();
    const dir = await cloned(project);
    await gitOk(["checkout", "-q", "-b", "topic"], { cwd: dir });
    const topic = await commitFile(dir, "README.md", "from the topic\n");
    await gitOk(["push", "-q", "origin", "topic"], { cwd: dir });
    const mr = (await developer.api.post(`/projects/${project.id}/merge_requests`, { source_branch: "topic", target_branch: "main", title: "Topic" })).body;
    expect(mr).toMatchObject({ merge_status: "can_be_merged", has_conflicts: false });
    await gitOk(["checkout", "-q", "main"], { cwd: dir });
    const main = await commitFile(dir, "README.md", "from main\n");
    await gitOk(["push", "-q", "origin", "main"], { cwd: dir });
    const after = (await developer.api.get(`/projects/${project.id}/merge_requests/${mr.iid}`)).body;
    expect(after).toMatchObject({ merge_status: "cannot_be_merged", has_conflicts: true, detailed_merge_status: "conflict" });
    const refused = await owner.api.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`);
    expect([refused.status, refused.body]).toEqual([422, { message: "Branch cannot be merged" }]);
    const remote = await gitOk(["ls-remote", "origin"], { cwd: dir });
    expect(remote).toContain(`${main}\trefs/heads/main`);
    expect(remote).toContain(`${topic}\trefs/heads/topic`);
    expect(remote).toContain(`${topic}\trefs/merge-requests/${mr.iid}/head`);
    await gitOk(["fetch", "-q", "origin", `refs/merge-requests/${mr.iid}/head:refs/remotes/origin/mr-${mr.iid}`], { cwd: dir });
    expect((await gitOk(["rev-parse", `refs/remotes/origin/mr-${mr.iid}`], { cwd: dir })).trim()).toBe(topic);
    // GitLab's own refs take no push
    const push = await git(["push", "origin", `HEAD:refs/merge-requests/${mr.iid}/head`], { cwd: dir });
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain("deny updating a hidden ref");
  });
});

describe("bad requests", () => {
  it("answers git's POSTs with the wrong content type 415, and refuses unknown services", async () => {
    const project = await newProject({ visibility: "public" });
    const post = await fetch(`${suite.server.url}/${pathOf(project)}.git/git-upload-pack`, { method: "POST", body: "0000", headers: { "Content-Type": "text/plain" } });
    expect(post.status).toBe(415);
    const dumb = await fetch(`${suite.server.url}/${pathOf(project)}.git/info/refs`, { headers: { Authorization: `Basic ${Buffer.from(`x:${developer.token}`).toString("base64")}` } });
    expect(dumb.status).toBe(403);
    expect(await dumb.text()).toBe("The command you're trying to execute is not allowed.\n");
  });

  it("ends malformed pkt-lines with git's error and leaves no git process behind, gzip bodies included", async () => {
    const project = await newProject({ visibility: "public" });
    for (const body of [Buffer.from("zzzz garbage"), gzipSync(Buffer.from("0032want 0000000000000000000000000000000000000000\n0000"))]) {
      const res = await fetch(`${suite.server.url}/${pathOf(project)}.git/git-upload-pack`, {
        method: "POST",
        body,
        headers: { "Content-Type": "application/x-git-upload-pack-request", ...(body[0] === 0x1f ? { "Content-Encoding": "gzip" } : {}) },
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    await expect.poll(() => serverGitProcesses(suite.server)).toEqual([]);
    // the repository is intact
    await gitOk(["ls-remote", cloneUrl(suite.server, pathOf(project))]);
  });

  it("kills receive-pack when the client disconnects mid-push, keeping refs and rows as they were", async () => {
    const project = await newProject();
    const before = (await developer.api.get(`/projects/${project.id}/repository/branches/main`)).body.commit.id;
    const controller = new AbortController();
    const body = new ReadableStream({
      start(stream) {
        const line = `${before} ${"1".repeat(40)} refs/heads/main\0report-status\n`;
        stream.enqueue(new TextEncoder().encode(`${(line.length + 4).toString(16).padStart(4, "0")}${line}0000PACK`));
        setTimeout(() => controller.abort(), 300);
      },
    });
    await fetch(`${suite.server.url}/${pathOf(project)}.git/git-receive-pack`, {
      method: "POST", body, duplex: "half", signal: controller.signal,
      headers: { "Content-Type": "application/x-git-receive-pack-request", Authorization: `Basic ${Buffer.from(`x:${developer.token}`).toString("base64")}` },
    } as RequestInit).catch(() => {});
    await expect.poll(() => serverGitProcesses(suite.server), { timeout: 5000 }).toEqual([]);
    expect((await developer.api.get(`/projects/${project.id}/repository/branches/main`)).body.commit.id).toBe(before);
    await gitOk(["ls-remote", cloneUrl(suite.server, pathOf(project), as(developer))]);
  });
});

describe("moved projects", () => {
  it("serves a renamed project at its old path and says after a push where it went", async () => {
    const project = await newProject();
    const oldPath = pathOf(project);
    const dir = await cloned(project);
    const renamed = await owner.api.put(`/projects/${project.id}`, { path: `${project.path}-moved` });
    expect(renamed.status).toBe(200);
    await commitFile(dir, "moved.txt", "m\n");
    const push = await git(["push", "origin", "main"], { cwd: dir });
    expect(push.code, push.stderr).toBe(0);
    expect(push.stderr).toContain(`remote: Project '${oldPath}' was moved to '${renamed.body.path_with_namespace}'.`);
    expect((await restClient(suite.server, developer.token).get(`/projects/${enc(renamed.body.path_with_namespace)}/repository/commits?per_page=1`)).body[0].title).toBe("Change moved.txt");
  });
});
