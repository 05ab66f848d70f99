// Releases and release links (GitLab's Releases API and Release Links API) per actor, with
// GitLab's answers: the Release entity (what a Guest of a private project is not shown), creating
// the tag from `ref`, 409/422/400/403/404, links validation, the permalink and asset redirects,
// the group list, a deleted tag taking its release along, and the release hooks a real loopback
// receiver gets for create, update and delete.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_URL } from "../helpers/app.js";
import { addMember, createGroup, createUser, uniq, type TestUser } from "../helpers/factories.js";
import { commitTo } from "../helpers/merge-requests.js";
import { createHook, startTestbed, type WebhookTestbed } from "../webhooks/setup.js";

let bed: WebhookTestbed;
let owner: TestUser, developer: TestUser, reporter: TestUser, guest: TestUser, stranger: TestUser;
let group: any, project: any, publicProject: any;
let head: string;

const releases = (p = project) => `/projects/${p.id}/releases`;

beforeAll(async () => {
  bed = await startTestbed();
  const t = bed.t;
  [owner, developer, reporter, guest, stranger] = await Promise.all([createUser(t), createUser(t), createUser(t), createUser(t), createUser(t)]);
  group = await createGroup(owner.api, { visibility: "public" });
  await addMember(owner.api, "groups", group.id, developer.id, 30);
  await addMember(owner.api, "groups", group.id, reporter.id, 20);
  await addMember(owner.api, "groups", group.id, guest.id, 10);
  const res = await owner.api.post("/projects", { name: uniq("rel"), namespace_id: group.id, visibility: "private", initialize_with_readme: true });
  expect(res.status, res.text).toBe(201);
  project = res.body;
  head = (await commitTo(developer.api, project.id, "main")).id;
  const pub = await owner.api.post("/projects", { name: uniq("pub"), namespace_id: group.id, visibility: "public", initialize_with_readme: true });
  expect(pub.status, pub.text).toBe(201);
  publicProject = pub.body;
  await createHook(bed, group.id, { url: `${bed.receiver.url}/releases`, push_events: false, releases_events: true });
  await bed.drain();
  bed.receiver.clear();
});

afterAll(() => bed.close());

const delivered = async () => {
  await bed.drain();
  const got = bed.receiver.requests.filter((r) => r.path === "/releases");
  bed.receiver.clear();
  return got;
};

