// Project approval rules: /projects/:id/approval_rules (ee/lib/api/project_approval_rules.rb).
// Developers and up read them, Maintainers change them. A rule applies to the branches of its
// protected branches, to every protected branch (applies_to_all_protected_branches), or, with
// neither, to every branch (ApprovalProjectRule#applies_to_branch?).
import { notFound, recordNotFound } from "../../../errors.js";
import { AccessLevel } from "../../shared/access-levels.js";
import { findProject, type ProjectAccess } from "../../shared/parents.js";
import { requireAuthenticated, requireLevel } from "../../shared/guards.js";
import { isAdmin, type DomainContext } from "../../shared/context.js";
import { publish, type ApprovalConfigEvent, type Tx } from "../../shared/events.js";
import { paginateList, type Page, type PageArgs } from "../../shared/pagination.js";
import { requireCreateMergeRequest } from "../queries.js";
import { assertUnmodifiedSince } from "../../shared/preconditions.js";
import { projectProtections, type ProtectedBranchWithLevels } from "../../repository/protection-rules.js";
import { refMatches } from "../../repository/refs.js";
import { newRuleValues, projectMembersAmong, saveRule, updatedRuleValues, type RuleContainer, type RuleInput } from "./rule-input.js";
import { findRule, findRules, loadRule, ruleRowById, userDefinedOrder, type LoadedRule, type Reader } from "./rules.js";
import { ruleViews, type RuleView } from "./views.js";

export function projectContainer(ctx: DomainContext, access: ProjectAccess): RuleContainer {
  return {
    kind: "project",
    id: access.project.id,
    projectId: access.project.id,
    label: "project",
    membersAmong: (ids) => projectMembersAmong(ctx, access.project, ids),
  };
}

/** GitLab's visible_approval_rules: user-defined rules (any_approver first) then report approver rules. */
export async function visibleProjectRules(r: Reader, projectId: number): Promise<LoadedRule[]> {
  const rules = await findRules(r, "project", projectId);
  return [...userDefinedOrder(rules), ...rules.filter((rule) => rule.row.ruleType === "report_approver")];
}

export function appliesToBranch(rule: LoadedRule, allProtected: readonly ProtectedBranchWithLevels[], matching: Set<number>): boolean {
  const scope = rule.row.appliesToAllProtectedBranches ? allProtected : rule.protectedBranches;
  if (scope.length === 0) return !rule.row.appliesToAllProtectedBranches;
  return scope.some((branch) => matching.has(branch.id));
}

/** The protections of a project and which of them match a branch (rule scoping). */
export async function branchScope(r: Reader, projectId: number, branch: string): Promise<BranchScope> {
  const all = r.caches
    ? (await r.caches.protectedBranches.load(projectId, async () => ({ value: await projectProtections(r.db, projectId) })))!
    : await projectProtections(r.db, projectId);
  return { all, matching: new Set(all.filter((b) => refMatches(b.name, branch)).map((b) => b.id)) };
}

export interface BranchScope {
  all: readonly ProtectedBranchWithLevels[];
  /** ids of the protected branches whose name or wildcard matches the branch */
  matching: Set<number>;
}

/** The project's user-defined rules that apply to a target branch, in GitLab's order. */
export async function applicableProjectRules(r: Reader, projectId: number, branch: string, knownScope?: BranchScope): Promise<LoadedRule[]> {
  const [rules, scope] = await Promise.all([findRules(r, "project", projectId), knownScope ?? branchScope(r, projectId, branch)]);
  return userDefinedOrder(rules).filter((rule) => appliesToBranch(rule, scope.all, scope.matching));
}

/** The project of an approval rule route: 401 anonymous, then 404 invisible. */
export async function findRulesProject(ctx: DomainContext, projectRef: string | number): Promise<ProjectAccess> {
  requireAuthenticated(ctx);
  return findProject(ctx, projectRef);
}

/** admin_project (Maintainers and up), or create_merge_request_in. */
function requireRulesReader(ctx: DomainContext, access: ProjectAccess): void {
  requireAuthenticated(ctx);
  if (isAdmin(ctx.actor) || access.level >= AccessLevel.maintainer) return;
  requireCreateMergeRequest(ctx, access);
}

/** admin_project and modify_approvers_rules: Maintainers and up. */
export function requireRulesManager(ctx: DomainContext, access: ProjectAccess): void {
  requireLevel(ctx, access.level, AccessLevel.maintainer);
}

/** What may be done with a project's rules: read them, or manage them (and the approval settings). */
export type RulesAbility = "read" | "manage";

const REQUIRE_ABILITY = { read: requireRulesReader, manage: requireRulesManager } satisfies Record<RulesAbility, unknown>;

export async function projectRuleViews(ctx: DomainContext, access: ProjectAccess, rules: LoadedRule[]): Promise<RuleView[]> {
  const allProtectedBranches = rules.some((r) => r.row.appliesToAllProtectedBranches) ? await projectProtections(ctx.db, access.project.id) : [];
  return ruleViews(ctx, rules, { projectMember: access.level >= AccessLevel.guest, allProtectedBranches });
}

