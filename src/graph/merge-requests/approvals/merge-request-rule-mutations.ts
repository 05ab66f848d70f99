// mergeRequestApprovalRuleCreate, mergeRequestApprovalRuleUpdate and mergeRequestApprovalRuleDelete
// (Forgeline's names) over the REST merge request approval rule writes (merge-request-rules.ts:
// who may edit the merge request's rules, overriding allowed, only user-defined rules changed).
import {
  createMergeRequestRule, deleteMergeRequestRule, findMergeRequestForRules, findMergeRequestRuleById, updateMergeRequestRule,
} from "../../../domain/merge-requests/approvals/merge-request-rules.js";
import type { Context } from "../../../context.js";
import { approverFields, restApprovers } from "./project-rule-mutations.js";
import { ApprovalRuleRef } from "./state.js";
import { issuableInputFields, issuablePathOf, matchingIdOf, recordIdOf } from "../../shared/mutation-inputs.js";
import { payloadMutation } from "../../shared/payload-mutation.js";

/** The merge request rule a global id names, for those who may edit the merge request's rules. */
const mergeRequestRuleOf = (ctx: Context, gid: string | number) =>
  findMergeRequestRuleById(ctx, recordIdOf(gid, "ApprovalMergeRequestRule"), "update");

const approvalRule = { field: "approvalRule", type: ApprovalRuleRef };

payloadMutation("mergeRequestApprovalRuleCreate", {
  inputFields: (t) => ({
    ...issuableInputFields(t),
    name: t.string({ required: true }),
    approvalsRequired: t.int({ required: true }),
    approvalProjectRuleId: t.id({ description: "Global id of a project rule to copy the name and approvers of." }),
    ...approverFields(t),
  }),
  write: async (input, ctx) =>
    createMergeRequestRule(ctx, await findMergeRequestForRules(ctx, ...issuablePathOf(input), "update"), {
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
  write: async (input, ctx) =>
    updateMergeRequestRule(ctx, await mergeRequestRuleOf(ctx, input.id), {
      name: input.name, approvals_required: input.approvalsRequired, ...restApprovers(input),
    }),
  returns: approvalRule,
});

payloadMutation("mergeRequestApprovalRuleDelete", {
  inputFields: (t) => ({ id: t.id({ required: true, description: "Global id of the merge request approval rule." }) }),
  write: async (input, ctx) => {
    await deleteMergeRequestRule(ctx, await mergeRequestRuleOf(ctx, input.id));
    return null;
  },
  returns: { ...approvalRule, description: "Always null: the rule is gone." },
});
