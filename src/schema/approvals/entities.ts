// The approval entities several levels show: Approver, ApproverGroup, and GitLab's
// (Project|Group|MergeRequest)ApprovalRule, built on ApprovalRule's fields.
import type { Namespace, User } from "../../generated/prisma/client.js";
import type { RuleView } from "../../domain/merge-requests/approvals/views.js";
import { builder } from "../builder.js";
import { GroupEntity } from "../namespaces.js";
import type { ProtectedBranchWithLevels } from "../../domain/repository/protection-rules.js";
import { ProtectedBranchEntity, protectedBranchFields } from "../protected-branches.js";
import { UserBasic } from "../users.js";

export const Approver = builder.objectRef<{ user: User }>("Approver").implement({
  fields: (t) => ({ user: t.field({ type: UserBasic, resolve: (a) => a.user }) }),
});

export const ApproverGroup = builder.objectRef<{ group: Namespace }>("ApproverGroup").implement({
  fields: (t) => ({ group: t.field({ type: GroupEntity, resolve: (a) => a.group }) }),
});

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
export type RuleFields = PothosSchemaTypes.ObjectFieldBuilder<Types, RuleView>;

/** ApprovalRule: ApprovalRuleShort plus approvers, users, groups and report_type. */
const ruleFields = (t: RuleFields) => ({
  id: t.exposeInt("id"),
  name: t.exposeString("name"),
  rule_type: t.exposeString("rule_type"),
  eligible_approvers: t.field({ type: [UserBasic], resolve: (r) => r.eligible_approvers }),
  approvals_required: t.exposeInt("approvals_required"),
  users: t.field({ type: [UserBasic], resolve: (r) => r.users }),
  groups: t.field({ type: [GroupEntity], resolve: (r) => r.groups }),
  contains_hidden_groups: t.exposeBoolean("contains_hidden_groups"),
  report_type: t.exposeString("report_type", { nullable: true }),
});

/**
 * ProtectedBranch as project rules embed it: the spec shows code_owner_approval_required there in
 * the string form of a boolean ("true" / "false"); group rules embed the boolean entity.
 */
const ProjectRuleProtectedBranch = builder.objectRef<ProtectedBranchWithLevels>("ProjectApprovalRuleProtectedBranch").implement({
  fields: (t) => ({
    ...protectedBranchFields(t),
    code_owner_approval_required: t.string({ resolve: (branch) => String(branch.codeOwnerApprovalRequired) }),
  }),
});

const scopeFields = (t: RuleFields) => ({
  applies_to_all_protected_branches: t.exposeBoolean("applies_to_all_protected_branches"),
});

export const ProjectApprovalRule = builder.objectRef<RuleView>("ProjectApprovalRule").implement({
  fields: (t) => ({
    ...ruleFields(t as RuleFields),
    protected_branches: t.field({ type: [ProjectRuleProtectedBranch], resolve: (r) => r.protected_branches }),
    ...scopeFields(t as RuleFields),
  }),
});

export const GroupApprovalRule = builder.objectRef<RuleView>("GroupApprovalRule").implement({
  fields: (t) => ({
    ...ruleFields(t as RuleFields),
    protected_branches: t.field({ type: [ProtectedBranchEntity], resolve: (r) => r.protected_branches }),
    ...scopeFields(t as RuleFields),
  }),
});

const SourceRule = builder.objectRef<{ approvals_required: number }>("MergeRequestApprovalRuleSourceRule").implement({
  fields: (t) => ({ approvals_required: t.exposeInt("approvals_required") }),
});

export const mergeRequestRuleFields = (t: RuleFields) => ({
  ...ruleFields(t),
  section: t.exposeString("section", { nullable: true }),
  source_rule: t.field({ type: SourceRule, nullable: true, resolve: (r) => r.source_rule }),
  overridden: t.exposeBoolean("overridden"),
});

export const MergeRequestApprovalRule = builder.objectRef<RuleView>("MergeRequestApprovalRule").implement({
  fields: (t) => mergeRequestRuleFields(t as RuleFields),
});
