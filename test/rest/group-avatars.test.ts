// Group avatars through /api/v4: multipart uploads as python-gitlab (part `avatar`, filename
// avatar.png, no content type, plus an empty `file` part) and gitbeaker (part `file` as in
// Topics/uploadAvatar, or `avatar` as in Groups.create) send them, replacing and removing, serving
// the stored file, refusals that leave the group as it was.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { changeAvatar, type CheckedAvatar } from "../../src/domain/shared/avatars.js";
import { createServices } from "../../src/services.js";
import { rawRequest, type ApiClient } from "../helpers/api.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { storedAvatar } from "../helpers/stored-files.js";
import { onPostgresql, TEST_ENCRYPTION_KEY } from "../helpers/test-database.js";
import { addMember, createGroup, createProject, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { expectServed, gitbeakerForm, pythonMultipart } from "../helpers/multipart.js";
import { bluePng, GIF, JPEG, NOT_AN_IMAGE, pngOfSize, redPng } from "../helpers/images.js";

let t: TestApp;
let owner: TestUser, maintainer: TestUser;

const TOO_BIG = { message: { avatar: ["is too big (should be at most 200 KiB)"] } };
const NOT_IMAGE = {
  message: { avatar: ["file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp"] },
};
const UPLOADS = `${BASE_URL}/uploads/-/system/`;


function python(user: TestUser, method: "POST" | "PUT", url: string, fields: Record<string, string>, avatar: Buffer | null) {
  return rawRequest(t.app, method, `/api/v4${url}`, pythonMultipart(user.token, fields, avatar));
}

async function groupWithAvatar(by: ApiClient, image = redPng(), filename = "start.png") {
  const path = uniq("av");
  const res = await by.post("/groups", undefined, { form: gitbeakerForm({ name: `Avatar ${path}`, path }, image, filename) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

beforeAll(async () => {
  t = await startTestApp();
  [owner, maintainer] = await Promise.all([createUser(t), createUser(t)]);
});

describe("uploading a group avatar", () => {
  it("takes python-gitlab's `avatar` part (avatar.png, no content type) beside its empty `file` part", async () => {
    const path = uniq("py");
    const image = redPng();
    const res = await python(owner, "POST", "/groups", { name: "Py Group", path }, image);
    expect(res.status, res.text).toBe(201);
    expect(res.body.avatar_url).toBe(`${UPLOADS}group/avatar/${res.body.id}/avatar.png`);
    expect(await storedAvatar(t, res.body.avatar_url)).toEqual(image);
    await expectServed(t.app, res.body.avatar_url, image, "image/png");
  });

  it("takes gitbeaker's `file` part as the avatar, keeping the caller's filename", async () => {
    const path = uniq("gb");
    const res = await owner.api.post("/groups", undefined, { form: gitbeakerForm({ name: "Gb Group", path }, GIF, "logo.gif", "image/gif") });
    expect(res.status, res.text).toBe(201);
    expect(res.body.avatar_url).toBe(`${UPLOADS}group/avatar/${res.body.id}/logo.gif`);
    await expectServed(t.app, res.body.avatar_url, GIF, "image/gif");
  });

  it("takes gitbeaker's Groups.create form (`avatar` part with the caller's filename)", async () => {
    const path = uniq("gbc");
    const form = gitbeakerForm({ name: "Gb Create", path }, JPEG, "team.jpeg", "image/jpeg", "avatar");
    const res = await owner.api.post("/groups", undefined, { form });
    expect(res.status, res.text).toBe(201);
    expect(res.body.avatar_url).toBe(`${UPLOADS}group/avatar/${res.body.id}/team.jpeg`);
    await expectServed(t.app, res.body.avatar_url, JPEG, "image/jpeg");
  });

  it("names the stored file after its content (python calls every avatar avatar.png)", async () => {
    const group = await createGroup(owner.api);
    const jpeg = await python(owner, "PUT", `/groups/${group.id}`, {}, JPEG);
    expect(jpeg.body.avatar_url).toBe(`${UPLOADS}group/avatar/${group.id}/avatar.jpg`);
    await expectServed(t.app, jpeg.body.avatar_url, JPEG, "image/jpeg");
    const gif = await owner.api.put(`/groups/${group.id}`, undefined, { form: gitbeakerForm({}, GIF, "wrong.png") });
    expect(gif.body.avatar_url).toBe(`${UPLOADS}group/avatar/${group.id}/wrong.gif`);
    await expectServed(t.app, gif.body.avatar_url, GIF, "image/gif");
  });

  it("shows the avatar on reads, lists and a project's namespace", async () => {
    const group = await groupWithAvatar(owner.api);
    const project = await createProject(owner.api, { namespace_id: group.id });
    expect((await owner.api.get(`/groups/${group.id}`)).body.avatar_url).toBe(group.avatar_url);
    const listed = (await owner.api.get("/groups", { query: { search: group.path } })).body;
    expect(listed.map((g: any) => g.avatar_url)).toEqual([group.avatar_url]);
    expect((await owner.api.get(`/projects/${project.id}`)).body.namespace.avatar_url).toBe(group.avatar_url);
  });

  it("replaces the avatar and deletes the previous file", async () => {
    const group = await groupWithAvatar(owner.api);
    const res = await owner.api.put(`/groups/${group.id}`, undefined, { form: gitbeakerForm({}, JPEG, "photo.jpg", "image/jpeg") });
    expect(res.status, res.text).toBe(200);
    expect(res.body.avatar_url).toBe(`${UPLOADS}group/avatar/${group.id}/photo.jpg`);
    await expectServed(t.app, res.body.avatar_url, JPEG, "image/jpeg");
    expect(await storedAvatar(t, group.avatar_url)).toBeNull();
    expect((await t.app.fetch(new Request(group.avatar_url))).status).toBe(404);
  });

  it("replaces an avatar of the same filename in place", async () => {
    const group = await groupWithAvatar(owner.api, redPng(), "avatar.png");
    const res = await python(owner, "PUT", `/groups/${group.id}`, {}, bluePng());
    expect(res.status, res.text).toBe(200);
    expect(res.body.avatar_url).toBe(group.avatar_url);
    await expectServed(t.app, group.avatar_url, bluePng(), "image/png");
  });

  it("keeps the avatar when python's only file part is the empty `file`", async () => {
    const group = await groupWithAvatar(owner.api);
    const res = await python(owner, "PUT", `/groups/${group.id}`, { description: "still pictured" }, null);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ description: "still pictured", avatar_url: group.avatar_url });
    expect(await storedAvatar(t, group.avatar_url)).not.toBeNull();
  });

  it("prefers a non-empty `avatar` part over a `file` part", async () => {
    const group = await groupWithAvatar(owner.api);
    const form = gitbeakerForm({}, GIF, "ignored.gif");
    form.append("avatar", new Blob([new Uint8Array(JPEG)]), "chosen.jpg");
    const res = await owner.api.put(`/groups/${group.id}`, undefined, { form });
    expect(res.body.avatar_url).toBe(`${UPLOADS}group/avatar/${group.id}/chosen.jpg`);
  });

  it("accepts an image of exactly 200 KiB", async () => {
    const group = await createGroup(owner.api);
    const image = pngOfSize(200 * 1024);
    const res = await python(owner, "PUT", `/groups/${group.id}`, {}, image);
    expect(res.status, res.text).toBe(200);
    expect(await storedAvatar(t, res.body.avatar_url)).toEqual(image);
  });

  it("refuses an avatar given as a plain value", async () => {
    const group = await createGroup(owner.api);
    const res = await owner.api.put(`/groups/${group.id}`, { avatar: "not-a-file.png" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "avatar is invalid" });
  });
});

describe("removing a group avatar", () => {
  it("removes it on python's empty `avatar` part", async () => {
    const group = await groupWithAvatar(owner.api);
    const res = await python(owner, "PUT", `/groups/${group.id}`, {}, Buffer.alloc(0));
    expect(res.status, res.text).toBe(200);
    expect(res.body.avatar_url).toBeNull();
    expect(await storedAvatar(t, group.avatar_url)).toBeNull();
    expect((await owner.api.get(`/groups/${group.id}`)).body.avatar_url).toBeNull();
  });

  it("removes it on JSON null, JSON \"\" (gitbeaker's removeAvatar) and an empty form value", async () => {
    for (const avatar of [null, ""]) {
      const json = await groupWithAvatar(owner.api);
      const res = await owner.api.put(`/groups/${json.id}`, { avatar });
      expect(res.body.avatar_url).toBeNull();
      expect(await storedAvatar(t, json.avatar_url)).toBeNull();
    }
    const form = await groupWithAvatar(owner.api);
    const empty = await owner.api.put(`/groups/${form.id}`, undefined, { form: new URLSearchParams({ avatar: "" }) });
    expect(empty.body.avatar_url).toBeNull();
    expect(await storedAvatar(t, form.avatar_url)).toBeNull();
  });

  it("leaves a group without an avatar as it is", async () => {
    const group = await createGroup(owner.api);
    const res = await owner.api.put(`/groups/${group.id}`, { avatar: null, description: "plain" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ avatar_url: null, description: "plain" });
  });
});

describe("refused avatars leave the group unchanged", () => {
  it.each([
    ["an image over 200 KiB", () => pngOfSize(200 * 1024 + 1), TOO_BIG],
    ["a non-image named .png (checked by content)", () => NOT_AN_IMAGE, NOT_IMAGE],
  ])("refuses %s on update", async (_name, image, body) => {
    const group = await groupWithAvatar(owner.api);
    const res = await python(owner, "PUT", `/groups/${group.id}`, { name: "Renamed" }, image());
    expect(res.status).toBe(400);
    expect(res.body).toEqual(body);
    const after = (await owner.api.get(`/groups/${group.id}`)).body;
    expect(after).toMatchObject({ name: group.name, avatar_url: group.avatar_url });
    expect(await storedAvatar(t, group.avatar_url)).toEqual(redPng());
  });

  it("reports the avatar with the other errors on update", async () => {
    const group = await groupWithAvatar(owner.api);
    const taken = await createGroup(owner.api);
    const res = await python(owner, "PUT", `/groups/${group.id}`, { path: taken.path }, NOT_AN_IMAGE);
    expect(res.body).toEqual({ message: { path: ["has already been taken"], ...NOT_IMAGE.message } });
  });

  it("refuses a too-big avatar on create as GitLab's create does, and creates nothing", async () => {
    const path = uniq("big");
    const res = await python(owner, "POST", "/groups", { name: "Too Big", path }, pngOfSize(300 * 1024));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Failed to save group {:avatar=>["is too big (should be at most 200 KiB)"]}' });
    expect((await owner.api.get(`/groups/${path}`)).status).toBe(404);
  });
});

describe("who may change a group avatar", () => {
  it("refuses anonymous callers (401) and Maintainers (403), keeping the avatar", async () => {
    const group = await groupWithAvatar(owner.api);
    await addMember(owner.api, "groups", group.id, maintainer.id, 40);
    const anon = await t.anon.put(`/groups/${group.id}`, undefined, { form: gitbeakerForm({}, GIF, "x.gif") });
    expect(anon.status).toBe(401);
    const byMaintainer = await python(maintainer, "PUT", `/groups/${group.id}`, {}, GIF);
    expect(byMaintainer.status).toBe(403);
    expect(byMaintainer.body).toEqual({ message: "403 Forbidden" });
    const removal = await maintainer.api.put(`/groups/${group.id}`, { avatar: null });
    expect(removal.status).toBe(403);
    expect((await owner.api.get(`/groups/${group.id}`)).body.avatar_url).toBe(group.avatar_url);
    expect(await storedAvatar(t, group.avatar_url)).not.toBeNull();
  });

  it("lets an admin change it", async () => {
    const group = await groupWithAvatar(owner.api);
    const res = await t.root.put(`/groups/${group.id}`, undefined, { form: gitbeakerForm({}, GIF, "admin.gif") });
    expect(res.status).toBe(200);
    expect(res.body.avatar_url).toBe(`${UPLOADS}group/avatar/${group.id}/admin.gif`);
  });
});

describe("serving uploads", () => {
  it("answers 404 on an unknown file", async () => {
    const res = await rawRequest(t.app, "GET", "/uploads/-/system/group/avatar/999999/none.png");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "404 Not Found" });
  });

  it("refuses paths that leave the uploads directory", async () => {
    writeFileSync(path.join(t.services.config.uploadsDir, "..", "outside.png"), redPng());
    for (const url of ["/uploads/-/system/..%2Foutside.png", "/uploads/-/system/group/..%2F..%2F..%2Foutside.png", "/uploads/-/system/%2e%2e/outside.png"]) {
      expect((await rawRequest(t.app, "GET", url)).status, url).toBe(404);
    }
    expect((await rawRequest(t.app, "GET", "/uploads/-/system/%E0%A4%A")).status).toBe(404);
  });

  it("serves an avatar uploaded through another server on the same database", async () => {
    const other = await appOnSameDatabase();
    try {
      const group = await groupWithAvatar(owner.api, JPEG, "shared.jpg");
      await expectServed(other.app, group.avatar_url, JPEG, "image/jpeg");
      const replaced = await python(owner, "PUT", `/groups/${group.id}`, {}, GIF);
      await expectServed(other.app, replaced.body.avatar_url, GIF, "image/gif");
      expect((await other.app.fetch(new Request(group.avatar_url))).status).toBe(404);
    } finally {
      await other.services.db.$disconnect();
    }
  });

  it("serves a legacy avatar file (stored before avatars moved to the database)", async () => {
    const group = await createGroup(owner.api);
    const relative = `group/avatar/${group.id}/legacy.png`;
    writeLegacyFile(relative, redPng());
    expect(await storedAvatar(t, relative)).toBeNull();
    await expectServed(t.app, `${UPLOADS}${relative}`, redPng(), "image/png");
  });

  it("deletes a legacy avatar file when the avatar is replaced", async () => {
    const group = await createGroup(owner.api);
    const relative = `group/avatar/${group.id}/legacy.png`;
    writeLegacyFile(relative, redPng());
    await t.services.db.namespace.update({ where: { id: group.id }, data: { avatarPath: relative } });
    t.forgetCaches();
    const res = await owner.api.put(`/groups/${group.id}`, undefined, { form: gitbeakerForm({}, GIF, "new.gif") });
    expect(res.status, res.text).toBe(200);
    expect(existsSync(path.join(t.services.config.uploadsDir, relative))).toBe(false);
    expect((await t.app.fetch(new Request(`${UPLOADS}${relative}`))).status).toBe(404);
  });
});

