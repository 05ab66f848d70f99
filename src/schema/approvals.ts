// Merge request approvals: GitLab's ApprovalSettings, (Project|Group|MergeRequest)ApprovalRule,
// MergeRequestApprovalState(Rule) and ApprovalState entities, and the root fields of the group,
// project and merge request level endpoints, each calling one domain function.
import type { Namespace, User } from "../generated/prisma/client.js";
import { approveMergeRequest, getApprovalState, getApprovalStatus, resetMergeRequestApprovals, unapproveMergeRequest } from "../domain/approvals/approvals.js";
import { createGroupRule, listGroupRules, updateGroupRule } from "../domain/approvals/group-rules.js";
import {
  createMergeRequestRule, deleteMergeRequestRule, getMergeRequestRule, listMergeRequestRules, updateMergeRequestRule,
} from "../domain/approvals/merge-request-rules.js";
import { createProjectRule, deleteProjectRule, getProjectRule, listProjectRules, updateProjectRule } from "../domain/approvals/project-rules.js";
import { getApprovalSettings, updateApprovalSettings, type ApprovalSettingsView } from "../domain/approvals/settings.js";
import type { ApprovalStateView, ApprovalStatusView, RuleShort } from "../domain/approvals/state-views.js";
import type { RuleView } from "../domain/approvals/views.js";
import { builder } from "./builder.js";
import { GroupEntity } from "./namespaces.js";
import { pageArgs, rowsOf } from "./pagination.js";
import { ProtectedBranchEntity } from "./protected-branches.js";
import { UserBasic } from "./users.js";

const authenticated = { access: "authenticated" } as const;

const Approver = builder.objectRef<{ user: User }>("Approver").implement({
  fields: (t) => ({ user: t.field({ type: UserBasic, resolve: (a) => a.user }) }),
});

const ApproverGroup = builder.objectRef<{ group: Namespace }>("ApproverGroup").implement({
  fields: (t) => ({ group: t.field({ type: GroupEntity, resolve: (a) => a.group }) }),
});

const ApprovalSettings = builder.objectRef<ApprovalSettingsView>("ApprovalSettings").implement({
  fields: (t) => ({
    approvers: t.field({ type: [Approver], resolve: () => [] }),
    approver_groups: t.field({ type: [ApproverGroup], resolve: () => [] }),
    approvals_before_merge: t.exposeInt("approvals_before_merge"),
    reset_approvals_on_push: t.exposeBoolean("reset_approvals_on_push"),
    selective_code_owner_removals: t.exposeBoolean("selective_code_owner_removals"),
    disable_overriding_approvers_per_merge_request: t.exposeBoolean("disable_overriding_approvers_per_merge_request"),
    merge_requests_author_approval: t.exposeBoolean("merge_requests_author_approval"),
    merge_requests_disable_committers_approval: t.exposeBoolean("merge_requests_disable_committers_approval"),
    require_password_to_approve: t.exposeBoolean("require_password_to_approve"),
    require_reauthentication_to_approve: t.exposeBoolean("require_reauthentication_to_approve"),
  }),
});

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type RuleFields = PothosSchemaTypes.ObjectFieldBuilder<Types, RuleView>;

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

const scopedRuleFields = (t: RuleFields) => ({
  ...ruleFields(t),
  protected_branches: t.field({ type: [ProtectedBranchEntity], resolve: (r) => r.protected_branches }),
  applies_to_all_protected_branches: t.exposeBoolean("applies_to_all_protected_branches"),
});

const ProjectApprovalRule = builder.objectRef<RuleView>("ProjectApprovalRule").implement({ fields: (t) => scopedRuleFields(t as RuleFields) });
const GroupApprovalRule = builder.objectRef<RuleView>("GroupApprovalRule").implement({ fields: (t) => scopedRuleFields(t as RuleFields) });

const SourceRule = builder.objectRef<{ approvals_required: number }>("MergeRequestApprovalRuleSourceRule").implement({
  fields: (t) => ({ approvals_required: t.exposeInt("approvals_required") }),
});

const mergeRequestRuleFields = (t: RuleFields) => ({
  ...ruleFields(t),
  section: t.exposeString("section", { nullable: true }),
  source_rule: t.field({ type: SourceRule, nullable: true, resolve: (r) => r.source_rule }),
  overridden: t.exposeBoolean("overridden"),
});

const MergeRequestApprovalRule = builder.objectRef<RuleView>("MergeRequestApprovalRule").implement({
  fields: (t) => mergeRequestRuleFields(t as RuleFields),
});

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

