// Project approval settings (GET and POST /projects/:id/approvals): GitLab's ApprovalSettings.
import {
  approvalSettingsChange, approvalSettingsOf, updateApprovalSettings, type ApprovalSettingsView,
} from "../../domain/merge-requests/approvals/settings.js";
import { findRulesProject } from "../../domain/merge-requests/approvals/project-rules.js";
import { builder } from "../builder.js";
import { authenticated } from "./args.js";
import { Approver, ApproverGroup } from "./entities.js";
import * as route from "../../rest/route.js";

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

builder.queryFields((t) => ({
  projectApprovalSettings: t.field({
    type: ApprovalSettings,
    extensions: { rest: route.get("/projects/:id/approvals"), ...authenticated },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, { id }, ctx) => approvalSettingsOf(ctx, await findRulesProject(ctx, id)),
  }),
}));

builder.mutationFields((t) => ({
  updateProjectApprovalSettings: t.field({
    type: ApprovalSettings,
    extensions: { rest: route.post("/projects/:id/approvals"), ...authenticated },
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
    resolve: async (_r, { id, ...input }, ctx) => {
      const change = approvalSettingsChange(ctx, input); // 400 before a missing project's 404
      return updateApprovalSettings(ctx, await findRulesProject(ctx, id), change);
    },
  }),
}));
