// Reading a merge request's approvals (lib/api/merge_request_approvals.rb with EE's ApprovalState):
// GET .../approvals and .../approval_state. Approving, unapproving and resetting: writes.ts.
import { requireAuthenticated } from "../../shared/guards.js";
import type { DomainContext } from "../../shared/context.js";
import { AppError, recordNotFound } from "../../../errors.js";
import { findMergeRequest, withPeople, type MergeRequestAccess, type MergeRequestRowAccess } from "../queries.js";
import { canApprove } from "./permissions.js";
import { approvalStateView, approvalStatusView, type ApprovalStateView, type ApprovalStatusView } from "./state-views.js";
import { computeApprovalState } from "./state.js";

/** The merge request of an approvals route (with its people): signed in, then find_merge_request_with_access (404, then 403). */
export async function findMergeRequestForApprovals(ctx: DomainContext, projectRef: string | number, iid: number): Promise<MergeRequestRowAccess> {
  requireAuthenticated(ctx);
  return withPeople(ctx, await findMergeRequest(ctx, projectRef, iid, "read"));
}

/** The merge request of GET .../approval_state: as findMergeRequestForApprovals, without its people. */
export async function findMergeRequestForApprovalState(ctx: DomainContext, projectRef: string | number, iid: number): Promise<MergeRequestAccess> {
  requireAuthenticated(ctx);
  return findMergeRequest(ctx, projectRef, iid, "read");
}

/** PUT .../reset_approvals: GitLab's find_project_merge_request, where a merge request the caller may not read is not found (404). */
export async function findMergeRequestForReset(ctx: DomainContext, projectRef: string | number, iid: number): Promise<MergeRequestRowAccess> {
  try {
    return await findMergeRequestForApprovals(ctx, projectRef, iid);
  } catch (error) {
    if (error instanceof AppError && error.status === 403) throw recordNotFound();
    throw error;
  }
}

/** GET .../merge_requests/:merge_request_iid/approvals of a merge request found by findMergeRequestForApprovals. */
export async function mergeRequestApprovalStatus(ctx: DomainContext, { mergeRequest, access }: MergeRequestRowAccess): Promise<ApprovalStatusView> {
  const state = await computeApprovalState(ctx, mergeRequest);
  return approvalStatusView(ctx, state, await canApprove(ctx, access, mergeRequest));
}

/** GET .../merge_requests/:merge_request_iid/approval_state of a merge request found by findMergeRequestForApprovalState. */
export async function mergeRequestApprovalState(ctx: DomainContext, { mergeRequest, access }: MergeRequestAccess): Promise<ApprovalStateView> {
  return approvalStateView(ctx, access, await computeApprovalState(ctx, mergeRequest));
}
