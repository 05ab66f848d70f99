// Merge request approval rules: .../merge_requests/:merge_request_iid/approval_rules
// (ee/lib/api/merge_request_approval_rules.rb). Anyone who can read the MR reads them; whoever may
// update the MR changes them (update_approvers), unless the project disables overriding approvers
// per merge request. Rules the system made (report_approver, code_owner) cannot be changed
// (403 ["Prohibited"], GitLab's ApprovalMergeRequestRulePolicy). Creating the first user-defined
// rule makes the MR's own rules replace the project's (approval_rules_overwritten).
import { AppError, forbidden, notFound, recordNotFound } from "../../../errors.js";
import { AccessLevel } from "../../shared/access-levels.js";
import type { ProjectAccess } from "../../shared/parents.js";
import { requireAuthenticated } from "../../shared/guards.js";
import type { DomainContext } from "../../shared/context.js";
import { canUpdateMergeRequest, findMergeRequest, findMergeRequestById, withPeople, type MergeRequestAccess, type MergeRequestWithPeople } from "../queries.js";
import { paginateList, type Page, type PageArgs } from "../../shared/pagination.js";
import { assertUnmodifiedSince } from "../../shared/preconditions.js";
import { findMergeRequestForApprovals } from "./queries.js";
import { newRuleValues, projectMembersAmong, saveRule, updatedRuleValues, type RuleContainer, type RuleInput } from "./rule-input.js";
import { findRule, findRules, isUserDefined, loadRule, ruleRowById, type LoadedRule } from "./rules.js";
import { loadSettings } from "./settings.js";
import { ruleViews, type RuleView } from "./views.js";

/** A merge request with its people, on which the caller may read or edit the approval rules (as found). */
export type RulesMergeRequest = { mergeRequest: MergeRequestWithPeople; access: ProjectAccess };
type Found = RulesMergeRequest;

/** What may be done with a merge request's rules: read them, or edit them (update_approvers). */
export type MergeRequestRulesAbility = "read" | "update";

/** A merge request rule with its merge request. */
export interface MergeRequestRuleAccess extends RulesMergeRequest {
  rule: LoadedRule;
}

/** The overriding of approvers the project may disable (403), after update_merge_request. */
async function requireOverridable(ctx: DomainContext, found: Found): Promise<void> {
  const settings = await loadSettings(ctx, found.access.project.id);
  if (settings.disableOverridingApproversPerMergeRequest) throw forbidden();
}

/**
 * The merge request of .../approval_rules: `read` as findMergeRequestForApprovals, `update`
 * (update_approvers) signed in, then the merge request with update_merge_request (404, then 403),
 * prevented when overriding approvers is disabled (403).
 */
export async function findMergeRequestForRules(
  ctx: DomainContext, projectRef: string | number, iid: number, ability: MergeRequestRulesAbility,
): Promise<RulesMergeRequest> {
  if (ability === "read") return findMergeRequestForApprovals(ctx, projectRef, iid);
  requireAuthenticated(ctx);
  const found = await findMergeRequest(ctx, projectRef, iid, "update");
  await requireOverridable(ctx, found);
  return found;
}

/** .../approval_rules/:approval_rule_id: the merge request as findMergeRequestForRules finds it, then the rule (404). */
export async function findMergeRequestRule(
  ctx: DomainContext, projectRef: string | number, iid: number, id: number, ability: MergeRequestRulesAbility,
): Promise<MergeRequestRuleAccess> {
  const found = await findMergeRequestForRules(ctx, projectRef, iid, ability);
  return { ...found, rule: await requireRule(ctx, found, id) };
}

/**
 * The merge request rule with database id `id` (404 for a missing rule or one of another kind),
 * on a merge request the caller may read (404), with update_merge_request and overriding allowed
 * for `update` (403).
 */
export async function findMergeRequestRuleById(ctx: DomainContext, id: number, ability: MergeRequestRulesAbility): Promise<MergeRequestRuleAccess> {
  const row = await ruleRowById(ctx, "merge_request", id);
  if (!row) throw notFound();
  requireAuthenticated(ctx);
  const found = await withPeople(ctx, await findMergeRequestById(ctx, row.containerId));
  if (ability === "update") {
    if (!canUpdateMergeRequest(ctx, found.access, found.mergeRequest)) throw forbidden();
    await requireOverridable(ctx, found);
  }
  return { ...found, rule: await loadRule(ctx, row) };
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

/** GET .../approval_rules of a merge request found to read: its own rules (none until someone creates them). */
export async function listMergeRequestRules(ctx: DomainContext, found: MergeRequestAccess, page: PageArgs): Promise<Page<RuleView>> {
  const rules = await paginateList(await findRules(ctx, "merge_request", found.mergeRequest.id), page);
  return { rows: await mergeRequestRuleViews(ctx, found, rules.rows), info: rules.info };
}

/** The entity of a found merge request rule (GET .../approval_rules/:approval_rule_id). */
export const mergeRequestRuleView = (ctx: DomainContext, found: MergeRequestRuleAccess) => view(ctx, found, found.rule);

export interface MergeRequestRuleInput extends RuleInput {
  approval_project_rule_id?: number | null;
}

/**
 * POST .../approval_rules of a merge request found to update. approval_project_rule_id copies that project rule's name, and its users
 * and groups unless user_ids or group_ids are sent (usernames replace only the users), keeping the
 * approvals_required sent; a rule of another project is refused, an unknown id ignored.
 */
export async function createMergeRequestRule(
  ctx: DomainContext,
  found: RulesMergeRequest,
  input: MergeRequestRuleInput & { name: string; approvals_required: number },
): Promise<RuleView> {
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

/** PUT .../approval_rules/:approval_rule_id of a rule found to update (403 for a rule the system made). */
export async function updateMergeRequestRule(ctx: DomainContext, found: MergeRequestRuleAccess, input: RuleInput): Promise<RuleView> {
  const { rule } = found;
  if (!isUserDefined(rule.row)) throw prohibited();
  const container = mergeRequestContainer(ctx, found);
  return view(ctx, found, await saveRule(ctx, container, await updatedRuleValues(ctx, container, rule, input), rule));
}

/** DELETE .../approval_rules/:approval_rule_id of a rule found to update (412 on a stale If-Unmodified-Since, then 403 for a rule the system made). */
export async function deleteMergeRequestRule(ctx: DomainContext, { rule }: MergeRequestRuleAccess, unmodifiedSince?: string | null): Promise<boolean> {
  assertUnmodifiedSince(rule.row.updatedAt, unmodifiedSince);
  if (!isUserDefined(rule.row)) throw prohibited();
  await ctx.db.approvalRule.delete({ where: { id: rule.row.id } });
  return true;
}
