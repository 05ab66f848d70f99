// Repository tags (list, read, create, delete) per actor with GitLab's errors, the tag_push hook a
// created or deleted tag fires, GET .../repository/merge_base, and GET .../repository/commits?all=true
// listing the commits of every branch and tag. The hooks sit on the project's group and a real
// loopback receiver gets the deliveries; a merge fires push and merge_request hooks there too, and
// on a hook of the project itself, which also hears the notes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, createGroup, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { commitTo, createBranch, createMergeRequest } from "../helpers/merge-requests.js";
import { createHook, startTestbed, type WebhookTestbed } from "../webhooks/setup.js";

let bed: WebhookTestbed;
let owner: TestUser, developer: TestUser, reporter: TestUser, stranger: TestUser;
let project: any;
let mainHead: string;

const tags = () => `/projects/${project.id}/repository/tags`;
const BLANK = "0".repeat(40);

beforeAll(async () => {
  bed = await startTestbed();
  const t = bed.t;
  [owner, developer, reporter, stranger] = await Promise.all([createUser(t), createUser(t), createUser(t), createUser(t)]);
  const group = await createGroup(owner.api);
  await addMember(owner.api, "groups", group.id, developer.id, 30);
  await addMember(owner.api, "groups", group.id, reporter.id, 20);
  const res = await owner.api.post("/projects", { name: uniq("tags"), namespace_id: group.id, visibility: "private", initialize_with_readme: true });
  expect(res.status, res.text).toBe(201);
  project = res.body;
  mainHead = (await commitTo(developer.api, project.id, "main")).id;
  await createHook(bed, group.id, { url: `${bed.receiver.url}/tags`, push_events: false, tag_push_events: true });
  await createHook(bed, group.id, { url: `${bed.receiver.url}/merges`, push_events: true, merge_requests_events: true });
  const projectHook = await t.root.post(`/projects/${project.id}/hooks`, {
    url: `${bed.receiver.url}/project`, push_events: true, merge_requests_events: true, note_events: true,
  });
  expect(projectHook.status, projectHook.text).toBe(201);
  await bed.drain();
  bed.receiver.clear();
});

afterAll(() => bed.close());

const delivered = async (path: string) => {
  await bed.drain();
  const got = bed.receiver.requests.filter((r) => r.path === `/${path}`);
  bed.receiver.clear();
  return got;
};

describe("tags", () => {
  it("creates a lightweight tag (201, Tag entity) and fires a tag_push hook", async () => {
    const res = await developer.api.post(tags(), { tag_name: "v1.0", ref: "main" });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      name: "v1.0", message: "", target: mainHead, commit: expect.objectContaining({ id: mainHead }),
      release: null, protected: false, created_at: null,
    });
    const [hook] = await delivered("tags");
    // the event header (X-Gitlab-Event, or the configured prefix's)
    expect(Object.entries(hook!.headers).find(([name]) => name.endsWith("-event"))?.[1]).toBe("Tag Push Hook");
    expect(hook!.json).toMatchObject({
      object_kind: "tag_push", event_name: "tag_push", ref: "refs/tags/v1.0", before: BLANK, after: mainHead, checkout_sha: mainHead,
      message: null, user_id: developer.id, project_id: project.id, total_commits_count: 1, commits: [expect.objectContaining({ id: mainHead })],
    });
  });

  it("creates an annotated tag: its own object id as target, the message, a creation time", async () => {
    const res = await developer.api.post(tags(), { tag_name: "v1.1", ref: mainHead.slice(0, 8), message: "Release 1.1" });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: "v1.1", message: "Release 1.1", commit: { id: mainHead } });
    expect(res.body.target).toMatch(/^[0-9a-f]{40}$/);
    expect(res.body.target).not.toBe(mainHead);
    expect(Date.parse(res.body.created_at)).not.toBeNaN();
    const [hook] = await delivered("tags");
    expect(hook!.json).toMatchObject({ after: res.body.target, checkout_sha: mainHead, message: "Release 1.1" });
    expect((await reporter.api.get(`${tags()}/v1.1`)).body).toEqual(res.body);
  });

  it("lists tags by update, name or version, with search and pagination", async () => {
    await developer.api.post(tags(), { tag_name: "v1.10", ref: "main" });
    await developer.api.post(tags(), { tag_name: "v1.9", ref: "main" });
    const names = async (query: string) => (await reporter.api.get(`${tags()}?${query}`)).body.map((tag: any) => tag.name);
    expect(await names("order_by=name&sort=asc")).toEqual(["v1.0", "v1.1", "v1.10", "v1.9"]);
    expect(await names("order_by=version&sort=asc")).toEqual(["v1.0", "v1.1", "v1.9", "v1.10"]);
    expect(await names("order_by=version&search=^v1.1")).toEqual(["v1.10", "v1.1"]);
    const page = await reporter.api.get(`${tags()}?order_by=name&sort=asc&per_page=2&page=2`);
    expect(page.body.map((tag: any) => tag.name)).toEqual(["v1.10", "v1.9"]);
    expect(page.headers.get("x-total")).toBe("4");
    expect((await reporter.api.get(`${tags()}?order_by=size`)).status).toBe(400);
    await delivered("tags");
  });

  it("answers GitLab's errors: taken name, invalid name, unknown ref (400), unknown tag (404)", async () => {
    expect((await developer.api.post(tags(), { tag_name: "v1.0", ref: "main" })).body).toEqual({ message: "Tag v1.0 already exists" });
    expect((await developer.api.post(tags(), { tag_name: "bad..name", ref: "main" })).body).toEqual({ message: "Tag name invalid" });
    expect((await developer.api.post(tags(), { tag_name: "v9", ref: "nope" })).body).toEqual({ message: "Target nope is invalid" });
    expect((await developer.api.post(tags(), { ref: "main" })).body).toEqual({ error: "tag_name is missing" });
    expect((await reporter.api.get(`${tags()}/v404`)).body).toEqual({ message: "404 Tag Not Found" });
    expect((await developer.api.delete(`${tags()}/v404`)).status).toBe(404);
  });

  it("lets Developers and up manage tags: 401 anonymous, 404 strangers, 403 reporters", async () => {
    expect((await bed.t.anon.post(tags(), { tag_name: "x1", ref: "main" })).status).toBe(401);
    expect((await stranger.api.post(tags(), { tag_name: "x1", ref: "main" })).body).toEqual({ message: "404 Project Not Found" });
    expect((await stranger.api.get(tags())).status).toBe(404);
    expect((await reporter.api.post(tags(), { tag_name: "x1", ref: "main" })).status).toBe(403);
    expect((await reporter.api.delete(`${tags()}/v1.0`)).status).toBe(403);
    expect((await owner.api.post(tags(), { tag_name: "x1", ref: "main" })).status).toBe(201);
    await delivered("tags");
  });

  it("deletes a tag (204) and fires a tag_push hook with a blank after", async () => {
    const res = await developer.api.delete(`${tags()}/v1.0`);
    expect(res.status).toBe(204);
    expect((await reporter.api.get(`${tags()}/v1.0`)).status).toBe(404);
    const [hook] = await delivered("tags");
    expect(hook!.json).toMatchObject({ ref: "refs/tags/v1.0", before: mainHead, after: BLANK, checkout_sha: null, commits: [], total_commits_count: 0 });
  });
});

