// Branches and commits through /api/v4: the initial commit of a new project, who may read and
// write the repository (every role, on private and public projects, repository feature levels),
// GitLab's errors for names, refs and file actions, protected branch push rules (exact and
// wildcard), history order and pagination, and the push events a branch change publishes.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BLANK_SHA, subscribe, type PushedCommit, type PushEvent } from "../../src/domain/shared/events.js";
import { parseLinks } from "../helpers/api.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { createProject, createUser, uniq } from "../helpers/factories.js";
import { commitFile, commitFiles, createBranch, protectBranch } from "../helpers/repository.js";
import { ACTORS, clientOf, createTeamProject, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let priv: any; // private project of the team
let pub: any; // public project of the team

const PUSH_FORBIDDEN = { message: "403 Forbidden - You are not allowed to push into this branch" };
const failure = (message: string) => ({ message });

const api = (actor: Actor) => clientOf(t, team, actor);

const branchesUrl = (p: any) => `/projects/${p.id}/repository/branches`;
const commitsUrl = (p: any) => `/projects/${p.id}/repository/commits`;
const headOf = async (p: any, branch: string) => (await t.root.get(`${branchesUrl(p)}/${encodeURIComponent(branch)}`)).body.commit.id;

/** A push event with the commits it brought, read when it was published. */
type SeenPush = PushEvent & { commits: PushedCommit[] };
const pushes: SeenPush[] = [];
/** What a push event says, with its commits by sha. */
const pushed = () => pushes.map((p) => ({ projectId: p.projectId, branch: p.branch, before: p.before, after: p.after, commitShas: p.commits.map((c) => c.sha), actorId: p.actorId }));
subscribe("push", async (_tx, event) => {
  pushes.push({ ...event, commits: (await event.pushed()).commits });
});

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  ({ privateProject: priv, publicProject: pub } = team);
});

afterEach(() => {
  pushes.length = 0;
});

describe("a new project", () => {
  it("has its default branch with an initial commit by the creator adding README.md", async () => {
    const user = await createUser(t);
    const project = await createProject(user.api);
    const branches = await user.api.get(branchesUrl(project));
    expect(branches.status).toBe(200);
    expect(branches.body.map((b: any) => [b.name, b.default])).toEqual([["main", true]]);
    const commit = branches.body[0].commit;
    expect(commit).toMatchObject({
      title: "Initial commit", message: "Initial commit", parent_ids: [],
      author_name: `User ${user.username}`, author_email: `${user.username}@example.com`,
      committer_name: `User ${user.username}`, committer_email: `${user.username}@example.com`,
    });
    const history = await user.api.get(commitsUrl(project));
    expect(history.body.map((c: any) => c.id)).toEqual([commit.id]);
  });

  it("uses default_branch when given", async () => {
    const project = await createProject(t.root, { default_branch: "trunk" });
    const branches = await t.root.get(branchesUrl(project));
    expect(branches.body.map((b: any) => [b.name, b.default])).toEqual([["trunk", true]]);
  });

  it("publishes the creation of the default branch as a push", async () => {
    const project = await createProject(team.owner.api);
    const head = await headOf(project, "main");
    expect(pushed()).toEqual([{ projectId: project.id, branch: "main", before: BLANK_SHA, after: head, commitShas: [head], actorId: team.owner.id }]);
  });
});

