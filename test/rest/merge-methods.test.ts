// A project's merge settings and what they do to merges, checked in git: merge_method (`merge`,
// `rebase_merge`, `ff`) with need_rebase when the source lacks the target's head, squash_option
// overruling the merge request's squash, the merge and squash commit templates, the rule that
// every thread be resolved (discussions_not_resolved, 405), and a rebase git cannot do reported in
// merge_error with a 202. Histories are read with `git log --graph` on a fresh clone.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../helpers/api.js";
import { approve, mrPath } from "../helpers/approvals.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { uniq } from "../helpers/factories.js";
import { gitOf } from "../helpers/git.js";
import { queryDatabase } from "../helpers/test-database.js";
import { createMergeRequest, writeFile } from "../helpers/merge-requests.js";
import { clientOf, createTeam, createTeamProject, type Actor, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;

beforeAll(async () => {
  t = await startTestApp({ ALLOW_LOCAL_WEBHOOKS: "true" });
  team = await createTeam(t);
});

const CANNOT_BE_MERGED = { message: "Branch cannot be merged" };
const METHOD_NOT_ALLOWED = { message: "405 Method Not Allowed" };
const REBASE_ERROR = "Rebase failed: Rebase locally, resolve all conflicts, then push the branch.";

/** A project of the team (public, README on main) with these settings. */
async function projectWith(settings: Record<string, unknown>): Promise<any> {
  const project = await createTeamProject(team, { visibility: "public", initialize_with_readme: true });
  if (Object.keys(settings).length) {
    const res = await team.maintainer.api.put(`/projects/${project.id}`, settings);
    expect(res.status, res.text).toBe(200);
  }
  return project;
}

const head = async (projectId: number, branch: string) =>
  (await t.root.get(`/projects/${projectId}/repository/branches/${encodeURIComponent(branch)}`)).body.commit?.id as string | undefined;
const show = async (projectId: number, iid: number, by: ApiClient = t.root) => (await by.get(mrPath(projectId, iid))).body;
const parentsOf = (projectId: number, sha: string) => gitOf(t, projectId).text("rev-list", "--parents", "-n1", sha).split(" ").slice(1);
const messageOf = (projectId: number, sha: string) => gitOf(t, projectId).text("log", "-1", "--format=%B", sha).trimEnd();

/** `git log --graph --format=%s` of `branch` in a fresh clone of the project's repository. */
function graphOf(projectId: number, branch = "main"): string[] {
  const clone = mkdtempSync(path.join(os.tmpdir(), "forgeline-clone-"));
  execFileSync("git", ["clone", "--quiet", "--branch", branch, t.services.git.pathOf(projectId), clone]);
  return execFileSync("git", ["-C", clone, "log", "--graph", "--format=%s"], { encoding: "utf8" }).trimEnd().split("\n");
}

/** A merge request from a new branch with one commit, after which main moves on (the histories diverge). */
async function diverged(project: any): Promise<{ mr: any; source: string }> {
  const source = uniq("topic");
  await writeFile(team.developer.api, project.id, source, `${uniq("feature")}.txt`, "feature\n", "main");
  const mr = await createMergeRequest(team.developer.api, project.id, { source_branch: source, createSourceBranch: false });
  await writeFile(team.maintainer.api, project.id, "main", `${uniq("other")}.txt`, "other\n");
  return { mr, source };
}

const merge = (projectId: number, iid: number, body: Record<string, unknown> = {}) => team.maintainer.api.put(`${mrPath(projectId, iid)}/merge`, body);

describe("merge settings on the project", () => {
  it("are GitLab's defaults on a new project, for every reader", async () => {
    const project = await projectWith({});
    for (const actor of ["anonymous", "guest", "developer", "maintainer"] as Actor[]) {
      const res = await clientOf(t, team, actor).get(`/projects/${project.id}`);
      expect(res.body, actor).toMatchObject({
        merge_method: "merge", squash_option: "default_off", merge_commit_template: null, squash_commit_template: null,
        only_allow_merge_if_all_discussions_are_resolved: false,
      });
    }
  });

  it("are set on create and changed by a Maintainer, and lists show them", async () => {
    const created = await team.owner.api.post("/projects", { name: uniq("Settings"), merge_method: "ff", squash_option: "always" });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ merge_method: "ff", squash_option: "always" });
    const settings = {
      merge_method: "rebase_merge", squash_option: "never", merge_commit_template: "Merge %{source_branch}",
      squash_commit_template: "%{title}", only_allow_merge_if_all_discussions_are_resolved: true,
    };
    await addMaintainer(created.body.id);
    const res = await team.maintainer.api.put(`/projects/${created.body.id}`, settings);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject(settings);
    const listed = (await team.owner.api.get("/projects?owned=true&per_page=100")).body.find((p: any) => p.id === created.body.id);
    expect(listed).toMatchObject(settings);
  });

  it("refuses values GitLab refuses, changing nothing", async () => {
    const project = await projectWith({});
    const cases: [Record<string, unknown>, number, object][] = [
      [{ merge_method: "squash" }, 400, { error: "merge_method does not have a valid value" }],
      [{ squash_option: "sometimes" }, 400, { error: "squash_option does not have a valid value" }],
      [{ merge_commit_template: "x".repeat(501) }, 400, { message: { "project_setting.merge_commit_template": ["is too long (maximum is 500 characters)"] } }],
      [{ squash_commit_template: "x".repeat(501) }, 400, { message: { "project_setting.squash_commit_template": ["is too long (maximum is 500 characters)"] } }],
    ];
    for (const [body, status, error] of cases) {
      const res = await team.maintainer.api.put(`/projects/${project.id}`, { ...body, description: "changed" });
      expect([res.status, res.body], JSON.stringify(body)).toEqual([status, error]);
    }
    expect((await t.root.get(`/projects/${project.id}`)).body).toMatchObject({
      merge_method: "merge", squash_option: "default_off", merge_commit_template: null, squash_commit_template: null, description: null,
    });
  });

  it("are refused to everyone below Maintainer", async () => {
    const project = await projectWith({});
    const refusals: [Actor, number][] = [["anonymous", 401], ["nonMember", 403], ["guest", 403], ["reporter", 403], ["developer", 403]];
    for (const [actor, status] of refusals) {
      const res = await clientOf(t, team, actor).put(`/projects/${project.id}`, { merge_method: "ff" });
      expect(res.status, actor).toBe(status);
    }
    expect((await t.root.get(`/projects/${project.id}`)).body.merge_method).toBe("merge");
    expect((await t.root.put(`/projects/${project.id}`, { merge_method: "ff" })).body.merge_method).toBe("ff");
  });
});

