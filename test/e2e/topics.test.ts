// Project topics against the real server process, driven by @gitbeaker/rest 43.8 (Topics.create
// with an avatar goes out as multipart part `file`; all, show, edit, merge, remove) and by
// python-gitlab 3.12 (test/e2e/python/topics.py: part `avatar` plus its empty `file` part).
import { Gitlab } from "@gitbeaker/rest";
import { failure } from "./helpers/gitbeaker.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { pythonGitlabUnavailable, runPython } from "./helpers/python.js";
import { RestClient } from "./helpers/rest.js";
import { useServer } from "./helpers/suite.js";
import { GIF, JPEG, redPng } from "../helpers/images.js";

const suite = useServer();
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });
/** Topic names: ASCII letters, digits, '-', '_' (unique per run). */
const uniqueTopic = (prefix: string) => uniqueName(prefix).toLowerCase();

interface TopicBody { id: number; name: string; avatar_url: string }

/** Topics.create's type lacks `title` (required by GitLab 15.0+); gitbeaker passes it through. */
async function createTopic(api: InstanceType<typeof Gitlab>, name: string, options: Record<string, unknown>): Promise<TopicBody> {
  return (await api.Topics.create(name, options as { description?: string })) as unknown as TopicBody;
}

async function served(url: string): Promise<{ type: string | null; bytes: Buffer }> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return { type: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()) };
}

describe("gitbeaker Topics", () => {
  it("create (with an avatar in part `file`), show, all, edit, merge, remove", async () => {
    const api = gitlab();
    const name = uniqueTopic("gb");
    const created = await createTopic(api, name, {
      title: "Gitbeaker", description: "from gitbeaker", avatar: { content: new Blob([new Uint8Array(GIF)]), filename: "gb.gif" },
    });
    expect(created).toEqual({
      id: expect.any(Number), name, title: "Gitbeaker", description: "from gitbeaker", total_projects_count: 0, organization_id: 1,
      avatar_url: `${suite.server.url}/uploads/-/system/topic/avatar/${created.id}/gb.gif`,
    });
    expect(await served(created.avatar_url)).toEqual({ type: "image/gif", bytes: GIF });
    expect(await api.Topics.show(created.id)).toEqual(created);

    const second = await createTopic(api, `${name}-two`, { title: "Second" });
    const { data, paginationInfo } = await api.Topics.all({ search: name, perPage: 1, showExpanded: true });
    expect(data.map((t) => t.id).sort((a, b) => a - b)).toEqual([created.id, second.id]);
    expect(paginationInfo).toMatchObject({ total: 2, perPage: 1, totalPages: 2 });
    expect((await api.Topics.all({ search: name, withoutProjects: true })).map((t) => t.id).sort((a, b) => a - b)).toEqual([created.id, second.id]);

    const edited = await api.Topics.edit(second.id, { title: "Edited", description: "edited by gitbeaker" });
    expect(edited).toMatchObject({ id: second.id, title: "Edited", description: "edited by gitbeaker", avatar_url: null });
    const pictured = await api.Topics.edit(second.id, { avatar: { content: new Blob([new Uint8Array(JPEG)], { type: "image/jpeg" }), filename: "face.jpg" } });
    expect(pictured.avatar_url).toBe(`${suite.server.url}/uploads/-/system/topic/avatar/${second.id}/face.jpg`);
    expect(await served(pictured.avatar_url)).toEqual({ type: "image/jpeg", bytes: JPEG });

    const project = await api.Projects.create({ name: uniqueTopic("gbp"), topics: [created.name], visibility: "public" });
    const merged = await api.Topics.merge(created.id, second.id);
    expect(merged).toMatchObject({ id: second.id, total_projects_count: 1, avatar_url: pictured.avatar_url });
    expect((await api.Projects.show(project.id)).topics).toEqual([second.name]);
    expect((await api.Projects.all({ topic: second.name })).map((p) => p.id)).toEqual([project.id]);
    expect(await failure(api.Topics.show(created.id))).toEqual({ status: 404, message: "404 Not found" });
    expect((await fetch(created.avatar_url)).status).toBe(404);

    await api.Topics.remove(second.id);
    expect(await failure(api.Topics.show(second.id))).toEqual({ status: 404, message: "404 Not found" });
    expect((await api.Projects.show(project.id)).topics).toEqual([]);
  });

  it("errors: a taken name, merging a topic into itself, non-admins", async () => {
    const api = gitlab();
    const name = uniqueTopic("gbe");
    const topic = await createTopic(api, name, { title: "Errors" });
    expect(await failure(createTopic(api, name.toUpperCase(), { title: "Again" }))).toEqual({
      status: 400, message: JSON.stringify({ name: ["has already been taken"] }),
    });
    expect(await failure(api.Topics.merge(topic.id, topic.id))).toEqual({
      status: 400, message: "The source topic and the target topic are identical.",
    });
    const outsider = await createUser(suite.server);
    const asUser = gitlab(outsider.token);
    expect(await failure(createTopic(asUser, uniqueTopic("u"), { title: "U" }))).toEqual({ status: 403, message: "403 Forbidden" });
    expect(await failure(asUser.Topics.remove(topic.id))).toEqual({ status: 403, message: "403 Forbidden" });
    expect((await asUser.Topics.show(topic.id)).id).toBe(topic.id);
    const anonymous = await new RestClient(suite.server.apiUrl).get(`/topics/${topic.id}`);
    expect(anonymous).toMatchObject({ status: 200, body: { id: topic.id, name } });
  });
});