describe("merge_base and commits?all=true", () => {
  it("finds the best common ancestor of branches, tags and shas", async () => {
    const left = uniq("left");
    const right = uniq("right");
    await createBranch(developer.api, project.id, left);
    await createBranch(developer.api, project.id, right);
    const onLeft = await commitTo(developer.api, project.id, left);
    await commitTo(developer.api, project.id, right);
    const base = await reporter.api.get(`/projects/${project.id}/repository/merge_base?refs[]=${left}&refs[]=${right}`);
    expect(base.status, base.text).toBe(200);
    expect(base.body).toMatchObject({ id: mainHead, parent_ids: expect.any(Array) });
    expect((await reporter.api.get(`/projects/${project.id}/repository/merge_base?refs[]=${onLeft.id}&refs[]=v1.1`)).body.id).toBe(mainHead);
    expect((await reporter.api.get(`/projects/${project.id}/repository/merge_base?refs[]=${left}`)).body).toEqual({ message: "Provide at least 2 refs" });
    expect((await reporter.api.get(`/projects/${project.id}/repository/merge_base?refs[]=${left}&refs[]=nope&refs[]=gone`)).body)
      .toEqual({ message: "Could not find refs: nope, gone" });
    expect((await stranger.api.get(`/projects/${project.id}/repository/merge_base?refs[]=a&refs[]=b`)).status).toBe(404);
  });

  it("lists every branch's commits with all=true, newest first", async () => {
    const side = uniq("side");
    await createBranch(developer.api, project.id, side);
    const onSide = await commitTo(developer.api, project.id, side);
    const onMain = (await reporter.api.get(`/projects/${project.id}/repository/commits?per_page=100`)).body.map((c: any) => c.id);
    expect(onMain).not.toContain(onSide.id);
    const all = (await reporter.api.get(`/projects/${project.id}/repository/commits?all=true&per_page=100`)).body.map((c: any) => c.id);
    expect(all).toContain(onSide.id);
    expect(all).toEqual(expect.arrayContaining(onMain));
    expect(new Set(all).size).toBe(all.length);
  });

  it("a merge reaches the group's hooks as a merge_request merge, then a push of the merged commits (GitLab's PostReceive runs after the merge)", async () => {
    const mr = await createMergeRequest(developer.api, project.id);
    const commit = await commitTo(developer.api, project.id, mr.source_branch);
    await delivered("merges");
    const res = await developer.api.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { should_remove_source_branch: true });
    expect(res.status, res.text).toBe(200);
    const got = await delivered("merges");
    const kinds = got.map((r) => [r.json.object_kind, r.json.ref ?? r.json.object_attributes?.action]);
    expect(kinds).toEqual([["merge_request", "merge"], ["push", "refs/heads/main"], ["push", `refs/heads/${mr.source_branch}`]]);
    expect(got[0]!.json.object_attributes).toMatchObject({ state: "merged", merge_commit_sha: res.body.merge_commit_sha });
    expect(got[1]!.json.commits.map((c: any) => c.id)).toEqual([mr.sha, commit.id, res.body.merge_commit_sha]);
    expect(got[2]!.json.after).toBe(BLANK);
  });

  it("the project's own hook hears the merge, the pushes and a note on the merged MR", async () => {
    const mr = await createMergeRequest(developer.api, project.id);
    await commitTo(developer.api, project.id, mr.source_branch);
    await delivered("project");
    expect((await developer.api.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`)).status).toBe(200);
    await developer.api.post(`/projects/${project.id}/merge_requests/${mr.iid}/notes`, { body: "Merged, thanks" });
    const got = await delivered("project");
    expect(got.map((r) => r.json.object_kind)).toEqual(["merge_request", "push", "push", "note"]);
    expect(got[3]!.json).toMatchObject({ merge_request: { iid: mr.iid, state: "merged" }, object_attributes: { note: "Merged, thanks" } });
  });
});
