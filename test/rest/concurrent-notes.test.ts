// Notes written at once on one issue or merge request all land: each bumps its noteable's
// updated_at, and on PostgreSQL holding the noteable FOR SHARE before that update let two
// transactions wait for each other (a deadlock, answered 500). Both databases.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { createIssue } from "../helpers/issues.js";
import { createMergeRequest } from "../helpers/merge-requests.js";
import { createTeam, createTeamProject, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
let project: any;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
  project = await createTeamProject(team, { initialize_with_readme: true });
});

const AT_ONCE = 30;

describe("notes written at once", () => {
  it.each(["issues", "merge_requests"] as const)("on one of the %s: every one is created, and the noteable's updated_at is the last", async (kind) => {
    const ref = kind === "issues" ? (await createIssue(team.owner.api, project.id)).iid : (await createMergeRequest(team.developer.api, project.id)).iid;
    const path = `/projects/${project.id}/${kind}/${ref}/notes`;
    const writers = [team.owner, team.maintainer, team.developer, team.reporter];
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => writers[i % writers.length]!.api.post(path, { body: `note ${i}` })));
    expect(answers.filter((res) => res.status !== 201).map((res) => [res.status, res.body])).toEqual([]);
    const listed = await t.root.get(path, { query: { per_page: 100 } });
    expect(listed.body.map((note: any) => note.body).sort()).toEqual(Array.from({ length: AT_ONCE }, (_, i) => `note ${i}`).sort());
    const noteable = (await t.root.get(`/projects/${project.id}/${kind}/${ref}`)).body;
    const latest = Math.max(...answers.map((res) => Date.parse(res.body.updated_at)));
    expect(Date.parse(noteable.updated_at)).toBe(latest);
  });
});
