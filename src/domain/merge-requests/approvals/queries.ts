// Reading a merge request's approvals (lib/api/merge_request_approvals.rb with EE's ApprovalState):
// GET .../approvals and .../approval_state. Approving, unapproving and resetting: writes.ts.
import { requireAuthenticated } from "../../shared/access.js";
import type { DomainContext } from "../../shared/context.js";
import { findMergeRequest, withPeople } from "../queries.js";
import { canApprove } from "./permissions.js";
import { approvalStateView, approvalStatusView, type ApprovalStateView, type ApprovalStatusView } from "./state-views.js";
import { computeApprovalState } from "./state.js";

/** Signed in, then find_merge_request_with_access (404, then 403). */
export async function readableMergeRequest(ctx: DomainContext, projectRef: string, iid: number) {
  requireAuthenticated(ctx);
  return withPeople(ctx, await findMergeRequest(ctx, projectRef, iid, "read"));
}

/** GET .../merge_requests/:merge_request_iid/approvals */
export async function getApprovalStatus(ctx: DomainContext, projectRef: string, iid: number): Promise<ApprovalStatusView> {
  const { mergeRequest, access } = await readableMergeRequest(ctx, projectRef, iid);
  const state = await computeApprovalState(ctx, mergeRequest);
  return approvalStatusView(ctx, state, await canApprove(ctx, access, mergeRequest));
}

/** GET .../merge_requests/:merge_request_iid/approval_state */
export async function getApprovalState(ctx: DomainContext, projectRef: string, iid: number): Promise<ApprovalStateView> {
  requireAuthenticated(ctx);
  const { mergeRequest, access } = await findMergeRequest(ctx, projectRef, iid, "read");
  return approvalStateView(ctx, access, await computeApprovalState(ctx, mergeRequest));
}