describe("reading the repository, per actor", () => {
  const readers: Record<"private" | "public", Record<Actor, number>> = {
    private: { anonymous: 404, nonMember: 404, guest: 403, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
    public: { anonymous: 200, nonMember: 200, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
  };
  const cases = (["private", "public"] as const).flatMap((kind) => ACTORS.map((actor) => [kind, actor, readers[kind][actor]] as const));

  it.each(cases)("%s project, %s: branches, branch, commits and commit answer %i", async (kind, actor, status) => {
    const project = kind === "private" ? priv : pub;
    const sha = await headOf(project, "main");
    const urls = [branchesUrl(project), `${branchesUrl(project)}/main`, commitsUrl(project), `${commitsUrl(project)}/${sha}`];
    for (const url of urls) {
      const res = await api(actor).get(url);
      expect(res.status, url).toBe(status);
      if (status === 404) expect(res.body).toEqual(PROJECT_NOT_FOUND);
      if (status === 403) expect(res.body).toEqual(FORBIDDEN);
    }
  });

  it("hides a members-only repository of a public project from non-members (404 Repository)", async () => {
    const project = await createTeamProject(team, { visibility: "public", repository_access_level: "private" });
    for (const actor of ["anonymous", "nonMember"] as const) {
      const res = await api(actor).get(branchesUrl(project));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Repository Not Found" });
    }
    for (const actor of ["guest", "admin"] as const) expect((await api(actor).get(branchesUrl(project))).status).toBe(200);
  });

  it("answers 404 Repository to everyone, admins included, when the repository is disabled", async () => {
    const project = await createTeamProject(team, { visibility: "public", repository_access_level: "disabled" });
    for (const actor of ["anonymous", "owner", "admin"] as const) {
      const res = await api(actor).get(commitsUrl(project));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Repository Not Found" });
    }
  });
});

describe("GET /projects/:id/repository/branches", () => {
  it("lists branches by name with GitLab's Branch entity", async () => {
    const project = await createTeamProject(team);
    const main = await headOf(project, "main");
    await createBranch(team.developer.api, project.id, "zeta");
    await createBranch(team.developer.api, project.id, "alpha/one");
    const res = await team.reporter.api.get(branchesUrl(project), { query: { per_page: 2 } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total")).toBe("3");
    expect(res.headers.get("x-total-pages")).toBe("2");
    expect(parseLinks(res.headers.get("link")).next).toContain("page=2");
    expect(res.body.map((b: any) => b.name)).toEqual(["alpha/one", "main"]);
    expect(res.body[0]).toEqual({
      name: "alpha/one",
      commit: expect.objectContaining({ id: main, short_id: main.slice(0, 8), title: "Initial commit" }),
      merged: false, protected: false, developers_can_push: false, developers_can_merge: false,
      can_push: false, default: false, web_url: `${BASE_URL}/${project.path_with_namespace}/-/tree/alpha/one`,
    });
    const page2 = await team.reporter.api.get(branchesUrl(project), { query: { per_page: 2, page: 2 } });
    expect(page2.body.map((b: any) => b.name)).toEqual(["zeta"]);
  });

  it("filters with search (substring, ^prefix, suffix$), ignoring case", async () => {
    const project = await createTeamProject(team);
    for (const name of ["feature-one", "fix-feature", "other"]) await createBranch(team.developer.api, project.id, name);
    const names = async (search: string) => (await team.developer.api.get(branchesUrl(project), { query: { search } })).body.map((b: any) => b.name);
    expect(await names("FEATURE")).toEqual(["feature-one", "fix-feature"]);
    expect(await names("^feat")).toEqual(["feature-one"]);
    expect(await names("feature$")).toEqual(["fix-feature"]);
  });

  it("shows can_push per caller and merged once the default branch moved past the branch", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    await createBranch(team.developer.api, project.id, "old");
    const canPush = async (actor: Actor) => (await api(actor).get(`${branchesUrl(project)}/old`)).body.can_push;
    expect(await Promise.all(ACTORS.map(canPush))).toEqual([false, false, false, false, true, true, true, true]);
    expect((await t.root.get(`${branchesUrl(project)}/old`)).body.merged).toBe(false);
    await commitFile(team.developer.api, project.id, "main");
    const list = (await t.root.get(branchesUrl(project))).body;
    expect(list.map((b: any) => [b.name, b.merged])).toEqual([["main", false], ["old", true]]);
  });
});

describe("GET /projects/:id/repository/branches/:branch", () => {
  it("finds a name with an encoded slash; an unencoded slash matches no route", async () => {
    const project = await createTeamProject(team);
    await createBranch(team.developer.api, project.id, "feature/x");
    const res = await team.reporter.api.get(`${branchesUrl(project)}/feature%2Fx`, { raw: true });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("feature/x");
    const unencoded = await team.reporter.api.get(`${branchesUrl(project)}/feature/x`, { raw: true });
    expect(unencoded.status).toBe(404);
    expect(unencoded.body).toEqual({ error: "404 Not Found" });
  });

  it("answers 404 Branch Not Found for a missing branch and 400 for an invalid name", async () => {
    const missing = await team.reporter.api.get(`${branchesUrl(priv)}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Branch Not Found" });
    const invalid = await team.reporter.api.get(`${branchesUrl(priv)}/branch*`, { raw: true });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual(failure("The branch refname is invalid"));
  });
});

describe("POST /projects/:id/repository/branches", () => {
  const writers: Record<"private" | "public", Record<Actor, number>> = {
    private: { anonymous: 401, nonMember: 404, guest: 403, reporter: 403, developer: 201, maintainer: 201, owner: 201, admin: 201 },
    public: { anonymous: 401, nonMember: 403, guest: 403, reporter: 403, developer: 201, maintainer: 201, owner: 201, admin: 201 },
  };
  const cases = (["private", "public"] as const).flatMap((kind) => ACTORS.map((actor) => [kind, actor, writers[kind][actor]] as const));

  it.each(cases)("%s project, %s: %i", async (kind, actor, status) => {
    const project = kind === "private" ? priv : pub;
    const branch = uniq("b");
    const res = await api(actor).post(branchesUrl(project), { branch, ref: "main" });
    expect(res.status).toBe(status);
    const bodies: Record<number, unknown> = { 401: UNAUTHORIZED, 403: FORBIDDEN, 404: PROJECT_NOT_FOUND };
    if (status !== 201) expect(res.body).toEqual(bodies[status]);
    else {
      expect(res.body).toMatchObject({ name: branch, default: false, protected: false, can_push: true });
      expect(res.body.commit.id).toBe(await headOf(project, "main"));
    }
  });

  it("creates from a sha, an abbreviated sha or another branch, and publishes a push", async () => {
    const project = await createTeamProject(team);
    const first = await headOf(project, "main");
    const second = (await commitFile(team.developer.api, project.id, "main")).id;
    pushes.length = 0;
    for (const [branch, ref, expected] of [["from-sha", first, first], ["from-short", second.slice(0, 8), second], ["from-branch", "from-sha", first]]) {
      const res = await team.developer.api.post(branchesUrl(project), { branch, ref });
      expect(res.status, res.text).toBe(201);
      expect(res.body.commit.id).toBe(expected);
    }
    expect(pushes.map((p) => [p.branch, p.before, p.after, p.commits.map((c) => c.sha), p.actorId])).toEqual([
      ["from-sha", BLANK_SHA, first, [], team.developer.id],
      ["from-short", BLANK_SHA, second, [], team.developer.id],
      ["from-branch", BLANK_SHA, first, [], team.developer.id],
    ]);
  });

  it.each([
    ["no params", {}, { error: "branch is missing, ref is missing" }],
    ["no ref", { branch: "x" }, { error: "ref is missing" }],
    ["empty branch and ref", { branch: "", ref: "" }, { error: "branch is empty, ref is empty" }],
    ["an unknown ref", { branch: "new-one", ref: "nope" }, failure("Failed to create branch 'new-one': invalid reference name 'nope'")],
    ["an existing branch", { branch: "main", ref: "main" }, failure("Branch already exists")],
    ["a 40-hex name", { branch: "a".repeat(40), ref: "main" }, failure("You cannot create a branch with a 40-character hexadecimal branch name.")],
  ])("answers 400 for %s", async (_case, body, expected) => {
    const res = await team.developer.api.post(branchesUrl(priv), body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });

  it.each(["a..b", "-lead", "x.lock", "a b", "HEAD", "trail/", "refs/heads/x", ".hidden", "a~b", "a:b", "a?b", "a[b", "a\\b", "a@{b", "a//b", "dot."])(
    "refuses the invalid name %j with Branch name is invalid",
    async (branch) => {
      const res = await team.developer.api.post(branchesUrl(priv), { branch, ref: "main" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(failure("Branch name is invalid"));
    },
  );

  it("lets only those who may push or merge create a protected branch (wildcards included)", async () => {
    const project = await createTeamProject(team);
    await protectBranch(team.maintainer.api, project.id, "release/*", { push_access_level: 40, merge_access_level: 40 });
    const denied = await team.developer.api.post(branchesUrl(project), { branch: "release/1", ref: "main" });
    expect(denied.status).toBe(400);
    expect(denied.body).toEqual(failure("You are not allowed to create protected branches on this project."));
    expect((await team.maintainer.api.post(branchesUrl(project), { branch: "release/1", ref: "main" })).status).toBe(201);
    await protectBranch(team.maintainer.api, project.id, "stable-*", { push_access_level: 40, merge_access_level: 30 });
    const merger = await team.developer.api.post(branchesUrl(project), { branch: "stable-2", ref: "main" });
    expect(merger.status).toBe(201);
    expect(merger.body).toMatchObject({ protected: true, developers_can_merge: true, developers_can_push: false, can_push: false });
  });
});

describe("DELETE /projects/:id/repository/branches/:branch", () => {
  const deleters: Record<Actor, number> = {
    anonymous: 401, nonMember: 404, guest: 403, reporter: 403, developer: 204, maintainer: 204, owner: 204, admin: 204,
  };

  it.each(ACTORS)("%s on a private project", async (actor) => {
    const branch = uniq("del");
    await createBranch(t.root, priv.id, branch);
    const res = await api(actor).delete(`${branchesUrl(priv)}/${branch}`);
    expect(res.status).toBe(deleters[actor]);
    const remaining = await t.root.get(`${branchesUrl(priv)}/${branch}`);
    expect(remaining.status).toBe(deleters[actor] === 204 ? 404 : 200);
  });

  it("deletes an encoded name and publishes the push with after = blank sha", async () => {
    const branch = `gone/${uniq("x")}`;
    const head = (await createBranch(team.developer.api, priv.id, branch)).commit.id;
    pushes.length = 0;
    const res = await team.developer.api.delete(`${branchesUrl(priv)}/${encodeURIComponent(branch)}`, { raw: true });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(pushed()).toEqual([{ projectId: priv.id, branch, before: head, after: BLANK_SHA, commitShas: [], actorId: team.developer.id }]);
  });

  it("refuses the default branch, a missing branch, an invalid name", async () => {
    const main = await t.root.delete(`${branchesUrl(priv)}/main`);
    expect(main.status).toBe(400);
    expect(main.body).toEqual(failure("The default branch of a project cannot be deleted."));
    const missing = await team.developer.api.delete(`${branchesUrl(priv)}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Branch Not Found" });
    const invalid = await team.developer.api.delete(`${branchesUrl(priv)}/a..b`, { raw: true });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual(failure("The branch refname is invalid"));
  });

  it("lets only Maintainers delete a protected branch", async () => {
    const project = await createTeamProject(team);
    await protectBranch(team.maintainer.api, project.id, "keep-*", { push_access_level: 30, merge_access_level: 30 });
    await createBranch(team.developer.api, project.id, "keep-1");
    const denied = await team.developer.api.delete(`${branchesUrl(project)}/keep-1`);
    expect(denied.status).toBe(400);
    expect(denied.body).toEqual(
      failure("You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch."),
    );
    expect((await team.maintainer.api.delete(`${branchesUrl(project)}/keep-1`)).status).toBe(204);
  });

  it("answers 412 when the head commit is newer than If-Unmodified-Since", async () => {
    const branch = uniq("cond");
    await createBranch(team.developer.api, priv.id, branch);
    const res = await team.developer.api.delete(`${branchesUrl(priv)}/${branch}`, { headers: { "If-Unmodified-Since": "Mon, 01 Jan 2001 00:00:00 GMT" } });
    expect(res.status).toBe(412);
    expect(res.body).toEqual({ message: "412 Precondition Failed" });
  });
});

describe("POST /projects/:id/repository/commits", () => {
  const committers: Record<"private" | "public", Record<Actor, number>> = {
    private: { anonymous: 401, nonMember: 404, guest: 403, reporter: 403, developer: 201, maintainer: 201, owner: 201, admin: 201 },
    public: { anonymous: 401, nonMember: 403, guest: 403, reporter: 403, developer: 201, maintainer: 201, owner: 201, admin: 201 },
  };
  const cases = (["private", "public"] as const).flatMap((kind) => ACTORS.map((actor) => [kind, actor, committers[kind][actor]] as const));
  const create = (file: string) => [{ action: "create", file_path: file, content: "one\ntwo\n" }];

  it.each(cases)("%s project, %s: %i", async (kind, actor, status) => {
    const project = kind === "private" ? priv : pub;
    const res = await api(actor).post(commitsUrl(project), { branch: "main", commit_message: "Add", actions: create(uniq("f")) });
    expect(res.status).toBe(status);
    // a guest of a private project may not read the code at all: plain 403 before the push check
    const forbidden = kind === "private" && actor === "guest" ? FORBIDDEN : PUSH_FORBIDDEN;
    const bodies: Record<number, unknown> = { 401: UNAUTHORIZED, 403: forbidden, 404: PROJECT_NOT_FOUND };
    if (status !== 201) expect(res.body).toEqual(bodies[status]);
    else expect(await headOf(project, "main")).toBe(res.body.id);
  });

  it("creates one commit on the branch and answers GitLab's CommitDetail", async () => {
    const project = await createTeamProject(team);
    const parent = await headOf(project, "main");
    pushes.length = 0;
    const res = await team.developer.api.post(commitsUrl(project), {
      branch: "main",
      commit_message: "Add docs\n\nWith a body",
      actions: [
        { action: "create", file_path: "docs/a.md", content: "a\nb\nc" },
        { action: "create", file_path: "docs/b.md", content: Buffer.from("x\ny\n").toString("base64"), encoding: "base64" },
      ],
    });
    expect(res.status, res.text).toBe(201);
    const dev = team.developer;
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      short_id: res.body.id.slice(0, 8),
      created_at: expect.any(String),
      parent_ids: [parent],
      title: "Add docs",
      message: "Add docs\n\nWith a body",
      author_name: `User ${dev.username}`, author_email: `${dev.username}@example.com`, authored_date: res.body.created_at,
      committer_name: `User ${dev.username}`, committer_email: `${dev.username}@example.com`, committed_date: res.body.created_at,
      trailers: {}, extended_trailers: {},
      web_url: `${BASE_URL}/${project.path_with_namespace}/-/commit/${res.body.id}`,
      stats: { additions: 5, deletions: 0, total: 5 },
      status: null, project_id: project.id, last_pipeline: null,
    });
    expect(await headOf(project, "main")).toBe(res.body.id);
    expect(pushed()).toEqual([{ projectId: project.id, branch: "main", before: parent, after: res.body.id, commitShas: [res.body.id], actorId: dev.id }]);
  });

  it("takes author_name and author_email for the author; the committer stays the caller", async () => {
    const res = await team.maintainer.api.post(commitsUrl(priv), {
      branch: "main", commit_message: "Authored", actions: create(uniq("f")), author_name: "Jane Doe", author_email: "jane@example.com",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      author_name: "Jane Doe", author_email: "jane@example.com",
      committer_name: `User ${team.maintainer.username}`, committer_email: `${team.maintainer.username}@example.com`,
    });
  });

  it("applies the actions in order: update, move, delete and chmod of files that exist", async () => {
    const project = await createTeamProject(team);
    await commitFiles(team.developer.api, project.id, "main", [
      { action: "create", file_path: "a.txt", content: "a" },
      { action: "update", file_path: "a.txt", content: "a2" },
    ]);
    const res = await team.developer.api.post(commitsUrl(project), {
      branch: "main",
      commit_message: "Shuffle",
      actions: [
        { action: "move", previous_path: "a.txt", file_path: "moved/a.txt" },
        { action: "chmod", file_path: "README.md", execute_filemode: true },
        { action: "delete", file_path: "README.md" },
        { action: "create", file_path: "a.txt", content: "again" },
      ],
    });
    expect(res.status, res.text).toBe(201);
    const again = await team.developer.api.post(commitsUrl(project), {
      branch: "main", commit_message: "Again", actions: [{ action: "update", file_path: "moved/a.txt", content: "x" }, { action: "delete", file_path: "a.txt" }],
    });
    expect(again.status, again.text).toBe(201);
  });

  it.each([
    ["no params", {}, { error: "branch is missing, commit_message is missing, actions is missing" }],
    ["an empty branch", { branch: "", commit_message: "m", actions: [] }, { error: "branch is empty" }],
    ["an unknown action", { actions: [{ action: "rename", file_path: "x" }] }, { error: "actions[0][action] does not have a valid value" }],
    ["no action", { actions: [{ file_path: "x" }] }, { error: "actions[0][action] is missing" }],
    ["no file_path", { actions: [{ action: "create" }] }, { error: "actions[0][file_path] is missing" }],
    ["update without content", { actions: [{ action: "update", file_path: "README.md" }] }, { error: "actions[0][content] is missing" }],
    ["move without previous_path", { actions: [{ action: "move", file_path: "x" }] }, { error: "actions[0][previous_path] is missing" }],
    ["a bad encoding", { actions: [{ action: "create", file_path: "x", encoding: "hex" }] }, { error: "actions[0][encoding] does not have a valid value" }],
    ["two bad actions", { actions: [{ action: "create" }, { action: "x", file_path: "y" }] }, { error: "actions[0][file_path] is missing, actions[1][action] does not have a valid value" }],
    ["create of an existing file", { actions: [{ action: "create", file_path: "README.md" }] }, failure("A file with this name already exists")],
    ["create over a directory", { actions: [{ action: "create", file_path: "d/f" }, { action: "create", file_path: "d" }] }, failure("A directory with this name already exists")],
    ["update of a missing file", { actions: [{ action: "update", file_path: "missing.md", content: "x" }] }, failure("A file with this name doesn't exist")],
    ["delete of a missing file", { actions: [{ action: "delete", file_path: "missing.md" }] }, failure("A file with this name doesn't exist")],
    ["move of a missing file", { actions: [{ action: "move", previous_path: "missing.md", file_path: "b.md" }] }, failure("A file with this name doesn't exist")],
    ["move onto an existing file", { actions: [{ action: "create", file_path: "n.md" }, { action: "move", previous_path: "n.md", file_path: "README.md" }] }, failure("A file with this name already exists")],
    ["a path out of the repository", { actions: [{ action: "create", file_path: "../etc/passwd" }] }, failure("Path cannot include directory traversal")],
    ["a path with //", { actions: [{ action: "create", file_path: "a//b" }] }, failure("invalid path: 'a//b'")],
    ["a branch that does not exist", { branch: "nowhere" }, failure("You can only create or edit files when you are on a branch")],
    ["a start_branch that does not exist", { branch: "new", start_branch: "nowhere" }, failure("You can only create or edit files when you are on a branch")],
    ["a new branch that already exists", { branch: "taken", start_branch: "main" }, failure("A branch called 'taken' already exists. Switch to that branch in order to make changes")],
    ["an invalid new branch name", { branch: "bad..name", start_branch: "main" }, failure("Something went wrong when we tried to create 'bad..name' for you: Branch name is invalid")],
    ["a 40-hex new branch name", { branch: "b".repeat(40), start_branch: "main" }, failure("You cannot create a branch with a 40-character hexadecimal branch name.")],
  ])("answers 400 for %s and leaves the branch alone", async (_case, body, expected) => {
    const project = await createTeamProject(team);
    await createBranch(team.developer.api, project.id, "taken");
    const head = await headOf(project, "main");
    const defaults = { branch: "main", commit_message: "Change", actions: [] };
    const res = await team.developer.api.post(commitsUrl(project), _case === "no params" ? {} : { ...defaults, ...body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
    expect(await headOf(project, "main")).toBe(head);
  });

  it("creates a new branch from start_branch", async () => {
    const project = await createTeamProject(team);
    const base = await headOf(project, "main");
    pushes.length = 0;
    const res = await team.developer.api.post(commitsUrl(project), {
      branch: "feature/new", start_branch: "main", commit_message: "Start", actions: create("f.txt"),
    });
    expect(res.status).toBe(201);
    expect(res.body.parent_ids).toEqual([base]);
    expect(await headOf(project, "feature/new")).toBe(res.body.id);
    expect(await headOf(project, "main")).toBe(base);
    expect(pushes.map((p) => [p.branch, p.before, p.after])).toEqual([["feature/new", BLANK_SHA, res.body.id]]);
  });

  it("leaves stats out with stats=false", async () => {
    const res = await team.developer.api.post(commitsUrl(priv), { branch: "main", commit_message: "m", actions: create(uniq("f")), stats: false });
    expect(res.status).toBe(201);
    // Entities::CommitDetail exposes stats `if: options[:stats]`: the key is absent
    expect(res.body).not.toHaveProperty("stats");
  });
});

describe("protected branch push rules", () => {
  const commit = (actor: Actor, project: any, branch: string) =>
    api(actor).post(commitsUrl(project), { branch, commit_message: "m", actions: [{ action: "create", file_path: uniq("f") }] });

  it("needs the push level of the rule: Maintainers", async () => {
    const project = await createTeamProject(team);
    await protectBranch(team.maintainer.api, project.id, "main", { push_access_level: 40 });
    const statuses = await Promise.all((["developer", "maintainer", "owner", "admin"] as const).map(async (a) => (await commit(a, project, "main")).status));
    expect(statuses).toEqual([403, 201, 201, 201]);
    expect((await commit("developer", project, "main")).body).toEqual(PUSH_FORBIDDEN);
    const branch = (await team.developer.api.get(`${branchesUrl(project)}/main`)).body;
    expect(branch).toMatchObject({ protected: true, developers_can_push: false, can_push: false });
  });

  it("lets Developers push when the rule says Developers + Maintainers, and no one when it says No one", async () => {
    const project = await createTeamProject(team);
    await protectBranch(team.maintainer.api, project.id, "main", { push_access_level: 30 });
    expect((await commit("developer", project, "main")).status).toBe(201);
    expect((await team.developer.api.get(`${branchesUrl(project)}/main`)).body).toMatchObject({ developers_can_push: true, can_push: true });
    const closed = await createTeamProject(team);
    await protectBranch(team.owner.api, closed.id, "main", { push_access_level: 0 });
    for (const actor of ["maintainer", "owner", "admin"] as const) expect((await commit(actor, closed, "main")).status).toBe(403);
  });

  it("applies wildcard rules to every matching branch, and the most permissive matching rule wins", async () => {
    const project = await createTeamProject(team);
    await protectBranch(team.maintainer.api, project.id, "release/*", { push_access_level: 40 });
    for (const name of ["release/1", "release/2/rc", "feature/1"]) await createBranch(team.maintainer.api, project.id, name);
    expect((await commit("developer", project, "release/1")).status).toBe(403);
    expect((await commit("developer", project, "release/2/rc")).status).toBe(403);
    expect((await commit("developer", project, "feature/1")).status).toBe(201);
    expect((await commit("maintainer", project, "release/1")).status).toBe(201);
    await protectBranch(team.maintainer.api, project.id, "release/1", { push_access_level: 30 });
    expect((await commit("developer", project, "release/1")).status).toBe(201);
    expect((await commit("developer", project, "release/2/rc")).status).toBe(403);
  });

  it("lets a user named in allowed_to_push push", async () => {
    const project = await createTeamProject(team);
    await protectBranch(team.maintainer.api, project.id, "main", { allowed_to_push: [{ user_id: team.developer.id }] });
    expect((await commit("developer", project, "main")).status).toBe(201);
    expect((await commit("maintainer", project, "main")).status).toBe(403);
  });
});

describe("GET /projects/:id/repository/commits", () => {
  it("lists the history of the default branch, newest first, paginated without totals", async () => {
    const project = await createTeamProject(team);
    const first = await headOf(project, "main");
    const second = (await commitFile(team.developer.api, project.id, "main")).id;
    const third = (await commitFile(team.developer.api, project.id, "main")).id;
    const all = await team.reporter.api.get(commitsUrl(project));
    expect(all.body.map((c: any) => c.id)).toEqual([third, second, first]);
    expect(all.body[0]).not.toHaveProperty("stats");
    const page = await team.reporter.api.get(commitsUrl(project), { query: { per_page: 2 } });
    expect(page.body.map((c: any) => c.id)).toEqual([third, second]);
    expect(page.headers.get("x-next-page")).toBe("2");
    expect(page.headers.get("x-total")).toBeNull();
    const next = await team.reporter.api.get(parseLinks(page.headers.get("link")).next!.slice(`${BASE_URL}/api/v4`.length), { raw: true });
    expect(next.body.map((c: any) => c.id)).toEqual([first]);
  });

  it("follows ref_name (a branch or a sha) and lists nothing for an unknown ref", async () => {
    const project = await createTeamProject(team);
    const first = await headOf(project, "main");
    await createBranch(team.developer.api, project.id, "side");
    const side = (await commitFile(team.developer.api, project.id, "side")).id;
    await commitFile(team.developer.api, project.id, "main");
    const ids = async (ref_name: string) => (await team.reporter.api.get(commitsUrl(project), { query: { ref_name } })).body.map((c: any) => c.id);
    expect(await ids("side")).toEqual([side, first]);
    expect(await ids(side)).toEqual([side, first]);
    const unknown = await team.reporter.api.get(commitsUrl(project), { query: { ref_name: "nope" } });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual([]);
  });
});

describe("GET /projects/:id/repository/commits/:sha", () => {
  it("finds a commit by sha, abbreviated sha or branch name", async () => {
    const project = await createTeamProject(team);
    await createBranch(team.developer.api, project.id, "topic/x");
    const made = await commitFile(team.developer.api, project.id, "topic/x");
    for (const ref of [made.id, made.id.slice(0, 7), "topic%2Fx"]) {
      const res = await team.reporter.api.get(`${commitsUrl(project)}/${ref}`, { raw: true });
      expect(res.status, ref).toBe(200);
      expect(res.body).toEqual(made);
    }
  });

  it("answers 404 Commit Not Found for anything else, and no stats with stats=false", async () => {
    for (const ref of ["0".repeat(40), "nope", "abc"]) {
      const res = await team.reporter.api.get(`${commitsUrl(priv)}/${ref}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Commit Not Found" });
    }
    const res = await team.reporter.api.get(`${commitsUrl(priv)}/main`, { query: { stats: false } });
    expect(res.body).not.toHaveProperty("stats");
  });
});

describe("refs and paths that git could take for something else", () => {
  it("never hands git a ref that reads as an option or as revision syntax", async () => {
    const project = await createTeamProject(team);
    const dev = team.developer.api;
    for (const ref of ["--upload-pack=touch /tmp/forgeline-pwned", "-x", ":/Initial", "main@{1}", "HEAD:README.md", "main\n--all"]) {
      const branch = await dev.post(branchesUrl(project), { branch: `b-${Math.random().toString(36).slice(2)}`, ref });
      expect(branch.status, ref).toBe(400);
      expect(branch.body.message, ref).toMatch(/invalid reference name/);
      expect((await dev.get(commitsUrl(project), { query: { ref_name: ref } })).body, ref).toEqual([]);
      expect((await dev.get(`${commitsUrl(project)}/${encodeURIComponent(ref)}`)).status, ref).toBe(404);
      expect((await dev.post(`/projects/${project.id}/repository/tags`, { tag_name: `t-${Math.random().toString(36).slice(2)}`, ref })).body.message, ref)
        .toBe(`Target ${ref} is invalid`);
    }
    const { existsSync } = await import("node:fs");
    expect(existsSync("/tmp/forgeline-pwned")).toBe(false);
  });

  it("takes the ancestry suffixes GitLab takes (main~1, main^)", async () => {
    const project = await createTeamProject(team);
    const first = await headOf(project, "main");
    await commitFile(team.developer.api, project.id, "main");
    for (const ref of ["main~1", "main^", "main^1"]) {
      expect((await team.developer.api.get(`${commitsUrl(project)}/${encodeURIComponent(ref)}`)).body.id, ref).toBe(first);
    }
  });
});
