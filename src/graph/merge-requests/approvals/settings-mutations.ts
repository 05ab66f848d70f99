// projectApprovalSettingsUpdate (Forgeline's name): REST POST /projects/:id/approvals on the graph
// (settings.ts rules: Maintainers and up, at least one setting, the others kept).
import { approvalSettingsChange, updateApprovalSettings } from "../../../domain/merge-requests/approvals/settings.js";
import { findRulesProject } from "../../../domain/merge-requests/approvals/project-rules.js";
import { ProjectApprovalSettingsRef } from "./settings.js";
import { projectPathOf } from "../../shared/mutation-inputs.js";
import { payloadMutation } from "../../shared/payload-mutation.js";

payloadMutation("projectApprovalSettingsUpdate", {
  inputFields: (t) => ({
    projectPath: t.id({ required: true }),
    approvalsBeforeMerge: t.int(),
    resetApprovalsOnPush: t.boolean(),
    selectiveCodeOwnerRemovals: t.boolean(),
    disableOverridingApproversPerMergeRequest: t.boolean(),
    mergeRequestsAuthorApproval: t.boolean(),
    mergeRequestsDisableCommittersApproval: t.boolean(),
    requireReauthenticationToApprove: t.boolean(),
  }),
  write: async (input, ctx) => {
    const path = projectPathOf(input.projectPath);
    const change = approvalSettingsChange(ctx, {
      approvals_before_merge: input.approvalsBeforeMerge,
      reset_approvals_on_push: input.resetApprovalsOnPush,
      selective_code_owner_removals: input.selectiveCodeOwnerRemovals,
      disable_overriding_approvers_per_merge_request: input.disableOverridingApproversPerMergeRequest,
      merge_requests_author_approval: input.mergeRequestsAuthorApproval,
      merge_requests_disable_committers_approval: input.mergeRequestsDisableCommittersApproval,
      require_reauthentication_to_approve: input.requireReauthenticationToApprove,
    });
    return updateApprovalSettings(ctx, await findRulesProject(ctx, path), change);
  },
  returns: { field: "approvalSettings", type: ProjectApprovalSettingsRef },
});
