// Avatars through the public graph's mutations: GraphQL multipart requests (operations, map, file
// parts) give groupCreate/groupUpdate and topicCreate/topicUpdate the same uploads as REST, with the
// same checks (200 KiB, images only) reported in the payload's errors; avatar: null removes one.
import { beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_GRAPH_PATH } from "../../src/app.js";
import type { ApiClient } from "../helpers/api.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { graph, graphData, NOT_AVAILABLE } from "../helpers/graph.js";
import { addMember, uniq } from "../helpers/factories.js";
import { JPEG, NOT_AN_IMAGE, pngOfSize, redPng } from "../helpers/images.js";
import { expectServed } from "../helpers/multipart.js";
import { storedAvatar } from "../helpers/stored-files.js";
import { clientOf, createTeam, type Actor, type Team } from "../helpers/team.js";

let t: TestApp;
let team: Team;
const UPLOADS = `${BASE_URL}/uploads/-/system/`;
const TOO_BIG = "is too big (should be at most 200 KiB)";
const NOT_IMAGE = "file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp";

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam(t);
});

/** A GraphQL multipart request (graphql-multipart-request-spec) with one file at variables.input.avatar. */
async function multipart(client: ApiClient, query: string, input: Record<string, unknown>, image: Buffer, filename: string) {
  const form = new FormData();
  form.append("operations", JSON.stringify({ query, variables: { input: { ...input, avatar: null } } }));
  form.append("map", JSON.stringify({ 0: ["variables.input.avatar"] }));
  form.append("0", new Blob([new Uint8Array(image)], { type: "image/png" }), filename);
  const headers: Record<string, string> = client.token ? { "PRIVATE-TOKEN": client.token } : {};
  const response = await t.app.fetch(new Request(`${BASE_URL}${PUBLIC_GRAPH_PATH}`, { method: "POST", headers, body: form }));
  return (await response.json()) as { data?: any; errors?: { message: string; path?: string[] }[] };
}

const numericId = (gid: string) => Number(gid.split("/").pop());

const GROUP_CREATE = `mutation($input: GroupCreateInput!) { groupCreate(input: $input) { errors group { id fullPath avatarUrl } } }`;
const GROUP_UPDATE = `mutation($input: GroupUpdateInput!) { groupUpdate(input: $input) { errors group { id description avatarUrl } } }`;

async function picturedGroup(image = redPng(), filename = "first.png") {
  const res = await multipart(team.owner.api, GROUP_CREATE, { name: "Pictured", path: uniq("gav") }, image, filename);
  expect(res.errors).toBeUndefined();
  expect(res.data.groupCreate.errors).toEqual([]);
  return res.data.groupCreate.group;
}