async function addMaintainer(projectId: number): Promise<void> {
  const res = await team.owner.api.post(`/projects/${projectId}/members`, { user_id: team.maintainer.id, access_level: 40 });
  expect(res.status, res.text).toBe(201);
}

describe("merge_method ff", () => {
  it("moves the target to the source's head: no merge commit, a straight history", async () => {
    const project = await projectWith({ merge_method: "ff" });
    const mr = await createMergeRequest(team.developer.api, project.id);
    expect(await show(project.id, mr.iid)).toMatchObject({ detailed_merge_status: "mergeable" });
    const sourceHead = await head(project.id, mr.source_branch);
    const res = await merge(project.id, mr.iid);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ state: "merged", merge_commit_sha: null, squash_commit_sha: null });
    expect(await head(project.id, "main")).toBe(sourceHead);
    expect(graphOf(project.id)).toEqual([`* Add ${sourceFile(project.id, sourceHead!)}`, "* Initial commit"]);
  });

  it("needs a rebase once the target moved on: need_rebase, 422 moving no ref; after PUT rebase it fast-forwards", async () => {
    const project = await projectWith({ merge_method: "ff" });
    const { mr, source } = await diverged(project);
    expect(await show(project.id, mr.iid)).toMatchObject({ merge_status: "can_be_merged", has_conflicts: false, detailed_merge_status: "need_rebase" });
    const hook = await team.maintainer.api.post(`/projects/${project.id}/hooks`, { url: "http://127.0.0.1:9/mr", merge_requests_events: true, push_events: false });
    expect((await team.developer.api.put(mrPath(project.id, mr.iid), { description: "edited" })).status).toBe(200);
    const [delivery] = await queryDatabase<{ payload: string }>(t.services.config.databaseUrl, 'SELECT "payload" FROM "WebHookDelivery" WHERE "hookId" = ?', hook.body.id);
    expect(JSON.parse(delivery!.payload).object_attributes).toMatchObject({ detailed_merge_status: "need_rebase", merge_status: "can_be_merged" });
    const refs = gitOf(t, project.id).text("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads");
    expect([(await merge(project.id, mr.iid)).status, (await merge(project.id, mr.iid)).body]).toEqual([422, CANNOT_BE_MERGED]);
    expect(gitOf(t, project.id).text("for-each-ref", "--format=%(refname) %(objectname)", "refs/heads")).toBe(refs);

    const mainHead = await head(project.id, "main");
    const rebased = await team.developer.api.put(`${mrPath(project.id, mr.iid)}/rebase`);
    expect([rebased.status, rebased.body]).toEqual([202, { rebase_in_progress: false }]);
    const newHead = await head(project.id, source);
    expect(parentsOf(project.id, newHead!)).toEqual([mainHead]);
    expect(await show(project.id, mr.iid)).toMatchObject({ sha: newHead, detailed_merge_status: "mergeable", merge_error: null });
    const res = await merge(project.id, mr.iid);
    expect(res.status, res.text).toBe(200);
    expect(res.body.merge_commit_sha).toBeNull();
    expect(await head(project.id, "main")).toBe(newHead);
    expect(graphOf(project.id).every((line) => line.startsWith("* "))).toBe(true);
  });

  it("with squash: the target moves to one squash commit on its head", async () => {
    const project = await projectWith({ merge_method: "ff" });
    const mr = await createMergeRequest(team.developer.api, project.id);
    await writeFile(team.developer.api, project.id, mr.source_branch, "second.txt", "two\n");
    const mainHead = await head(project.id, "main");
    const res = await merge(project.id, mr.iid, { squash: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body.merge_commit_sha).toBeNull();
    expect(res.body.squash_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await head(project.id, "main")).toBe(res.body.squash_commit_sha);
    expect(parentsOf(project.id, res.body.squash_commit_sha)).toEqual([mainHead]);
    expect(graphOf(project.id)).toEqual([`* ${mr.title}`, "* Initial commit"]);
  });
});

