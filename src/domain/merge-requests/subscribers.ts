// Keeps open merge requests in step with their branches: a push to a source branch moves the
// MR's head sha (GitLab's RefreshService reloading the diff), and a branch that is deleted or
// created again changes whether the MRs it belongs to can be merged.
import { BLANK_SHA, subscribe, type PushEvent, type Tx } from "../shared/events.js";
import { branchHead, mergeStatusOf } from "./branches.js";

subscribe("push", async (tx, event) => {
  await refreshSourceBranchMergeRequests(tx, event);
  await refreshTargetBranchMergeRequests(tx, event);
});

const exists = (event: PushEvent) => event.after !== BLANK_SHA;

async function refreshSourceBranchMergeRequests(tx: Tx, event: PushEvent): Promise<void> {
  const open = await tx.mergeRequest.findMany({
    where: { projectId: event.projectId, sourceBranch: event.branch, state: "opened" },
    select: { id: true, targetBranch: true },
  });
  for (const mr of open) {
    const targetExists = (await branchHead(tx, event.projectId, mr.targetBranch)) != null;
    await tx.mergeRequest.update({
      where: { id: mr.id },
      // a deleted branch leaves the last head the MR had, as GitLab's persisted diff does
      data: { ...(exists(event) ? { headSha: event.after } : {}), mergeStatus: mergeStatusOf(exists(event), targetExists) },
    });
  }
}

async function refreshTargetBranchMergeRequests(tx: Tx, event: PushEvent): Promise<void> {
  if (event.before !== BLANK_SHA && exists(event)) return; // an advanced target changes nothing stored
  const open = await tx.mergeRequest.findMany({
    where: { projectId: event.projectId, targetBranch: event.branch, state: "opened" },
    select: { id: true, sourceBranch: true },
  });
  for (const mr of open) {
    const sourceExists = (await branchHead(tx, event.projectId, mr.sourceBranch)) != null;
    await tx.mergeRequest.update({ where: { id: mr.id }, data: { mergeStatus: mergeStatusOf(sourceExists, exists(event)) } });
  }
}