describe("group avatars", () => {
  it("groupCreate stores the uploaded PNG, served byte for byte, the URL REST shows", async () => {
    const image = redPng();
    const group = await picturedGroup(image, "mine.png");
    expect(group.avatarUrl).toBe(`${UPLOADS}group/avatar/${numericId(group.id)}/mine.png`);
    await expectServed(t.app, group.avatarUrl, image, "image/png");
    expect((await team.owner.api.get(`/groups/${numericId(group.id)}`)).body.avatar_url).toBe(group.avatarUrl);
  });

  it("groupUpdate replaces the avatar (the old file goes) and avatar: null removes it", async () => {
    const group = await picturedGroup();
    const res = await multipart(team.owner.api, GROUP_UPDATE, { fullPath: group.fullPath, description: "new face" }, JPEG, "face.jpg");
    expect(res.data.groupUpdate).toEqual({
      errors: [], group: { id: group.id, description: "new face", avatarUrl: `${UPLOADS}group/avatar/${numericId(group.id)}/face.jpg` },
    });
    await expectServed(t.app, res.data.groupUpdate.group.avatarUrl, JPEG, "image/jpeg");
    expect(await storedAvatar(t, group.avatarUrl)).toBeNull();
    const removed = await graphData(team.owner.api, GROUP_UPDATE, { input: { fullPath: group.fullPath, avatar: null } });
    expect(removed.groupUpdate).toMatchObject({ errors: [], group: { avatarUrl: null } });
    expect(await storedAvatar(t, res.data.groupUpdate.group.avatarUrl)).toBeNull();
  });

  it("groupUpdate without avatar keeps it", async () => {
    const group = await picturedGroup();
    const data = await graphData(team.owner.api, GROUP_UPDATE, { input: { fullPath: group.fullPath, description: "same face" } });
    expect(data.groupUpdate.group.avatarUrl).toBe(group.avatarUrl);
  });

  it.each([
    ["a file over 200 KiB", pngOfSize(200 * 1024 + 1), TOO_BIG],
    ["a text file named .png", NOT_AN_IMAGE, NOT_IMAGE],
  ])("refuses %s in the payload's errors, creating nothing and keeping the old avatar", async (_what, image, message) => {
    const path = uniq("gbad");
    const created = await multipart(team.owner.api, GROUP_CREATE, { name: "Bad", path }, image, "bad.png");
    // GitLab's create message wraps the model errors: Failed to save group {:avatar=>[...]}
    expect(created.data.groupCreate).toEqual({ errors: [`Failed to save group {:avatar=>[${JSON.stringify(message)}]}`], group: null });
    expect((await team.owner.api.get(`/groups/${path}`)).status).toBe(404);
    const group = await picturedGroup();
    const updated = await multipart(team.owner.api, GROUP_UPDATE, { fullPath: group.fullPath }, image, "bad.png");
    expect(updated.data.groupUpdate).toEqual({ errors: [`avatar ${message}`], group: null });
    expect((await team.owner.api.get(`/groups/${numericId(group.id)}`)).body.avatar_url).toBe(group.avatarUrl);
  });

  it("accepts a file of exactly 200 KiB", async () => {
    const image = pngOfSize(200 * 1024);
    const group = await picturedGroup(image, "full.png");
    await expectServed(t.app, group.avatarUrl, image, "image/png");
  });

  it.each(["anonymous", "nonMember", "developer", "maintainer"] as Actor[])("refuses %s on the owner's group, keeping its avatar", async (actor) => {
    const group = await picturedGroup();
    await addMember(team.owner.api, "groups", numericId(group.id), team.developer.id, 30);
    await addMember(team.owner.api, "groups", numericId(group.id), team.maintainer.id, 40);
    const res = await multipart(clientOf(t, team, actor), GROUP_UPDATE, { fullPath: group.fullPath }, JPEG, "theirs.jpg");
    expect(res.errors?.[0]).toMatchObject({ message: NOT_AVAILABLE, path: ["groupUpdate"] });
    await expectServed(t.app, group.avatarUrl, redPng(), "image/png");
  });
});

const TOPIC_CREATE = `mutation($input: TopicCreateInput!) { topicCreate(input: $input) { errors topic { id name avatarUrl } } }`;
const TOPIC_UPDATE = `mutation($input: TopicUpdateInput!) { topicUpdate(input: $input) { errors topic { id title avatarUrl } } }`;

async function picturedTopic(image = redPng()) {
  const name = uniq("tav");
  const res = await multipart(t.root, TOPIC_CREATE, { name, title: name }, image, "topic.png");
  expect(res.data.topicCreate.errors).toEqual([]);
  return res.data.topicCreate.topic;
}

describe("topic avatars", () => {
  it("topicCreate stores the uploaded PNG, served byte for byte, the URL REST shows", async () => {
    const image = redPng();
    const topic = await picturedTopic(image);
    expect(topic.avatarUrl).toBe(`${UPLOADS}topic/avatar/${numericId(topic.id)}/topic.png`);
    await expectServed(t.app, topic.avatarUrl, image, "image/png");
    expect((await t.root.get(`/topics/${numericId(topic.id)}`)).body.avatar_url).toBe(topic.avatarUrl);
  });

  it("topicUpdate replaces the avatar and avatar: null removes it", async () => {
    const topic = await picturedTopic();
    const res = await multipart(t.root, TOPIC_UPDATE, { id: topic.id, title: "Renamed" }, JPEG, "new.jpg");
    expect(res.data.topicUpdate).toEqual({
      errors: [], topic: { id: topic.id, title: "Renamed", avatarUrl: `${UPLOADS}topic/avatar/${numericId(topic.id)}/new.jpg` },
    });
    await expectServed(t.app, res.data.topicUpdate.topic.avatarUrl, JPEG, "image/jpeg");
    expect(await storedAvatar(t, topic.avatarUrl)).toBeNull();
    const removed = await graphData(t.root, TOPIC_UPDATE, { input: { id: topic.id, avatar: null } });
    expect(removed.topicUpdate).toMatchObject({ errors: [], topic: { avatarUrl: null } });
  });

  it.each([
    ["a file over 200 KiB", pngOfSize(200 * 1024 + 1), TOO_BIG],
    ["a text file named .png", NOT_AN_IMAGE, NOT_IMAGE],
  ])("refuses %s in the payload's errors", async (_what, image, message) => {
    const name = uniq("tbad");
    const res = await multipart(t.root, TOPIC_CREATE, { name, title: name }, image, "bad.png");
    expect(res.data.topicCreate).toEqual({ errors: [`avatar ${message}`], topic: null });
    const topic = await picturedTopic();
    const updated = await multipart(t.root, TOPIC_UPDATE, { id: topic.id }, image, "bad.png");
    expect(updated.data.topicUpdate).toEqual({ errors: [`avatar ${message}`], topic: null });
    await expectServed(t.app, topic.avatarUrl, redPng(), "image/png");
  });

  it.each(["anonymous", "nonMember", "owner"] as Actor[])("refuses %s (administrators only)", async (actor) => {
    const topic = await picturedTopic();
    const res = await multipart(clientOf(t, team, actor), TOPIC_UPDATE, { id: topic.id }, JPEG, "x.jpg");
    expect(res.errors?.[0]).toMatchObject({ message: NOT_AVAILABLE, path: ["topicUpdate"] });
    await expectServed(t.app, topic.avatarUrl, redPng(), "image/png");
  });
});

