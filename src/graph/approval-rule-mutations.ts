// approvalProjectRuleCreate (Forgeline's: GitLab creates them through branch rules),
// approvalProjectRuleUpdate and approvalProjectRuleDelete over the REST project approval rule
// writes (project-rules.ts: Maintainers and up; approvers narrowed to members, groups to visible ones).
import { createProjectRule, deleteProjectRule, updateProjectRule } from "../domain/merge-requests/approvals/project-rules.js";
import { projectRuleProjectById } from "../domain/shared/record-paths.js";
import type { Context } from "../context.js";
import { ApprovalProjectRuleRef } from "./approval-rules.js";
import { groupIdsOf, ownedRecordOf, projectPathOf, userIdsOf } from "./mutation-inputs.js";
import { payloadMutation, type PayloadInputFieldBuilder } from "./payload-mutation.js";

/** The project rule a global id names, with its project, as the domain's rule paths take them. */
async function projectRulePathOf(ctx: Context, gid: string | number): Promise<{ project: string; id: number }> {
  const { id, owner: projectId } = await ownedRecordOf(ctx, gid, "ApprovalProjectRule", projectRuleProjectById);
  return { project: String(projectId), id };
}

export const approverFields = (t: PayloadInputFieldBuilder) => ({
  userIds: t.idList({ description: "Global ids of users (members of the project) who may approve; replace the current ones." }),
  groupIds: t.idList({ description: "Global ids of groups whose members may approve; replace the current ones." }),
  appliesToAllProtectedBranches: t.boolean(),
});

export type Approvers = { userIds?: readonly (string | number)[] | null; groupIds?: readonly (string | number)[] | null; appliesToAllProtectedBranches?: boolean | null };

export const restApprovers = (input: Approvers) => ({
  user_ids: userIdsOf(input.userIds),
  group_ids: groupIdsOf(input.groupIds),
  applies_to_all_protected_branches: input.appliesToAllProtectedBranches,
});

const approvalRule = { field: "approvalRule", type: ApprovalProjectRuleRef };

payloadMutation("approvalProjectRuleCreate", {
  inputFields: (t) => ({
    projectPath: t.id({ required: true }),
    name: t.string({ required: true }),
    approvalsRequired: t.int({ required: true }),
    ...approverFields(t),
  }),
  write: (input, ctx) =>
    createProjectRule(ctx, projectPathOf(input.projectPath), { name: input.name, approvals_required: input.approvalsRequired, ...restApprovers(input) }),
  returns: approvalRule,
});

payloadMutation("approvalProjectRuleUpdate", {
  inputFields: (t) => ({
    id: t.id({ required: true, description: "Global id of the project approval rule." }),
    name: t.string(),
    approvalsRequired: t.int(),
    ...approverFields(t),
  }),
  write: async (input, ctx) => {
    const rule = await projectRulePathOf(ctx, input.id);
    return updateProjectRule(ctx, rule.project, rule.id, { name: input.name, approvals_required: input.approvalsRequired, ...restApprovers(input) });
  },
  returns: approvalRule,
});

payloadMutation("approvalProjectRuleDelete", {
  inputFields: (t) => ({ id: t.id({ required: true, description: "Global id of the project approval rule." }) }),
  write: async (input, ctx) => {
    const rule = await projectRulePathOf(ctx, input.id);
    await deleteProjectRule(ctx, rule.project, rule.id);
    return null;
  },
  returns: { ...approvalRule, description: "Always null: the rule is gone." },
});
