// A project's merge request approval configuration: GET/POST /projects/:id/approvals
// (ee/lib/api/project_approvals.rb, ee/lib/api/entities/approval_settings.rb). Maintainers and up
// read and change it (read_approvers / update_approvers); nobody changes it in an archived project.
import type { ProjectApprovalSetting } from "../../../generated/prisma/client.js";
import { forbidden, validationError } from "../../../errors.js";
import type { ProjectAccess } from "../../shared/parents.js";
import { requireAuthenticated } from "../../shared/guards.js";
import type { DomainContext } from "../../shared/context.js";
import { requireAtLeastOne } from "../../shared/param-rules.js";
import { requireRulesManager } from "./project-rules.js";
import type { Reader } from "./rules.js";
import { publish, type Changes } from "../../shared/events.js";

export type ApprovalSettings = Omit<ProjectApprovalSetting, "updatedAt">;

/** GitLab's defaults for a project nobody configured. */
export const defaultSettings = (projectId: number): ApprovalSettings => ({
  projectId,
  approvalsBeforeMerge: 0,
  resetApprovalsOnPush: true,
  selectiveCodeOwnerRemovals: false,
  disableOverridingApproversPerMergeRequest: false,
  mergeRequestsAuthorApproval: false,
  mergeRequestsDisableCommittersApproval: false,
  requireReauthenticationToApprove: false,
});

/** A project's settings (kept between requests when the reader has the caches). */
export async function loadSettings(r: Pick<Reader, "db" | "caches">, projectId: number): Promise<ApprovalSettings> {
  const read = async () => (await r.db.projectApprovalSetting.findUnique({ where: { projectId } })) ?? defaultSettings(projectId);
  if (!r.caches) return read();
  return (await r.caches.approvalSettings.load(projectId, async () => ({ value: await read() })))!;
}

/** ApprovalSettings entity; the deprecated approvers lists are always empty. */
export interface ApprovalSettingsView {
  approvers: never[];
  approver_groups: never[];
  approvals_before_merge: number;
  reset_approvals_on_push: boolean;
  selective_code_owner_removals: boolean;
  disable_overriding_approvers_per_merge_request: boolean;
  merge_requests_author_approval: boolean;
  merge_requests_disable_committers_approval: boolean;
  require_password_to_approve: boolean;
  require_reauthentication_to_approve: boolean;
}

export function settingsView(s: ApprovalSettings): ApprovalSettingsView {
  return {
    approvers: [],
    approver_groups: [],
    approvals_before_merge: s.approvalsBeforeMerge,
    reset_approvals_on_push: s.resetApprovalsOnPush,
    selective_code_owner_removals: s.selectiveCodeOwnerRemovals,
    disable_overriding_approvers_per_merge_request: s.disableOverridingApproversPerMergeRequest,
    merge_requests_author_approval: s.mergeRequestsAuthorApproval,
    merge_requests_disable_committers_approval: s.mergeRequestsDisableCommittersApproval,
    require_password_to_approve: s.requireReauthenticationToApprove,
    require_reauthentication_to_approve: s.requireReauthenticationToApprove,
  };
}

/** GET /projects/:id/approvals of a project found by findRulesProject (403 below Maintainer). */
export async function approvalSettingsOf(ctx: DomainContext, access: ProjectAccess): Promise<ApprovalSettingsView> {
  requireRulesManager(ctx, access);
  return settingsView(await loadSettings(ctx, access.project.id));
}

export interface ApprovalSettingsInput {
  approvals_before_merge?: number | null;
  reset_approvals_on_push?: boolean | null;
  selective_code_owner_removals?: boolean | null;
  disable_overriding_approvers_per_merge_request?: boolean | null;
  merge_requests_author_approval?: boolean | null;
  merge_requests_disable_committers_approval?: boolean | null;
  require_password_to_approve?: boolean | null;
  require_reauthentication_to_approve?: boolean | null;
}

const SETTING_PARAMS = [
  "approvals_before_merge", "reset_approvals_on_push", "selective_code_owner_removals",
  "disable_overriding_approvers_per_merge_request", "merge_requests_author_approval",
  "merge_requests_disable_committers_approval", "require_password_to_approve", "require_reauthentication_to_approve",
] as const;