/** A project rule with its project, on which the caller holds the ability it was found with. */
export interface ProjectRuleAccess {
  rule: LoadedRule;
  access: ProjectAccess;
}

/** The entity of a found project rule. */
export const projectRuleView = async (ctx: DomainContext, { access, rule }: ProjectRuleAccess) => (await projectRuleViews(ctx, access, [rule]))[0]!;

/** GET /projects/:id/approval_rules (paginated over the list in memory, as GitLab does). */
export async function listProjectRules(ctx: DomainContext, access: ProjectAccess, page: PageArgs): Promise<Page<RuleView>> {
  requireRulesReader(ctx, access);
  const rules = await paginateList(await visibleProjectRules(ctx, access.project.id), page);
  return { rows: await projectRuleViews(ctx, access, rules.rows), info: rules.info };
}

/** /projects/:id/approval_rules/:approval_rule_id: 401, 404 project, 403 without `ability`, then 404 rule. */
export async function findProjectRule(ctx: DomainContext, projectRef: string | number, id: number, ability: RulesAbility): Promise<ProjectRuleAccess> {
  const access = await findRulesProject(ctx, projectRef);
  REQUIRE_ABILITY[ability](ctx, access);
  const rule = await findRule(ctx, "project", access.project.id, id);
  if (!rule) throw recordNotFound();
  return { rule, access };
}

/** The project rule with database id `id` (404 for a missing rule or one of another kind), then findProjectRule's rules. */
export async function findProjectRuleById(ctx: DomainContext, id: number, ability: RulesAbility): Promise<ProjectRuleAccess> {
  const row = await ruleRowById(ctx, "project", id);
  if (!row) throw notFound();
  const access = await findRulesProject(ctx, row.containerId);
  REQUIRE_ABILITY[ability](ctx, access);
  return { rule: await loadRule(ctx, row), access };
}

/** POST /projects/:id/approval_rules on a project found by findRulesProject (403 below Maintainer). */
export async function createProjectRule(ctx: DomainContext, access: ProjectAccess, input: RuleInput & { name: string; approvals_required: number }): Promise<RuleView> {
  requireRulesManager(ctx, access);
  const container = projectContainer(ctx, access);
  const values = await newRuleValues(ctx, container, input);
  const rule = await saveRule(ctx, container, values, null, (tx, id) =>
    publishRuleChange(tx, ctx, "rule_create", access.project.id, { id, name: values.name, approvalsRequired: values.approvalsRequired }));
  return projectRuleView(ctx, { access, rule });
}

/** PUT /projects/:id/approval_rules/:approval_rule_id on a rule found to manage: users and groups are replaced when sent. */
export async function updateProjectRule(ctx: DomainContext, { access, rule }: ProjectRuleAccess, input: RuleInput): Promise<RuleView> {
  const container = projectContainer(ctx, access);
  const values = await updatedRuleValues(ctx, container, rule, input);
  const saved = await saveRule(ctx, container, values, rule, (tx, id) =>
    publishRuleChange(tx, ctx, "rule_update", access.project.id, {
      id, name: values.name, approvalsRequired: values.approvalsRequired, previousApprovalsRequired: rule.row.approvalsRequired,
    }));
  return projectRuleView(ctx, { access, rule: saved });
}

/**
 * DELETE /projects/:id/approval_rules/:approval_rule_id of a rule found to manage (412 on a stale
 * If-Unmodified-Since). The rules of unmerged merge requests made from it go with it (ProjectRuleDestroyService).
 */
export async function deleteProjectRule(ctx: DomainContext, { rule }: ProjectRuleAccess, unmodifiedSince?: string | null): Promise<boolean> {
  assertUnmodifiedSince(rule.row.updatedAt, unmodifiedSince);
  const { id, name, approvalsRequired, containerId } = rule.row;
  await ctx.db.$transaction(async (tx) => {
    await tx.approvalRule.deleteMany({ where: { id: { in: await derivedRulesOfUnmergedMergeRequests(tx, id) } } });
    await tx.approvalRule.delete({ where: { id } });
    await publishRuleChange(tx, ctx, "rule_destroy", containerId, { id, name, approvalsRequired });
  });
  return true;
}

/** The audit's domain event of a project rule written (GitLab's ApprovalRules services audit project rules only). */
function publishRuleChange(tx: Tx, ctx: DomainContext, action: ApprovalConfigEvent["action"], projectId: number, rule: ApprovalConfigEvent["rule"]) {
  return publish(tx, ctx, "approval_config", { action, projectId, rule, actorId: ctx.actor!.user.id });
}

async function derivedRulesOfUnmergedMergeRequests(tx: Tx, sourceRuleId: number): Promise<number[]> {
  const derived = await tx.approvalRule.findMany({ where: { kind: "merge_request", sourceRuleId }, select: { id: true, containerId: true } });
  const merged = await tx.mergeRequest.findMany({ where: { id: { in: derived.map((r) => r.containerId) }, state: "merged" }, select: { id: true } });
  return derived.filter((r) => !merged.some((m) => m.id === r.containerId)).map((r) => r.id);
}