const unavailable = pythonGitlabUnavailable();
if (unavailable) console.warn(`Skipping the python-gitlab topics e2e test: ${unavailable}`);

describe.skipIf(unavailable !== null)(unavailable ? `python-gitlab topics (SKIPPED: ${unavailable})` : "python-gitlab topics", () => {
  it("create with an avatar file, list, get, update, save, merge, delete, errors", async () => {
    const tag = uniqueTopic("py");
    const image = redPng();
    const avatarFile = path.join(mkdtempSync(path.join(os.tmpdir(), "forgeline-topic-")), "logo.png");
    writeFileSync(avatarFile, image);
    const outsider = await createUser(suite.server);
    const out = await runPython("topics.py", suite.server, { TAG: tag, AVATAR_FILE: avatarFile, USER_TOKEN: outsider.token });
    const uploads = `${suite.server.url}/uploads/-/system/topic/avatar`;

    // python names every uploaded avatar avatar.png
    expect(out.pictured).toEqual({
      id: expect.any(Number), name: `${tag}-pic`, title: "Pictured", description: "from python",
      total_projects_count: 0, organization_id: 1, avatar_url: `${uploads}/${out.pictured.id}/avatar.png`,
    });
    expect(out.fetched).toEqual(out.pictured);

    const plainId = out.after_save.id;
    expect(out.listed_ids).toEqual([out.pictured.id, plainId].sort((a, b) => a - b));
    expect(out.without_projects_ids).toEqual(out.listed_ids);
    expect(out.updated).toMatchObject({ id: plainId, title: "Plain 2", description: "updated" });
    expect(out.after_save).toMatchObject({ title: "Plain 2", description: "saved" });
    expect(out.with_avatar).toBe(`${uploads}/${plainId}/avatar.png`);
    expect(await served(out.with_avatar)).toEqual({ type: "image/png", bytes: image });
    expect(out.without_avatar).toBeNull();
    expect((await fetch(out.pictured.avatar_url)).status).toBe(404);

    expect(out.merged).toMatchObject({ id: plainId, name: `${tag}-plain`, total_projects_count: 1, avatar_url: out.with_avatar });
    expect(out.project_topics).toEqual([`${tag}-plain`]);
    expect(out.projects_of_target).toEqual([out.project_id]);
    expect(out.user_reads).toMatchObject({ id: plainId, total_projects_count: 1 });

    expect(out.errors).toEqual({
      duplicate: { type: "GitlabCreateError", response_code: 400, error_message: { name: ["has already been taken"] } },
      // python-gitlab 3.12 raises GitlabMRClosedError for a failed topics.merge
      merge_itself: { type: "GitlabMRClosedError", response_code: 400, error_message: "The source topic and the target topic are identical." },
      merge_unknown: { type: "GitlabMRClosedError", response_code: 404, error_message: "404 Not found" },
      source_gone: { type: "GitlabGetError", response_code: 404, error_message: "404 Not found" },
      non_admin_create: { type: "GitlabCreateError", response_code: 403, error_message: "403 Forbidden" },
      non_admin_delete: { type: "GitlabDeleteError", response_code: 403, error_message: "403 Forbidden" },
      non_ascii: { type: "GitlabCreateError", response_code: 400, error_message: { name: ["must only include ASCII characters"] } },
      deleted: { type: "GitlabGetError", response_code: 404, error_message: "404 Not found" },
    });
  });
});
