// Group approval rules (/groups/:id/approval_rules, experimental in GitLab): list, create, update.
import { createGroupRule, findGroupRule, findRulesGroup, listGroupRules, updateGroupRule } from "../../domain/merge-requests/approvals/group-rules.js";
import { builder } from "../builder.js";
import { pageArgs, rowsOf } from "../pagination.js";
import { ApprovalRuleType, approverIdArgs, authenticated, optionalRuleInput, requiredRuleInput, ruleArgs } from "./args.js";
import { GroupApprovalRule } from "./entities.js";
import * as route from "../../rest/route.js";

builder.queryFields((t) => ({
  groupApprovalRules: t.field({
    type: [GroupApprovalRule],
    extensions: { rest: route.get("/groups/:id/approval_rules"), ...authenticated },
    args: { id: t.arg.id({ required: true }), ...pageArgs },
    resolve: async (_r, { id, ...page }, ctx) => rowsOf(ctx, await listGroupRules(ctx, await findRulesGroup(ctx, id), page)),
  }),
}));

builder.mutationFields((t) => ({
  createGroupApprovalRule: t.field({
    type: GroupApprovalRule,
    extensions: { rest: route.post("/groups/:id/approval_rules"), ...authenticated },
    args: {
      id: t.arg.id({ required: true }),
      ...requiredRuleInput,
      rule_type: t.arg({ type: ApprovalRuleType, required: false }),
      ...approverIdArgs,
    },
    resolve: async (_r, { id, ...input }, ctx) => createGroupRule(ctx, await findRulesGroup(ctx, id), input),
  }),
  updateGroupApprovalRule: t.field({
    type: GroupApprovalRule,
    extensions: { rest: route.put("/groups/:id/approval_rules/:approval_rule_id"), ...authenticated },
    args: { ...ruleArgs, ...optionalRuleInput, rule_type: t.arg({ type: ApprovalRuleType, required: false }), ...approverIdArgs },
    resolve: async (_r, { id, approval_rule_id, ...input }, ctx) => updateGroupRule(ctx, await findGroupRule(ctx, id, approval_rule_id), input),
  }),
}));
