// approvalGroupRuleCreate and approvalGroupRuleUpdate (Forgeline's: GitLab's graph has no group
// approval rules) over the REST group rule writes, POST and PUT /groups/:id/approval_rules
// (group-rules.ts: group Owners and administrators, while the approval_group_rules feature flag is
// on; approvers narrowed to direct members of the group, top-level groups only). REST has no delete.
import type { Context } from "../../../context.js";
import { createGroupRule, findGroupRuleById, findRulesGroup, updateGroupRule } from "../../../domain/merge-requests/approvals/group-rules.js";
import { ApprovalGroupRuleRef } from "./rules.js";
import { groupIdsOf, groupPathOf, recordIdOf, userIdsOf } from "../../shared/mutation-inputs.js";
import { payloadMutation } from "../../shared/payload-mutation.js";

const approvalRule = { field: "approvalRule", type: ApprovalGroupRuleRef };

const approverFields = (t: PothosSchemaTypes.InputFieldBuilder<any, "InputObject">) => ({
  userIds: t.idList({ description: "Global ids of users (direct members of the group) who may approve; replace the current ones." }),
  groupIds: t.idList({ description: "Global ids of groups whose members may approve; replace the current ones." }),
});

type Approvers = { userIds?: readonly (string | number)[] | null; groupIds?: readonly (string | number)[] | null };

const restApprovers = (input: Approvers) => ({ user_ids: userIdsOf(input.userIds), group_ids: groupIdsOf(input.groupIds) });

/** The group rule a global id names, for those who may manage it. */
const groupRuleOf = (ctx: Context, gid: string | number) => findGroupRuleById(ctx, recordIdOf(gid, "ApprovalGroupRule"));

payloadMutation("approvalGroupRuleCreate", {
  inputFields: (t) => ({
    groupPath: t.id({ required: true }),
    name: t.string({ required: true }),
    approvalsRequired: t.int({ required: true }),
    ...approverFields(t),
  }),
  write: async (input, ctx) =>
    createGroupRule(ctx, await findRulesGroup(ctx, groupPathOf(input.groupPath)), {
      name: input.name, approvals_required: input.approvalsRequired, ...restApprovers(input),
    }),
  returns: approvalRule,
});

payloadMutation("approvalGroupRuleUpdate", {
  inputFields: (t) => ({
    id: t.id({ required: true, description: "Global id of the group approval rule." }),
    name: t.string(),
    approvalsRequired: t.int(),
    ...approverFields(t),
  }),
  write: async (input, ctx) =>
    updateGroupRule(ctx, await groupRuleOf(ctx, input.id), { name: input.name, approvals_required: input.approvalsRequired, ...restApprovers(input) }),
  returns: approvalRule,
});
