// Project.approvalSettings: the project's merge request approval settings, from the domain's view
// behind GET /projects/:id/approvals (Maintainers and up).
import { approvalSettingsOf, type ApprovalSettingsView } from "../../../domain/merge-requests/approvals/settings.js";
import { shownProjectAccess } from "../../../domain/shared/parents.js";
import { builder } from "../../shared/builder.js";
import { orNull } from "../../shared/errors.js";
import { ProjectRef } from "../../projects/types.js";

export const ProjectApprovalSettingsRef = builder.objectRef<ApprovalSettingsView>("ProjectApprovalSettings");

builder.objectType(ProjectApprovalSettingsRef, {
  description: "A project's merge request approval settings.",
  fields: (t) => ({
    approvalsBeforeMerge: t.exposeInt("approvals_before_merge"),
    resetApprovalsOnPush: t.exposeBoolean("reset_approvals_on_push"),
    selectiveCodeOwnerRemovals: t.exposeBoolean("selective_code_owner_removals"),
    disableOverridingApproversPerMergeRequest: t.exposeBoolean("disable_overriding_approvers_per_merge_request"),
    mergeRequestsAuthorApproval: t.exposeBoolean("merge_requests_author_approval"),
    mergeRequestsDisableCommittersApproval: t.exposeBoolean("merge_requests_disable_committers_approval"),
    requireReauthenticationToApprove: t.exposeBoolean("require_reauthentication_to_approve"),
  }),
});

builder.objectFields(ProjectRef, (t) => ({
  approvalSettings: t.field({
    type: ProjectApprovalSettingsRef,
    nullable: true,
    description: "Merge request approval settings; null for callers below Maintainer.",
    resolve: async (project, _a, ctx) => orNull(async () => approvalSettingsOf(ctx, await shownProjectAccess(ctx, project))),
  }),
}));