/** rule_type values a client may ask for (code_owner rules come from the system only). */
const ApprovalRuleType = builder.enumType("ApprovalRuleType", { values: ["any_approver", "regular", "report_approver"] as const });
const ApprovalReportType = builder.enumType("ApprovalReportType", { values: ["license_scanning", "code_coverage"] as const });

const approverArgs = builder.args((t) => ({
  user_ids: t.intList({ required: false }),
  group_ids: t.intList({ required: false }),
  usernames: t.stringList({ required: false }),
}));

const projectRuleArgs = builder.args((t) => ({
  applies_to_all_protected_branches: t.boolean({ required: false }),
  protected_branch_ids: t.intList({ required: false }),
}));

const mergeRequestArgs = builder.args((t) => ({
  id: t.id({ required: true }),
  merge_request_iid: t.int({ required: true }),
}));

builder.queryFields((t) => ({
  groupApprovalRules: t.field({
    type: [GroupApprovalRule],
    extensions: authenticated,
    args: { id: t.arg.id({ required: true }), ...pageArgs },
    resolve: async (_r, { id, ...page }, ctx) => rowsOf(ctx, await listGroupRules(ctx, String(id), page)),
  }),
  projectApprovalSettings: t.field({
    type: ApprovalSettings,
    extensions: authenticated,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => getApprovalSettings(ctx, String(id)),
  }),
  projectApprovalRules: t.field({
    type: [ProjectApprovalRule],
    extensions: authenticated,
    args: { id: t.arg.id({ required: true }), ...pageArgs },
    resolve: async (_r, { id, ...page }, ctx) => rowsOf(ctx, await listProjectRules(ctx, String(id), page)),
  }),
  projectApprovalRule: t.field({
    type: ProjectApprovalRule,
    extensions: authenticated,
    args: { id: t.arg.id({ required: true }), approval_rule_id: t.arg.int({ required: true }) },
    resolve: (_r, { id, approval_rule_id }, ctx) => getProjectRule(ctx, String(id), approval_rule_id),
  }),
  mergeRequestApprovals: t.field({
    type: ApprovalState,
    extensions: authenticated,
    args: mergeRequestArgs,
    resolve: (_r, { id, merge_request_iid }, ctx) => getApprovalStatus(ctx, String(id), merge_request_iid),
  }),
  mergeRequestApprovalState: t.field({
    type: MergeRequestApprovalState,
    extensions: authenticated,
    args: mergeRequestArgs,
    resolve: (_r, { id, merge_request_iid }, ctx) => getApprovalState(ctx, String(id), merge_request_iid),
  }),
  mergeRequestApprovalRules: t.field({
    type: [MergeRequestApprovalRule],
    extensions: authenticated,
    args: { ...mergeRequestArgs, ...pageArgs },
    resolve: async (_r, { id, merge_request_iid, ...page }, ctx) => rowsOf(ctx, await listMergeRequestRules(ctx, String(id), merge_request_iid, page)),
  }),
  mergeRequestApprovalRule: t.field({
    type: MergeRequestApprovalRule,
    extensions: authenticated,
    args: { ...mergeRequestArgs, approval_rule_id: t.arg.int({ required: true }) },
    resolve: (_r, { id, merge_request_iid, approval_rule_id }, ctx) => getMergeRequestRule(ctx, String(id), merge_request_iid, approval_rule_id),
  }),
}));