describe("creating a release", () => {
  it("refuses callers below Developer (403) and hides the private project (404)", async () => {
    for (const who of [guest, reporter]) {
      const res = await who.api.post(releases(), { tag_name: "v0.1", ref: "main" });
      expect(res.status, res.text).toBe(403);
      expect(res.body).toEqual({ message: "403 Forbidden" });
    }
    expect((await stranger.api.post(releases(), { tag_name: "v0.1", ref: "main" })).status).toBe(404);
    expect((await bed.t.anon.post(releases(), { tag_name: "v0.1", ref: "main" })).status).toBe(404);
    expect((await bed.t.anon.post(releases(publicProject), { tag_name: "v0.1", ref: "main" })).status).toBe(403);
    expect((await owner.api.get(`/projects/${project.id}/repository/tags/v0.1`)).status).toBe(404);
  });

  it("answers GitLab's errors: a missing tag without ref (422), a bad ref (400), milestones (400), bad links (400), missing params (400)", async () => {
    let res = await developer.api.post(releases(), { tag_name: "v0.2" });
    expect([res.status, res.body]).toEqual([422, { message: "Ref is not specified" }]);
    res = await developer.api.post(releases(), { tag_name: "v0.2", ref: "nope" });
    expect([res.status, res.body]).toEqual([400, { message: "Target nope is invalid" }]);
    res = await developer.api.post(releases(), { tag_name: "v0.2", ref: "main", milestones: ["v1", "v2"] });
    expect([res.status, res.body]).toEqual([400, { message: "Milestone(s) not found: v1, v2" }]);
    res = await developer.api.post(releases(), { tag_name: "v0.2", ref: "main", milestone_ids: [4] });
    expect([res.status, res.body]).toEqual([400, { message: "Milestone id(s) not found: 4" }]);
    res = await developer.api.post(releases(), { tag_name: "v0.2", ref: "main", assets: { links: [{ name: "x", url: "javascript:alert(1)" }] } });
    expect([res.status, res.body]).toEqual([400, { message: "Validation failed: Links url is blocked: Only allowed schemes are http, https, ftp" }]);
    res = await developer.api.post(releases(), { tag_name: "v0.2", ref: "main", assets: { links: [{ name: "a", url: "https://a.example/1" }, { name: "a", url: "https://a.example/2" }] } });
    expect([res.status, res.body]).toEqual([400, { message: "Validation failed: Links have duplicate values (name)" }]);
    res = await developer.api.post(releases(), { tag_name: "v0.2", ref: "main", assets: { links: [{ url: "https://a.example/1" }] } });
    expect([res.status, res.body]).toEqual([400, { error: "assets[links][0][name] is missing" }]);
    res = await developer.api.post(releases(), { ref: "main" });
    expect([res.status, res.body]).toEqual([400, { error: "tag_name is missing" }]);
    res = await developer.api.post(releases(), { tag_name: "v0.2", ref: "main", released_at: "yesterday" });
    expect([res.status, res.body]).toEqual([400, { error: "released_at is invalid" }]);
    // none of those left a tag or a release behind
    expect((await owner.api.get(`/projects/${project.id}/repository/tags/v0.2`)).status).toBe(404);
    expect((await owner.api.get(releases())).body).toEqual([]);
  });

  it("creates the tag from ref and the release with its links (201, GitLab's Release entity), and fires a release hook", async () => {
    const res = await developer.api.post(releases(), {
      tag_name: "v1.0", ref: "main", tag_message: "first", name: "First", description: "Notes",
      assets: { links: [
        { name: "binary", url: "https://downloads.example/app", direct_asset_path: "/bin/app", link_type: "package" },
        { name: "docs", url: "https://docs.example/v1" },
      ] },
    });
    expect(res.status, res.text).toBe(201);
    const web = `${project.web_url}`;
    expect(Object.keys(res.body)).toEqual([
      "name", "tag_name", "description", "created_at", "released_at", "author", "commit", "upcoming_release", "commit_path", "tag_path", "assets", "evidences", "_links",
    ]);
    expect(res.body).toMatchObject({
      name: "First", tag_name: "v1.0", description: "Notes", upcoming_release: false,
      author: { id: developer.id, username: developer.username },
      commit: { id: head },
      commit_path: `/${project.path_with_namespace}/-/commit/${head}`,
      tag_path: `/${project.path_with_namespace}/-/tags/v1.0`,
      evidences: [],
      _links: { self: `${web}/-/releases/v1.0`, edit_url: `${web}/-/releases/v1.0/edit` },
    });
    expect(res.body.released_at).toBe(res.body.created_at);
    expect(res.body.assets.count).toBe(6);
    expect(res.body.assets.sources).toEqual(["zip", "tar.gz", "tar.bz2", "tar"].map((format) => ({
      format, url: `${web}/-/archive/v1.0/${project.path}-v1.0.${format}`,
    })));
    expect(res.body.assets.links.map((l: any) => [l.name, l.link_type, l.direct_asset_url])).toEqual([
      ["docs", "other", "https://docs.example/v1"],
      ["binary", "package", `${web}/-/releases/v1.0/downloads/bin/app`],
    ]);
    const tag = await owner.api.get(`/projects/${project.id}/repository/tags/v1.0`);
    expect([tag.status, tag.body.message]).toEqual([200, "first"]);
    const [hook] = await delivered();
    expect(Object.entries(hook!.headers).find(([name]) => name.endsWith("-event"))?.[1]).toBe("Release Hook");
    expect(hook!.json).toMatchObject({
      object_kind: "release", action: "create", tag: "v1.0", name: "First", description: "Notes",
      url: `${web}/-/releases/v1.0`, project: { id: project.id },
      assets: { count: 6, links: [{ name: "docs", external: true, link_type: "other" }, { name: "binary", link_type: "package" }] },
      commit: { id: head },
    });
    expect(hook!.json.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  });

  it("answers 409 for a second release of the tag, and releases an existing tag without ref, upcoming or historical", async () => {
    const again = await developer.api.post(releases(), { tag_name: "v1.0", ref: "main" });
    expect([again.status, again.body]).toEqual([409, { message: "Release already exists" }]);
    await developer.api.post(`/projects/${project.id}/repository/tags`, { tag_name: "v0.9", ref: "main" });
    const old = await developer.api.post(releases(), { tag_name: "v0.9", released_at: "2020-01-01T00:00:00Z" });
    expect(old.status, old.text).toBe(201);
    expect(old.body).toMatchObject({ name: "v0.9", released_at: "2020-01-01T00:00:00.000Z", upcoming_release: false, description: null });
    const future = await owner.api.post(releases(), { tag_name: "v2.0", ref: "main", released_at: "2999-01-01T00:00:00Z" });
    expect(future.status, future.text).toBe(201);
    expect(future.body.upcoming_release).toBe(true);
    await delivered();
  });
});

describe("reading releases", () => {
  it("lists by released_at (desc by default), order_by created_at, sort and pages", async () => {
    const list = await reporter.api.get(releases());
    expect(list.status).toBe(200);
    expect(list.body.map((r: any) => r.tag_name)).toEqual(["v2.0", "v1.0", "v0.9"]);
    expect(list.headers.get("x-total")).toBe("3");
    const asc = await reporter.api.get(releases(), { query: { sort: "asc" } });
    expect(asc.body.map((r: any) => r.tag_name)).toEqual(["v0.9", "v1.0", "v2.0"]);
    const created = await reporter.api.get(releases(), { query: { order_by: "created_at", per_page: 1, page: 2 } });
    expect(created.body.map((r: any) => r.tag_name)).toEqual(["v0.9"]);
    const bad = await reporter.api.get(releases(), { query: { order_by: "name" } });
    expect([bad.status, bad.body]).toEqual([400, { error: "order_by does not have a valid value" }]);
    // a Reporter may not edit
    expect(list.body[1]._links).toEqual({ self: `${project.web_url}/-/releases/v1.0` });
  });

  it("shows a Guest of a private project no tag, commit or sources; the single release needs read_code (403)", async () => {
    const list = await guest.api.get(releases());
    expect(list.status).toBe(200);
    const v1 = list.body[1];
    expect(v1.name).toMatch(/^Release-\d+$/);
    for (const hidden of ["tag_name", "commit", "commit_path", "tag_path", "evidences"]) expect(v1).not.toHaveProperty(hidden);
    expect(v1.assets).toEqual({ count: 2, links: expect.any(Array) });
    expect((await guest.api.get(`${releases()}/v1.0`)).status).toBe(403);
    expect((await stranger.api.get(releases())).status).toBe(404);
    expect((await bed.t.anon.get(releases())).status).toBe(404);
  });

  it("reads one release by tag (404 for a tag without one), and anyone reads a public project's", async () => {
    const one = await reporter.api.get(`${releases()}/v1.0`);
    expect([one.status, one.body.name]).toEqual([200, "First"]);
    const none = await reporter.api.get(`${releases()}/nope`);
    expect([none.status, none.body]).toEqual([404, { message: "404 Not Found" }]);
    const pub = await developer.api.post(releases(publicProject), { tag_name: "p1", ref: "main" });
    expect(pub.status, pub.text).toBe(201);
    const anon = await bed.t.anon.get(`${releases(publicProject)}/p1`);
    expect([anon.status, anon.body.tag_name, anon.body._links]).toEqual([200, "p1", { self: `${publicProject.web_url}/-/releases/p1` }]);
    await delivered();
  });

  it("redirects the latest permalink (302, query kept but order_by) and a direct asset path to its link", async () => {
    const latest = await reporter.api.get(`${releases()}/permalink/latest`, { query: { order_by: "x", include_html_description: "true" } });
    expect(latest.status).toBe(302);
    expect(latest.headers.get("location")).toBe(`/api/v4/projects/${project.id}/releases/v2.0?include_html_description=true`);
    const asset = await reporter.api.get(`${releases()}/v1.0/downloads/app`);
    expect(asset.status).toBe(404);
    await developer.api.post(`${releases()}/v1.0/assets/links`, { name: "flat", url: "https://downloads.example/flat", direct_asset_path: "/flat" });
    const flat = await reporter.api.get(`${releases()}/v1.0/downloads/flat`);
    expect([flat.status, flat.headers.get("location")]).toEqual([302, "https://downloads.example/flat"]);
    const empty = await owner.api.post("/projects", { name: uniq("empty"), namespace_id: group.id });
    expect((await owner.api.get(`/projects/${empty.body.id}/releases/permalink/latest`)).status).toBe(404);
  });

  it("redirects the direct_asset_url web path (/<project>/-/releases/<tag>/downloads/<path>) per actor, as the API does", async () => {
    const web = async (token: string | null, path = "bin/app", tag = "v1.0") => {
      const res = await bed.t.app.fetch(new Request(`${BASE_URL}/${project.path_with_namespace}/-/releases/${tag}/downloads/${path}`, {
        headers: token ? { "PRIVATE-TOKEN": token } : {},
      }));
      return [res.status, res.headers.get("location"), res.status === 302 ? null : await res.json()];
    };
    for (const who of [owner, developer, reporter]) expect(await web(who.token)).toEqual([302, "https://downloads.example/app", null]);
    expect(await web(reporter.token, "bin%2Fapp")).toEqual([302, "https://downloads.example/app", null]);
    expect(await web(reporter.token, "bin")).toEqual([404, null, { message: "404 Not found" }]);
    expect(await web(reporter.token, "bin/app", "nope")).toEqual([404, null, { message: "404 Not Found" }]);
    expect(await web(guest.token)).toEqual([403, null, { message: "403 Forbidden" }]);
    expect(await web(stranger.token)).toEqual([404, null, { message: "404 Project Not Found" }]);
    expect(await web(null)).toEqual([404, null, { message: "404 Project Not Found" }]);
    expect(await web("not-a-token")).toEqual([401, null, { message: "401 Unauthorized" }]);
  });

  it("redirects a direct asset path of several segments (Grape's *direct_asset_path) per actor", async () => {
    const deep = await developer.api.post(`${releases()}/v1.0/assets/links`, { name: "deep", url: "https://downloads.example/deep", direct_asset_path: "/bin/linux/amd64/tool" });
    expect(deep.status, deep.text).toBe(201);
    for (const who of [owner, developer, reporter]) {
      const two = await who.api.get(`${releases()}/v1.0/downloads/bin/app`);
      expect([two.status, two.headers.get("location")]).toEqual([302, "https://downloads.example/app"]);
      const four = await who.api.get(`${releases()}/v1.0/downloads/bin/linux/amd64/tool`);
      expect([four.status, four.headers.get("location"), four.body]).toEqual([302, "https://downloads.example/deep", { message: "This resource has been moved temporarily to https://downloads.example/deep." }]);
    }
    // an encoded slash names the same path; a prefix or a longer path of a link is not the link
    expect((await reporter.api.get(`${releases()}/v1.0/downloads/bin%2Fapp`)).headers.get("location")).toBe("https://downloads.example/app");
    for (const path of ["bin", "bin/linux", "bin/app/more", "bin/linux/amd64/tool/x"]) {
      const res = await reporter.api.get(`${releases()}/v1.0/downloads/${path}`);
      expect([path, res.status, res.body]).toEqual([path, 404, { message: "404 Not found" }]);
    }
    // read_code: a Guest of the private project is refused, outsiders do not see it
    expect((await guest.api.get(`${releases()}/v1.0/downloads/bin/app`)).status).toBe(403);
    expect((await stranger.api.get(`${releases()}/v1.0/downloads/bin/app`)).status).toBe(404);
    expect((await bed.t.anon.get(`${releases()}/v1.0/downloads/bin/app`)).status).toBe(404);
    expect((await reporter.api.get(`${releases()}/nope/downloads/bin/app`)).status).toBe(404);
    // gone with its link
    expect((await developer.api.delete(`${releases()}/v1.0/assets/links/${deep.body.id}`)).status).toBe(200);
    expect((await reporter.api.get(`${releases()}/v1.0/downloads/bin/linux/amd64/tool`)).status).toBe(404);
  });

  it("lists the group's releases (its projects the caller may see; simple=true: the basic fields)", async () => {
    const all = await reporter.api.get(`/groups/${group.id}/releases`);
    expect(all.status).toBe(200);
    expect(all.body.map((r: any) => r.tag_name)).toEqual(["v2.0", "p1", "v1.0", "v0.9"]);
    const simple = await reporter.api.get(`/groups/${group.id}/releases`, { query: { simple: true, sort: "asc", per_page: 1 } });
    expect(simple.body).toEqual([{
      name: "v0.9", tag_name: "v0.9", description: null, created_at: expect.any(String), released_at: "2020-01-01T00:00:00.000Z", upcoming_release: false,
    }]);
    // someone outside the (public) group sees the public project's releases only
    const outsider = await stranger.api.get(`/groups/${group.id}/releases`);
    expect([outsider.status, outsider.body.map((r: any) => r.tag_name)]).toEqual([200, ["p1"]]);
  });
});

describe("release links", () => {
  const links = () => `${releases()}/v1.0/assets/links`;

  it("lists, reads, creates, updates and deletes links (Developers), with GitLab's validations", async () => {
    const list = await guest.api.get(links());
    expect(list.status).toBe(200);
    expect(list.body.map((l: any) => l.name)).toEqual(["flat", "docs", "binary"]);
    expect(Object.keys(list.body[0])).toEqual(["id", "name", "url", "direct_asset_url", "link_type"]);
    expect((await reporter.api.post(links(), { name: "r", url: "https://r.example" })).status).toBe(403);
    let res = await developer.api.post(links(), { name: "docs", url: "ftp://files.example/x", direct_asset_path: "nope" });
    expect([res.status, res.body]).toEqual([400, { message: ["Filepath is invalid", "Name has already been taken"] }]);
    res = await developer.api.post(links(), { name: "n", url: "https://r.example", link_type: "zip" });
    expect([res.status, res.body]).toEqual([400, { error: "link_type does not have a valid value" }]);
    res = await developer.api.post(links(), { url: "https://r.example" });
    expect([res.status, res.body]).toEqual([400, { error: "name is missing" }]);
    res = await developer.api.post(links(), { name: "iso", url: "ftp://files.example/x.iso", direct_asset_path: "/images/x.iso", link_type: "image" });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number), name: "iso", url: "ftp://files.example/x.iso",
      direct_asset_url: `${project.web_url}/-/releases/v1.0/downloads/images/x.iso`, link_type: "image",
    });
    const id = res.body.id;
    expect((await guest.api.get(`${links()}/${id}`)).body.name).toBe("iso");
    expect((await guest.api.get(`${links()}/999999`)).body).toEqual({ message: "404 Not found" });
    expect((await guest.api.get(`${releases()}/nope/assets/links`)).body).toEqual({ message: "404 Not found" });
    res = await developer.api.put(`${links()}/${id}`, { link_type: "runbook" });
    expect([res.status, res.body]).toEqual([400, { error: "name, url are missing, at least one parameter must be provided" }]);
    res = await developer.api.put(`${links()}/${id}`, { url: "https://downloads.example/app" });
    expect([res.status, res.body]).toEqual([400, { message: ["Url has already been taken"] }]);
    res = await developer.api.put(`${links()}/${id}`, { name: "ISO image" });
    expect([res.status, res.body.name, res.body.link_type]).toEqual([200, "ISO image", "other"]);
    expect((await reporter.api.delete(`${links()}/${id}`)).status).toBe(403);
    res = await developer.api.delete(`${links()}/${id}`);
    expect([res.status, res.body.name]).toEqual([200, "ISO image"]);
    expect((await guest.api.get(`${links()}/${id}`)).status).toBe(404);
  });
});

