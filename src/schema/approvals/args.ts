// Arguments several approval endpoints declare alike. Spread them where GitLab declares them:
// REST reports bad params in declaration order.
import { builder } from "../builder.js";

/** Every approval endpoint needs a signed-in user. */
export const authenticated = { access: "authenticated" } as const;

/** rule_type values a client may ask for (code_owner rules come from the system only). */
export const ApprovalRuleType = builder.enumType("ApprovalRuleType", { values: ["any_approver", "regular", "report_approver"] as const });
export const ApprovalReportType = builder.enumType("ApprovalReportType", { values: ["license_scanning", "code_coverage"] as const });

/** A project or group rule: /:id/approval_rules/:approval_rule_id. */
export const ruleArgs = builder.args((t) => ({
  id: t.id({ required: true }),
  approval_rule_id: t.int({ required: true }),
}));

/** A merge request: /projects/:id/merge_requests/:merge_request_iid. */
export const mergeRequestArgs = builder.args((t) => ({
  id: t.id({ required: true }),
  merge_request_iid: t.int({ required: true }),
}));

export const mergeRequestRuleArgs = builder.args((t) => ({
  ...mergeRequestArgs,
  approval_rule_id: t.int({ required: true }),
}));

/** name and approvals_required as creating a rule (and updating a project rule) requires them. */
export const requiredRuleInput = builder.args((t) => ({
  name: t.string({ required: true }),
  approvals_required: t.int({ required: true }),
}));

/** name and approvals_required as the other rule updates take them. */
export const optionalRuleInput = builder.args((t) => ({
  name: t.string({ required: false }),
  approvals_required: t.int({ required: false }),
}));

/** The approvers of a group rule. */
export const approverIdArgs = builder.args((t) => ({
  user_ids: t.intList({ required: false }),
  group_ids: t.intList({ required: false }),
}));

/** The approvers of a project or merge request rule. */
export const approverArgs = builder.args((t) => ({
  ...approverIdArgs,
  usernames: t.stringList({ required: false }),
}));

/** The branches a project rule applies to. */
export const protectedBranchArgs = builder.args((t) => ({
  applies_to_all_protected_branches: t.boolean({ required: false }),
  protected_branch_ids: t.intList({ required: false }),
}));