builder.mutationFields((t) => ({
  createGroupApprovalRule: t.field({
    type: GroupApprovalRule,
    extensions: authenticated,
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      approvals_required: t.arg.int({ required: true }),
      rule_type: t.arg({ type: ApprovalRuleType, required: false }),
      user_ids: t.arg.intList({ required: false }),
      group_ids: t.arg.intList({ required: false }),
    },
    resolve: (_r, { id, ...input }, ctx) => createGroupRule(ctx, String(id), input),
  }),
  updateGroupApprovalRule: t.field({
    type: GroupApprovalRule,
    extensions: authenticated,
    args: {
      id: t.arg.id({ required: true }),
      approval_rule_id: t.arg.int({ required: true }),
      name: t.arg.string({ required: false }),
      approvals_required: t.arg.int({ required: false }),
      rule_type: t.arg({ type: ApprovalRuleType, required: false }),
      user_ids: t.arg.intList({ required: false }),
      group_ids: t.arg.intList({ required: false }),
    },
    resolve: (_r, { id, approval_rule_id, ...input }, ctx) => updateGroupRule(ctx, String(id), approval_rule_id, input),
  }),
  updateProjectApprovalSettings: t.field({
    type: ApprovalSettings,
    extensions: authenticated,
    args: {
      id: t.arg.id({ required: true }),
      approvals_before_merge: t.arg.int({ required: false }),
      reset_approvals_on_push: t.arg.boolean({ required: false }),
      selective_code_owner_removals: t.arg.boolean({ required: false }),
      disable_overriding_approvers_per_merge_request: t.arg.boolean({ required: false }),
      merge_requests_author_approval: t.arg.boolean({ required: false }),
      merge_requests_disable_committers_approval: t.arg.boolean({ required: false }),
      require_password_to_approve: t.arg.boolean({ required: false }),
      require_reauthentication_to_approve: t.arg.boolean({ required: false }),
    },
    resolve: (_r, { id, ...input }, ctx) => updateApprovalSettings(ctx, String(id), input),
  }),
  createProjectApprovalRule: t.field({
    type: ProjectApprovalRule,
    extensions: authenticated,
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      approvals_required: t.arg.int({ required: true }),
      rule_type: t.arg({ type: ApprovalRuleType, required: false }),
      ...approverArgs,
      ...projectRuleArgs,
      report_type: t.arg({ type: ApprovalReportType, required: false }),
    },
    resolve: (_r, { id, ...input }, ctx) => createProjectRule(ctx, String(id), input),
  }),
  updateProjectApprovalRule: t.field({
    type: ProjectApprovalRule,
    extensions: authenticated,
    // name and approvals_required are required on update, as the spec states
    args: {
      id: t.arg.id({ required: true }),
      approval_rule_id: t.arg.int({ required: true }),
      name: t.arg.string({ required: true }),
      approvals_required: t.arg.int({ required: true }),
      ...approverArgs,
      ...projectRuleArgs,
      remove_hidden_groups: t.arg.boolean({ required: false }),
    },
    resolve: (_r, { id, approval_rule_id, ...input }, ctx) => updateProjectRule(ctx, String(id), approval_rule_id, input),
  }),
  deleteProjectApprovalRule: t.boolean({
    extensions: authenticated,
    args: { id: t.arg.id({ required: true }), approval_rule_id: t.arg.int({ required: true }) },
    resolve: (_r, { id, approval_rule_id }, ctx) =>
      deleteProjectRule(ctx, String(id), approval_rule_id, ctx.request.headers.get("if-unmodified-since")),
  }),
  createMergeRequestApprovalRule: t.field({
    type: MergeRequestApprovalRule,
    extensions: authenticated,
    args: {
      ...mergeRequestArgs,
      name: t.arg.string({ required: true }),
      approvals_required: t.arg.int({ required: true }),
      approval_project_rule_id: t.arg.int({ required: false }),
      ...approverArgs,
    },
    resolve: (_r, { id, merge_request_iid, ...input }, ctx) => createMergeRequestRule(ctx, String(id), merge_request_iid, input),
  }),
  updateMergeRequestApprovalRule: t.field({
    type: MergeRequestApprovalRule,
    extensions: authenticated,
    args: {
      ...mergeRequestArgs,
      approval_rule_id: t.arg.int({ required: true }),
      name: t.arg.string({ required: false }),
      approvals_required: t.arg.int({ required: false }),
      ...approverArgs,
      remove_hidden_groups: t.arg.boolean({ required: false }),
    },
    resolve: (_r, { id, merge_request_iid, approval_rule_id, ...input }, ctx) =>
      updateMergeRequestRule(ctx, String(id), merge_request_iid, approval_rule_id, input),
  }),
  deleteMergeRequestApprovalRule: t.boolean({
    extensions: authenticated,
    args: { ...mergeRequestArgs, approval_rule_id: t.arg.int({ required: true }) },
    resolve: (_r, { id, merge_request_iid, approval_rule_id }, ctx) =>
      deleteMergeRequestRule(ctx, String(id), merge_request_iid, approval_rule_id, ctx.request.headers.get("if-unmodified-since")),
  }),
  approveMergeRequest: t.field({
    type: ApprovalState,
    extensions: authenticated,
    args: { ...mergeRequestArgs, sha: t.arg.string({ required: false }), approval_password: t.arg.string({ required: false }) },
    resolve: (_r, { id, merge_request_iid, ...input }, ctx) => approveMergeRequest(ctx, String(id), merge_request_iid, input),
  }),
  unapproveMergeRequest: t.field({
    type: ApprovalState,
    extensions: authenticated,
    args: mergeRequestArgs,
    resolve: (_r, { id, merge_request_iid }, ctx) => unapproveMergeRequest(ctx, String(id), merge_request_iid),
  }),
  /** GitLab answers 202 and Grape renders that status as the body. */
  resetMergeRequestApprovals: t.int({
    extensions: authenticated,
    args: mergeRequestArgs,
    resolve: (_r, { id, merge_request_iid }, ctx) => resetMergeRequestApprovals(ctx, String(id), merge_request_iid),
  }),
}));
