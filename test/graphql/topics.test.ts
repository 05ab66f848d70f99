// Topics over /graphql: the root fields topics, topic, createTopic, updateTopic, deleteTopic and
// mergeTopics run the same domain functions as REST (same rules, errors in extensions), and
// GraphQL multipart requests upload, replace and refuse avatars as REST multipart does.
import { beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, ROOT_TOKEN, startTestApp, type TestApp } from "../helpers/app.js";
import { storedAvatar } from "../helpers/stored-files.js";
import { createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { GIF, JPEG, NOT_AN_IMAGE, pngOfSize, redPng } from "../helpers/images.js";
import { REST_GRAPH_PATH } from "../../src/app.js";

let t: TestApp;
let user: TestUser;

const UPLOADS = `${BASE_URL}/uploads/-/system/`;
const FIELDS = "id name title description total_projects_count organization_id avatar_url";

const CREATE = `mutation($name: String!, $title: String!, $description: String, $avatar: Upload) {
  createTopic(name: $name, title: $title, description: $description, avatar: $avatar) { ${FIELDS} }
}`;
const UPDATE = `mutation($id: Int!, $name: String, $title: String, $avatar: Upload) {
  updateTopic(id: $id, name: $name, title: $title, avatar: $avatar) { ${FIELDS} }
}`;
const DELETE = `mutation($id: Int!) { deleteTopic(id: $id) }`;
const MERGE = `mutation($source: Int!, $target: Int!) { mergeTopics(source_topic_id: $source, target_topic_id: $target) { ${FIELDS} } }`;
const TOPIC = `query($id: Int!) { topic(id: $id) { ${FIELDS} } }`;
const TOPICS = `query($search: String, $without: Boolean, $page: Int, $per_page: Int) {
  topics(search: $search, without_projects: $without, page: $page, per_page: $per_page) { id name total_projects_count }
}`;

/** A GraphQL multipart request (graphql-multipart-request-spec) with one file at variables.avatar. */
async function multipart(token: string | null, query: string, variables: Record<string, unknown>, image: Buffer, filename: string) {
  const form = new FormData();
  form.append("operations", JSON.stringify({ query, variables: { ...variables, avatar: null } }));
  form.append("map", JSON.stringify({ 0: ["variables.avatar"] }));
  form.append("0", new Blob([new Uint8Array(image)], { type: "image/png" }), filename);
  const headers: Record<string, string> = token ? { "PRIVATE-TOKEN": token } : {};
  const response = await t.app.fetch(new Request(`${BASE_URL}${REST_GRAPH_PATH}`, { method: "POST", headers, body: form }));
  return { status: response.status, body: (await response.json()) as { data?: any; errors?: any[] } };
}

async function created(fields: Record<string, unknown> = {}) {
  const res = await t.root.graphql(CREATE, { name: uniq("gql"), title: "From GraphQL", ...fields });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.createTopic;
}

const gitlabError = (res: { body: { errors?: any[] } }) => res.body.errors![0].extensions;

beforeAll(async () => {
  t = await startTestApp();
  user = await createUser(t);
});

describe("topic fields over GraphQL", () => {
  it("createTopic (admin) gives the same entity REST shows; anyone reads it with topic and topics", async () => {
    const topic = await created({ description: "described" });
    expect(topic).toEqual({
      id: expect.any(Number), name: topic.name, title: "From GraphQL", description: "described",
      total_projects_count: 0, organization_id: 1, avatar_url: null,
    });
    expect((await t.root.get(`/topics/${topic.id}`)).body).toEqual(topic);
    const read = await t.anon.graphql(TOPIC, { id: topic.id });
    expect(read.body.data.topic).toEqual(topic);
    const listed = await t.anon.graphql(TOPICS, { search: topic.name });
    expect(listed.body.data.topics).toEqual([{ id: topic.id, name: topic.name, total_projects_count: 0 }]);
  });

  it("refuses anonymous callers (401) and non-admins (403) for every write", async () => {
    const topic = await created();
    const writes: Array<[string, Record<string, unknown>]> = [
      [CREATE, { name: uniq("no"), title: "No" }], [UPDATE, { id: topic.id, title: "No" }],
      [DELETE, { id: topic.id }], [MERGE, { source: topic.id, target: topic.id }],
    ];
    for (const [query, variables] of writes) {
      const anon = await t.anon.graphql(query, variables);
      expect(anon.status).toBe(401);
      expect(gitlabError(anon)).toMatchObject({ http: { status: 401 }, gitlab: { message: "401 Unauthorized" } });
      const byUser = await user.api.graphql(query, variables);
      expect(byUser.status).toBe(403);
      expect(gitlabError(byUser)).toMatchObject({ http: { status: 403 }, gitlab: { message: "403 Forbidden" } });
    }
    expect((await t.anon.graphql(TOPIC, { id: topic.id })).body.data.topic.title).toBe("From GraphQL");
  });

  it("reports GitLab's validation and lookup errors in extensions", async () => {
    const topic = await created();
    const taken = await t.root.graphql(CREATE, { name: topic.name.toUpperCase(), title: "Again" });
    expect(taken.status).toBe(400);
    expect(gitlabError(taken).gitlab).toEqual({ message: { name: ["has already been taken"] } });
    const ascii = await t.root.graphql(UPDATE, { id: topic.id, name: "\u00fcber" });
    expect(gitlabError(ascii).gitlab).toEqual({ message: { name: ["must only include ASCII characters"] } });
    const missing = await t.anon.graphql(TOPIC, { id: 999999 });
    expect(missing.status).toBe(404);
    expect(gitlabError(missing).gitlab).toEqual({ message: "404 Not found" });
    const itself = await t.root.graphql(MERGE, { source: topic.id, target: topic.id });
    expect(gitlabError(itself).gitlab).toEqual({ message: "The source topic and the target topic are identical." });
  });

  it("updateTopic, mergeTopics and deleteTopic change what REST shows", async () => {
    const [source, target] = [await created(), await created()];
    const project = await createProject(user.api, { topics: [source.name], visibility: "public" });
    const updated = await t.root.graphql(UPDATE, { id: target.id, title: "Target" });
    expect(updated.body.data.updateTopic).toMatchObject({ id: target.id, title: "Target" });

    const merged = await t.root.graphql(MERGE, { source: source.id, target: target.id });
    expect(merged.body.errors).toBeUndefined();
    expect(merged.body.data.mergeTopics).toMatchObject({ id: target.id, title: "Target", total_projects_count: 1 });
    expect((await t.root.get(`/projects/${project.id}`)).body.topics).toEqual([target.name]);
    expect((await t.anon.get(`/topics/${source.id}`)).status).toBe(404);

    const deleted = await t.root.graphql(DELETE, { id: target.id });
    expect(deleted.body).toEqual({ data: { deleteTopic: true } });
    expect((await t.root.get(`/projects/${project.id}`)).body.topics).toEqual([]);
    expect((await t.anon.get(`/topics/${target.id}`)).status).toBe(404);
  });
});

describe("topic avatars over GraphQL multipart", () => {
  it("createTopic stores the uploaded file and REST shows the same avatar_url", async () => {
    const image = redPng();
    const res = await multipart(ROOT_TOKEN, CREATE, { name: uniq("mp"), title: "Multipart" }, image, "gql.png");
    expect(res.body.errors).toBeUndefined();
    const topic = res.body.data.createTopic;
    expect(topic.avatar_url).toBe(`${UPLOADS}topic/avatar/${topic.id}/gql.png`);
    expect((await t.app.fetch(new Request(topic.avatar_url))).status).toBe(200);
    expect((await t.anon.get(`/topics/${topic.id}`)).body.avatar_url).toBe(topic.avatar_url);
  });

  it("updateTopic replaces the avatar (deleting the previous file) and avatar: null removes it", async () => {
    const first = await multipart(ROOT_TOKEN, CREATE, { name: uniq("mp"), title: "Multipart" }, redPng(), "one.png");
    const topic = first.body.data.createTopic;
    const replaced = await multipart(ROOT_TOKEN, UPDATE, { id: topic.id, title: "New face" }, JPEG, "face.jpg");
    expect(replaced.body.errors).toBeUndefined();
    expect(replaced.body.data.updateTopic).toMatchObject({ title: "New face", avatar_url: `${UPLOADS}topic/avatar/${topic.id}/face.jpg` });
    expect(await storedAvatar(t, topic.avatar_url)).toBeNull();

    const removed = await t.root.graphql(UPDATE, { id: topic.id, avatar: null });
    expect(removed.body.data.updateTopic.avatar_url).toBeNull();
    expect(await storedAvatar(t, replaced.body.data.updateTopic.avatar_url)).toBeNull();
  });

  it.each([
    ["a too-big image", () => pngOfSize(200 * 1024 + 1), ["is too big (should be at most 200 KiB)"]],
    ["a non-image", () => NOT_AN_IMAGE, [
      "file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp",
    ]],
  ])("updateTopic refuses %s as REST does and keeps the topic", async (_name, image, messages) => {
    const first = await multipart(ROOT_TOKEN, CREATE, { name: uniq("mp"), title: "Kept" }, GIF, "kept.gif");
    const topic = first.body.data.createTopic;
    const res = await multipart(ROOT_TOKEN, UPDATE, { id: topic.id, title: "Changed" }, image(), "x.png");
    expect(res.status).toBe(400);
    expect(gitlabError(res)).toMatchObject({ http: { status: 400 }, gitlab: { message: { avatar: messages } } });
    expect((await t.anon.get(`/topics/${topic.id}`)).body).toEqual(topic);
    expect(await storedAvatar(t, topic.avatar_url)).not.toBeNull();
  });

  it("createTopic refuses an image past the multipart size limit and creates nothing", async () => {
    const name = uniq("huge");
    const res = await multipart(ROOT_TOKEN, CREATE, { name, title: "Huge" }, pngOfSize(2 * 1024 * 1024), "big.png");
    expect(res.status).toBe(400);
    expect(gitlabError(res).gitlab).toEqual({ message: { avatar: ["is too big (should be at most 200 KiB)"] } });
    expect((await t.anon.get("/topics", { query: { search: name } })).body).toEqual([]);
  });

  it("refuses non-admin uploads", async () => {
    const res = await multipart(user.token, CREATE, { name: uniq("mp"), title: "User" }, GIF, "u.gif");
    expect(res.status).toBe(403);
  });
});
