// Project.approvalRules: the project's approval rules (GitLab's ApprovalProjectRule), from the
// domain's list behind GET /projects/:id/approval_rules, which also decides who sees them
// (Maintainers, and those who may create merge requests) and which groups the caller may see.
// Group.approvalRules: the group's rules (GET /groups/:id/approval_rules: Owners and
// administrators, while the approval_group_rules feature flag is on): ApprovalGroupRule has
// ApprovalProjectRule's fields, a type of its own so that a global id names the kind of rule.
import type { RuleView } from "../../../domain/merge-requests/approvals/views.js";
import { listGroupRules } from "../../../domain/merge-requests/approvals/group-rules.js";
import { listProjectRules } from "../../../domain/merge-requests/approvals/project-rules.js";
import { shownGroupAccess, shownProjectAccess } from "../../../domain/shared/parents.js";
import { builder } from "../../shared/builder.js";
import { countedConnection } from "../../shared/connection-types.js";
import { arrayConnection, offsetConnection } from "../../shared/connections.js";
import { orNull } from "../../shared/errors.js";
import { GroupConnection, GroupRef } from "../../groups/types.js";
import { ProjectRef } from "../../projects/types.js";
import { ProtectedBranchRef } from "../../repository/types.js";
import { UserCoreConnection, UserRef } from "../../users/types.js";

/** An approval rule type whose global ids are `gid://forgeline/<name>/<id>`. */
function approvalRuleType(name: "ApprovalProjectRule" | "ApprovalGroupRule", description: string) {
  const ref = builder.objectRef<RuleView>(name);
  builder.objectType(ref, {
    description,
    fields: (t) => ({
      id: t.id({ resolve: (rule) => `gid://forgeline/${name}/${rule.id}` }),
      name: t.exposeString("name"),
      type: t.string({ description: "regular, any_approver, code_owner, report_approver", resolve: (rule) => rule.rule_type }),
      approvalsRequired: t.int({ resolve: (rule) => rule.approvals_required }),
      containsHiddenGroups: t.boolean({ resolve: (rule) => rule.contains_hidden_groups }),
      appliesToAllProtectedBranches: t.boolean({ resolve: (rule) => rule.applies_to_all_protected_branches }),
      protectedBranches: t.field({ type: [ProtectedBranchRef], resolve: (rule) => rule.protected_branches }),
      eligibleApprovers: t.connection({ type: UserRef, resolve: (rule, args) => arrayConnection(args, rule.eligible_approvers) }, UserCoreConnection),
      users: t.connection({ type: UserRef, resolve: (rule, args) => arrayConnection(args, rule.users) }, UserCoreConnection),
      groups: t.connection(
        { type: GroupRef, description: "The groups the caller may see.", resolve: (rule, args) => arrayConnection(args, rule.groups) },
        GroupConnection,
      ),
    }),
  });
  return ref;
}

export const ApprovalProjectRuleRef = approvalRuleType("ApprovalProjectRule", "A project-level approval rule.");
export const ApprovalGroupRuleRef = approvalRuleType(
  "ApprovalGroupRule",
  "A group-level approval rule (experimental): it applies to every protected branch of the group's projects.",
);

const ApprovalProjectRuleConnection = countedConnection(ApprovalProjectRuleRef, "ApprovalProjectRule");
const ApprovalGroupRuleConnection = countedConnection(ApprovalGroupRuleRef, "ApprovalGroupRule");

builder.objectFields(ProjectRef, (t) => ({
  approvalRules: t.connection(
    {
      type: ApprovalProjectRuleRef,
      nullable: true,
      description: "Project-level approval rules; null for callers who may not read them.",
      resolve: async (project, args, ctx) => {
        const access = await shownProjectAccess(ctx, project);
        return orNull(() => offsetConnection(args, (page) => listProjectRules(ctx, access, page)));
      },
    },
    ApprovalProjectRuleConnection,
  ),
}));

builder.objectFields(GroupRef, (t) => ({
  approvalRules: t.connection(
    {
      type: ApprovalGroupRuleRef,
      nullable: true,
      description: "Group-level approval rules; null for callers who may not read them or while the approval_group_rules feature flag is off.",
      resolve: async (group, args, ctx) => {
        const access = await shownGroupAccess(ctx, group);
        return orNull(() => offsetConnection(args, (page) => listGroupRules(ctx, access, page)));
      },
    },
    ApprovalGroupRuleConnection,
  ),
}));