describe("updating and deleting a release", () => {
  it("updates name, description and released_at (Developers), with GitLab's refusals, and fires an update hook", async () => {
    expect((await reporter.api.put(`${releases()}/v1.0`, { name: "x" })).status).toBe(403);
    expect((await developer.api.put(`${releases()}/nope`, { name: "x" })).status).toBe(403);
    let res = await developer.api.put(`${releases()}/v1.0`, {});
    expect([res.status, res.body]).toEqual([400, { message: "params is empty" }]);
    res = await developer.api.put(`${releases()}/v1.0`, { milestones: ["m"] });
    expect([res.status, res.body]).toEqual([400, { message: "Milestone(s) not found: m" }]);
    res = await developer.api.put(`${releases()}/v1.0`, { name: "One", released_at: "2021-02-03T04:05:06Z", milestones: [] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "One", description: "Notes", released_at: "2021-02-03T04:05:06.000Z" });
    const [hook] = await delivered();
    expect(hook!.json).toMatchObject({ object_kind: "release", action: "update", name: "One", released_at: "2021-02-03 04:05:06 UTC" });
  });

  it("deletes the release (200, the release as it was), keeps the tag, and fires a delete hook", async () => {
    expect((await reporter.api.delete(`${releases()}/v1.0`)).status).toBe(403);
    const res = await developer.api.delete(`${releases()}/v1.0`);
    expect([res.status, res.body.tag_name, res.body.name]).toEqual([200, "v1.0", "One"]);
    expect((await developer.api.get(`${releases()}/v1.0`)).status).toBe(404);
    expect((await developer.api.get(`/projects/${project.id}/repository/tags/v1.0`)).status).toBe(200);
    const [hook] = await delivered();
    expect(hook!.json).toMatchObject({ object_kind: "release", action: "delete", tag: "v1.0" });
  });

  it("deleting a tag deletes its release and links", async () => {
    expect((await developer.api.get(`${releases()}/v0.9`)).status).toBe(200);
    expect((await developer.api.delete(`/projects/${project.id}/repository/tags/v0.9`)).status).toBe(204);
    expect((await developer.api.get(`${releases()}/v0.9`)).status).toBe(404);
    expect((await developer.api.get(releases())).body.map((r: any) => r.tag_name)).toEqual(["v2.0"]);
  });

  it("tests a hook with the project's latest release", async () => {
    const hooks = await owner.api.get(`/groups/${group.id}/hooks`);
    const res = await owner.api.post(`/groups/${group.id}/hooks/${hooks.body[0].id}/test/releases_events`);
    expect(res.status, res.text).toBe(201);
    bed.receiver.clear();
  });
});
