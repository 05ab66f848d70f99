// A release tool's whole flow against the real server process, driven by @gitbeaker/rest as
// release automation drives GitLab: two merge requests that close issues merged into main after a
// first tag; then a second tag, an uploaded asset, a milestone, the release linking both, the merge
// requests of the commits between the two tags (repository compare, then each commit's merge
// requests), the issues each one closed, and a note on each of those issues. A project hook with
// releases_events hears the release (loopback receiver; the server runs with ALLOW_LOCAL_WEBHOOKS).
import { Gitlab } from "@gitbeaker/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../webhooks/receiver.js";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { failure } from "./helpers/gitbeaker.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer({ env: { ALLOW_LOCAL_WEBHOOKS: "true" } });
const gitlab = (token: string) => new Gitlab({ host: suite.server.url, token });
const DELIVERY_TIMEOUT_MS = 15_000;

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function arrived(path: string, count: number) {
  const until = Date.now() + DELIVERY_TIMEOUT_MS;
  while (receiver.requests.filter((r) => r.path === path).length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return receiver.requests.filter((r) => r.path === path);
}

describe("gitbeaker: a release tool's whole flow", () => {
  it("tags, uploads an asset, releases it with a milestone, then comments on the issues the released merge requests closed", async () => {
    const [owner, dev, reporter] = await Promise.all([createUser(suite.server), createUser(suite.server), createUser(suite.server)]);
    const api = gitlab(owner.token);
    const devApi = gitlab(dev.token);
    const project = await api.Projects.create({ name: uniqueName("gbrel"), visibility: "public", initializeWithReadme: true } as any);
    await api.ProjectMembers.add(project.id, 30, { userId: dev.id });
    await api.ProjectMembers.add(project.id, 20, { userId: reporter.id });
    await api.ProjectHooks.add(project.id, `${receiver.url}/release-flow`, { pushEvents: false, releasesEvents: true } as any);

    const previous = await api.Tags.create(project.id, "v1.0.0", "main");
    const issues = [
      await devApi.Issues.create(project.id, "Crash on start"),
      await devApi.Issues.create(project.id, "Wrong colour"),
    ];
    const merged = [];
    for (const [index, issue] of issues.entries()) {
      const branch = `fix-${index}`;
      await devApi.Branches.create(project.id, branch, "main");
      await devApi.Commits.create(project.id, branch, `Fix #${issue.iid}`, [{ action: "create", filePath: `fix-${index}.md`, content: `${index}\n` }]);
      const mr = await devApi.MergeRequests.create(project.id, branch, "main", `Fix ${issue.title}`, { description: `Closes #${issue.iid}` } as any);
      expect((await devApi.MergeRequests.allIssuesClosed(project.id, mr.iid)).map((i) => i.iid)).toEqual([issue.iid]);
      merged.push(await devApi.MergeRequests.merge(project.id, mr.iid, { shouldRemoveSourceBranch: true } as any));
    }
    expect(merged.map((mr) => mr.state)).toEqual(["merged", "merged"]);
    for (const issue of issues) expect((await api.Issues.show(issue.id, { projectId: project.id } as any)).state).toBe("closed");

    // The release tool: tag, upload, milestone, release.
    const tag = await devApi.Tags.create(project.id, "v1.1.0", "main", { message: "Release 1.1.0" } as any);
    expect(tag).toMatchObject({ name: "v1.1.0", message: "Release 1.1.0", commit: { id: merged[1]!.merge_commit_sha } });
    const upload = await devApi.Projects.uploadForReference(project.id, { content: new Blob(["binary bytes"]), filename: "app-1.1.0.tar.gz" });
    expect(upload).toEqual({
      id: expect.any(Number), alt: "app-1.1.0.tar.gz",
      url: expect.stringMatching(/^\/uploads\/[0-9a-f]{32}\/app-1\.1\.0\.tar\.gz$/),
      full_path: expect.stringMatching(new RegExp(`^/-/project/${project.id}/uploads/[0-9a-f]{32}/app-1\\.1\\.0\\.tar\\.gz$`)),
      markdown: `[app-1.1.0.tar.gz](${upload.url})`,
    });
    const assetUrl = `${suite.server.url}${upload.full_path}`;
    const served = await fetch(assetUrl);
    expect([served.status, await served.text()]).toEqual([200, "binary bytes"]);
    const milestone = await devApi.ProjectMilestones.create(project.id, "1.1");
    expect(milestone).toMatchObject({ title: "1.1", state: "active", project_id: project.id });

    expect(await failure(gitlab(reporter.token).ProjectReleases.create(project.id, { tagName: "v1.1.0" } as any))).toMatchObject({ status: 403 });
    const release = await devApi.ProjectReleases.create(project.id, {
      tagName: "v1.1.0", name: "1.1.0", description: "Fixes two bugs",
      milestones: ["1.1"],
      assets: { links: [{ name: "app-1.1.0.tar.gz", url: assetUrl, directAssetPath: "/binaries/app.tar.gz", linkType: "package" }] },
    } as any);
    const web = project.web_url;
    expect(release).toMatchObject({
      tag_name: "v1.1.0", name: "1.1.0", description: "Fixes two bugs", upcoming_release: false,
      author: { id: dev.id }, commit: { id: tag.commit.id },
      milestones: [{ id: milestone.id, title: "1.1", project_id: project.id }],
      _links: { self: `${web}/-/releases/v1.1.0` },
    });
    expect(release.assets.links).toEqual([expect.objectContaining({
      name: "app-1.1.0.tar.gz", url: assetUrl, link_type: "package",
      direct_asset_url: `${web}/-/releases/v1.1.0/downloads/binaries/app.tar.gz`,
    })]);
    expect(await failure(devApi.ProjectReleases.create(project.id, { tagName: "v1.1.0" } as any))).toEqual({ status: 409, message: "Release already exists" });
    expect((await api.ProjectReleases.all(project.id)).map((r) => r.tag_name)).toEqual(["v1.1.0"]);
    expect((await gitlab(reporter.token).ProjectReleases.show(project.id, "v1.1.0")).milestones?.map((m: any) => m.title)).toEqual(["1.1"]);

    // The merge requests of the released commits, the issues they closed, a note on each.
    const compare = await devApi.Repositories.compare(project.id, previous.name, tag.name);
    const shas = compare.commits!.map((c: any) => c.id as string);
    expect(shas).toHaveLength(4);
    const mrIids = new Set<number>();
    for (const sha of shas) for (const mr of await devApi.Commits.allMergeRequests(project.id, sha)) mrIids.add(mr.iid);
    expect([...mrIids].sort()).toEqual(merged.map((mr) => mr.iid).sort());
    const closed = [];
    for (const iid of [...mrIids].sort()) closed.push(...await devApi.MergeRequests.allIssuesClosed(project.id, iid));
    expect(closed.map((i) => [i.iid, i.state])).toEqual(issues.map((i) => [i.iid, "closed"]));
    for (const issue of closed) {
      const note = await devApi.IssueNotes.create(project.id, issue.iid, `Released in [v1.1.0](${release._links.self})`);
      expect(note).toMatchObject({ body: `Released in [v1.1.0](${release._links.self})`, author: { id: dev.id }, noteable_type: "Issue", noteable_iid: issue.iid, system: false });
    }
    for (const issue of issues) {
      const notes = await api.IssueNotes.all(project.id, issue.iid);
      expect(notes.filter((n) => !n.system).map((n) => n.body)).toEqual([`Released in [v1.1.0](${release._links.self})`]);
    }

    const [hook] = await arrived("/release-flow", 1);
    expect(Object.entries(hook!.headers).find(([name]) => name.endsWith("-event"))?.[1]).toBe("Release Hook");
    expect(hook!.json).toMatchObject({
      object_kind: "release", action: "create", tag: "v1.1.0", name: "1.1.0", description: "Fixes two bugs",
      url: `${web}/-/releases/v1.1.0`, project: { id: project.id },
      commit: { id: tag.commit.id },
      assets: { count: 5, links: [{ name: "app-1.1.0.tar.gz", url: assetUrl, link_type: "package" }] },
    });
  });
});
