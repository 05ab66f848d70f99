// What the merge request writes share: the input naming a merge request (projectPath + iid, as
// GitLab's MergeRequests::Base mutations) and the merge request re-read after an approval change.
// (merge-request-mutations.ts and merge-request-writes.ts still have their own copies.)
import type { Context } from "../context.js";
import { getMergeRequest } from "../domain/merge-requests/queries.js";
import { forgetApprovalStatus } from "./approvals.js";

export const mergeRequestInputFields = (t: PothosSchemaTypes.InputFieldBuilder<any, "InputObject">) => ({
  projectPath: t.id({ required: true }),
  iid: t.string({ required: true }),
});

/** The merge request as it is after an approval change (re-read: the status is cached per request). */
export async function mergeRequestAfterApprovalChange(ctx: Context, path: string, iid: number) {
  const mergeRequest = await getMergeRequest(ctx, path, iid);
  forgetApprovalStatus(ctx, mergeRequest);
  return mergeRequest;
}
