// A crash between git moving refs and the database recording them: the repair brings the branch
// and tag rows in step with the refs and fires the missed push events once, naming who pushed when
// the pending update says so; refs moved behind the server's back are found at start.
import { execFileSync } from "node:child_process";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { reconcileAllRepositories, repairPendingRefUpdates } from "../../src/domain/repository/reconcile.js";
import { subscribe, type PushedCommit, type PushEvent, type TagPushEvent } from "../../src/domain/shared/events.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createProject, createUser, type TestUser } from "../helpers/factories.js";

let t: TestApp;
let user: TestUser;
const pushes: (PushEvent & { commits: PushedCommit[] })[] = [];
const tagPushes: (TagPushEvent & { commitSha: string | null })[] = [];
subscribe("push", async (_tx, event) => void pushes.push({ ...event, commits: (await event.pushed()).commits }));
subscribe("tag_push", async (_tx, event) => void tagPushes.push({ ...event, commitSha: (await event.commit())?.sha ?? null }));

beforeAll(async () => {
  t = await startTestApp();
  user = await createUser(t);
});
afterEach(() => {
  pushes.length = 0;
  tagPushes.length = 0;
});

const git = (projectId: number, ...args: string[]) =>
  execFileSync("git", [`--git-dir=${t.services.git.pathOf(projectId)}`, ...args], {
    encoding: "utf8",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_AUTHOR_NAME: "A", GIT_AUTHOR_EMAIL: "a@x", GIT_COMMITTER_NAME: "A", GIT_COMMITTER_EMAIL: "a@x" },
  }).trim();

/** A commit on top of `parent`, written and the ref moved by git alone (the database never heard of it). */
function commitBehindTheServer(projectId: number, parent: string, ref: string): string {
  const tree = git(projectId, "rev-parse", `${parent}^{tree}`);
  const sha = git(projectId, "commit-tree", tree, "-p", parent, "-m", "Made while the server was down");
  git(projectId, "update-ref", ref, sha);
  return sha;
}

const branchRow = (projectId: number, name: string) => t.services.db.branch.findUnique({ where: { projectId_name: { projectId, name } } });

describe("repairing a crash between git and the database", () => {
  it("records a pending update's refs with its pusher, fires the push once, and leaves nothing pending", async () => {
    const project = await createProject(user.api, { initialize_with_readme: true });
    const before = (await branchRow(project.id, "main"))!.headSha;
    pushes.length = 0;
    const after = commitBehindTheServer(project.id, before, "refs/heads/main");
    await t.services.db.pendingRefUpdate.create({ data: { projectId: project.id, actorId: user.id, createdAt: new Date(Date.now() - 120_000) } });

    expect(await repairPendingRefUpdates(t.services)).toBe(1);
    expect(pushes.map((p) => [p.projectId, p.branch, p.before, p.after, p.actorId, p.commits.map((c) => c.sha)])).toEqual([
      [project.id, "main", before, after, user.id, [after]],
    ]);
    expect((await branchRow(project.id, "main"))!.headSha).toBe(after);
    expect(await t.services.db.pendingRefUpdate.count({ where: { projectId: project.id } })).toBe(0);

    pushes.length = 0;
    expect(await repairPendingRefUpdates(t.services)).toBe(0);
    expect(pushes).toEqual([]);
    const api = (await user.api.get(`/projects/${project.id}/repository/branches/main`)).body;
    expect(api.commit.id).toBe(after);
  });

  it("leaves a pending update younger than the grace period to the process doing it", async () => {
    const project = await createProject(user.api, { initialize_with_readme: true });
    await t.services.db.pendingRefUpdate.create({ data: { projectId: project.id, actorId: user.id } });
    expect(await repairPendingRefUpdates(t.services)).toBe(0);
    expect(await t.services.db.pendingRefUpdate.count({ where: { projectId: project.id } })).toBe(1);
    await t.services.db.pendingRefUpdate.deleteMany({ where: { projectId: project.id } });
  });

  it("finds at start branches and tags made, moved or deleted behind the server's back, by nobody known", async () => {
    const project = await createProject(user.api, { initialize_with_readme: true });
    const main = (await branchRow(project.id, "main"))!.headSha;
    expect((await user.api.post(`/projects/${project.id}/repository/branches`, { branch: "doomed", ref: "main" })).status).toBe(201);
    pushes.length = 0;
    const side = commitBehindTheServer(project.id, main, "refs/heads/side");
    git(project.id, "update-ref", "-d", "refs/heads/doomed");
    git(project.id, "tag", "v9", main);

    await reconcileAllRepositories(t.services, (message, error) => { throw new Error(`${message}: ${error}`); });
    const mine = pushes.filter((p) => p.projectId === project.id);
    expect(mine.map((p) => [p.branch, p.before, p.after, p.actorId]).sort()).toEqual([
      ["doomed", main, "0".repeat(40), null],
      ["side", "0".repeat(40), side, null],
    ]);
    expect(tagPushes.filter((p) => p.projectId === project.id).map((p) => [p.tag, p.after, p.commitSha])).toEqual([["v9", main, main]]);
    expect(await branchRow(project.id, "doomed")).toBeNull();
    expect((await branchRow(project.id, "side"))!.headSha).toBe(side);
    expect((await user.api.get(`/projects/${project.id}/repository/tags/v9`)).status).toBe(200);
  });
});
