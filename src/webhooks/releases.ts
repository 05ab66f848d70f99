// Release hooks (Release#execute_hooks, Gitlab::HookData::ReleaseBuilder): a release created,
// updated or deleted through the Releases API reaches the hooks that hear release events, with
// the release's columns, its project, URL, assets and the tag's commit.
import type { Release, ReleaseLink } from "../generated/prisma/client.js";
import { subscribe, type Tx } from "../domain/shared/events.js";
import { readCommit } from "../domain/repository/git.js";
import { isExternal, releaseUrl, sourcesOf } from "../domain/releases/presenter.js";
import { enqueueHookDeliveries } from "./outbox.js";
import { loadProject, projectHookAttrs, rubyTime, type Ctx, type ProjectWithNamespace } from "./payloads/common.js";
import { commitHookAttrs } from "./payloads/push.js";

export async function buildReleasePayload(ctx: Ctx, project: ProjectWithNamespace, release: Release, links: ReleaseLink[], action: string) {
  const access = { project };
  const sources = sourcesOf(ctx, access, release.tag);
  const commit = release.sha ? await readCommit(ctx, project.id, release.sha) : null;
  return {
    id: release.id,
    created_at: rubyTime(release.createdAt),
    description: release.description,
    name: release.name,
    released_at: rubyTime(release.releasedAt),
    tag: release.tag,
    object_kind: "release",
    project: projectHookAttrs(ctx, project),
    url: releaseUrl(ctx, access, release.tag),
    action,
    assets: {
      count: links.length + sources.length,
      links: links.map((link) => ({ id: link.id, external: isExternal(ctx, access, link), link_type: link.linkType, name: link.name, url: link.url })),
      sources,
    },
    commit: commit ? commitHookAttrs(ctx, project, commit, false) : {},
  };
}

subscribe("release", async (tx: Tx, event, ctx) => {
  const payload = async () => buildReleasePayload(ctx, (await loadProject(tx, event.projectId))!, event.release, event.links, event.action);
  await enqueueHookDeliveries(tx, ctx, { projectId: event.projectId, trigger: "release_hooks", payload });
});