const USER_CREATE = `mutation($input: UserCreateInput!) { userCreate(input: $input) { errors user { id avatarUrl } } }`;
const USER_UPDATE = `mutation($input: UserUpdateInput!) { userUpdate(input: $input) { errors user { id avatarUrl } } }`;

describe("user avatars", () => {
  const newUser = () => {
    const username = uniq("uav").replace("-", "_");
    return { username, name: username, email: `${username}@example.com`, password: "password-123456" };
  };

  it("userCreate and userUpdate store the uploaded image, served byte for byte, the URL REST shows", async () => {
    const image = redPng();
    const created = await multipart(t.root, USER_CREATE, newUser(), image, "me.png");
    const user = created.data.userCreate.user;
    expect(user.avatarUrl).toBe(`${UPLOADS}user/avatar/${numericId(user.id)}/me.png`);
    await expectServed(t.app, user.avatarUrl, image, "image/png");
    const updated = await multipart(t.root, USER_UPDATE, { id: user.id }, JPEG, "later.jpg");
    expect(updated.data.userUpdate.user.avatarUrl).toBe(`${UPLOADS}user/avatar/${numericId(user.id)}/later.jpg`);
    await expectServed(t.app, updated.data.userUpdate.user.avatarUrl, JPEG, "image/jpeg");
    expect((await t.root.get(`/users/${numericId(user.id)}`)).body.avatar_url).toBe(updated.data.userUpdate.user.avatarUrl);
    expect(await storedAvatar(t, user.avatarUrl)).toBeNull();
  });

  it("refuses a file that is not an image in the payload's errors", async () => {
    const res = await multipart(t.root, USER_CREATE, newUser(), NOT_AN_IMAGE, "me.png");
    expect(res.data.userCreate).toEqual({ errors: [`avatar ${NOT_IMAGE}`], user: null });
  });

  it.each(["anonymous", "owner"] as Actor[])("refuses %s (administrators only), keeping the avatar", async (actor) => {
    const user = (await multipart(t.root, USER_CREATE, newUser(), redPng(), "me.png")).data.userCreate.user;
    const res = await multipart(clientOf(t, team, actor), USER_UPDATE, { id: user.id }, JPEG, "x.jpg");
    expect(res.errors?.[0]).toMatchObject({ message: NOT_AVAILABLE, path: ["userUpdate"] });
    await expectServed(t.app, user.avatarUrl, redPng(), "image/png");
  });
});

describe("projects", () => {
  it("have no avatar, as over REST", async () => {
    const project = (await team.owner.api.post("/projects", { name: uniq("pav"), visibility: "public" })).body;
    const data = await graphData(t.anon, `query($p: ID!) { project(fullPath: $p) { avatarUrl } }`, { p: project.path_with_namespace });
    expect(data.project).toEqual({ avatarUrl: null });
    expect(project.avatar_url).toBeNull();
  });
});

describe("a plain JSON request", () => {
  it("cannot pass a string as an Upload", async () => {
    const res = await graph(team.owner.api, GROUP_CREATE, { input: { name: "Str", path: uniq("gstr"), avatar: "not a file" } });
    expect(res.body.errors?.[0]?.message).toContain("Expected type Upload");
    expect(res.body.data).toBeUndefined();
  });
});
