// Keeps open merge requests in step with their branches: a push to a source branch moves the
// MR's head sha and takes a new version of its diff (GitLab's RefreshService reloading the diff),
// and any move of a source or target branch (pushed, created, deleted) asks for their
// mergeability to be checked again.
import type { DomainContext } from "../shared/context.js";
import { BLANK_SHA, subscribe, type PushEvent, type Tx } from "../shared/events.js";
import { markUnchecked } from "./mergeability.js";
import { takeVersion } from "./versions.js";

subscribe("push", async (tx, event, ctx) => {
  await moveSourceHeads(tx, ctx, event);
  await markUnchecked(tx, ctx, event.projectId, { branch: event.branch });
});

/** A deleted branch leaves the last head the MR had, as GitLab's persisted diff does. */
async function moveSourceHeads(tx: Tx, ctx: DomainContext, event: PushEvent): Promise<void> {
  if (event.after === BLANK_SHA) return;
  const moved = await tx.mergeRequest.findMany({
    where: { projectId: event.projectId, sourceBranch: event.branch, state: "opened", OR: [{ headSha: null }, { headSha: { not: event.after } }] },
    select: { id: true, projectId: true, targetBranch: true },
  });
  for (const mr of moved) {
    await tx.mergeRequest.update({ where: { id: mr.id }, data: { headSha: event.after } });
    await takeVersion(tx, ctx, { ...mr, headSha: event.after }, event.actorId);
  }
}
