// mergeRequestApprovalRuleCreate, mergeRequestApprovalRuleUpdate and mergeRequestApprovalRuleDelete
// (Forgeline's names) over the REST merge request approval rule writes (merge-request-rules.ts:
// who may edit the merge request's rules, overriding allowed, only user-defined rules changed).
import { createMergeRequestRule, deleteMergeRequestRule, updateMergeRequestRule } from "../domain/merge-requests/approvals/merge-request-rules.js";
import { mergeRequestRulePathById } from "../domain/shared/record-paths.js";
import type { Context } from "../context.js";
import { approverFields, restApprovers } from "./approval-rule-mutations.js";
import { ApprovalRuleRef } from "./approvals.js";
import { issuableInputFields, issuablePathOf, matchingIdOf, ownedRecordOf } from "./mutation-inputs.js";
import { payloadMutation } from "./payload-mutation.js";

/** The merge request rule a global id names, with its merge request, as the domain's rule paths take them. */
async function mergeRequestRulePathOf(ctx: Context, gid: string | number): Promise<{ project: string; iid: number; id: number }> {
  const { id, owner: path } = await ownedRecordOf(ctx, gid, "ApprovalMergeRequestRule", mergeRequestRulePathById);
  return { project: String(path.projectId), iid: path.iid, id };
}

const approvalRule = { field: "approvalRule", type: ApprovalRuleRef };

payloadMutation("mergeRequestApprovalRuleCreate", {
  inputFields: (t) => ({
    ...issuableInputFields(t),
    name: t.string({ required: true }),
    approvalsRequired: t.int({ required: true }),
    approvalProjectRuleId: t.id({ description: "Global id of a project rule to copy the name and approvers of." }),
    ...approverFields(t),
  }),
  write: (input, ctx) =>
    createMergeRequestRule(ctx, ...issuablePathOf(input), {
      name: input.name,
      approvals_required: input.approvalsRequired,
      approval_project_rule_id: input.approvalProjectRuleId == null ? undefined : matchingIdOf(input.approvalProjectRuleId, "ApprovalProjectRule"),
      ...restApprovers(input),
    }),
  returns: approvalRule,
});

payloadMutation("mergeRequestApprovalRuleUpdate", {
  inputFields: (t) => ({
    id: t.id({ required: true, description: "Global id of the merge request approval rule." }),
    name: t.string(),
    approvalsRequired: t.int(),
    ...approverFields(t),
  }),
  write: async (input, ctx) => {
    const rule = await mergeRequestRulePathOf(ctx, input.id);
    return updateMergeRequestRule(ctx, rule.project, rule.iid, rule.id, { name: input.name, approvals_required: input.approvalsRequired, ...restApprovers(input) });
  },
  returns: approvalRule,
});

payloadMutation("mergeRequestApprovalRuleDelete", {
  inputFields: (t) => ({ id: t.id({ required: true, description: "Global id of the merge request approval rule." }) }),
  write: async (input, ctx) => {
    const rule = await mergeRequestRulePathOf(ctx, input.id);
    await deleteMergeRequestRule(ctx, rule.project, rule.iid, rule.id);
    return null;
  },
  returns: { ...approvalRule, description: "Always null: the rule is gone." },
});
