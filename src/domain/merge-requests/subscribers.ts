// Keeps open merge requests in step with their branches: a push to a source branch moves the
// MR's head sha (GitLab's RefreshService reloading the diff), and any move of a source or target
// branch (pushed, created, deleted) asks for their mergeability to be checked again.
import { BLANK_SHA, subscribe, type PushEvent, type Tx } from "../shared/events.js";
import { markUnchecked } from "./mergeability.js";

subscribe("push", async (tx, event, ctx) => {
  await moveSourceHeads(tx, event);
  await markUnchecked(tx, ctx, event.projectId, { branch: event.branch });
});

/** A deleted branch leaves the last head the MR had, as GitLab's persisted diff does. */
async function moveSourceHeads(tx: Tx, event: PushEvent): Promise<void> {
  if (event.after === BLANK_SHA) return;
  await tx.mergeRequest.updateMany({
    where: { projectId: event.projectId, sourceBranch: event.branch, state: "opened" },
    data: { headSha: event.after },
  });
}
