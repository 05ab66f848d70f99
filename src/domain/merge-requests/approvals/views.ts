// What the approval rule entities show to a given caller (GitLab's ApprovalRulePresenter): only
// the groups they can see, `contains_hidden_groups` for the others, and no eligible approvers at
// all when hidden groups are involved and the caller is not a member of the project.
import type { Namespace, User } from "../../../generated/prisma/client.js";
import type { ProtectedBranchWithLevels } from "../../repository/protection-rules.js";
import type { DomainContext } from "../../shared/context.js";
import { overridden, splitGroups, visibleGroupIds, type LoadedRule } from "./rules.js";

/** Every field of ApprovalRule, ProjectApprovalRule, MergeRequestApprovalRule and ...StateRule. */
export interface RuleView {
  id: number;
  name: string;
  rule_type: string;
  report_type: string | null;
  approvals_required: number;
  eligible_approvers: User[];
  users: User[];
  groups: Namespace[];
  contains_hidden_groups: boolean;
  applies_to_all_protected_branches: boolean;
  protected_branches: ProtectedBranchWithLevels[];
  section: string | null;
  source_rule: { approvals_required: number } | null;
  overridden: boolean;
  code_owner: boolean;
  approved_by: User[];
  approved: boolean;
}

export interface ViewOptions {
  /** whether the caller is a member of the rule's project (group rules: never) */
  projectMember: boolean;
  /** the protected branches of an applies_to_all_protected_branches rule */
  allProtectedBranches?: ProtectedBranchWithLevels[];
  /** the eligible approvers to show instead of the rule's own (merge request filtering) */
  approversOf?: (rule: LoadedRule) => User[];
  /** merge request approval state: the rule's approvals */
  stateOf?: (rule: LoadedRule) => { name: string; approvalsRequired: number; approvedBy: User[]; approved: boolean };
}

export async function ruleViews(ctx: DomainContext, rules: LoadedRule[], options: ViewOptions): Promise<RuleView[]> {
  const visible = await visibleGroupIds(ctx, [...new Set(rules.flatMap((r) => r.groups.map((g) => g.id)))]);
  return rules.map((rule) => ruleView(rule, visible, options));
}

function ruleView(rule: LoadedRule, visible: Set<number>, options: ViewOptions): RuleView {
  const { groups, hidden } = splitGroups(rule, visible);
  const row = rule.row;
  const state = options.stateOf?.(rule);
  const approvers = options.approversOf ? options.approversOf(rule) : rule.approvers;
  const showApprovers = hidden.length === 0 || options.projectMember;
  return {
    id: row.id,
    name: state?.name ?? row.name,
    rule_type: row.ruleType,
    report_type: row.reportType,
    approvals_required: state?.approvalsRequired ?? row.approvalsRequired,
    eligible_approvers: showApprovers ? approvers : [],
    users: rule.users,
    groups,
    contains_hidden_groups: hidden.length > 0,
    applies_to_all_protected_branches: row.appliesToAllProtectedBranches,
    protected_branches: row.appliesToAllProtectedBranches ? (options.allProtectedBranches ?? []) : rule.protectedBranches,
    section: null,
    source_rule: rule.source ? { approvals_required: rule.source.row.approvalsRequired } : null,
    overridden: overridden(rule),
    code_owner: row.ruleType === "code_owner",
    approved_by: state?.approvedBy ?? [],
    approved: state?.approved ?? false,
  };
}
