// Merge request approvals on the graph: the approval status (approved, approvedBy, approvals
// left) once per merge request and request, and approvalState with its rules, both from the
// domain's approval views (signed-in callers who may read the merge request).
import type { Context } from "../../../context.js";
import {
  findMergeRequestForApprovals, findMergeRequestForApprovalState, mergeRequestApprovalState, mergeRequestApprovalStatus,
} from "../../../domain/merge-requests/approvals/queries.js";
import type { ApprovalStateView, ApprovalStatusView } from "../../../domain/merge-requests/approvals/state-views.js";
import type { RuleView } from "../../../domain/merge-requests/approvals/views.js";
import type { LoaderFactory } from "../../../domain/shared/loaders.js";
import type { MergeRequestRow } from "../../../domain/merge-requests/queries.js";
import { builder } from "../../shared/builder.js";
import { orNull } from "../../shared/errors.js";
import { UserRef } from "../../users/types.js";

/** This request's approval status of each merge request (by id), computed once. */
const approvalStatuses: LoaderFactory<Map<number, Promise<ApprovalStatusView | null>>> = () => new Map();

/** The approval status of a merge request (computed once per request), or null when refused. */
export function approvalStatusOf(ctx: Context, mr: MergeRequestRow): Promise<ApprovalStatusView | null> {
  const byId = ctx.loaders.get(approvalStatuses);
  let status = byId.get(mr.id);
  if (!status) byId.set(mr.id, (status = orNull(async () => mergeRequestApprovalStatus(ctx, await findMergeRequestForApprovals(ctx, mr.projectId, mr.iid)))));
  return status;
}

/** Called after a write so the payload shows the merge request as it is now. */
export function forgetApprovalStatus(ctx: Context, mr: { id: number }): void {
  ctx.loaders.get(approvalStatuses).delete(mr.id);
}

export const approvalStateOf = (ctx: Context, mr: MergeRequestRow) =>
  orNull(async () => mergeRequestApprovalState(ctx, await findMergeRequestForApprovalState(ctx, mr.projectId, mr.iid)));

export const ApprovalRuleRef = builder.objectRef<RuleView>("ApprovalRule");

builder.objectType(ApprovalRuleRef, {
  description: "An approval rule as it applies to a merge request.",
  fields: (t) => ({
    id: t.id({ resolve: (rule) => `gid://forgeline/ApprovalMergeRequestRule/${rule.id}` }),
    name: t.exposeString("name"),
    type: t.string({ description: "regular, any_approver, code_owner, report_approver", resolve: (rule) => rule.rule_type }),
    approvalsRequired: t.int({ resolve: (rule) => rule.approvals_required }),
    approved: t.exposeBoolean("approved"),
    overridden: t.exposeBoolean("overridden"),
    approvedBy: t.field({ type: [UserRef], resolve: (rule) => rule.approved_by }),
    eligibleApprovers: t.field({ type: [UserRef], resolve: (rule) => rule.eligible_approvers }),
  }),
});

export const ApprovalStateRef = builder.objectRef<ApprovalStateView>("MergeRequestApprovalState");

builder.objectType(ApprovalStateRef, {
  fields: (t) => ({
    approvalRulesOverwritten: t.boolean({ resolve: (state) => state.approval_rules_overwritten }),
    rules: t.field({ type: [ApprovalRuleRef], resolve: (state) => state.rules }),
  }),
});
