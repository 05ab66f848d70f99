// What the merge request writes share: the input naming a merge request (projectPath + iid, as
// GitLab's MergeRequests::Base mutations) and the merge request re-read after a write.
import type { Context } from "../../context.js";
import { findMergeRequest, presentMergeRequest } from "../../domain/merge-requests/queries.js";
import { forgetApprovalStatus } from "./approvals/state.js";
import { issuableInputFields, issuablePathOf } from "../shared/mutation-inputs.js";

export const mergeRequestInputFields = issuableInputFields;

/** The merge request as it is after a write such as an approval change (re-read: the status is cached per request). */
export async function mergeRequestAfterApprovalChange(ctx: Context, path: string, iid: number) {
  const mergeRequest = await presentMergeRequest(ctx, await findMergeRequest(ctx, path, iid, "read"));
  forgetApprovalStatus(ctx, mergeRequest);
  return mergeRequest;
}

/** Runs a write on the merge request an input names and answers the merge request as it is afterwards. */
export async function changeMergeRequest(
  ctx: Context,
  input: { projectPath: string | number; iid: string },
  write: (path: string, iid: number) => Promise<unknown>,
) {
  const [path, iid] = issuablePathOf(input);
  await write(path, iid);
  return mergeRequestAfterApprovalChange(ctx, path, iid);
}
