// Markdown uploads through the public graph: uploadCreate (a GraphQL multipart request, as REST's
// POST .../uploads: any signed-in caller who may see the project or group) and uploadDelete
// (GitLab's: Maintainers and above, by secret and file name), on the same domain rules as REST.
import { beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_GRAPH_PATH } from "../../src/app.js";
import type { ApiClient } from "../helpers/api.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { graph, NOT_AVAILABLE } from "../helpers/graph.js";
import { redPng } from "../helpers/images.js";
import { clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
});

const CREATE = `mutation($input: UploadCreateInput!) { uploadCreate(input: $input) { errors upload { id path size url markdown } } }`;
const DELETE = `mutation($input: UploadDeleteInput!) { uploadDelete(input: $input) { errors upload { id path size } } }`;

/** uploadCreate as a GraphQL multipart request with the file at variables.input.file. */
async function create(client: ApiClient, input: Record<string, unknown>, content: Buffer, filename: string) {
  const form = new FormData();
  form.append("operations", JSON.stringify({ query: CREATE, variables: { input: { ...input, file: null } } }));
  form.append("map", JSON.stringify({ 0: ["variables.input.file"] }));
  form.append("0", new Blob([new Uint8Array(content)]), filename);
  const headers: Record<string, string> = client.token ? { "PRIVATE-TOKEN": client.token } : {};
  const response = await t.app.fetch(new Request(`${BASE_URL}${PUBLIC_GRAPH_PATH}`, { method: "POST", headers, body: form }));
  return (await response.json()) as { data?: any; errors?: { message: string; path?: string[] }[] };
}

describe("uploadCreate", () => {
  it("stores the file and answers its path, size and the markdown REST answers", async () => {
    const png = redPng();
    const res = await create(team.guest.api, { projectPath: team.privateProject.path_with_namespace }, png, "shot.png");
    expect(res.data.uploadCreate.errors).toEqual([]);
    const upload = res.data.uploadCreate.upload;
    const [secret] = upload.path.split("/");
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    expect(upload).toEqual({
      id: expect.stringMatching(/^gid:\/\/forgeline\/Upload\/\d+$/),
      path: `${secret}/shot.png`,
      size: png.length,
      url: `/uploads/${secret}/shot.png`,
      markdown: `![shot](/uploads/${secret}/shot.png)`,
    });
    const served = await team.guest.api.get(`/projects/${team.privateProject.id}${upload.url}`);
    expect(served.status).toBe(200);
    const list = await team.maintainer.api.get(`/projects/${team.privateProject.id}/uploads`);
    expect(list.body.map((u: any) => u.filename)).toContain("shot.png");
  });

  const EXPECTED: Record<Actor, boolean> = {
    anonymous: false, nonMember: false, guest: true, reporter: true, developer: true, maintainer: true, owner: true, admin: true,
  };
  it.each(Object.entries(EXPECTED))("on a private project, %s may upload: %s", async (actor, allowed) => {
    const res = await create(clientOf(t, team, actor as Actor), { projectPath: team.privateProject.path_with_namespace }, Buffer.from("x"), "a.txt");
    if (allowed) expect(res.data.uploadCreate.errors).toEqual([]);
    else expect(res.errors?.[0]).toMatchObject({ message: NOT_AVAILABLE, path: ["uploadCreate"] });
  });

  it("needs exactly one of projectPath and groupPath", async () => {
    const both = await create(team.owner.api, { projectPath: team.privateProject.path_with_namespace, groupPath: "x" }, Buffer.from("x"), "a.txt");
    expect(both.errors?.[0]).toMatchObject({ message: "Exactly one of group_path or project_path arguments is required", path: ["uploadCreate"] });
    const neither = await create(team.owner.api, {}, Buffer.from("x"), "a.txt");
    expect(neither.errors?.[0]?.message).toBe("Exactly one of group_path or project_path arguments is required");
    expect(await t.services.db.upload.count({ where: { filename: "a.txt", projectId: null, groupId: null } })).toBe(0);
  });
});

describe("uploadDelete", () => {
  async function uploaded() {
    const res = await create(team.owner.api, { projectPath: team.privateProject.path_with_namespace }, Buffer.from("bye"), "bye.txt");
    return res.data.uploadCreate.upload;
  }

  it("Maintainers delete by secret and name; below Maintainer the upload stays", async () => {
    const upload = await uploaded();
    const [secret, filename] = upload.path.split("/");
    const input = { projectPath: team.privateProject.path_with_namespace, secret, filename };
    for (const actor of ["anonymous", "nonMember", "guest", "reporter", "developer"] as const) {
      const res = await graph(clientOf(t, team, actor), DELETE, { input });
      expect(res.body.errors?.[0]).toMatchObject({ message: NOT_AVAILABLE, path: ["uploadDelete"] });
    }
    expect((await team.guest.api.get(`/projects/${team.privateProject.id}${upload.url}`)).status).toBe(200);
    const res = await graph(team.maintainer.api, DELETE, { input });
    expect(res.body.data.uploadDelete).toEqual({ errors: [], upload: { id: upload.id, path: upload.path, size: 3 } });
    expect((await team.guest.api.get(`/projects/${team.privateProject.id}${upload.url}`)).status).toBe(404);
    const again = await graph(team.maintainer.api, DELETE, { input });
    expect(again.body.errors?.[0]).toMatchObject({ message: NOT_AVAILABLE });
  });
});
