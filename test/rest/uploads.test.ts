// Markdown uploads over /api/v4 (GitLab's MarkdownUploads API) and as browsers fetch them: uploading
// answers the markdown to paste; Maintainers list, download by id and delete; whoever may see the
// project or group downloads by secret and name; files are served with Workhorse's headers.
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../helpers/api.js";
import { rawRequest } from "../helpers/api.js";
import { BASE_URL, startTestApp, type TestApp } from "../helpers/app.js";
import { FORBIDDEN, NOT_FOUND, PROJECT_NOT_FOUND, UNAUTHORIZED } from "../helpers/errors.js";
import { addMember, createGroup, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { redPng } from "../helpers/images.js";
import { gitbeakerForm } from "../helpers/multipart.js";
import { ACCESS_LEVEL, clientOf, createTeamWithProjects, type Actor, type TeamWithProjects } from "../helpers/team.js";

let t: TestApp;
let team: TeamWithProjects;
let group: any;
const groupMembers: Record<string, TestUser> = {};

const PNG = redPng();
const SECRET = /^[0-9a-f]{32}$/;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeamWithProjects(t);
  group = await createGroup(team.owner.api, { path: uniq("upl"), visibility: "private" });
  for (const [role, level] of [["guest", 10], ["developer", 30], ["maintainer", 40]] as const) {
    groupMembers[role] = await createUser(t);
    await addMember(team.owner.api, "groups", group.id, groupMembers[role]!.id, level);
  }
});

const upload = (by: ApiClient, path: string, content: Buffer | string = PNG, filename = "dk.png") =>
  by.post(path, undefined, { form: gitbeakerForm({}, Buffer.from(content), filename) });

/** A project upload by the owner: the answer's body. */
async function uploaded(project: any, content: Buffer | string = PNG, filename = "dk.png", by: ApiClient = team.owner.api) {
  const res = await upload(by, `/projects/${project.id}/uploads`, content, filename);
  expect(res.status).toBe(201);
  return res.body;
}

const secretOf = (body: { url: string }) => body.url.split("/")[2]!;

describe("POST /projects/:id/uploads", () => {
  it("answers GitLab's ProjectUpload: the link text, the relative url, the path by project id, the markdown", async () => {
    const project = team.privateProject;
    const body = await uploaded(project);
    expect(Object.keys(body)).toEqual(["id", "alt", "url", "full_path", "markdown"]);
    const secret = secretOf(body);
    expect(secret).toMatch(SECRET);
    expect(body).toEqual({
      id: expect.any(Number),
      alt: "dk",
      url: `/uploads/${secret}/dk.png`,
      full_path: `/-/project/${project.id}/uploads/${secret}/dk.png`,
      markdown: `![dk](/uploads/${secret}/dk.png)`,
    });
    const again = await uploaded(project);
    expect(secretOf(again)).not.toBe(secret);
  });

  it("links other files without `!` and keeps their extension in the text; sanitizes the name as CarrierWave", async () => {
    const text = await uploaded(team.privateProject, "release notes\n", "notes.txt");
    expect([text.alt, text.markdown]).toEqual(["notes.txt", `[notes.txt](/uploads/${secretOf(text)}/notes.txt)`]);
    const video = await uploaded(team.privateProject, "not really a video", "clip.MP4");
    expect([video.alt, video.markdown]).toEqual(["clip", `![clip](/uploads/${secretOf(video)}/clip.MP4)`]);
    const odd = await uploaded(team.privateProject, PNG, "my shot (1) [final].png");
    expect(odd.url).toBe(`/uploads/${secretOf(odd)}/my_shot__1___final_.png`);
    expect(odd.alt).toBe("my_shot__1___final_");
    const unicode = await uploaded(team.privateProject, PNG, "café+plan.png");
    expect(unicode.url.endsWith("/café+plan.png")).toBe(true);
  });

  const EXPECTED: Record<Actor, number> = {
    anonymous: 401, nonMember: 404, guest: 201, reporter: 201, developer: 201, maintainer: 201, owner: 201, admin: 201,
  };
  it.each(Object.entries(EXPECTED))("on a private project, %s gets %i", async (actor, status) => {
    const res = await upload(clientOf(t, team, actor as Actor), `/projects/${team.privateProject.id}/uploads`);
    expect(res.status).toBe(status);
    if (status === 401) expect(res.body).toEqual(UNAUTHORIZED);
    if (status === 404) expect(res.body).toEqual(PROJECT_NOT_FOUND);
  });

  it("on a public project any signed-in user uploads, anonymous gets 401", async () => {
    expect((await upload(team.nonMember.api, `/projects/${team.publicProject.id}/uploads`)).status).toBe(201);
    expect((await upload(t.anon, `/projects/${team.publicProject.id}/uploads`)).body).toEqual(UNAUTHORIZED);
  });

  it("answers 401 before looking the project up, 404 for a missing project", async () => {
    expect((await upload(t.anon, "/projects/999999/uploads")).status).toBe(401);
    expect((await upload(team.owner.api, "/projects/999999/uploads")).body).toEqual(PROJECT_NOT_FOUND);
  });

  it("refuses a request without a file (400) and stores nothing", async () => {
    const before = await t.services.db.upload.count();
    const none = await team.owner.api.post(`/projects/${team.privateProject.id}/uploads`, {});
    expect([none.status, none.body]).toEqual([400, { error: "file is missing" }]);
    const text = await team.owner.api.post(`/projects/${team.privateProject.id}/uploads`, { file: "not a file" });
    expect([text.status, text.body]).toEqual([400, { error: "file is invalid" }]);
    expect(await t.services.db.upload.count()).toBe(before);
  });
});

