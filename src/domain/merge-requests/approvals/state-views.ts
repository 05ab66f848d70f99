// The two read models of a merge request's approvals: GET .../approvals (EE's ApprovalState entity,
// also the answer of approve and unapprove) and GET .../approval_state (MergeRequestApprovalState).
import type { Namespace, User } from "../../../generated/prisma/client.js";
import { AccessLevel } from "../../shared/access-levels.js";
import type { ProjectAccess } from "../../shared/parents.js";
import type { DomainContext } from "../../shared/context.js";
import { splitGroups, uniqueUsers, visibleGroupIds } from "./rules.js";
import { eligibleToApprove, hasApproved, invalidRules, rulesLeft, type ApprovalState, type WrappedRule } from "./state.js";
import { ruleViews, type RuleView } from "./views.js";

/** ApprovalRuleShort */
export interface RuleShort {
  id: number;
  name: string;
  rule_type: string;
}

export interface ApprovalStatusView {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  state: string;
  created_at: Date;
  updated_at: Date;
  merge_status: string;
  approved: boolean;
  approvals_required: number;
  approvals_left: number;
  require_password_to_approve: boolean;
  approved_by: { user: User; approved_at: Date }[];
  suggested_approvers: User[];
  approvers: { user: User }[];
  approver_groups: { group: Namespace }[];
  user_has_approved: boolean;
  user_can_approve: boolean;
  approval_rules_left: RuleShort[];
  has_approval_rules: boolean;
  merge_request_approvers_available: boolean;
  multiple_approval_rules_available: boolean;
  invalid_approvers_rules: RuleShort[];
}

const short = (rules: WrappedRule[]): RuleShort[] => rules.map((r) => ({ id: r.rule.row.id, name: r.name, rule_type: r.rule.row.ruleType }));

/** `mayApprove`: the caller holds approve_merge_request on the merge request. */
export async function approvalStatusView(ctx: DomainContext, state: ApprovalState, mayApprove: boolean): Promise<ApprovalStatusView> {
  const mr = state.mergeRequest;
  const userId = ctx.actor?.user.id;
  const visible = await visibleGroupIds(ctx, [...new Set(state.rules.flatMap((r) => r.rule.groups.map((g) => g.id)))]);
  const first = state.userDefinedRules[0];
  // rules with groups hidden from the caller suggest nobody (GitLab's suggested_approvers)
  const suggested = uniqueUsers(state.rules.filter((r) => splitGroups(r.rule, visible).hidden.length === 0).flatMap((r) => r.approvers))
    .filter((u) => !hasApproved(state, u.id));
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.projectId,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: mr.createdAt,
    updated_at: mr.updatedAt,
    merge_status: mr.mergeStatus,
    approved: state.approved,
    approvals_required: state.approvalsRequired,
    approvals_left: state.approvalsLeft,
    require_password_to_approve: state.settings.requireReauthenticationToApprove,
    approved_by: state.approvals.map((a) => ({ user: a.user, approved_at: a.createdAt })),
    suggested_approvers: suggested,
    approvers: first ? first.rule.users.map((user) => ({ user })) : [],
    approver_groups: first ? splitGroups(first.rule, visible).groups.map((group) => ({ group })) : [],
    user_has_approved: userId != null && hasApproved(state, userId),
    user_can_approve: userId != null && mayApprove && eligibleToApprove(state, userId),
    approval_rules_left: short(rulesLeft(state)),
    has_approval_rules: state.userDefinedRules.length > 0,
    merge_request_approvers_available: true,
    multiple_approval_rules_available: true,
    invalid_approvers_rules: short(invalidRules(state)),
  };
}

export interface ApprovalStateView {
  approval_rules_overwritten: boolean;
  rules: RuleView[];
}

export async function approvalStateView(ctx: DomainContext, access: ProjectAccess, state: ApprovalState): Promise<ApprovalStateView> {
  const wrapped = new Map(state.rules.map((r) => [r.rule, r]));
  const rules = await ruleViews(ctx, state.rules.map((r) => r.rule), {
    projectMember: access.level >= AccessLevel.guest,
    approversOf: (rule) => wrapped.get(rule)!.approvers,
    stateOf: (rule) => {
      const w = wrapped.get(rule)!;
      return { name: w.name, approvalsRequired: w.approvalsRequired, approvedBy: w.approvedApprovers, approved: w.approved };
    },
  });
  return { approval_rules_overwritten: state.overwritten, rules };
}
