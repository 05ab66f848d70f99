// A merge request's approvals: EE's ApprovalState (GET approvals, approve, unapprove),
// MergeRequestApprovalState(Rule) (GET approval_state), and reset_approvals.
import type { User } from "../../generated/prisma/client.js";
import { approveMergeRequest, resetMergeRequestApprovals, unapproveMergeRequest } from "../../domain/merge-requests/approvals/writes.js";
import {
  findMergeRequestForApprovals, findMergeRequestForApprovalState, findMergeRequestForReset, mergeRequestApprovalState, mergeRequestApprovalStatus,
} from "../../domain/merge-requests/approvals/queries.js";
import type { ApprovalStateView, ApprovalStatusView, RuleShort } from "../../domain/merge-requests/approvals/state-views.js";
import type { RuleView } from "../../domain/merge-requests/approvals/views.js";
import { builder } from "../builder.js";
import { UserBasic } from "../users.js";
import { authenticated, mergeRequestArgs } from "./args.js";
import { Approver, ApproverGroup, mergeRequestRuleFields, type RuleFields } from "./entities.js";
import * as route from "../../rest/route.js";

const MergeRequestApprovalStateRule = builder.objectRef<RuleView>("MergeRequestApprovalStateRule").implement({
  fields: (t) => ({
    ...mergeRequestRuleFields(t as RuleFields),
    code_owner: t.exposeBoolean("code_owner"),
    approved_by: t.field({ type: [UserBasic], resolve: (r) => r.approved_by }),
    approved: t.exposeBoolean("approved"),
  }),
});

const MergeRequestApprovalState = builder.objectRef<ApprovalStateView>("MergeRequestApprovalState").implement({
  fields: (t) => ({
    approval_rules_overwritten: t.exposeBoolean("approval_rules_overwritten"),
    rules: t.field({ type: [MergeRequestApprovalStateRule], resolve: (s) => s.rules }),
  }),
});

const ApprovalRuleShort = builder.objectRef<RuleShort>("ApprovalRuleShort").implement({
  fields: (t) => ({ id: t.exposeInt("id"), name: t.exposeString("name"), rule_type: t.exposeString("rule_type") }),
});

const Approvals = builder.objectRef<{ user: User; approved_at: Date }>("Approvals").implement({
  fields: (t) => ({
    user: t.field({ type: UserBasic, resolve: (a) => a.user }),
    approved_at: t.expose("approved_at", { type: "DateTime" }),
  }),
});

/** EE's ApprovalState: the merge request's IssuableEntity fields merged with its approval status. */
const ApprovalState = builder.objectRef<ApprovalStatusView>("ApprovalState").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    iid: t.exposeInt("iid"),
    project_id: t.exposeInt("project_id"),
    title: t.exposeString("title"),
    description: t.exposeString("description", { nullable: true }),
    state: t.exposeString("state"),
    created_at: t.expose("created_at", { type: "DateTime" }),
    updated_at: t.expose("updated_at", { type: "DateTime" }),
    merge_status: t.exposeString("merge_status"),
    approved: t.exposeBoolean("approved"),
    approvals_required: t.exposeInt("approvals_required"),
    approvals_left: t.exposeInt("approvals_left"),
    require_password_to_approve: t.exposeBoolean("require_password_to_approve"),
    approved_by: t.field({ type: [Approvals], resolve: (s) => s.approved_by }),
    suggested_approvers: t.field({ type: [UserBasic], resolve: (s) => s.suggested_approvers }),
    approvers: t.field({ type: [Approver], resolve: (s) => s.approvers }),
    approver_groups: t.field({ type: [ApproverGroup], resolve: (s) => s.approver_groups }),
    user_has_approved: t.exposeBoolean("user_has_approved"),
    user_can_approve: t.exposeBoolean("user_can_approve"),
    approval_rules_left: t.field({ type: [ApprovalRuleShort], resolve: (s) => s.approval_rules_left }),
    has_approval_rules: t.exposeBoolean("has_approval_rules"),
    merge_request_approvers_available: t.exposeBoolean("merge_request_approvers_available"),
    multiple_approval_rules_available: t.exposeBoolean("multiple_approval_rules_available"),
    invalid_approvers_rules: t.field({ type: [ApprovalRuleShort], resolve: (s) => s.invalid_approvers_rules }),
  }),
});

builder.queryFields((t) => ({
  mergeRequestApprovals: t.field({
    type: ApprovalState,
    extensions: { rest: route.get("/projects/:id/merge_requests/:merge_request_iid/approvals"), ...authenticated },
    args: mergeRequestArgs,
    resolve: async (_r, { id, merge_request_iid }, ctx) => mergeRequestApprovalStatus(ctx, await findMergeRequestForApprovals(ctx, id, merge_request_iid)),
  }),
  mergeRequestApprovalState: t.field({
    type: MergeRequestApprovalState,
    extensions: { rest: route.get("/projects/:id/merge_requests/:merge_request_iid/approval_state"), ...authenticated },
    args: mergeRequestArgs,
    resolve: async (_r, { id, merge_request_iid }, ctx) => mergeRequestApprovalState(ctx, await findMergeRequestForApprovalState(ctx, id, merge_request_iid)),
  }),
}));

builder.mutationFields((t) => ({
  approveMergeRequest: t.field({
    type: ApprovalState,
    extensions: { rest: route.post("/projects/:id/merge_requests/:merge_request_iid/approve"), ...authenticated },
    args: { ...mergeRequestArgs, sha: t.arg.string({ required: false }), approval_password: t.arg.string({ required: false }) },
    resolve: async (_r, { id, merge_request_iid, ...input }, ctx) => approveMergeRequest(ctx, await findMergeRequestForApprovals(ctx, id, merge_request_iid), input),
  }),
  unapproveMergeRequest: t.field({
    type: ApprovalState,
    extensions: { rest: route.post("/projects/:id/merge_requests/:merge_request_iid/unapprove"), ...authenticated },
    args: mergeRequestArgs,
    resolve: async (_r, { id, merge_request_iid }, ctx) => unapproveMergeRequest(ctx, await findMergeRequestForApprovals(ctx, id, merge_request_iid)),
  }),
  /** GitLab answers 202 and Grape renders that status as the body. */
  resetMergeRequestApprovals: t.int({
    extensions: { rest: route.put("/projects/:id/merge_requests/:merge_request_iid/reset_approvals", { status: 202 }), ...authenticated },
    args: mergeRequestArgs,
    resolve: async (_r, { id, merge_request_iid }, ctx) => resetMergeRequestApprovals(ctx, await findMergeRequestForReset(ctx, id, merge_request_iid)),
  }),
}));
