// Tag pushes reach the hooks that hear tag_push events (Git::TagPushService#build_push_data): a
// created tag describes the commit it points at and carries the tag's message; a deleted one
// describes no commit. Tag pushes are not filtered by branch.
import { subscribe } from "../domain/shared/events.js";
import { enqueueHookDeliveries } from "./outbox.js";
import { loadProject } from "./payloads/common.js";
import { buildPushPayload } from "./payloads/push.js";

subscribe("tag_push", async (tx, event, ctx) => {
  if (!event.withHooks) return;
  const payload = async () => {
    const project = (await loadProject(tx, event.projectId))!;
    const commit = await event.commit();
    const commits = commit ? [commit] : [];
    return buildPushPayload(ctx, {
      project,
      user: event.actorId === null ? null : await tx.user.findUnique({ where: { id: event.actorId } }),
      ref: `refs/tags/${event.tag}`,
      before: event.before,
      after: event.after,
      checkoutSha: commit?.sha ?? null,
      message: event.message,
      commits,
      totalCommits: commits.length,
      refProtected: false,
    });
  };
  await enqueueHookDeliveries(tx, ctx, { projectId: event.projectId, trigger: "tag_push_hooks", payload });
});
