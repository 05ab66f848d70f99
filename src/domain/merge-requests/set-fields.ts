// GitLab's single-purpose merge request writes (MergeRequests::SetDraft, SetAssignees through the
// GraphQL mutations), as updates through UpdateService's rules (writes.ts): the same permission
// checks, validations and "merge_request" event.
import { forbidden } from "../../errors.js";
import type { DomainContext } from "../shared/context.js";
import { titleWithDraft } from "./fields.js";
import { canUpdateMergeRequest, presentMergeRequest, type MergeRequestAccess, type MergeRequestRow, type MergeRequestRowAccess } from "./queries.js";
import { requireMergeRequestChanges, updateMergeRequest, type UpdateMergeRequestInput } from "./writes.js";

export type OperationMode = "replace" | "append" | "remove";

/** Marks a merge request the caller may read as a draft or ready: the title's draft prefix, as GitLab stores it. */
export async function setMergeRequestDraft(ctx: DomainContext, found: MergeRequestAccess, draft: boolean): Promise<MergeRequestRow> {
  const current = await asShown(ctx, found);
  return update(ctx, current, { title: titleWithDraft(current.mergeRequest.title, draft) });
}

/** Replaces the assignees of a merge request the caller may read, or adds or removes some, keeping the order of the current ones. */
export async function setMergeRequestAssignees(ctx: DomainContext, found: MergeRequestAccess, userIds: number[], mode: OperationMode): Promise<MergeRequestRow> {
  const current = await asShown(ctx, found);
  const assigned = current.mergeRequest.assignees.map((a) => a.userId);
  const next =
    mode === "replace" ? userIds
    : mode === "append" ? [...assigned, ...userIds.filter((id) => !assigned.includes(id))]
    : assigned.filter((id) => !userIds.includes(id));
  return update(ctx, current, { assignee_ids: next });
}

/** The merge request as its entity shows it (merge_status checked), which the change starts from. */
const asShown = async (ctx: DomainContext, found: MergeRequestAccess): Promise<MergeRequestRowAccess> =>
  ({ mergeRequest: await presentMergeRequest(ctx, found), access: found.access });

/** PUT's checks in its order on a merge request found for reading: the params (400), signed in (401), `update_merge_request` (403). */
function update(ctx: DomainContext, found: MergeRequestRowAccess, input: UpdateMergeRequestInput): Promise<MergeRequestRow> {
  requireMergeRequestChanges(ctx, input);
  if (!canUpdateMergeRequest(ctx, found.access, found.mergeRequest)) throw forbidden();
  return updateMergeRequest(ctx, found, input);
}