/** A second server process's app: its own data directory and caches, the test app's database. */
async function appOnSameDatabase() {
  const config = loadConfig({
    PUBLIC_URL: BASE_URL,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "forgeline-second-")),
    DATABASE_URL: t.services.config.databaseUrl,
    ...(onPostgresql ? { WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY } : {}),
  });
  const services = await createServices(config);
  return { app: createApp(services, () => {}), services };
}

function writeLegacyFile(relative: string, bytes: Buffer) {
  const file = path.join(t.services.config.uploadsDir, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
}

describe("changeAvatar (the stored avatar around the database write)", () => {
  const avatar: CheckedAvatar = { bytes: GIF, filename: "failed.gif" };

  it("removes the new avatar when the save fails, and keeps the previous one", async () => {
    const group = await groupWithAvatar(owner.api);
    const previous = group.avatar_url.slice(UPLOADS.length);
    let written: string | null | undefined;
    const failing = changeAvatar(t.services, "group", previous, avatar, async (store) => {
      written = await store(t.services.db, group.id);
      expect(await storedAvatar(t, written!)).toEqual(GIF);
      throw new Error("database write failed");
    });
    await expect(failing).rejects.toThrow("database write failed");
    expect(await storedAvatar(t, written!)).toBeNull();
    expect(await storedAvatar(t, group.avatar_url)).toEqual(redPng());
  });

  it("rolls the avatar back with a failed transaction, also one overwriting the previous in place", async () => {
    const group = await groupWithAvatar(owner.api);
    const previous = group.avatar_url.slice(UPLOADS.length);
    const same: CheckedAvatar = { bytes: bluePng(), filename: path.basename(previous) };
    for (const next of [avatar, same]) {
      const failing = changeAvatar(t.services, "group", previous, next, (store) =>
        t.services.db.$transaction(async (tx) => {
          await store(tx, group.id);
          throw new Error("database write failed");
        }),
      );
      await expect(failing).rejects.toThrow("database write failed");
    }
    expect(await storedAvatar(t, `group/avatar/${group.id}/failed.gif`)).toBeNull();
    expect(await storedAvatar(t, group.avatar_url)).toEqual(redPng());
  });
});
