// Project approval rules (/projects/:id/approval_rules): list, one, create, update, delete.
import {
  createProjectRule, deleteProjectRule, findProjectRule, findRulesProject, listProjectRules, projectRuleView, updateProjectRule,
} from "../../domain/merge-requests/approvals/project-rules.js";
import { builder } from "../builder.js";
import { pageArgs, rowsOf } from "../pagination.js";
import { ApprovalReportType, ApprovalRuleType, approverArgs, authenticated, protectedBranchArgs, requiredRuleInput, ruleArgs } from "./args.js";
import { ProjectApprovalRule } from "./entities.js";
import * as route from "../../rest/route.js";

builder.queryFields((t) => ({
  projectApprovalRules: t.field({
    type: [ProjectApprovalRule],
    extensions: { rest: route.get("/projects/:id/approval_rules"), ...authenticated },
    args: { id: t.arg.id({ required: true }), ...pageArgs },
    resolve: async (_r, { id, ...page }, ctx) => rowsOf(ctx, await listProjectRules(ctx, await findRulesProject(ctx, id), page)),
  }),
  projectApprovalRule: t.field({
    type: ProjectApprovalRule,
    extensions: { rest: route.get("/projects/:id/approval_rules/:approval_rule_id"), ...authenticated },
    args: ruleArgs,
    resolve: async (_r, { id, approval_rule_id }, ctx) => projectRuleView(ctx, await findProjectRule(ctx, id, approval_rule_id, "read")),
  }),
}));

builder.mutationFields((t) => ({
  createProjectApprovalRule: t.field({
    type: ProjectApprovalRule,
    extensions: { rest: route.post("/projects/:id/approval_rules"), ...authenticated },
    args: {
      id: t.arg.id({ required: true }),
      ...requiredRuleInput,
      rule_type: t.arg({ type: ApprovalRuleType, required: false }),
      ...approverArgs,
      ...protectedBranchArgs,
      report_type: t.arg({ type: ApprovalReportType, required: false }),
    },
    resolve: async (_r, { id, ...input }, ctx) => createProjectRule(ctx, await findRulesProject(ctx, id), input),
  }),
  updateProjectApprovalRule: t.field({
    type: ProjectApprovalRule,
    extensions: { rest: route.put("/projects/:id/approval_rules/:approval_rule_id"), ...authenticated },
    // name and approvals_required are required on update, as the spec states
    args: { ...ruleArgs, ...requiredRuleInput, ...approverArgs, ...protectedBranchArgs, remove_hidden_groups: t.arg.boolean({ required: false }) },
    resolve: async (_r, { id, approval_rule_id, ...input }, ctx) => updateProjectRule(ctx, await findProjectRule(ctx, id, approval_rule_id, "manage"), input),
  }),
  deleteProjectApprovalRule: t.boolean({
    extensions: { rest: route.del("/projects/:id/approval_rules/:approval_rule_id"), ...authenticated },
    args: ruleArgs,
    resolve: async (_r, { id, approval_rule_id }, ctx) =>
      deleteProjectRule(ctx, await findProjectRule(ctx, id, approval_rule_id, "manage"), ctx.request.headers.get("if-unmodified-since")),
  }),
}));
