// GitLab's single-purpose merge request writes (MergeRequests::SetDraft, SetAssignees through the
// GraphQL mutations), as updates through UpdateService's rules (writes.ts): the same permission
// checks, validations and "merge_request" event.
import type { DomainContext } from "../shared/context.js";
import { titleWithDraft } from "./fields.js";
import { getMergeRequest, type MergeRequestRow } from "./queries.js";
import { updateMergeRequest } from "./writes.js";

export type OperationMode = "replace" | "append" | "remove";

/** Marks a merge request as a draft or ready: the title's draft prefix, as GitLab stores it. */
export async function setMergeRequestDraft(ctx: DomainContext, projectRef: string, iid: number, draft: boolean): Promise<MergeRequestRow> {
  const mergeRequest = await getMergeRequest(ctx, projectRef, iid);
  return updateMergeRequest(ctx, projectRef, iid, { title: titleWithDraft(mergeRequest.title, draft) });
}

/** Replaces the assignees, or adds or removes some, keeping the order of the current ones. */
export async function setMergeRequestAssignees(
  ctx: DomainContext,
  projectRef: string,
  iid: number,
  userIds: number[],
  mode: OperationMode,
): Promise<MergeRequestRow> {
  const current = (await getMergeRequest(ctx, projectRef, iid)).assignees.map((a) => a.userId);
  const next =
    mode === "replace" ? userIds
    : mode === "append" ? [...current, ...userIds.filter((id) => !current.includes(id))]
    : current.filter((id) => !userIds.includes(id));
  return updateMergeRequest(ctx, projectRef, iid, { assignee_ids: next });
}
