// Project approval rules: /projects/:id/approval_rules (ee/lib/api/project_approval_rules.rb).
// Developers and up read them, Maintainers change them. A rule applies to the branches of its
// protected branches, to every protected branch (applies_to_all_protected_branches), or, with
// neither, to every branch (ApprovalProjectRule#applies_to_branch?).
import { recordNotFound } from "../../../errors.js";
import { AccessLevel, findProject, requireAuthenticated, requireLevel, type ProjectAccess } from "../../shared/access.js";
import { isAdmin, type DomainContext } from "../../shared/context.js";
import type { Tx } from "../../shared/events.js";
import { paginateList, type Page, type PageArgs } from "../../shared/pagination.js";
import { requireCreateMergeRequest } from "../queries.js";
import { assertUnmodifiedSince } from "../../shared/preconditions.js";
import { projectProtections, type ProtectedBranchWithLevels } from "../../repository/protection-rules.js";
import { refMatches } from "../../repository/refs.js";
import { newRuleValues, projectMembersAmong, saveRule, updatedRuleValues, type RuleContainer, type RuleInput } from "./rule-input.js";
import { findRule, findRules, userDefinedOrder, type LoadedRule, type Reader } from "./rules.js";
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

async function readableProject(ctx: DomainContext, projectRef: string): Promise<ProjectAccess> {
  const access = await findRulesProject(ctx, projectRef);
  requireRulesReader(ctx, access);
  return access;
}

/** admin_project (Maintainers and up), or create_merge_request_in. */
function requireRulesReader(ctx: DomainContext, access: ProjectAccess): void {
  requireAuthenticated(ctx);
  if (isAdmin(ctx.actor) || access.level >= AccessLevel.maintainer) return;
  requireCreateMergeRequest(ctx, access);
}

/** admin_project and modify_approvers_rules: Maintainers and up. */
export async function manageableProject(ctx: DomainContext, projectRef: string): Promise<ProjectAccess> {
  const access = await findRulesProject(ctx, projectRef);
  requireLevel(ctx, access.level, AccessLevel.maintainer);
  return access;
}

export async function projectRuleViews(ctx: DomainContext, access: ProjectAccess, rules: LoadedRule[]): Promise<RuleView[]> {
  const allProtectedBranches = rules.some((r) => r.row.appliesToAllProtectedBranches) ? await projectProtections(ctx.db, access.project.id) : [];
  return ruleViews(ctx, rules, { projectMember: access.level >= AccessLevel.guest, allProtectedBranches });
}

const view = async (ctx: DomainContext, access: ProjectAccess, rule: LoadedRule) => (await projectRuleViews(ctx, access, [rule]))[0]!;

/** GET /projects/:id/approval_rules (paginated over the list in memory, as GitLab does). */
export async function listProjectRules(ctx: DomainContext, access: ProjectAccess, page: PageArgs): Promise<Page<RuleView>> {
  requireRulesReader(ctx, access);
  const rules = await paginateList(await visibleProjectRules(ctx, access.project.id), page);
  return { rows: await projectRuleViews(ctx, access, rules.rows), info: rules.info };
}

async function requireRule(ctx: DomainContext, access: ProjectAccess, id: number): Promise<LoadedRule> {
  const rule = await findRule(ctx, "project", access.project.id, id);
  if (!rule) throw recordNotFound();
  return rule;
}

/** GET /projects/:id/approval_rules/:approval_rule_id */
export async function getProjectRule(ctx: DomainContext, projectRef: string, id: number): Promise<RuleView> {
  const access = await readableProject(ctx, projectRef);
  return view(ctx, access, await requireRule(ctx, access, id));
}

/** POST /projects/:id/approval_rules */
export async function createProjectRule(ctx: DomainContext, projectRef: string, input: RuleInput & { name: string; approvals_required: number }): Promise<RuleView> {
  const access = await manageableProject(ctx, projectRef);
  const container = projectContainer(ctx, access);
  const rule = await saveRule(ctx, container, await newRuleValues(ctx, container, input), null);
  return view(ctx, access, rule);
}

/** PUT /projects/:id/approval_rules/:approval_rule_id: users and groups are replaced when sent. */
export async function updateProjectRule(ctx: DomainContext, projectRef: string, id: number, input: RuleInput): Promise<RuleView> {
  const access = await manageableProject(ctx, projectRef);
  const rule = await requireRule(ctx, access, id);
  const container = projectContainer(ctx, access);
  const saved = await saveRule(ctx, container, await updatedRuleValues(ctx, container, rule, input), rule);
  return view(ctx, access, saved);
}

/**
 * DELETE /projects/:id/approval_rules/:approval_rule_id (412 on a stale If-Unmodified-Since). The
 * rules of unmerged merge requests made from it go with it (ProjectRuleDestroyService).
 */
export async function deleteProjectRule(ctx: DomainContext, projectRef: string, id: number, unmodifiedSince?: string | null): Promise<boolean> {
  const access = await manageableProject(ctx, projectRef);
  const rule = await requireRule(ctx, access, id);
  assertUnmodifiedSince(rule.row.updatedAt, unmodifiedSince);
  await ctx.db.$transaction(async (tx) => {
    await tx.approvalRule.deleteMany({ where: { id: { in: await derivedRulesOfUnmergedMergeRequests(tx, rule.row.id) } } });
    await tx.approvalRule.delete({ where: { id: rule.row.id } });
  });
  return true;
}

async function derivedRulesOfUnmergedMergeRequests(tx: Tx, sourceRuleId: number): Promise<number[]> {
  const derived = await tx.approvalRule.findMany({ where: { kind: "merge_request", sourceRuleId }, select: { id: true, containerId: true } });
  const merged = await tx.mergeRequest.findMany({ where: { id: { in: derived.map((r) => r.containerId) }, state: "merged" }, select: { id: true } });
  return derived.filter((r) => !merged.some((m) => m.id === r.containerId)).map((r) => r.id);
}

