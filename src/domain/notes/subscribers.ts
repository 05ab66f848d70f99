// Diff threads follow the merge requests' diffs: when a merge request gets a new version (a push
// to its source branch, a rebase, a retarget), its threads on the previous version are traced to
// the new one (position-tracing.ts), in the same transaction.
import { subscribe } from "../shared/events.js";
import { updateDiffThreads } from "./position-tracing.js";

subscribe("merge_request_diff", async (tx, event, ctx) => {
  if (!event.previous) return;
  const mr = await tx.mergeRequest.findUniqueOrThrow({
    where: { id: event.mergeRequestId },
    select: { id: true, iid: true, projectId: true, project: { select: { path: true, namespace: { select: { fullPath: true } } } } },
  });
  const count = await tx.mergeRequestDiff.count({ where: { mergeRequestId: mr.id } });
  await updateDiffThreads(tx, ctx, mr, event.previous, event.latest, event.actorId, count);
});