const given = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;

/** The change POST /projects/:id/approvals asks for: signed in, then at least one setting (400), before the project is looked up. */
export function approvalSettingsChange(ctx: DomainContext, input: ApprovalSettingsInput): ApprovalSettingsInput {
  requireAuthenticated(ctx);
  requireAtLeastOne(input, SETTING_PARAMS);
  return input;
}

/** POST /projects/:id/approvals on a project found by findRulesProject (403 below Maintainer): the settings not sent keep their values. */
export async function updateApprovalSettings(ctx: DomainContext, access: ProjectAccess, change: ApprovalSettingsInput): Promise<ApprovalSettingsView> {
  requireRulesManager(ctx, access);
  const { project } = access;
  // archived projects lose update_approvers (GitLab's archived features), administrators included
  if (project.archived) throw forbidden();
  const current = await loadSettings(ctx, project.id);
  const next = applyInput(current, change);
  if (next.selectiveCodeOwnerRemovals && next.resetApprovalsOnPush) {
    throw validationError({ base: ["selective_code_owner_removals can only be enabled when reset_approvals_on_push is disabled"] });
  }
  if (next.approvalsBeforeMerge < 0) throw validationError({ approvals_before_merge: ["must be greater than or equal to 0"] });
  const { projectId, ...data } = next;
  const saved = await ctx.db.$transaction(async (tx) => {
    const row = await tx.projectApprovalSetting.upsert({ where: { projectId }, create: next, update: data });
    const changes = auditedChanges(current, next);
    if (Object.keys(changes).length) {
      await publish(tx, ctx, "approval_config", { action: "settings_update", projectId, changes, actorId: ctx.actor!.user.id });
    }
    return row;
  });
  return settingsView(saved);
}

/** The settings GitLab's ProjectChangesAuditor audits, by its column names (approvals_before_merge and selective removals are not). */
const AUDITED_SETTINGS = {
  merge_requests_author_approval: "mergeRequestsAuthorApproval",
  merge_requests_disable_committers_approval: "mergeRequestsDisableCommittersApproval",
  reset_approvals_on_push: "resetApprovalsOnPush",
  disable_overriding_approvers_per_merge_request: "disableOverridingApproversPerMergeRequest",
  require_password_to_approve: "requireReauthenticationToApprove",
} as const satisfies Record<string, keyof ApprovalSettings>;

function auditedChanges(before: ApprovalSettings, after: ApprovalSettings): Changes {
  const changes: Changes = {};
  for (const [column, field] of Object.entries(AUDITED_SETTINGS)) {
    if (before[field] !== after[field]) changes[column] = { previous: before[field], current: after[field] };
  }
  return changes;
}

function applyInput(s: ApprovalSettings, input: ApprovalSettingsInput): ApprovalSettings {
  const pick = <T>(value: T | null | undefined, fallback: T) => (given(value) ? value : fallback);
  return {
    ...s,
    approvalsBeforeMerge: pick(input.approvals_before_merge, s.approvalsBeforeMerge),
    resetApprovalsOnPush: pick(input.reset_approvals_on_push, s.resetApprovalsOnPush),
    selectiveCodeOwnerRemovals: pick(input.selective_code_owner_removals, s.selectiveCodeOwnerRemovals),
    disableOverridingApproversPerMergeRequest: pick(input.disable_overriding_approvers_per_merge_request, s.disableOverridingApproversPerMergeRequest),
    mergeRequestsAuthorApproval: pick(input.merge_requests_author_approval, s.mergeRequestsAuthorApproval),
    mergeRequestsDisableCommittersApproval: pick(input.merge_requests_disable_committers_approval, s.mergeRequestsDisableCommittersApproval),
    // the newer name wins when both are sent (GitLab's deprecation note)
    requireReauthenticationToApprove: pick(input.require_reauthentication_to_approve, pick(input.require_password_to_approve, s.requireReauthenticationToApprove)),
  };
}
