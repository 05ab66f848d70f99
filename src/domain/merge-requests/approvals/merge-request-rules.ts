// Merge request approval rules: .../merge_requests/:merge_request_iid/approval_rules
// (ee/lib/api/merge_request_approval_rules.rb). Anyone who can read the MR reads them; whoever may
// update the MR changes them (update_approvers), unless the project disables overriding approvers
// per merge request. Rules the system made (report_approver, code_owner) cannot be changed
// (403 ["Prohibited"], GitLab's ApprovalMergeRequestRulePolicy). Creating the first user-defined
// rule makes the MR's own rules replace the project's (approval_rules_overwritten).
import { AppError, forbidden, recordNotFound } from "../../../errors.js";
import { AccessLevel, requireAuthenticated, type ProjectAccess } from "../../shared/access.js";
import type { DomainContext } from "../../shared/context.js";
import { findMergeRequest, type MergeRequestAccess, type MergeRequestRow } from "../queries.js";
import { paginateList, type Page, type PageArgs } from "../../shared/pagination.js";
import { assertUnmodifiedSince } from "../../shared/preconditions.js";
import { readableMergeRequest } from "./queries.js";
import { newRuleValues, projectMembersAmong, saveRule, updatedRuleValues, type RuleContainer, type RuleInput } from "./rule-input.js";
import { findRule, findRules, isUserDefined, type LoadedRule } from "./rules.js";
import { loadSettings } from "./settings.js";
import { ruleViews, type RuleView } from "./views.js";

type Found = { mergeRequest: MergeRequestRow; access: ProjectAccess };

/** update_approvers: update_merge_request, prevented when overriding approvers is disabled. */
async function editable(ctx: DomainContext, projectRef: string, iid: number): Promise<Found> {
  requireAuthenticated(ctx);
  const found = await findMergeRequest(ctx, projectRef, iid, "update");
  const settings = await loadSettings(ctx, found.access.project.id);
  if (settings.disableOverridingApproversPerMergeRequest) throw forbidden();
  return found;
}

const prohibited = () => new AppError(403, { message: ["Prohibited"] });

function mergeRequestContainer(ctx: DomainContext, { mergeRequest, access }: Found, extraErrors: Record<string, string[]> = {}): RuleContainer {
  if (mergeRequest.state === "merged") extraErrors = { ...extraErrors, merge_request: ["must not be merged"] };
  return {
    kind: "merge_request",
    id: mergeRequest.id,
    projectId: mergeRequest.projectId,
    label: "merge request",
    membersAmong: (ids) => projectMembersAmong(ctx, access.project, ids),
    extraErrors,
  };
}

/** ApprovalMergeRequestRule#approvers: without the author unless authors may approve. */
async function mergeRequestRuleViews(ctx: DomainContext, { mergeRequest, access }: MergeRequestAccess, rules: LoadedRule[]): Promise<RuleView[]> {
  const settings = await loadSettings(ctx, access.project.id);
  return ruleViews(ctx, rules, {
    projectMember: access.level >= AccessLevel.guest,
    approversOf: (rule) => (settings.mergeRequestsAuthorApproval ? rule.approvers : rule.approvers.filter((u) => u.id !== mergeRequest.authorId)),
  });
}

const view = async (ctx: DomainContext, found: Found, rule: LoadedRule) => (await mergeRequestRuleViews(ctx, found, [rule]))[0]!;

async function requireRule(ctx: DomainContext, found: Found, id: number): Promise<LoadedRule> {
  const rule = await findRule(ctx, "merge_request", found.mergeRequest.id, id);
  if (!rule) throw recordNotFound();
  return rule;
}

/** GET .../approval_rules of a merge request found by readableMergeRequest: its own rules (none until someone creates them). */
export async function listMergeRequestRules(ctx: DomainContext, found: MergeRequestAccess, page: PageArgs): Promise<Page<RuleView>> {
  const rules = await paginateList(await findRules(ctx, "merge_request", found.mergeRequest.id), page);
  return { rows: await mergeRequestRuleViews(ctx, found, rules.rows), info: rules.info };
}

/** GET .../approval_rules/:approval_rule_id */
export async function getMergeRequestRule(ctx: DomainContext, projectRef: string, iid: number, id: number): Promise<RuleView> {
  const found = await readableMergeRequest(ctx, projectRef, iid);
  return view(ctx, found, await requireRule(ctx, found, id));
}

export interface MergeRequestRuleInput extends RuleInput {
  approval_project_rule_id?: number | null;
}

/**
 * POST .../approval_rules. approval_project_rule_id copies that project rule's name, and its users
 * and groups unless user_ids or group_ids are sent (usernames replace only the users), keeping the
 * approvals_required sent; a rule of another project is refused, an unknown id ignored.
 */
export async function createMergeRequestRule(
  ctx: DomainContext,
  projectRef: string,
  iid: number,
  input: MergeRequestRuleInput & { name: string; approvals_required: number },
): Promise<RuleView> {
  const found = await editable(ctx, projectRef, iid);
  let copied: LoadedRule | null = null;
  let extra: Record<string, string[]> = {};
  if (input.approval_project_rule_id != null) {
    const source = await ctx.db.approvalRule.findFirst({ where: { id: input.approval_project_rule_id, kind: "project" } });
    if (source && source.containerId !== found.access.project.id) extra = { approval_project_rule: ["must be for the same project"] };
    else if (source) copied = await findRule(ctx, "project", source.containerId, source.id);
  }
  const container = mergeRequestContainer(ctx, found, extra);
  return view(ctx, found, await saveRule(ctx, container, await newRuleValues(ctx, container, input, copied), null));
}

/** PUT .../approval_rules/:approval_rule_id */
export async function updateMergeRequestRule(ctx: DomainContext, projectRef: string, iid: number, id: number, input: RuleInput): Promise<RuleView> {
  const found = await editable(ctx, projectRef, iid);
  const rule = await requireRule(ctx, found, id);
  if (!isUserDefined(rule.row)) throw prohibited();
  const container = mergeRequestContainer(ctx, found);
  return view(ctx, found, await saveRule(ctx, container, await updatedRuleValues(ctx, container, rule, input), rule));
}

/** DELETE .../approval_rules/:approval_rule_id */
export async function deleteMergeRequestRule(ctx: DomainContext, projectRef: string, iid: number, id: number, unmodifiedSince?: string | null): Promise<boolean> {
  const found = await editable(ctx, projectRef, iid);
  const rule = await requireRule(ctx, found, id);
  assertUnmodifiedSince(rule.row.updatedAt, unmodifiedSince);
  if (!isUserDefined(rule.row)) throw prohibited();
  await ctx.db.approvalRule.delete({ where: { id: rule.row.id } });
  return true;
}
