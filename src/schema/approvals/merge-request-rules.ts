// Merge request approval rules (/projects/:id/merge_requests/:merge_request_iid/approval_rules):
// list, one, create, update, delete.
import {
  createMergeRequestRule, deleteMergeRequestRule, getMergeRequestRule, listMergeRequestRules, updateMergeRequestRule,
} from "../../domain/merge-requests/approvals/merge-request-rules.js";
import { readableMergeRequest } from "../../domain/merge-requests/approvals/queries.js";
import { builder } from "../builder.js";
import { pageArgs, rowsOf } from "../pagination.js";
import { approverArgs, authenticated, mergeRequestArgs, mergeRequestRuleArgs, optionalRuleInput, requiredRuleInput } from "./args.js";
import { MergeRequestApprovalRule } from "./entities.js";

builder.queryFields((t) => ({
  mergeRequestApprovalRules: t.field({
    type: [MergeRequestApprovalRule],
    extensions: authenticated,
    args: { ...mergeRequestArgs, ...pageArgs },
    resolve: async (_r, { id, merge_request_iid, ...page }, ctx) => rowsOf(ctx, await listMergeRequestRules(ctx, await readableMergeRequest(ctx, String(id), merge_request_iid), page)),
  }),
  mergeRequestApprovalRule: t.field({
    type: MergeRequestApprovalRule,
    extensions: authenticated,
    args: mergeRequestRuleArgs,
    resolve: (_r, { id, merge_request_iid, approval_rule_id }, ctx) => getMergeRequestRule(ctx, String(id), merge_request_iid, approval_rule_id),
  }),
}));

builder.mutationFields((t) => ({
  createMergeRequestApprovalRule: t.field({
    type: MergeRequestApprovalRule,
    extensions: authenticated,
    args: { ...mergeRequestArgs, ...requiredRuleInput, approval_project_rule_id: t.arg.int({ required: false }), ...approverArgs },
    resolve: (_r, { id, merge_request_iid, ...input }, ctx) => createMergeRequestRule(ctx, String(id), merge_request_iid, input),
  }),
  updateMergeRequestApprovalRule: t.field({
    type: MergeRequestApprovalRule,
    extensions: authenticated,
    args: { ...mergeRequestRuleArgs, ...optionalRuleInput, ...approverArgs, remove_hidden_groups: t.arg.boolean({ required: false }) },
    resolve: (_r, { id, merge_request_iid, approval_rule_id, ...input }, ctx) =>
      updateMergeRequestRule(ctx, String(id), merge_request_iid, approval_rule_id, input),
  }),
  deleteMergeRequestApprovalRule: t.boolean({
    extensions: authenticated,
    args: mergeRequestRuleArgs,
    resolve: (_r, { id, merge_request_iid, approval_rule_id }, ctx) =>
      deleteMergeRequestRule(ctx, String(id), merge_request_iid, approval_rule_id, ctx.request.headers.get("if-unmodified-since")),
  }),
}));
