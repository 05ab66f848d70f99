// A note or a reaction written while its issue (or project) is being deleted: notes and reactions
// point at their parent by type and id, with no foreign key, so nothing but the row locks of
// domain/shared/row-locks.ts keeps them from outliving it. On PostgreSQL the deletion is held open here
// inside a transaction while the write arrives; SQLite runs one write transaction at a time, so
// the race cannot happen there.
import { beforeAll, describe, expect, it } from "vitest";
import { destroyIssues } from "../../src/domain/issues/destroy.js";
import { destroyProjects } from "../../src/domain/deletions/projects.js";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createIssue } from "../helpers/issues.js";
import { onPostgresql, queryDatabase } from "../helpers/test-database.js";
import { createTeam, createTeamProject, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
});

/**
 * Runs `deletion` in a transaction left open until `write` has been sent and has had time to
 * reach its lock; answers the write's response and whether it was still waiting when the
 * deletion committed.
 */
async function raceAgainstDeletion(deletion: (tx: any) => Promise<void>, write: () => Promise<{ status: number; body: any }>) {
  let release!: () => void;
  let locked!: () => void;
  const holding = new Promise<void>((resolve) => (release = resolve));
  const deleted = new Promise<void>((resolve) => (locked = resolve));
  const transaction = t.services.db.$transaction(async (tx) => {
    await deletion(tx);
    locked();
    await holding;
  }, { timeout: 20_000 });
  await deleted;
  let answered = false;
  const response = write().finally(() => (answered = true));
  // the write waits when a session of the database waits on a lock before it has answered
  const waited = await sessionWaitsOnLock(() => answered);
  release();
  await transaction;
  return { response: await response, waited };
}

/** Polls pg_stat_activity until a session of the test database waits on a lock (true), or `done()` (false). */
async function sessionWaitsOnLock(done: () => boolean): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (!done() && Date.now() < deadline) {
    const [row] = await queryDatabase<{ n: unknown }>(t.services.config.databaseUrl,
      "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
    if (Number(row!.n) > 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

const ctx = () => ({ ...t.services, dialect: "postgresql", actor: null, now: () => new Date() }) as any;

describe.skipIf(!onPostgresql)("writes racing a deletion on PostgreSQL", () => {
  it("a note on an issue being deleted waits for the deletion, then answers 404 and leaves nothing behind", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const issue = await createIssue(team.owner.api, project.id);
    const { response, waited } = await raceAgainstDeletion(
      (tx) => destroyIssues(tx, ctx(), [issue.id]),
      () => team.developer.api.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { body: "too late" }),
    );
    expect(waited).toBe(true);
    expect([response.status, response.body]).toEqual([404, { message: "404 Not found" }]);
    expect(await t.services.db.note.count({ where: { noteableType: "Issue", noteableId: issue.id } })).toBe(0);
  });

  it("a reaction on an issue being deleted waits, then answers 404 and leaves no reaction behind", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const issue = await createIssue(team.owner.api, project.id);
    const { response, waited } = await raceAgainstDeletion(
      (tx) => destroyIssues(tx, ctx(), [issue.id]),
      () => team.developer.api.post(`/projects/${project.id}/issues/${issue.iid}/award_emoji`, { name: "thumbsup" }),
    );
    expect(waited).toBe(true);
    expect(response.status).toBe(404);
    expect(await t.services.db.awardEmoji.count({ where: { awardableType: "Issue", awardableId: issue.id } })).toBe(0);
  });

  it("a reaction in a project being deleted waits, then answers 404 and leaves no reaction behind", async () => {
    const project = await createTeamProject(team, { visibility: "public" });
    const issue = await createIssue(team.owner.api, project.id);
    const row = await t.services.db.project.findUniqueOrThrow({ where: { id: project.id }, include: { namespace: true } });
    const { response, waited } = await raceAgainstDeletion(
      (tx) => destroyProjects(tx, ctx(), [row]),
      () => team.developer.api.post(`/projects/${project.id}/issues/${issue.iid}/award_emoji`, { name: "rocket" }),
    );
    expect(waited).toBe(true);
    expect(response.status).toBe(404);
    expect(await t.services.db.awardEmoji.count({ where: { awardableType: "Issue", awardableId: issue.id } })).toBe(0);
  });
});
