// Merge request approval rules (/projects/:id/merge_requests/:merge_request_iid/approval_rules):
// list, one, create, update, delete.
import {
  createMergeRequestRule, deleteMergeRequestRule, findMergeRequestForRules, findMergeRequestRule, listMergeRequestRules, mergeRequestRuleView,
  updateMergeRequestRule,
} from "../../domain/merge-requests/approvals/merge-request-rules.js";
import { builder } from "../builder.js";
import { pageArgs, rowsOf } from "../pagination.js";
import { approverArgs, authenticated, mergeRequestArgs, mergeRequestRuleArgs, optionalRuleInput, requiredRuleInput } from "./args.js";
import { MergeRequestApprovalRule } from "./entities.js";
import * as route from "../../rest/route.js";

builder.queryFields((t) => ({
  mergeRequestApprovalRules: t.field({
    type: [MergeRequestApprovalRule],
    extensions: { rest: route.get("/projects/:id/merge_requests/:merge_request_iid/approval_rules"), ...authenticated },
    args: { ...mergeRequestArgs, ...pageArgs },
    resolve: async (_r, { id, merge_request_iid, ...page }, ctx) =>
      rowsOf(ctx, await listMergeRequestRules(ctx, await findMergeRequestForRules(ctx, id, merge_request_iid, "read"), page)),
  }),
  mergeRequestApprovalRule: t.field({
    type: MergeRequestApprovalRule,
    extensions: { rest: route.get("/projects/:id/merge_requests/:merge_request_iid/approval_rules/:approval_rule_id"), ...authenticated },
    args: mergeRequestRuleArgs,
    resolve: async (_r, { id, merge_request_iid, approval_rule_id }, ctx) =>
      mergeRequestRuleView(ctx, await findMergeRequestRule(ctx, id, merge_request_iid, approval_rule_id, "read")),
  }),
}));

builder.mutationFields((t) => ({
  createMergeRequestApprovalRule: t.field({
    type: MergeRequestApprovalRule,
    extensions: { rest: route.post("/projects/:id/merge_requests/:merge_request_iid/approval_rules"), ...authenticated },
    args: { ...mergeRequestArgs, ...requiredRuleInput, approval_project_rule_id: t.arg.int({ required: false }), ...approverArgs },
    resolve: async (_r, { id, merge_request_iid, ...input }, ctx) =>
      createMergeRequestRule(ctx, await findMergeRequestForRules(ctx, id, merge_request_iid, "update"), input),
  }),
  updateMergeRequestApprovalRule: t.field({
    type: MergeRequestApprovalRule,
    extensions: { rest: route.put("/projects/:id/merge_requests/:merge_request_iid/approval_rules/:approval_rule_id"), ...authenticated },
    args: { ...mergeRequestRuleArgs, ...optionalRuleInput, ...approverArgs, remove_hidden_groups: t.arg.boolean({ required: false }) },
    resolve: async (_r, { id, merge_request_iid, approval_rule_id, ...input }, ctx) =>
      updateMergeRequestRule(ctx, await findMergeRequestRule(ctx, id, merge_request_iid, approval_rule_id, "update"), input),
  }),
  deleteMergeRequestApprovalRule: t.boolean({
    extensions: { rest: route.del("/projects/:id/merge_requests/:merge_request_iid/approval_rules/:approval_rule_id"), ...authenticated },
    args: mergeRequestRuleArgs,
    resolve: async (_r, { id, merge_request_iid, approval_rule_id }, ctx) => deleteMergeRequestRule(
      ctx, await findMergeRequestRule(ctx, id, merge_request_iid, approval_rule_id, "update"), ctx.request.headers.get("if-unmodified-since"),
    ),
  }),
}));
