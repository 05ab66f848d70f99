// Project topics through /api/v4: every endpoint per actor (anonymous, user, admin), GitLab's
// validation and error texts, ordering (non-private projects desc, then id), search (short terms
// exact only, longer ones substring over name and title, similarity order), without_projects,
// pagination headers, and the project counters through assign, unassign, visibility changes,
// merge and delete.
import { beforeAll, describe, expect, it } from "vitest";
import { mergeTopics } from "../../src/domain/topics/merge.js";
import { parseLinks, type ApiClient } from "../helpers/api.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { systemContext } from "../../src/domain/shared/context.js";

let t: TestApp;
let user: TestUser;

const FORBIDDEN = { message: "403 Forbidden" };
const UNAUTHORIZED = { message: "401 Unauthorized" };
const NOT_FOUND = { message: "404 Not found" };
const ORGANIZATION_NOT_FOUND = { message: "404 Organization Not Found" };
const TAKEN = { message: { name: ["has already been taken"] } };

/** The entity GitLab renders for a topic without avatar. */
const entity = (fields: { id: number; name: string; title: string; description?: string | null; total_projects_count?: number }) => ({
  description: null,
  total_projects_count: 0,
  organization_id: 1,
  avatar_url: null,
  ...fields,
});

async function createTopic(fields: Record<string, unknown> = {}): Promise<any> {
  const name = (fields.name as string) ?? uniq("topic");
  const res = await t.root.post("/topics", { name, title: `Title of ${name}`, ...fields });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const topicsOf = async (projectId: number) => (await t.root.get(`/projects/${projectId}`)).body.topics;
const countOf = async (topicId: number) => (await t.anon.get(`/topics/${topicId}`)).body.total_projects_count;
const projectIdsWithTopic = async (name: string) =>
  (await t.root.get("/projects", { query: { topic: name, order_by: "id", sort: "asc" } })).body.map((p: any) => p.id);

beforeAll(async () => {
  t = await startTestApp();
  user = await createUser(t);
});

describe("GET /topics/:id", () => {
  it("shows a topic to anyone (anonymous, user, admin)", async () => {
    const topic = await createTopic({ name: uniq("show"), title: "Shown", description: "All about it" });
    for (const api of [t.anon, user.api, t.root]) {
      const res = await api.get(`/topics/${topic.id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.body).toEqual(entity({ id: topic.id, name: topic.name, title: "Shown", description: "All about it" }));
    }
  });

  it("answers 400 on a non-integer id and 404 on an unknown one", async () => {
    for (const id of ["invalid", "1.5", "1e3"]) {
      const res = await t.anon.get(`/topics/${id}`);
      expect(res.status, id).toBe(400);
      expect(res.body).toEqual({ error: "id is invalid" });
    }
    const missing = await t.anon.get("/topics/999999");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);
  });

  it("hides a topic of an organization the caller cannot read (404 Organization)", async () => {
    const foreign = await t.services.db.topic.create({ data: { organizationId: 2, name: "foreign", nameLower: "foreign", title: "Foreign" } });
    const res = await t.root.get(`/topics/${foreign.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(ORGANIZATION_NOT_FOUND);
  });
});

describe("POST /topics", () => {
  it("creates a topic as admin: 201 with the entity", async () => {
    const name = uniq("new");
    const res = await t.root.post("/topics", { name, title: "New Topic", description: "Fresh" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(entity({ id: expect.any(Number), name, title: "New Topic", description: "Fresh" }));
    expect((await t.anon.get(`/topics/${res.body.id}`)).body).toEqual(res.body);
  });

  it("takes form-encoded bodies and organization_id 1", async () => {
    const name = uniq("form");
    const res = await t.root.post("/topics", undefined, { form: new URLSearchParams({ name, title: "Form", organization_id: "1" }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name, title: "Form", organization_id: 1 });
  });

  it("refuses anonymous callers (401) and non-admins (403) before looking at params", async () => {
    for (const body of [{ name: uniq("nope"), title: "Nope" }, {}]) {
      const anon = await t.anon.post("/topics", body);
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(UNAUTHORIZED);
      const byUser = await user.api.post("/topics", body);
      expect(byUser.status).toBe(403);
      expect(byUser.body).toEqual(FORBIDDEN);
    }
  });

  it.each([
    ["no params", {}, { error: "name is missing, title is missing" }],
    ["no title", { name: "untitled" }, { error: "title is missing" }],
    ["no name", { title: "Nameless" }, { error: "name is missing" }],
    ["a non-integer organization_id", { name: "x", title: "X", organization_id: "first" }, { error: "organization_id is invalid" }],
  ])("answers Grape's 400 for %s", async (_case, body, expected) => {
    const res = await t.root.post("/topics", body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });

  it.each([
    ["a blank name", { name: "" }, { name: ["can't be blank"] }],
    ["a whitespace name", { name: "   " }, { name: ["can't be blank"] }],
    ["a blank title", { title: "" }, { title: ["can't be blank"] }],
    ["a non-ASCII name", { name: "caf\u00e9" }, { name: ["must only include ASCII characters"] }],
    ["a name with a line break", { name: "two\nlines" }, { name: ["has characters that are not allowed"] }],
    ["a name with a Unicode line separator", { name: "two\u2028lines" }, { name: ["has characters that are not allowed"] }],
    ["a name of 256 characters", { name: "n".repeat(256) }, { name: ["is too long (maximum is 255 characters)"] }],
    ["a title of 256 characters", { title: "t".repeat(256) }, { title: ["is too long (maximum is 255 characters)"] }],
    ["a description of 1025 characters", { description: "d".repeat(1025) }, { description: ["is too long (maximum is 1024 characters)"] }],
  ])("refuses %s with the model error", async (_case, fields, errors) => {
    const res = await t.root.post("/topics", { name: uniq("bad"), title: "Bad", ...fields });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: errors });
  });

  it("accepts the longest allowed name, title and description", async () => {
    const name = `${uniq("long")}-`.padEnd(255, "x");
    const res = await t.root.post("/topics", { name, title: "t".repeat(255), description: "d".repeat(1024) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.name).toBe(name);
  });

  it("refuses a name taken in another case", async () => {
    const name = uniq("Taken");
    await createTopic({ name });
    for (const other of [name, name.toUpperCase(), name.toLowerCase()]) {
      const res = await t.root.post("/topics", { name: other, title: "Again" });
      expect(res.status, other).toBe(400);
      expect(res.body).toEqual(TAKEN);
    }
  });

  it("reports every failing attribute, keyed in the model's validation order", async () => {
    const name = uniq("order");
    await createTopic({ name });
    const res = await t.root.post("/topics", { name: name.toUpperCase(), title: "", description: "d".repeat(1025) });
    expect(res.status).toBe(400);
    expect(res.text).toBe(JSON.stringify({
      message: {
        description: ["is too long (maximum is 1024 characters)"],
        name: ["has already been taken"],
        title: ["can't be blank"],
      },
    }));
  });

  it("answers 404 for an organization other than the default one", async () => {
    const res = await t.root.post("/topics", { name: uniq("org"), title: "Org", organization_id: 2 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(ORGANIZATION_NOT_FOUND);
  });
});

describe("PUT /topics/:id", () => {
  it("updates name, title and description as admin", async () => {
    const topic = await createTopic();
    const name = uniq("renamed");
    const res = await t.root.put(`/topics/${topic.id}`, { name, title: "Renamed", description: "Changed" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(entity({ id: topic.id, name, title: "Renamed", description: "Changed" }));
    expect((await t.anon.get(`/topics/${topic.id}`)).body).toEqual(res.body);
  });

  it("keeps what is not sent", async () => {
    const topic = await createTopic({ description: "Stays" });
    const res = await t.root.put(`/topics/${topic.id}`, { title: "Only the title" });
    expect(res.body).toEqual(entity({ id: topic.id, name: topic.name, title: "Only the title", description: "Stays" }));
  });

  it("refuses anonymous callers and non-admins, keeping the topic", async () => {
    const topic = await createTopic();
    expect((await t.anon.put(`/topics/${topic.id}`, { title: "x" })).status).toBe(401);
    const byUser = await user.api.put(`/topics/${topic.id}`, { title: "x" });
    expect(byUser.status).toBe(403);
    expect(byUser.body).toEqual(FORBIDDEN);
    expect((await user.api.put("/topics/not-a-number", {})).status).toBe(403);
    expect((await t.anon.get(`/topics/${topic.id}`)).body.title).toBe(topic.title);
  });

  it("answers 400 on a non-integer id and 404 on an unknown one", async () => {
    const invalid = await t.root.put("/topics/abc", { title: "x" });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: "id is invalid" });
    const missing = await t.root.put("/topics/999999", { title: "x" });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);
  });

  it("refuses another topic's name in any case, but allows changing the case of its own", async () => {
    const [first, second] = [await createTopic(), await createTopic()];
    const taken = await t.root.put(`/topics/${second.id}`, { name: first.name.toUpperCase() });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual(TAKEN);
    const recased = await t.root.put(`/topics/${second.id}`, { name: second.name.toUpperCase() });
    expect(recased.status).toBe(200);
    expect(recased.body.name).toBe(second.name.toUpperCase());
  });

  it.each([
    ["a blank name", { name: "" }, { name: ["can't be blank"] }],
    ["a non-ASCII name", { name: "na\u00efve" }, { name: ["must only include ASCII characters"] }],
    ["a name with a carriage return", { name: "a\rb" }, { name: ["has characters that are not allowed"] }],
    ["a description of 1025 characters", { description: "d".repeat(1025) }, { description: ["is too long (maximum is 1024 characters)"] }],
  ])("refuses %s and keeps the topic", async (_case, fields, errors) => {
    const topic = await createTopic();
    const res = await t.root.put(`/topics/${topic.id}`, { title: "Changed", ...fields });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: errors });
    expect((await t.anon.get(`/topics/${topic.id}`)).body).toEqual(topic);
  });

  it("validates the title on create only, as GitLab does", async () => {
    const topic = await createTopic();
    const res = await t.root.put(`/topics/${topic.id}`, { title: "" });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe("");
  });
});

describe("DELETE /topics/:id", () => {
  it("deletes as admin: 204 without body or content type, then 404", async () => {
    const topic = await createTopic();
    const res = await t.root.delete(`/topics/${topic.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(res.headers.get("content-type")).toBeNull();
    expect((await t.anon.get(`/topics/${topic.id}`)).status).toBe(404);
    const again = await t.root.delete(`/topics/${topic.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(NOT_FOUND);
  });

  it("refuses anonymous callers and non-admins", async () => {
    const topic = await createTopic();
    expect((await t.anon.delete(`/topics/${topic.id}`)).status).toBe(401);
    expect((await user.api.delete(`/topics/${topic.id}`)).status).toBe(403);
    expect((await t.anon.get(`/topics/${topic.id}`)).status).toBe(200);
  });

  it("removes the topic's project assignments, keeping the projects' other topics", async () => {
    const [gone, kept] = [uniq("gone"), uniq("kept")];
    const project = await createProject(user.api, { topics: [gone, kept], visibility: "public" });
    const topic = (await t.anon.get("/topics", { query: { search: gone } })).body[0];
    expect(topic).toMatchObject({ name: gone, total_projects_count: 1 });
    expect((await t.root.delete(`/topics/${topic.id}`)).status).toBe(204);
    expect(await topicsOf(project.id)).toEqual([kept]);
    expect(await projectIdsWithTopic(gone)).toEqual([]);
    expect(await projectIdsWithTopic(kept)).toEqual([project.id]);
    expect(await t.services.db.projectTopic.count({ where: { topicId: topic.id } })).toBe(0);
  });

  it("answers 412 when the topic changed after If-Unmodified-Since", async () => {
    const topic = await createTopic();
    const stale = await t.root.delete(`/topics/${topic.id}`, { headers: { "If-Unmodified-Since": "Mon, 01 Jan 2001 00:00:00 GMT" } });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ message: "412 Precondition Failed" });
    expect((await t.anon.get(`/topics/${topic.id}`)).status).toBe(200);
    const fresh = await t.root.delete(`/topics/${topic.id}`, { headers: { "If-Unmodified-Since": new Date(Date.now() + 60_000).toUTCString() } });
    expect(fresh.status).toBe(204);
  });
});

describe("POST /topics/merge", () => {
  it("moves the source's projects to the target, deletes the source, recounts, answers 201 with the target", async () => {
    const [source, target] = [await createTopic({ name: uniq("src") }), await createTopic({ name: uniq("tgt") })];
    const onlySource = await createProject(user.api, { topics: [source.name], visibility: "public" });
    const both = await createProject(user.api, { topics: [source.name, target.name], visibility: "internal" });
    const onlyTarget = await createProject(user.api, { topics: [target.name], visibility: "private" });
    const privateSource = await createProject(user.api, { topics: [source.name, "unrelated"], visibility: "private" });
    expect([await countOf(source.id), await countOf(target.id)]).toEqual([3, 2]);

    const res = await t.root.post("/topics/merge", { source_topic_id: source.id, target_topic_id: target.id });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(entity({ id: target.id, name: target.name, title: target.title, total_projects_count: 4 }));

    expect((await t.anon.get(`/topics/${source.id}`)).status).toBe(404);
    expect(await topicsOf(onlySource.id)).toEqual([target.name]);
    expect(await topicsOf(both.id)).toEqual([target.name]);
    expect(await topicsOf(onlyTarget.id)).toEqual([target.name]);
    expect(await topicsOf(privateSource.id)).toEqual([target.name, "unrelated"]);
    expect(await projectIdsWithTopic(target.name)).toEqual([onlySource.id, both.id, onlyTarget.id, privateSource.id]);
    expect(await projectIdsWithTopic(source.name)).toEqual([]);
    // public + internal projects count as non-private; the two private ones do not
    expect(await t.services.db.topic.findUnique({ where: { id: target.id } })).toMatchObject({
      totalProjectsCount: 4, nonPrivateProjectsCount: 2,
    });
  });

  it("refuses to merge a topic into itself", async () => {
    const topic = await createTopic();
    const res = await t.root.post("/topics/merge", { source_topic_id: topic.id, target_topic_id: topic.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "The source topic and the target topic are identical." });
    expect((await t.anon.get(`/topics/${topic.id}`)).status).toBe(200);
  });

  it("answers 404 for an unknown source or target, 400 for missing or invalid ids", async () => {
    const topic = await createTopic();
    for (const body of [{ source_topic_id: 999999, target_topic_id: topic.id }, { source_topic_id: topic.id, target_topic_id: 999999 }]) {
      const res = await t.root.post("/topics/merge", body);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    expect((await t.root.post("/topics/merge", {})).body).toEqual({ error: "source_topic_id is missing, target_topic_id is missing" });
    expect((await t.root.post("/topics/merge", { source_topic_id: topic.id })).body).toEqual({ error: "target_topic_id is missing" });
    expect((await t.root.post("/topics/merge", { source_topic_id: "a", target_topic_id: topic.id })).body).toEqual({ error: "source_topic_id is invalid" });
    expect((await t.anon.get(`/topics/${topic.id}`)).status).toBe(200);
  });

  it("refuses anonymous callers and non-admins before looking at params", async () => {
    const [source, target] = [await createTopic(), await createTopic()];
    for (const body of [{ source_topic_id: source.id, target_topic_id: target.id }, {}]) {
      expect((await t.anon.post("/topics/merge", body)).status).toBe(401);
      const byUser = await user.api.post("/topics/merge", body);
      expect(byUser.status).toBe(403);
      expect(byUser.body).toEqual(FORBIDDEN);
    }
    expect((await t.anon.get(`/topics/${source.id}`)).status).toBe(200);
  });

  it("hides a topic of an unreadable organization (404) and refuses topics of different organizations", async () => {
    const topic = await createTopic();
    const foreign = await t.services.db.topic.create({ data: { organizationId: 2, name: "merge-foreign", nameLower: "merge-foreign", title: "F" } });
    const res = await t.root.post("/topics/merge", { source_topic_id: foreign.id, target_topic_id: topic.id });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(ORGANIZATION_NOT_FOUND);
    // once both are readable, the merge service itself requires one organization
    const local = await t.services.db.topic.findUniqueOrThrow({ where: { id: topic.id } });
    const ctx = systemContext(t.services);
    await expect(mergeTopics(ctx, foreign, local)).rejects.toMatchObject({
      status: 400, body: { message: "The source topic and the target topic must belong to the same organization." },
    });
  });

  it("keeps everything as it was when the merge fails midway (one transaction)", async () => {
    const source = await createTopic();
    const project = await createProject(user.api, { topics: [source.name] });
    const sourceRow = await t.services.db.topic.findUniqueOrThrow({ where: { id: source.id } });
    // a target that no longer exists: moving the assignments to it violates the foreign key
    const vanished = { ...sourceRow, id: 99_999_999, name: "vanished" };
    const ctx = systemContext(t.services);
    await expect(mergeTopics(ctx, sourceRow, vanished)).rejects.toMatchObject({
      status: 400, body: { message: "Topics could not be merged!" },
    });
    expect(await topicsOf(project.id)).toEqual([source.name]);
    expect(await countOf(source.id)).toBe(1);
  });
});

describe("project counters", () => {
  it("follow assigning and unassigning topics through POST and PUT /projects", async () => {
    const [a, b] = [uniq("ca"), uniq("cb")];
    const project = await createProject(user.api, { topics: [a] });
    const topicA = (await t.anon.get("/topics", { query: { search: a } })).body[0];
    expect(topicA).toMatchObject({ name: a, title: a, total_projects_count: 1 });
    await createProject(user.api, { topics: [a.toUpperCase()] });
    expect(await countOf(topicA.id)).toBe(2);

    await user.api.put(`/projects/${project.id}`, { topics: [b] });
    const topicB = (await t.anon.get("/topics", { query: { search: b } })).body[0];
    expect([await countOf(topicA.id), topicB.total_projects_count]).toEqual([1, 1]);
    await user.api.put(`/projects/${project.id}`, { topics: [] });
    expect([await countOf(topicA.id), await countOf(topicB.id)]).toEqual([1, 0]);
  });

  it("count non-private projects through visibility changes (what the list order uses)", async () => {
    const name = uniq("vis");
    const project = await createProject(user.api, { topics: [name], visibility: "private" });
    const row = () => t.services.db.topic.findFirstOrThrow({ where: { nameLower: name.toLowerCase() } });
    expect(await row()).toMatchObject({ totalProjectsCount: 1, nonPrivateProjectsCount: 0 });
    await user.api.put(`/projects/${project.id}`, { visibility: "public" });
    expect(await row()).toMatchObject({ totalProjectsCount: 1, nonPrivateProjectsCount: 1 });
    await user.api.put(`/projects/${project.id}`, { visibility: "internal" });
    expect(await row()).toMatchObject({ totalProjectsCount: 1, nonPrivateProjectsCount: 1 });
    await user.api.put(`/projects/${project.id}`, { visibility: "private" });
    expect(await row()).toMatchObject({ totalProjectsCount: 1, nonPrivateProjectsCount: 0 });
  });
});

describe("GET /topics (a fresh instance)", () => {
  let f: TestApp;
  let owner: TestUser;
  const byName: Record<string, any> = {};
  const names = (body: any[]) => body.map((topic) => topic.name);

  /** Topics created in this order (ids ascending); projects assigned below. */
  const TOPICS: Array<[string, string]> = [
    ["git", "Git"], ["gitlab", "GitLab"], ["my-git", "My Git"], ["git-a", "Git A"], ["git-b", "Git B"],
    ["go", "Go Lang"], ["ab", "XY"], ["abab", "Abab"], ["ror", "Ruby on Rails"], ["lonely", "Lonely"],
  ];

  async function list(api: ApiClient, query: Record<string, string | number | boolean> = {}) {
    const res = await api.get("/topics", { query });
    expect(res.status, res.text).toBe(200);
    return res;
  }

  beforeAll(async () => {
    f = await startTestApp();
    owner = await createUser(f);
    for (const [name, title] of TOPICS) {
      const res = await f.root.post("/topics", { name, title });
      expect(res.status, res.text).toBe(201);
      byName[name] = res.body;
    }
    // non-private projects: gitlab 3, go 2, git-b 1, ror 1; private ones raise totals only
    const assign = async (topics: string[], visibility: string) => createProject(owner.api, { topics, visibility });
    await assign(["gitlab", "go", "ror"], "public");
    await assign(["gitlab", "go"], "internal");
    await assign(["gitlab", "git-b"], "public");
    await assign(["git", "ab", "abab", "my-git"], "private");
    await assign(["git"], "private");
  }, 60_000);

  it("orders by non-private project count desc, then id, for anyone", async () => {
    // gitlab 3, go 2, then git-b and ror with 1 (ids: git-b first), then the rest by id
    const expected = ["gitlab", "go", "git-b", "ror", "git", "my-git", "git-a", "ab", "abab", "lonely"];
    for (const api of [f.anon, owner.api, f.root]) expect(names((await list(api)).body)).toEqual(expected);
    const first = (await list(f.anon)).body[0];
    expect(first).toEqual(entity({ id: byName.gitlab.id, name: "gitlab", title: "GitLab", total_projects_count: 3 }));
    // git has 2 (private) projects but no non-private one
    expect((await list(f.anon)).body.find((topic: any) => topic.name === "git").total_projects_count).toBe(2);
  });

  it("keeps only topics without projects with without_projects=true", async () => {
    expect(names((await list(f.anon, { without_projects: true })).body)).toEqual(["git-a", "lonely"]);
    expect((await list(f.anon, { without_projects: false })).body).toHaveLength(TOPICS.length);
    const invalid = await f.anon.get("/topics", { query: { without_projects: "maybe" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: "without_projects is invalid" });
  });

  it("paginates with GitLab's headers", async () => {
    const res = await list(f.anon, { per_page: 3, page: 2 });
    expect(names(res.body)).toEqual(["ror", "git", "my-git"]);
    expect(res.headers.get("x-page")).toBe("2");
    expect(res.headers.get("x-per-page")).toBe("3");
    expect(res.headers.get("x-next-page")).toBe("3");
    expect(res.headers.get("x-prev-page")).toBe("1");
    expect(res.headers.get("x-total")).toBe("10");
    expect(res.headers.get("x-total-pages")).toBe("4");
    const url = (page: number) => `${BASE_URL}/api/v4/topics?page=${page}&per_page=3`;
    expect(parseLinks(res.headers.get("link"))).toEqual({ prev: url(1), next: url(3), first: url(1), last: url(4) });
    expect(names((await list(f.anon, { per_page: 3, page: 4 })).body)).toEqual(["lonely"]);
    expect(names((await list(f.anon, { per_page: 3, page: 0 })).body)).toEqual(["gitlab", "go", "git-b"]);
  });

  it("lists the default organization only: organization_id 1, 404 for others", async () => {
    expect((await list(f.anon, { organization_id: 1 })).body).toHaveLength(TOPICS.length);
    const other = await f.anon.get("/topics", { query: { organization_id: 2 } });
    expect(other.status).toBe(404);
    expect(other.body).toEqual(ORGANIZATION_NOT_FOUND);
  });

  it.each([
    ["g", []],
    ["gi", []],
    ["go", ["go"]],
    ["GO", ["go"]],
    ["ab", ["ab"]],
    ["xy", ["ab"]],
    ["a", []],
    ["on ra", []],
  ])("matches short terms (%s) only as a whole name or title, case-insensitively", async (search, expected) => {
    expect(names((await list(f.anon, { search })).body)).toEqual(expected);
  });

  it.each([
    // similarity to the name first (git 1, git-b and git-a 4/6, my-git 4/7, gitlab 3/8), then non-private count
    ["git", ["git", "git-b", "git-a", "my-git", "gitlab"]],
    ["GIT", ["git", "git-b", "git-a", "my-git", "gitlab"]],
    ["gitl", ["gitlab"]],
    ["lang", ["go"]],
    ["rails", ["ror"]],
    ["ruby rails", ["ror"]],
    ["ruby ror", []],
    ['"on rails"', ["ror"]],
    ["  bab  ", ["abab"]],
    // "ab" is too short to count: "git" alone decides; git-a shares "  a" with the query too
    ["ab git", ["git-a", "git", "git-b", "gitlab", "my-git"]],
  ])("matches %s (3+ characters) as a substring of the name or the title", async (search, expected) => {
    expect(names((await list(f.anon, { search })).body)).toEqual(expected);
  });

  it("treats a blank search as none and combines search with without_projects and pagination", async () => {
    expect((await list(f.anon, { search: "   " })).body).toHaveLength(TOPICS.length);
    expect(names((await list(f.anon, { search: "git", without_projects: true })).body)).toEqual(["git-a"]);
    const page = await list(f.anon, { search: "git", per_page: 2, page: 2 });
    expect(names(page.body)).toEqual(["git-a", "my-git"]);
    expect(page.headers.get("x-total")).toBe("5");
    expect(parseLinks(page.headers.get("link")).next).toBe(`${BASE_URL}/api/v4/topics?page=3&per_page=2&search=git`);
  });

  it("shows merged projects under the target in lists and in GET /projects?topic=", async () => {
    const res = await f.root.post("/topics/merge", { source_topic_id: byName.abab.id, target_topic_id: byName.lonely.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: byName.lonely.id, total_projects_count: 1 });
    const projects = await f.root.get("/projects", { query: { topic: "lonely" } });
    expect(projects.body.map((p: any) => p.topics)).toEqual([["git", "ab", "lonely", "my-git"]]);
    expect((await f.root.get("/projects", { query: { topic: "abab" } })).body).toEqual([]);
    expect(names((await list(f.anon, { without_projects: true })).body)).toEqual(["git-a"]);
  });
});