/** The file the commit at `sha` added (helpers name commits after it). */
function sourceFile(projectId: number, sha: string): string {
  return gitOf(t, projectId).text("diff-tree", "--no-commit-id", "--name-only", "-r", sha);
}

describe("merge_method rebase_merge", () => {
  it("needs a rebase once the target moved on, then writes a merge commit over a straight branch", async () => {
    const project = await projectWith({ merge_method: "rebase_merge" });
    const { mr, source } = await diverged(project);
    expect((await show(project.id, mr.iid)).detailed_merge_status).toBe("need_rebase");
    expect([(await merge(project.id, mr.iid)).status]).toEqual([422]);

    expect((await team.developer.api.put(`${mrPath(project.id, mr.iid)}/rebase`)).status).toBe(202);
    const mainHead = await head(project.id, "main");
    const sourceHead = await head(project.id, source);
    const res = await merge(project.id, mr.iid);
    expect(res.status, res.text).toBe(200);
    expect(await head(project.id, "main")).toBe(res.body.merge_commit_sha);
    expect(parentsOf(project.id, res.body.merge_commit_sha)).toEqual([mainHead, sourceHead]);
    expect(parentsOf(project.id, sourceHead!)).toEqual([mainHead]);
    const graph = graphOf(project.id);
    expect(graph[0]).toBe(`*   Merge branch '${source}' into 'main'`);
    expect(graph[1]).toBe("|\\  ");
    expect(graph[3]).toBe("|/  ");
  });

  it("merge (the default) merges diverged histories without a rebase", async () => {
    const project = await projectWith({});
    const { mr } = await diverged(project);
    expect((await show(project.id, mr.iid)).detailed_merge_status).toBe("mergeable");
    const res = await merge(project.id, mr.iid);
    expect(res.status, res.text).toBe(200);
    expect(parentsOf(project.id, res.body.merge_commit_sha)).toHaveLength(2);
  });
});

