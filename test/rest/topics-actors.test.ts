// Project topics, every write route by every actor: create, update, delete and merge are for
// administrators only (GitLab's authenticated_as_admin!: 401 without a token, 403 for any other
// user). Each topic used is assigned to a project of the team, so its Owner is refused too.
// Refusals change nothing: no topic created, the topic and its projects as they were.
import { beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../helpers/app.js";
import { ADMIN_ONLY_REFUSALS } from "../helpers/errors.js";
import { uniq } from "../helpers/factories.js";
import { ACTORS, clientOf, createTeam, createTeamProject, type Actor, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;

const REFUSALS: Partial<Record<Actor, readonly [number, object]>> = ADMIN_ONLY_REFUSALS;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
});

async function createTopic(prefix: string): Promise<any> {
  const name = uniq(prefix);
  const res = await t.root.post("/topics", { name, title: `Title of ${name}` });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** A topic of its own on a public project of its own: the team's owner owns it, the others are its members. */
async function assignedTopic(prefix: string): Promise<{ topic: any; project: any }> {
  const topic = await createTopic(prefix);
  const project = await createTeamProject(team, { visibility: "public", topics: [topic.name] });
  return { topic: { ...topic, total_projects_count: 1 }, project };
}

const topicsOf = async (projectId: number) => (await t.root.get(`/projects/${projectId}`)).body.topics;
const listedNames = async (search: string) => (await t.root.get("/topics", { query: { search, per_page: 100 } })).body.map((topic: any) => topic.name);

describe("POST /topics by every actor", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const name = uniq(`new-${actor}`);
    const res = await clientOf(t, team, actor).post("/topics", { name, title: "Fresh", description: "made here" });
    const refusal = REFUSALS[actor];
    if (refusal) {
      expect([res.status, res.body]).toEqual(refusal);
      expect(await listedNames(name)).toEqual([]);
    } else {
      expect(res.status, res.text).toBe(201);
      const created = { id: expect.any(Number), name, title: "Fresh", description: "made here", total_projects_count: 0, organization_id: 1, avatar_url: null };
      expect(res.body).toEqual(created);
      expect((await t.anon.get(`/topics/${res.body.id}`)).body).toEqual(res.body);
      expect(await listedNames(name)).toEqual([name]);
    }
  });
});

describe("PUT /topics/:id by every actor", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const { topic } = await assignedTopic(`put-${actor}`);
    const res = await clientOf(t, team, actor).put(`/topics/${topic.id}`, { title: "Renamed", description: "changed" });
    const refusal = REFUSALS[actor];
    const after = (await t.anon.get(`/topics/${topic.id}`)).body;
    if (refusal) {
      expect([res.status, res.body]).toEqual(refusal);
      expect(after).toEqual(topic);
    } else {
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ ...topic, title: "Renamed", description: "changed" });
      expect(after).toEqual(res.body);
    }
  });
});

describe("DELETE /topics/:id by every actor", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const { topic, project } = await assignedTopic(`del-${actor}`);
    const res = await clientOf(t, team, actor).delete(`/topics/${topic.id}`);
    const refusal = REFUSALS[actor];
    if (refusal) {
      expect([res.status, res.body]).toEqual(refusal);
      expect((await t.anon.get(`/topics/${topic.id}`)).body).toEqual(topic);
      expect(await topicsOf(project.id)).toEqual([topic.name]);
    } else {
      expect([res.status, res.text]).toEqual([204, ""]);
      const gone = await t.anon.get(`/topics/${topic.id}`);
      expect([gone.status, gone.body]).toEqual([404, { message: "404 Not found" }]);
      expect(await topicsOf(project.id)).toEqual([]);
    }
  });
});

describe("POST /topics/merge by every actor", () => {
  it.each(ACTORS)("as %s", async (actor) => {
    const { topic: source, project } = await assignedTopic(`src-${actor}`);
    const target = await createTopic(`tgt-${actor}`);
    const res = await clientOf(t, team, actor).post("/topics/merge", { source_topic_id: source.id, target_topic_id: target.id });
    const refusal = REFUSALS[actor];
    if (refusal) {
      expect([res.status, res.body]).toEqual(refusal);
      expect((await t.anon.get(`/topics/${source.id}`)).body).toEqual(source);
      expect((await t.anon.get(`/topics/${target.id}`)).body).toEqual(target);
      expect(await topicsOf(project.id)).toEqual([source.name]);
    } else {
      expect(res.status, res.text).toBe(201);
      expect(res.body).toEqual({ ...target, total_projects_count: 1 });
      expect((await t.anon.get(`/topics/${source.id}`)).status).toBe(404);
      expect(await topicsOf(project.id)).toEqual([target.name]);
    }
  });
});
