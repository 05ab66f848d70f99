// A release tool's whole flow against the real server process, driven by @gitbeaker/rest as
// semantic-release's GitLab plugin and release-it do it: two merge requests closing issues are
// merged; then the tool tags main, uploads an asset, creates a milestone and a release linking
// both, lists the merge requests of the commits between the previous tag and the new one, and
// comments on the issues they closed. A project hook on release events hears the release (the
// server runs with ALLOW_LOCAL_WEBHOOKS=true and its own delivery worker).
import { Gitlab } from "@gitbeaker/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../webhooks/receiver.js";
import { failure } from "./helpers/gitbeaker.js";
import { createUser, uniqueName } from "./helpers/fixtures.js";
import { useServer } from "./helpers/suite.js";

const suite = useServer({ env: { ALLOW_LOCAL_WEBHOOKS: "true" } });
const gitlab = (token: string | undefined = suite.server.rootToken) => new Gitlab({ host: suite.server.url, token: token! });
const DELIVERY_TIMEOUT_MS = 15_000;

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function releaseHooks(count: number) {
  const until = Date.now() + DELIVERY_TIMEOUT_MS;
  const heard = () => receiver.requests.filter((r) => r.path === "/releases");
  while (heard().length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return heard();
}

describe("a release tool's flow with @gitbeaker/rest", () => {
  it("tag, upload, milestone, release with the asset and the milestone, merge requests of the released commits, comments on their closed issues", async () => {
    const root = gitlab();
    const [maintainer, developer, reporter] = [await createUser(suite.server), await createUser(suite.server), await createUser(suite.server)];
    const project = await root.Projects.create({ name: uniqueName("release"), visibility: "public", initializeWithReadme: true });
    await root.ProjectMembers.add(project.id, 40, { userId: maintainer.id });
    await root.ProjectMembers.add(project.id, 30, { userId: developer.id });
    await root.ProjectMembers.add(project.id, 20, { userId: reporter.id });
    const tool = gitlab(maintainer.token); // the release tool runs with a maintainer's token
    const dev = gitlab(developer.token);
    await root.ProjectHooks.add(project.id, `${receiver.url}/releases`, { releasesEvents: true, pushEvents: false } as any);

    const previous = await tool.Tags.create(project.id, "v1.0.0", "main");

    // the work being released: two merge requests, each closing an issue, and one closing none
    const crash = await dev.Issues.create(project.id, "Crash on start");
    const typo = await dev.Issues.create(project.id, "Typo in the help");
    const untouched = await dev.Issues.create(project.id, "Not part of the release");
    const merged: number[] = [];
    for (const [branch, description] of [["fix-crash", `Closes #${crash.iid}`], ["fix-typo", `Fixes #${typo.iid}`], ["chore", "No issue"]] as const) {
      await dev.Commits.create(project.id, branch, `Work on ${branch}`, [{ action: "create", filePath: `${branch}.txt`, content: branch }], { startBranch: "main" });
      const mr = await dev.MergeRequests.create(project.id, branch, "main", `Merge ${branch}`, { description });
      const done = await tool.MergeRequests.merge(project.id, mr.iid);
      expect(done).toMatchObject({ state: "merged", merge_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
      merged.push(mr.iid);
    }
    expect((await dev.Issues.show(crash.iid, { projectId: project.id })).state).toBe("closed");
    expect((await dev.Issues.show(untouched.iid, { projectId: project.id })).state).toBe("opened");

    // 1. tag main
    const tag = await tool.Tags.create(project.id, "v1.1.0", "main", { message: "Version 1.1.0" });
    const main = await tool.Branches.show(project.id, "main");
    expect(tag).toMatchObject({ name: "v1.1.0", message: "Version 1.1.0", target: expect.stringMatching(/^[0-9a-f]{40}$/), commit: { id: main.commit.id } });

    // 2. upload the asset: GitLab's markdown and URL, served to anyone who may read the public project
    const bytes = new TextEncoder().encode("release archive bytes\n");
    const upload = await tool.Projects.uploadForReference(project.id, { content: new Blob([bytes]), filename: "app-1.1.0.tar.gz" });
    expect(upload).toMatchObject({
      alt: "app-1.1.0.tar.gz",
      url: expect.stringMatching(/^\/uploads\/[0-9a-f]{32}\/app-1\.1\.0\.tar\.gz$/),
      full_path: `/-/project/${project.id}${upload.url}`,
      markdown: `[app-1.1.0.tar.gz](${upload.url})`,
    });
    const assetUrl = `${suite.server.url}${upload.full_path}`;
    const served = await fetch(assetUrl);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);

    // 3. the milestone, then the release linking the asset and the milestone
    const milestone = await tool.ProjectMilestones.create(project.id, "1.1");
    const release = await tool.ProjectReleases.create(project.id, {
      tagName: "v1.1.0", name: "Version 1.1.0", description: "## Changes\n\n- crash fixed\n- typo fixed",
      milestones: ["1.1"],
      assets: { links: [{ name: "app-1.1.0.tar.gz", url: assetUrl, linkType: "package", directAssetPath: "/binaries/app.tar.gz" }] },
    } as any);
    expect(release).toMatchObject({
      tag_name: "v1.1.0", name: "Version 1.1.0", description: "## Changes\n\n- crash fixed\n- typo fixed",
      author: { id: maintainer.id }, commit: { id: main.commit.id }, upcoming_release: false,
      milestones: [{ id: milestone.id, title: "1.1", issue_stats: { total: 0, closed: 0 } }],
      assets: { count: 5, links: [{ name: "app-1.1.0.tar.gz", url: assetUrl, link_type: "package" }] },
    });
    const link = release.assets.links![0]!;
    const directUrl = `${suite.server.url}/${project.path_with_namespace}/-/releases/v1.1.0/downloads/binaries/app.tar.gz`;
    expect((link as any).direct_asset_url).toBe(directUrl);
    // the permanent link redirects to the asset, on the web (what a release page links) and through the API (gitbeaker follows it)
    const permanent = await fetch(directUrl, { redirect: "manual" });
    expect([permanent.status, permanent.headers.get("location")]).toEqual([302, assetUrl]);
    const redirected = await fetch(`${suite.server.url}/api/v4/projects/${project.id}/releases/v1.1.0/downloads/binaries/app.tar.gz`, { redirect: "manual" });
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get("location")).toBe(assetUrl);
    const downloaded = await gitlab(reporter.token).ProjectReleases.download(project.id, "v1.1.0", "binaries/app.tar.gz");
    expect(downloaded).toBe(new TextDecoder().decode(bytes)); // gitbeaker reads an octet-stream answer as text
    expect((await tool.ReleaseLinks.all(project.id, "v1.1.0")).map((l) => l.id)).toEqual([link.id]);
    expect((await tool.ProjectReleases.showLatest(project.id)).tag_name).toBe("v1.1.0");

    // the release hook: action create, with the links and the commit
    const [hook] = await releaseHooks(1);
    expect(hook!.headers["x-service-event"]).toBe("Release Hook");
    expect(hook!.json).toMatchObject({
      object_kind: "release", action: "create", tag: "v1.1.0", name: "Version 1.1.0",
      project: { id: project.id }, commit: { id: main.commit.id },
      assets: { count: 5, links: [{ id: link.id, name: "app-1.1.0.tar.gz", url: assetUrl, link_type: "package" }] },
    });

    // 4. the merge requests of the released commits (between the previous tag and the new one)
    const compared = await tool.Repositories.compare(project.id, previous.name, "v1.1.0");
    expect(compared.commits!.length).toBe(6); // three commits and three merge commits
    const released = new Map<number, { iid: number; state: string }>();
    for (const commit of compared.commits!) {
      for (const mr of await tool.Commits.allMergeRequests(project.id, commit.id)) released.set(mr.iid, mr);
    }
    expect([...released.keys()].sort()).toEqual([...merged].sort());
    expect([...released.values()].every((mr) => mr.state === "merged")).toBe(true);

    // 5. comment on the issues they closed
    const commented: number[] = [];
    for (const iid of released.keys()) {
      for (const issue of await tool.MergeRequests.allIssuesClosed(project.id, iid)) {
        await tool.IssueNotes.create(project.id, issue.iid, `Released in [v1.1.0](${directUrl})`);
        commented.push(issue.iid);
      }
    }
    expect(commented.sort()).toEqual([crash.iid, typo.iid].sort());
    for (const iid of [crash.iid, typo.iid]) {
      const notes = await dev.IssueNotes.all(project.id, iid);
      expect(notes.filter((n) => !n.system).map((n) => n.body)).toEqual([`Released in [v1.1.0](${directUrl})`]);
    }
    expect((await dev.IssueNotes.all(project.id, untouched.iid)).filter((n) => !n.system)).toEqual([]);

    // the release tool's limits: a Developer may create a release (GitLab's create_release), a
    // Reporter may not; a second release on the tag is a conflict; a link to nowhere is refused
    const asReporter = gitlab(reporter.token);
    expect(await failure(asReporter.ProjectReleases.create(project.id, { tagName: "v1.0.0" } as any))).toMatchObject({ status: 403 });
    expect(await failure(tool.ProjectReleases.create(project.id, { tagName: "v1.1.0" } as any))).toEqual({ status: 409, message: "Release already exists" });
    expect(await failure(tool.ReleaseLinks.create(project.id, "v1.1.0", "bad", "not a url"))).toMatchObject({ status: 400 });
    const older = await dev.ProjectReleases.create(project.id, { tagName: "v1.0.0", name: "Version 1.0.0" } as any);
    expect(older).toMatchObject({ tag_name: "v1.0.0", author: { id: developer.id } });
    expect(older).not.toHaveProperty("milestones"); // GitLab shows milestones only when there are some
    expect((await releaseHooks(2)).map((r) => r.json.tag)).toEqual(["v1.1.0", "v1.0.0"]);
  });
});
