// Group avatars over /graphql: GraphQL multipart requests (operations, map, file parts) give the
// createGroup/updateGroup resolvers the same Upload values as REST, with the same rules and errors.
import { beforeAll, describe, expect, it } from "vitest";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { storedAvatar } from "../helpers/stored-files.js";
import { addMember, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { GIF, JPEG, NOT_AN_IMAGE, pngOfSize, redPng } from "../helpers/images.js";
import { REST_GRAPH_PATH } from "../../src/app.js";

let t: TestApp;
let owner: TestUser, maintainer: TestUser;

const UPLOADS = `${BASE_URL}/uploads/-/system/`;

const CREATE = `mutation($path: String!, $avatar: Upload) {
  createGroup(name: "Pictured", path: $path, avatar: $avatar) { id path avatar_url }
}`;
const UPDATE = `mutation($id: ID!, $avatar: Upload, $description: String) {
  updateGroup(id: $id, avatar: $avatar, description: $description) { id description avatar_url }
}`;

/** A GraphQL multipart request (graphql-multipart-request-spec) with one file at variables.avatar. */
async function multipart(user: TestUser | null, query: string, variables: Record<string, unknown>, image: Buffer, filename: string) {
  const form = new FormData();
  form.append("operations", JSON.stringify({ query, variables: { ...variables, avatar: null } }));
  form.append("map", JSON.stringify({ 0: ["variables.avatar"] }));
  form.append("0", new Blob([new Uint8Array(image)], { type: "image/png" }), filename);
  const headers: Record<string, string> = user ? { "PRIVATE-TOKEN": user.token } : {};
  const response = await t.app.fetch(new Request(`${BASE_URL}${REST_GRAPH_PATH}`, { method: "POST", headers, body: form }));
  return { status: response.status, body: (await response.json()) as { data?: any; errors?: any[] } };
}

async function servedBytes(url: string) {
  const res = await t.app.fetch(new Request(url));
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

async function pictured(image = redPng(), filename = "first.png") {
  const res = await multipart(owner, CREATE, { path: uniq("gqa") }, image, filename);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.createGroup;
}

beforeAll(async () => {
  t = await startTestApp();
  [owner, maintainer] = await Promise.all([createUser(t), createUser(t)]);
});

describe("group avatars over GraphQL multipart", () => {
  it("createGroup stores the uploaded file and REST shows the same avatar_url", async () => {
    const image = redPng();
    const group = await pictured(image, "gql.png");
    expect(group.avatar_url).toBe(`${UPLOADS}group/avatar/${group.id}/gql.png`);
    expect((await servedBytes(group.avatar_url)).equals(image)).toBe(true);
    expect((await owner.api.get(`/groups/${group.id}`)).body.avatar_url).toBe(group.avatar_url);
  });

  it("updateGroup replaces the avatar and deletes the previous file", async () => {
    const group = await pictured();
    const res = await multipart(owner, UPDATE, { id: String(group.id), description: "new face" }, JPEG, "face.jpg");
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateGroup).toEqual({
      id: group.id, description: "new face", avatar_url: `${UPLOADS}group/avatar/${group.id}/face.jpg`,
    });
    expect((await servedBytes(res.body.data.updateGroup.avatar_url)).equals(JPEG)).toBe(true);
    expect(await storedAvatar(t, group.avatar_url)).toBeNull();
  });

  it("updateGroup with avatar: null removes it", async () => {
    const group = await pictured();
    const res = await owner.api.graphql(UPDATE, { id: String(group.id), avatar: null });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateGroup.avatar_url).toBeNull();
    expect(await storedAvatar(t, group.avatar_url)).toBeNull();
  });

  it.each([
    ["a too-big image", () => pngOfSize(200 * 1024 + 1), { message: { avatar: ["is too big (should be at most 200 KiB)"] } }],
    ["a non-image", () => NOT_AN_IMAGE, {
      message: { avatar: ["file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp"] },
    }],
  ])("updateGroup refuses %s as REST does (400 in extensions) and keeps the group", async (_name, image, gitlab) => {
    const group = await pictured();
    const res = await multipart(owner, UPDATE, { id: String(group.id), description: "changed" }, image(), "x.png");
    expect(res.status).toBe(400);
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors![0].extensions).toMatchObject({ http: { status: 400 }, gitlab });
    expect((await owner.api.get(`/groups/${group.id}`)).body).toMatchObject({ description: "", avatar_url: group.avatar_url });
    expect(await storedAvatar(t, group.avatar_url)).not.toBeNull();
  });

  it("createGroup refuses a too-big image (past the multipart size limit too) as POST /groups does", async () => {
    const path = uniq("gqbig");
    const res = await multipart(owner, CREATE, { path }, pngOfSize(2 * 1024 * 1024), "big.png");
    expect(res.status).toBe(400);
    expect(res.body.errors![0].extensions.gitlab).toEqual({ message: 'Failed to save group {:avatar=>["is too big (should be at most 200 KiB)"]}' });
    expect((await owner.api.get(`/groups/${path}`)).status).toBe(404);
  });

  it("refuses anonymous callers and Maintainers", async () => {
    const group = await pictured();
    await addMember(owner.api, "groups", group.id, maintainer.id, 40);
    const anon = await multipart(null, UPDATE, { id: String(group.id) }, GIF, "a.gif");
    expect(anon.status).toBe(401);
    const byMaintainer = await multipart(maintainer, UPDATE, { id: String(group.id) }, GIF, "m.gif");
    expect(byMaintainer.status).toBe(403);
    expect(byMaintainer.body.errors![0].extensions.gitlab).toEqual({ message: "403 Forbidden" });
    expect((await owner.api.get(`/groups/${group.id}`)).body.avatar_url).toBe(group.avatar_url);
  });

  it("answers a malformed multipart request with 400", async () => {
    const form = new FormData();
    form.append("map", JSON.stringify({ 0: ["variables.avatar"] }));
    const response = await t.app.fetch(
      new Request(`${BASE_URL}${REST_GRAPH_PATH}`, { method: "POST", headers: { "PRIVATE-TOKEN": owner.token }, body: form }),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).errors[0].message).toMatch(/operations/);
  });
});
