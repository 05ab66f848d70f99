// Topic avatars through /api/v4, as the clients send them: python-gitlab (part `avatar`, filename
// avatar.png, no content type, plus an empty `file` part) and gitbeaker's Topics.create/edit (part
// `file`); replacing, removing (empty part, "" and null), serving the stored file, refusals that
// leave the topic as it was, and the files going with deleted and merged topics.
import { beforeAll, describe, expect, it } from "vitest";
import { rawRequest, type ApiClient } from "../helpers/api.js";
import { BASE_URL, ROOT_TOKEN, startTestApp, type TestApp } from "../helpers/app.js";
import { storedAvatar } from "../helpers/stored-files.js";
import { createUser, uniq, type TestUser } from "../helpers/factories.js";
import { expectServed, gitbeakerForm, pythonMultipart } from "../helpers/multipart.js";
import { bluePng, GIF, JPEG, NOT_AN_IMAGE, pngOfSize, redPng } from "../helpers/images.js";

let t: TestApp;
let user: TestUser;

const TOO_BIG = ["is too big (should be at most 200 KiB)"];
const NOT_IMAGE = ["file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp"];
const UPLOADS = `${BASE_URL}/uploads/-/system/`;

function python(method: "POST" | "PUT", url: string, fields: Record<string, string>, avatar: Buffer | null, token: string | null = ROOT_TOKEN) {
  return rawRequest(t.app, method, `/api/v4${url}`, pythonMultipart(token, fields, avatar));
}

async function pictured(by: ApiClient = t.root, image = redPng(), filename = "start.png"): Promise<any> {
  const name = uniq("pic");
  const res = await by.post("/topics", undefined, { form: gitbeakerForm({ name, title: `Pictured ${name}` }, image, filename) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const current = async (id: number) => (await t.anon.get(`/topics/${id}`)).body;

beforeAll(async () => {
  t = await startTestApp();
  user = await createUser(t);
});

describe("uploading a topic avatar", () => {
  it("takes python-gitlab's `avatar` part (avatar.png, no content type) beside its empty `file` part", async () => {
    const name = uniq("py");
    const image = redPng();
    const res = await python("POST", "/topics", { name, title: "Py Topic", description: "from python" }, image);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number), name, title: "Py Topic", description: "from python", total_projects_count: 0, organization_id: 1,
      avatar_url: `${UPLOADS}topic/avatar/${res.body.id}/avatar.png`,
    });
    expect(await storedAvatar(t, res.body.avatar_url)).toEqual(image);
    await expectServed(t.app, res.body.avatar_url, image, "image/png");
  });

  it("takes gitbeaker's `file` part as the avatar, keeping the caller's filename", async () => {
    const topic = await pictured(t.root, GIF, "logo.gif");
    expect(topic.avatar_url).toBe(`${UPLOADS}topic/avatar/${topic.id}/logo.gif`);
    await expectServed(t.app, topic.avatar_url, GIF, "image/gif");
  });

  it("shows the avatar on GET /topics/:id and in lists, to anyone", async () => {
    const topic = await pictured();
    expect((await current(topic.id)).avatar_url).toBe(topic.avatar_url);
    const listed = (await t.anon.get("/topics", { query: { search: topic.name } })).body;
    expect(listed.map((row: any) => row.avatar_url)).toEqual([topic.avatar_url]);
  });

  it("adds an avatar to a topic without one on update, named after its content", async () => {
    const created = await t.root.post("/topics", { name: uniq("plain"), title: "Plain" });
    const res = await python("PUT", `/topics/${created.body.id}`, {}, JPEG);
    expect(res.status, res.text).toBe(200);
    expect(res.body.avatar_url).toBe(`${UPLOADS}topic/avatar/${created.body.id}/avatar.jpg`);
    await expectServed(t.app, res.body.avatar_url, JPEG, "image/jpeg");
  });

  it("replaces the avatar and deletes the previous file", async () => {
    const topic = await pictured();
    const res = await t.root.put(`/topics/${topic.id}`, undefined, { form: gitbeakerForm({ description: "new face" }, JPEG, "photo.jpg", "image/jpeg") });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ description: "new face", avatar_url: `${UPLOADS}topic/avatar/${topic.id}/photo.jpg` });
    await expectServed(t.app, res.body.avatar_url, JPEG, "image/jpeg");
    expect(await storedAvatar(t, topic.avatar_url)).toBeNull();
    expect((await t.app.fetch(new Request(topic.avatar_url))).status).toBe(404);
  });

  it("replaces an avatar of the same filename in place", async () => {
    const topic = await pictured(t.root, redPng(), "avatar.png");
    const res = await python("PUT", `/topics/${topic.id}`, {}, bluePng());
    expect(res.status, res.text).toBe(200);
    expect(res.body.avatar_url).toBe(topic.avatar_url);
    await expectServed(t.app, topic.avatar_url, bluePng(), "image/png");
  });

  it("keeps the avatar when python's only file part is the empty `file`", async () => {
    const topic = await pictured();
    const res = await python("PUT", `/topics/${topic.id}`, { description: "still pictured" }, null);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ description: "still pictured", avatar_url: topic.avatar_url });
    expect(await storedAvatar(t, topic.avatar_url)).not.toBeNull();
  });

  it("accepts an image of exactly 200 KiB", async () => {
    const topic = await pictured();
    const image = pngOfSize(200 * 1024);
    const res = await python("PUT", `/topics/${topic.id}`, {}, image);
    expect(res.status, res.text).toBe(200);
    expect(await storedAvatar(t, res.body.avatar_url)).toEqual(image);
  });

  it("refuses an avatar given as a plain value", async () => {
    const topic = await pictured();
    const res = await t.root.put(`/topics/${topic.id}`, { avatar: "not-a-file.png" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "avatar is invalid" });
    expect((await current(topic.id)).avatar_url).toBe(topic.avatar_url);
  });
});

