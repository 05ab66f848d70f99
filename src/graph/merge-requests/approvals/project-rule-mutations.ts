// approvalProjectRuleCreate (Forgeline's: GitLab creates them through branch rules),
// approvalProjectRuleUpdate and approvalProjectRuleDelete over the REST project approval rule
// writes (project-rules.ts: Maintainers and up; approvers narrowed to members, groups to visible ones).
import {
  createProjectRule, deleteProjectRule, findProjectRuleById, findRulesProject, updateProjectRule,
} from "../../../domain/merge-requests/approvals/project-rules.js";
import type { Context } from "../../../context.js";
import { ApprovalProjectRuleRef } from "./rules.js";
import { groupIdsOf, projectPathOf, recordIdOf, userIdsOf } from "../../shared/mutation-inputs.js";
import { payloadMutation, type PayloadInputFieldBuilder } from "../../shared/payload-mutation.js";

/** The project rule a global id names, for those who may manage it. */
const projectRuleOf = (ctx: Context, gid: string | number) => findProjectRuleById(ctx, recordIdOf(gid, "ApprovalProjectRule"), "manage");

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
  write: async (input, ctx) =>
    createProjectRule(ctx, await findRulesProject(ctx, projectPathOf(input.projectPath)), {
      name: input.name, approvals_required: input.approvalsRequired, ...restApprovers(input),
    }),
  returns: approvalRule,
});

payloadMutation("approvalProjectRuleUpdate", {
  inputFields: (t) => ({
    id: t.id({ required: true, description: "Global id of the project approval rule." }),
    name: t.string(),
    approvalsRequired: t.int(),
    ...approverFields(t),
  }),
  write: async (input, ctx) =>
    updateProjectRule(ctx, await projectRuleOf(ctx, input.id), { name: input.name, approvals_required: input.approvalsRequired, ...restApprovers(input) }),
  returns: approvalRule,
});

payloadMutation("approvalProjectRuleDelete", {
  inputFields: (t) => ({ id: t.id({ required: true, description: "Global id of the project approval rule." }) }),
  write: async (input, ctx) => {
    await deleteProjectRule(ctx, await projectRuleOf(ctx, input.id));
    return null;
  },
  returns: { ...approvalRule, description: "Always null: the rule is gone." },
});