describe("GET /projects/:id/uploads", () => {
  it("lists the project's uploads newest first with size, name, date and uploader, paginated", async () => {
    const project = await createTeamProjectWithUploads();
    const res = await team.maintainer.api.get(`/projects/${project.id}/uploads`, { query: { per_page: 2 } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total")).toBe("3");
    expect(res.headers.get("x-next-page")).toBe("2");
    expect(res.body.map((u: any) => u.filename)).toEqual(["third.txt", "second.txt"]);
    expect(res.body[0]).toEqual({
      id: expect.any(Number),
      size: "three!".length,
      filename: "third.txt",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      uploaded_by: { id: team.developer.id, name: expect.any(String), username: team.developer.username },
    });
    const second = await team.maintainer.api.get(`/projects/${project.id}/uploads`, { query: { per_page: 2, page: 2 } });
    expect(second.body.map((u: any) => u.filename)).toEqual(["first.txt"]);
  });

  const EXPECTED: Record<Actor, number> = {
    anonymous: 404, nonMember: 404, guest: 403, reporter: 403, developer: 403, maintainer: 200, owner: 200, admin: 200,
  };
  it.each(Object.entries(EXPECTED))("on a private project, %s gets %i", async (actor, status) => {
    const res = await clientOf(t, team, actor as Actor).get(`/projects/${team.privateProject.id}/uploads`);
    expect(res.status).toBe(status);
    if (status === 403) expect(res.body).toEqual(FORBIDDEN);
  });

  it("on a public project, anonymous and non-members get 403", async () => {
    expect((await t.anon.get(`/projects/${team.publicProject.id}/uploads`)).body).toEqual(FORBIDDEN);
    expect((await team.nonMember.api.get(`/projects/${team.publicProject.id}/uploads`)).status).toBe(403);
  });

  it("shows a deleted uploader as null", async () => {
    const project = team.publicProject;
    const leaving = await createUser(t);
    await uploaded(project, "bye", "leaving.txt", leaving.api);
    expect((await t.root.delete(`/users/${leaving.id}`, { query: { hard_delete: true } })).status).toBe(204);
    await eventually(async () => {
      const list = await team.owner.api.get(`/projects/${project.id}/uploads`, { query: { per_page: 100 } });
      const row = list.body.find((u: any) => u.filename === "leaving.txt");
      expect(row.uploaded_by).toBeNull();
    });
  });
});

async function createTeamProjectWithUploads() {
  const project = (await team.owner.api.post("/projects", { name: uniq("uploads"), visibility: "private" })).body;
  for (const [user, level] of [[team.maintainer, ACCESS_LEVEL.maintainer], [team.developer, ACCESS_LEVEL.developer]] as const) {
    await addMember(team.owner.api, "projects", project.id, user.id, level);
  }
  for (const [name, content] of [["first.txt", "one"], ["second.txt", "two!"], ["third.txt", "three!"]]) {
    await uploaded(project, content, name, team.developer.api);
  }
  return project;
}

async function eventually(check: () => Promise<void>, attempts = 50) {
  for (let i = 1; ; i++) {
    try {
      return await check();
    } catch (error) {
      if (i >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe("GET /projects/:id/uploads/:upload_id and /:secret/:filename", () => {
  let body: any;
  beforeAll(async () => {
    body = await uploaded(team.privateProject, PNG, "shot.png");
  });

  it("sends Maintainers the file by id as an attachment", async () => {
    const res = await team.maintainer.api.get(`/projects/${team.privateProject.id}/uploads/${body.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="shot.png"; filename*=UTF-8''shot.png`);
    expect(res.headers.get("content-type")).toBe("image/png");
    const bytes = await t.app.fetch(new Request(`${BASE_URL}/api/v4/projects/${team.privateProject.id}/uploads/${body.id}`, { headers: { "PRIVATE-TOKEN": team.owner.token } }));
    expect(Buffer.from(await bytes.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("by id: 403 below Maintainer, 404 for an unknown id or another project's upload, 400 for a non-numeric id", async () => {
    expect((await team.developer.api.get(`/projects/${team.privateProject.id}/uploads/${body.id}`)).body).toEqual(FORBIDDEN);
    expect((await team.maintainer.api.get(`/projects/${team.privateProject.id}/uploads/99999999`)).body).toEqual(NOT_FOUND);
    expect((await team.owner.api.get(`/projects/${team.publicProject.id}/uploads/${body.id}`)).body).toEqual(NOT_FOUND);
    const bad = await team.owner.api.get(`/projects/${team.privateProject.id}/uploads/abc`);
    expect([bad.status, bad.body]).toEqual([400, { error: "upload_id is invalid" }]);
  });

  it("by secret and name: any member, as an attachment; 404 for a wrong secret or name, or a hidden project", async () => {
    const path = `/projects/${team.privateProject.id}${body.url}`;
    const res = await team.guest.api.get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="shot.png"/);
    expect((await team.guest.api.get(path.replace(secretOf(body), "0".repeat(32)))).body).toEqual(NOT_FOUND);
    expect((await team.guest.api.get(path.replace(secretOf(body), "invalid_secret"))).body).toEqual(NOT_FOUND);
    expect((await team.guest.api.get(path.replace("shot.png", "other.png"))).body).toEqual(NOT_FOUND);
    expect((await team.nonMember.api.get(path)).body).toEqual(PROJECT_NOT_FOUND);
    expect((await t.anon.get(path)).body).toEqual(PROJECT_NOT_FOUND);
  });

  it("by secret and name on a public project: anyone", async () => {
    const pub = await uploaded(team.publicProject, "public text", "readme.txt");
    const res = await t.anon.get(`/projects/${team.publicProject.id}${pub.url}`);
    expect([res.status, res.text]).toEqual([200, "public text"]);
  });
});

describe("DELETE /projects/:id/uploads/:upload_id and /:secret/:filename", () => {
  it("by id: Maintainers delete (204, then 404); others are refused and the file stays", async () => {
    const body = await uploaded(team.privateProject, "to delete", "gone.txt");
    const path = `/projects/${team.privateProject.id}/uploads/${body.id}`;
    expect((await t.anon.delete(path)).body).toEqual(UNAUTHORIZED);
    expect((await team.nonMember.api.delete(path)).body).toEqual(PROJECT_NOT_FOUND);
    for (const user of [team.guest, team.reporter, team.developer]) expect((await user.api.delete(path)).body).toEqual(FORBIDDEN);
    expect((await team.guest.api.get(`/projects/${team.privateProject.id}${body.url}`)).status).toBe(200);
    expect((await team.maintainer.api.delete(path)).status).toBe(204);
    expect((await team.maintainer.api.delete(path)).body).toEqual(NOT_FOUND);
    expect((await team.guest.api.get(`/projects/${team.privateProject.id}${body.url}`)).body).toEqual(NOT_FOUND);
  });

  it("by secret and name: 403 below Maintainer even for a missing file, 204 for the owner", async () => {
    const body = await uploaded(team.privateProject, "to delete", "gone2.txt");
    const path = `/projects/${team.privateProject.id}${body.url}`;
    expect((await team.developer.api.delete(path.replace("gone2", "missing"))).body).toEqual(FORBIDDEN);
    expect((await team.developer.api.delete(path)).body).toEqual(FORBIDDEN);
    expect((await team.owner.api.delete(path.replace("gone2", "missing"))).body).toEqual(NOT_FOUND);
    expect((await team.owner.api.delete(path)).status).toBe(204);
    expect(await t.services.db.upload.count({ where: { id: body.id } })).toBe(0);
  });

  it("an administrator deletes any project's upload", async () => {
    const body = await uploaded(team.privateProject, "admin", "admin.txt");
    expect((await t.root.delete(`/projects/${team.privateProject.id}/uploads/${body.id}`)).status).toBe(204);
  });
});

describe("group uploads", () => {
  it("group members upload; the paths name the group; Maintainers list, download and delete", async () => {
    const res = await upload(groupMembers.guest!.api, `/groups/${group.id}/uploads`, "group notes", "plan.txt");
    expect(res.status).toBe(201);
    const secret = secretOf(res.body);
    expect(res.body.full_path).toBe(`/-/group/${group.id}/uploads/${secret}/plan.txt`);
    expect((await team.nonMember.api.get(`/groups/${group.id}/uploads`)).body).toEqual({ message: "404 Group Not Found" });
    expect((await upload(team.nonMember.api, `/groups/${group.id}/uploads`)).status).toBe(404);
    expect((await groupMembers.developer!.api.get(`/groups/${group.id}/uploads`)).body).toEqual(FORBIDDEN);
    const list = await groupMembers.maintainer!.api.get(`/groups/${group.id}/uploads`);
    expect(list.body.map((u: any) => u.filename)).toEqual(["plan.txt"]);
    const file = await groupMembers.guest!.api.get(`/groups/${group.id}${res.body.url}`);
    expect([file.status, file.text]).toEqual([200, "group notes"]);
    expect((await groupMembers.maintainer!.api.get(`/groups/${group.id}/uploads/${res.body.id}`)).text).toBe("group notes");
    // a group's upload is not a project's
    expect((await team.owner.api.get(`/projects/${team.privateProject.id}/uploads/${res.body.id}`)).body).toEqual(NOT_FOUND);
    expect((await groupMembers.developer!.api.delete(`/groups/${group.id}/uploads/${res.body.id}`)).body).toEqual(FORBIDDEN);
    expect((await groupMembers.maintainer!.api.delete(`/groups/${group.id}/uploads/${res.body.id}`)).status).toBe(204);
  });
});

describe("served to browsers", () => {
  const fetchPath = (path: string, token?: string) =>
    rawRequest(t.app, "GET", `${BASE_URL}${path}`, { headers: token ? { "PRIVATE-TOKEN": token } : {} });

  it("serves a public project's image inline at the link resolved against the project page and by project id", async () => {
    const body = await uploaded(team.publicProject, PNG, "logo.png");
    for (const path of [`/${team.publicProject.path_with_namespace}${body.url}`, body.full_path]) {
      const res = await t.app.fetch(new Request(`${BASE_URL}${path}`));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      expect(res.headers.get("content-disposition")).toBe(`inline; filename="logo.png"; filename*=UTF-8''logo.png`);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    }
    const head = await t.app.fetch(new Request(`${BASE_URL}${body.full_path}`, { method: "HEAD" }));
    expect([head.status, head.headers.get("content-length")]).toEqual([200, String(PNG.length)]);
  });

  it("never serves markup as a page: HTML as plain text, SVG as an attachment", async () => {
    const html = await uploaded(team.publicProject, "<html><script>alert(1)</script></html>", "page.html");
    const res = await fetchPath(html.full_path);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const svg = await uploaded(team.publicProject, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "x.svg");
    const served = await fetchPath(svg.full_path);
    expect([served.headers.get("content-type"), served.headers.get("content-disposition")?.split(";")[0]]).toEqual(["image/svg+xml", "attachment"]);
  });

  it("serves a private project's file to members only (a token as the API reads it)", async () => {
    const body = await uploaded(team.privateProject, "secret plan", "plan.txt");
    const path = `/${team.privateProject.path_with_namespace}${body.url}`;
    expect((await fetchPath(path)).status).toBe(404);
    expect((await fetchPath(path, team.nonMember.token)).status).toBe(404);
    const res = await fetchPath(path, team.guest.token);
    expect([res.status, res.text]).toEqual([200, "secret plan"]);
    expect((await fetchPath(`${path}x`, team.guest.token)).status).toBe(404);
    expect((await fetchPath(path, "not-a-token")).status).toBe(401);
  });

  it("serves a group's file at the group's paths", async () => {
    const res = await upload(groupMembers.guest!.api, `/groups/${group.id}/uploads`, "group file", "g.txt");
    for (const path of [res.body.full_path, `/groups/${group.full_path}/-${res.body.url}`]) {
      expect((await fetchPath(path)).status).toBe(404);
      const served = await fetchPath(path, groupMembers.guest!.token);
      expect([served.status, served.text]).toEqual([200, "group file"]);
    }
  });
});

describe("deleting the parent", () => {
  it("deletes a project's and a group's uploads with them", async () => {
    const project = (await team.owner.api.post("/projects", { name: uniq("doomed") })).body;
    const doomedGroup = await createGroup(team.owner.api, { path: uniq("doomed") });
    await uploaded(project, "a", "a.txt");
    expect((await upload(team.owner.api, `/groups/${doomedGroup.id}/uploads`, "b", "b.txt")).status).toBe(201);
    expect(await t.services.db.upload.count({ where: { OR: [{ projectId: project.id }, { groupId: doomedGroup.id }] } })).toBe(2);
    expect((await team.owner.api.delete(`/projects/${project.id}`)).status).toBe(202);
    expect((await team.owner.api.delete(`/groups/${doomedGroup.id}`)).status).toBe(202);
    await eventually(async () => {
      expect(await t.services.db.upload.count({ where: { OR: [{ projectId: project.id }, { groupId: doomedGroup.id }] } })).toBe(0);
    });
  });
});