describe("removing a topic avatar", () => {
  it("removes it on python's empty `avatar` part", async () => {
    const topic = await pictured();
    const res = await python("PUT", `/topics/${topic.id}`, {}, Buffer.alloc(0));
    expect(res.status, res.text).toBe(200);
    expect(res.body.avatar_url).toBeNull();
    expect(await storedAvatar(t, topic.avatar_url)).toBeNull();
    expect((await current(topic.id)).avatar_url).toBeNull();
  });

  it("removes it on JSON null, JSON \"\" and an empty form value", async () => {
    for (const avatar of [null, ""]) {
      const topic = await pictured();
      const res = await t.root.put(`/topics/${topic.id}`, { avatar });
      expect(res.status).toBe(200);
      expect(res.body.avatar_url).toBeNull();
      expect(await storedAvatar(t, topic.avatar_url)).toBeNull();
    }
    const topic = await pictured();
    const res = await t.root.put(`/topics/${topic.id}`, undefined, { form: new URLSearchParams({ avatar: "" }) });
    expect(res.body.avatar_url).toBeNull();
    expect(await storedAvatar(t, topic.avatar_url)).toBeNull();
  });

  it("leaves a topic without an avatar as it is", async () => {
    const created = await t.root.post("/topics", { name: uniq("none"), title: "None" });
    const res = await t.root.put(`/topics/${created.body.id}`, { avatar: null, description: "plain" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ avatar_url: null, description: "plain" });
  });

  it("keeps the avatar when the removal comes with a failing update", async () => {
    const [topic, other] = [await pictured(), await pictured()];
    const res = await t.root.put(`/topics/${topic.id}`, { avatar: null, name: other.name });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { name: ["has already been taken"] } });
    expect((await current(topic.id)).avatar_url).toBe(topic.avatar_url);
    expect(await storedAvatar(t, topic.avatar_url)).not.toBeNull();
  });
});

describe("refused avatars leave the topic unchanged", () => {
  it.each([
    ["an image over 200 KiB", () => pngOfSize(200 * 1024 + 1), TOO_BIG],
    ["a non-image named .png (checked by content)", () => NOT_AN_IMAGE, NOT_IMAGE],
  ])("refuses %s on update", async (_name, image, messages) => {
    const topic = await pictured();
    const res = await python("PUT", `/topics/${topic.id}`, { title: "Renamed" }, image());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { avatar: messages } });
    expect(await current(topic.id)).toEqual(topic);
    expect(await storedAvatar(t, topic.avatar_url)).toEqual(redPng());
  });

  it.each([
    ["an image over 200 KiB", () => pngOfSize(300 * 1024), TOO_BIG],
    ["a non-image", () => NOT_AN_IMAGE, NOT_IMAGE],
  ])("refuses %s on create and creates nothing", async (_name, image, messages) => {
    const name = uniq("refused");
    const res = await t.root.post("/topics", undefined, { form: gitbeakerForm({ name, title: "Refused" }, image(), "x.png") });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { avatar: messages } });
    expect((await t.anon.get("/topics", { query: { search: name } })).body).toEqual([]);
  });

  it("reports the avatar first, with the other errors", async () => {
    const [topic, other] = [await pictured(), await pictured()];
    const res = await python("PUT", `/topics/${topic.id}`, { name: other.name.toUpperCase() }, NOT_AN_IMAGE);
    expect(res.status).toBe(400);
    expect(res.text).toBe(JSON.stringify({ message: { avatar: NOT_IMAGE, name: ["has already been taken"] } }));
  });
});

describe("who may change a topic avatar", () => {
  it("refuses anonymous callers (401) and non-admins (403), keeping the avatar", async () => {
    const topic = await pictured();
    const anon = await python("PUT", `/topics/${topic.id}`, {}, GIF, null);
    expect(anon.status).toBe(401);
    const byUser = await python("PUT", `/topics/${topic.id}`, {}, GIF, user.token);
    expect(byUser.status).toBe(403);
    expect(byUser.body).toEqual({ message: "403 Forbidden" });
    const removal = await user.api.put(`/topics/${topic.id}`, { avatar: null });
    expect(removal.status).toBe(403);
    const create = await user.api.post("/topics", undefined, { form: gitbeakerForm({ name: uniq("u"), title: "U" }, GIF, "u.gif") });
    expect(create.status).toBe(403);
    expect((await current(topic.id)).avatar_url).toBe(topic.avatar_url);
    expect(await storedAvatar(t, topic.avatar_url)).not.toBeNull();
  });
});

describe("avatar files of deleted and merged topics", () => {
  it("deletes the file with the topic", async () => {
    const topic = await pictured();
    expect((await t.root.delete(`/topics/${topic.id}`)).status).toBe(204);
    expect(await storedAvatar(t, topic.avatar_url)).toBeNull();
  });

  it("deletes the source's file on merge; the target keeps its own", async () => {
    const [source, target] = [await pictured(t.root, GIF, "source.gif"), await pictured(t.root, JPEG, "target.jpg")];
    const res = await t.root.post("/topics/merge", { source_topic_id: source.id, target_topic_id: target.id });
    expect(res.status).toBe(201);
    expect(res.body.avatar_url).toBe(target.avatar_url);
    expect(await storedAvatar(t, source.avatar_url)).toBeNull();
    await expectServed(t.app, target.avatar_url, JPEG, "image/jpeg");
  });
});

describe("serving", () => {
  it("answers 404 on an unknown topic avatar file", async () => {
    const res = await rawRequest(t.app, "GET", "/uploads/-/system/topic/avatar/999999/none.png");
    expect(res.status).toBe(404);
  });
});