describe("squash_option", () => {
  it("always: squashes a merge request that did not ask to, authored by its author", async () => {
    const project = await projectWith({ squash_option: "always" });
    const mr = await createMergeRequest(team.developer.api, project.id, { squash: false });
    await writeFile(team.developer.api, project.id, mr.source_branch, "second.txt", "two\n");
    expect(await show(project.id, mr.iid)).toMatchObject({ squash: false, squash_on_merge: true });
    const mainHead = await head(project.id, "main");
    const res = await merge(project.id, mr.iid);
    expect(res.status, res.text).toBe(200);
    const squashSha = res.body.squash_commit_sha;
    expect(parentsOf(project.id, squashSha)).toEqual([mainHead]);
    expect(parentsOf(project.id, res.body.merge_commit_sha)).toEqual([mainHead, squashSha]);
    const developer = (await t.root.get(`/users/${team.developer.id}`)).body;
    expect(gitOf(t, project.id).text("log", "-1", "--format=%an <%ae>", squashSha)).toBe(`${developer.name} <${developer.email}>`);
  });

  it("never: merges the commits as they are, even when asked to squash", async () => {
    const project = await projectWith({ squash_option: "never" });
    const mr = await createMergeRequest(team.developer.api, project.id, { squash: true });
    expect(await show(project.id, mr.iid)).toMatchObject({ squash: true, squash_on_merge: false });
    const sourceHead = await head(project.id, mr.source_branch);
    const res = await merge(project.id, mr.iid, { squash: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body.squash_commit_sha).toBeNull();
    expect(parentsOf(project.id, res.body.merge_commit_sha)[1]).toBe(sourceHead);
  });
});

describe("commit templates", () => {
  it("merge_commit_template: variables replaced, a line left empty removed with its blank line", async () => {
    const template = "Merge %{source_branch} into %{target_branch}\n\n%{title}\n\n%{issues}\n\nSee %{reference} (%{local_reference})\n\nMerged-by: %{merged_by}\n%{approved_by}";
    const project = await projectWith({ merge_commit_template: template });
    const mr = await createMergeRequest(team.developer.api, project.id);
    await approve(team.maintainer.api, project.id, mr.iid);
    const res = await merge(project.id, mr.iid);
    expect(res.status, res.text).toBe(200);
    const maintainer = (await t.root.get(`/users/${team.maintainer.id}`)).body;
    expect(messageOf(project.id, res.body.merge_commit_sha)).toBe([
      `Merge ${mr.source_branch} into main`,
      mr.title,
      `See ${project.path_with_namespace}!${mr.iid} (!${mr.iid})`,
      `Merged-by: ${maintainer.name} <${maintainer.email}>\nApproved-by: ${maintainer.name} <${maintainer.email}>`,
    ].join("\n\n"));
  });

  it("squash_commit_template: the commits newest first, co-authors other than the author", async () => {
    const project = await projectWith({ squash_commit_template: "%{title}\n\n%{all_commits}\n\n%{co_authored_by}" });
    const source = uniq("topic");
    await writeFile(team.developer.api, project.id, source, "a.txt", "a\n", "main");
    await writeFile(team.developer.api, project.id, source, "b.txt", "b\n");
    const mr = await createMergeRequest(team.developer.api, project.id, { source_branch: source, createSourceBranch: false });
    const alone = await merge(project.id, mr.iid, { squash: true });
    expect(alone.status, alone.text).toBe(200);
    // the only author is the merge request's: co_authored_by is empty and goes with its blank line
    expect(messageOf(project.id, alone.body.squash_commit_sha)).toBe(`${mr.title}\n\n* Write b.txt\n\n* Write a.txt`);

    const other = uniq("topic");
    await writeFile(team.developer.api, project.id, other, "c.txt", "c\n", "main");
    await writeFile(team.maintainer.api, project.id, other, "d.txt", "d\n");
    const second = await createMergeRequest(team.developer.api, project.id, { source_branch: other, createSourceBranch: false });
    const res = await merge(project.id, second.iid, { squash: true });
    expect(res.status, res.text).toBe(200);
    const maintainer = (await t.root.get(`/users/${team.maintainer.id}`)).body;
    expect(messageOf(project.id, res.body.squash_commit_sha))
      .toBe(`${second.title}\n\n* Write d.txt\n\n* Write c.txt\n\nCo-authored-by: ${maintainer.name} <${maintainer.email}>`);
  });

  it("an explicit merge_commit_message wins over the template", async () => {
    const project = await projectWith({ merge_commit_template: "Templated %{title}" });
    const mr = await createMergeRequest(team.developer.api, project.id);
    const res = await merge(project.id, mr.iid, { merge_commit_message: "By hand" });
    expect(messageOf(project.id, res.body.merge_commit_sha)).toBe("By hand");
  });
});

describe("only_allow_merge_if_all_discussions_are_resolved", () => {
  it("an open thread blocks the merge (405) until it is resolved; plain notes never block", async () => {
    const project = await projectWith({ only_allow_merge_if_all_discussions_are_resolved: true });
    const mr = await createMergeRequest(team.developer.api, project.id);
    const note = await team.reporter.api.post(`${mrPath(project.id, mr.iid)}/notes`, { body: "a plain note" });
    expect(note.status, note.text).toBe(201);
    expect(await show(project.id, mr.iid)).toMatchObject({ detailed_merge_status: "mergeable", blocking_discussions_resolved: true });

    const thread = await team.reporter.api.post(`${mrPath(project.id, mr.iid)}/discussions`, { body: "please change this" });
    expect(thread.status, thread.text).toBe(201);
    for (const actor of ["anonymous", "developer", "maintainer"] as Actor[]) {
      expect(await show(project.id, mr.iid, clientOf(t, team, actor)), actor)
        .toMatchObject({ detailed_merge_status: "discussions_not_resolved", blocking_discussions_resolved: false });
    }
    const listed = (await t.root.get(`/projects/${project.id}/merge_requests?iids[]=${mr.iid}`)).body;
    expect(listed[0]).toMatchObject({ detailed_merge_status: "discussions_not_resolved", blocking_discussions_resolved: false });
    const refused = await merge(project.id, mr.iid);
    expect([refused.status, refused.body]).toEqual([405, METHOD_NOT_ALLOWED]);

    // the merge request hook says so too
    const hook = await team.maintainer.api.post(`/projects/${project.id}/hooks`, { url: "http://127.0.0.1:9/mr", merge_requests_events: true, push_events: false });
    expect(hook.status, hook.text).toBe(201);
    expect((await team.developer.api.put(mrPath(project.id, mr.iid), { title: `${mr.title} (edited)` })).status).toBe(200);
    const deliveries = await queryDatabase<{ payload: string }>(t.services.config.databaseUrl, 'SELECT "payload" FROM "WebHookDelivery" WHERE "hookId" = ?', hook.body.id);
    expect(deliveries.map((d) => JSON.parse(d.payload).object_attributes))
      .toEqual([expect.objectContaining({ iid: mr.iid, blocking_discussions_resolved: false })]);

    const resolved = await team.developer.api.put(`${mrPath(project.id, mr.iid)}/discussions/${thread.body.id}?resolved=true`);
    expect(resolved.status, resolved.text).toBe(200);
    expect(await show(project.id, mr.iid)).toMatchObject({ detailed_merge_status: "mergeable", blocking_discussions_resolved: true });
    expect((await merge(project.id, mr.iid)).status).toBe(200);
  });

  it("without the setting an open thread does not block", async () => {
    const project = await projectWith({});
    const mr = await createMergeRequest(team.developer.api, project.id);
    expect((await team.reporter.api.post(`${mrPath(project.id, mr.iid)}/discussions`, { body: "a thought" })).status).toBe(201);
    expect(await show(project.id, mr.iid)).toMatchObject({ detailed_merge_status: "mergeable", blocking_discussions_resolved: true });
    expect((await merge(project.id, mr.iid)).status).toBe(200);
  });
});

describe("a rebase git cannot do", () => {
  it("answers 202, moves nothing and says why in merge_error; a rebase that works clears it", async () => {
    const project = await projectWith({ merge_method: "ff" });
    const file = `${uniq("shared")}.txt`;
    await writeFile(team.maintainer.api, project.id, "main", file, "base\n");
    const source = uniq("edit");
    await writeFile(team.developer.api, project.id, source, file, "theirs\n", "main");
    const mr = await createMergeRequest(team.developer.api, project.id, { source_branch: source, createSourceBranch: false });
    await writeFile(team.maintainer.api, project.id, "main", file, "ours\n");
    const sourceHead = await head(project.id, source);

    const res = await team.developer.api.put(`${mrPath(project.id, mr.iid)}/rebase`);
    expect([res.status, res.body]).toEqual([202, { rebase_in_progress: false }]);
    expect(await head(project.id, source)).toBe(sourceHead);
    expect(await show(project.id, mr.iid)).toMatchObject({ merge_error: REBASE_ERROR, detailed_merge_status: "conflict" });

    // main takes the source's line back: replaying the source's commit no longer conflicts
    await writeFile(team.maintainer.api, project.id, "main", file, "theirs\n");
    expect((await team.developer.api.put(`${mrPath(project.id, mr.iid)}/rebase`)).status).toBe(202);
    expect(await show(project.id, mr.iid)).toMatchObject({ merge_error: null, detailed_merge_status: "mergeable" });
  });
});

describe("rebase_in_progress", () => {
  it("is true while a rebase waits for or holds the repository, false before and after", async () => {
    const project = await projectWith({ merge_method: "ff" });
    const { mr, source } = await diverged(project);
    expect((await show(project.id, mr.iid)).rebase_in_progress).toBe(false);
    const release = await t.services.repositoryLocks.acquire(project.id);
    const rebasing = team.developer.api.put(`${mrPath(project.id, mr.iid)}/rebase`);
    let seen = false;
    for (let tries = 0; tries < 100 && !seen; tries++) seen = (await show(project.id, mr.iid, team.reporter.api)).rebase_in_progress;
    const sourceWhileLocked = await head(project.id, source);
    await release();
    expect(seen).toBe(true);
    expect((await rebasing).status).toBe(202);
    expect(await show(project.id, mr.iid)).toMatchObject({ rebase_in_progress: false, detailed_merge_status: "mergeable" });
    expect(await head(project.id, source)).not.toBe(sourceWhileLocked);
  });
});

describe("merges racing", () => {
  it("two merges of one merge request give one merge; two merge requests merged at once both land", async () => {
    const project = await projectWith({});
    const mr = await createMergeRequest(team.developer.api, project.id);
    const mainBefore = await head(project.id, "main");
    const answers = await Promise.all([merge(project.id, mr.iid), merge(project.id, mr.iid), merge(project.id, mr.iid)]);
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((status) => status === 200), JSON.stringify(answers.map((res) => res.body))).toHaveLength(1);
    for (const res of answers.filter((answer) => answer.status !== 200)) expect([405, 422]).toContain(res.status);
    const merges = gitOf(t, project.id).lines("rev-list", "--merges", `${mainBefore}..main`);
    expect(merges).toEqual([(await show(project.id, mr.iid)).merge_commit_sha]);

    const [first, second] = [await createMergeRequest(team.developer.api, project.id), await createMergeRequest(team.developer.api, project.id)];
    const both = await Promise.all([merge(project.id, first.iid), merge(project.id, second.iid)]);
    expect(both.map((res) => res.status)).toEqual([200, 200]);
    for (const landed of both) expect(gitOf(t, project.id).text("merge-base", "--is-ancestor", landed.body.merge_commit_sha, "main")).toBe("");
  });
});
