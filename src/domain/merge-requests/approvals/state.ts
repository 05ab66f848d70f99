// The approval state of a merge request, computed as GitLab's ApprovalState and ApprovalWrappedRule
// do. Rules: the MR's own user-defined rules when it has any and overriding is allowed
// (approval_rules_overwritten), else the project's rules that apply to the target branch; then
// the MR's code owner and report approver rules. Per rule: eligible approvers (the author and,
// when so configured, committers removed), the approvers who approved, approvals left =
// max(0, required - approved approvers); a rule is approved when none are left or when it has
// fewer eligible approvers than it requires (an any_approver rule only when none are left).
// Totals: required and left are max(regular + code owner + report sums, any_approver sums).
import type { Approval, MergeRequest, User } from "../../../generated/prisma/client.js";
import { usersById } from "../../shared/loaders.js";
import type { Services } from "../../shared/context.js";
import { mergeRequestCommits } from "../commits.js";
import { appliesToBranch, applicableProjectRules, branchScope } from "./project-rules.js";
import { ALL_MEMBERS, findRules, overridden, uniqueUsers, userDefinedOrder, type LoadedRule, type Reader } from "./rules.js";
import { loadSettings, type ApprovalSettings } from "./settings.js";

export interface WrappedRule {
  rule: LoadedRule;
  name: string;
  approvers: User[];
  approvedApprovers: User[];
  approvalsRequired: number;
  approvalsLeft: number;
  approved: boolean;
  invalid: boolean;
}

export interface ApprovalState {
  mergeRequest: MergeRequest;
  settings: ApprovalSettings;
  overwritten: boolean;
  userDefinedRules: WrappedRule[];
  /** user-defined, then code owner, then report approver rules */
  rules: WrappedRule[];
  approvals: (Approval & { user: User })[];
  approvalsRequired: number;
  approvalsLeft: number;
  approved: boolean;
  /** every rule's eligible approvers, once each */
  approvers: User[];
  committerIds: Set<number>;
  /** a protected branch matching the target branch requires code owner approval */
  codeOwnerApprovalRequired: boolean;
}

const sum = (rules: WrappedRule[], pick: (r: WrappedRule) => number) => rules.reduce((total, r) => total + pick(r), 0);
const isAny = (r: WrappedRule) => r.rule.row.ruleType === "any_approver";

export async function computeApprovalState(r: Reader, mergeRequest: MergeRequest): Promise<ApprovalState> {
  const { projectId, targetBranch } = mergeRequest;
  const settings = await loadSettings(r, projectId);
  const [mrRules, scope, approvals, committerIds] = await Promise.all([
    findRules(r, "merge_request", mergeRequest.id),
    branchScope(r, projectId, targetBranch),
    approvalsOf(r, mergeRequest.id),
    settings.mergeRequestsDisableCommittersApproval ? committersOf(r, mergeRequest) : Promise.resolve(new Set<number>()),
  ]);
  // a rule made from a project rule and left as it was follows that rule's branch scoping
  const applicable = mrRules.filter((rule) => !rule.source || overridden(rule) || appliesToBranch(rule.source, scope.all, scope.matching));
  const userDefinedMr = userDefinedOrder(applicable);
  const overwritten = !settings.disableOverridingApproversPerMergeRequest && userDefinedMr.length > 0;
  const useMr = overwritten || (mergeRequest.state === "merged" && userDefinedMr.length > 0);
  const userDefined = useMr ? userDefinedMr : await applicableProjectRules(r, projectId, targetBranch, scope);

  const approvedUsers = approvals.map((a) => a.user);
  const filter = (users: User[]) =>
    users.filter((u) => (settings.mergeRequestsAuthorApproval || u.id !== mergeRequest.authorId) && !committerIds.has(u.id));
  const codeOwnerRequired = scope.all.some((b) => scope.matching.has(b.id) && b.codeOwnerApprovalRequired);
  // a code owner rule needs at least one approval, and only where required and someone may give it
  const codeOwnerApprovals = (rule: LoadedRule, approvers: User[]) =>
    codeOwnerRequired && approvers.length > 0 ? Math.max(rule.row.approvalsRequired, 1) : 0;
  const wrap = (rule: LoadedRule): WrappedRule => {
    const type = rule.row.ruleType;
    const approvers = filter(rule.approvers);
    const approvedApprovers = type === "any_approver" ? filter(approvedUsers) : approvers.filter((u) => approvedUsers.some((a) => a.id === u.id));
    const approvalsRequired = type === "code_owner" ? codeOwnerApprovals(rule, approvers) : rule.row.approvalsRequired;
    const approvalsLeft = Math.max(approvalsRequired - approvedApprovers.length, 0);
    const invalid = type !== "any_approver" && approvalsRequired > approvers.length;
    const approved = approvalsLeft <= 0 || invalid;
    return { rule, name: type === "any_approver" ? ALL_MEMBERS : rule.row.name, approvers, approvedApprovers, approvalsRequired, approvalsLeft, approved, invalid };
  };
  const userDefinedRules = userDefined.map(wrap);
  const systemRules = [...applicable.filter((x) => x.row.ruleType === "code_owner"), ...applicable.filter((x) => x.row.ruleType === "report_approver")].map(wrap);
  const rules = [...userDefinedRules, ...systemRules];
  const others = rules.filter((x) => !isAny(x));
  const any = rules.filter(isAny);
  return {
    mergeRequest,
    settings,
    overwritten,
    userDefinedRules,
    rules,
    approvals,
    approvalsRequired: Math.max(sum(others, (x) => x.approvalsRequired), sum(any, (x) => x.approvalsRequired)),
    approvalsLeft: Math.max(sum(others, (x) => x.approvalsLeft), sum(any, (x) => x.approvalsLeft)),
    approved: rules.every((x) => x.approved),
    approvers: uniqueUsers(rules.flatMap((x) => x.approvers)),
    committerIds,
    codeOwnerApprovalRequired: codeOwnerRequired,
  };
}

async function approvalsOf(r: Reader, mergeRequestId: number): Promise<(Approval & { user: User })[]> {
  const approvals = await r.db.approval.findMany({ where: { mergeRequestId }, orderBy: { id: "asc" } });
  if (!approvals.length) return [];
  const ids = approvals.map((a) => a.userId);
  const users = r.caches ? await usersById(r.db, r.caches.users, ids) : await r.db.user.findMany({ where: { id: { in: ids } } });
  return approvals.flatMap((a) => {
    const user = users.find((u) => u?.id === a.userId);
    return user ? [{ ...a, user }] : [];
  });
}

/** Users who committed the MR's commits (matched by their committer e-mail), as GitLab's committers. */
export async function committersOf(r: Reader, mergeRequest: MergeRequest): Promise<Set<number>> {
  const commits = await mergeRequestCommits({ db: r.db as Reader["db"] & Services["db"], git: r.git }, mergeRequest);
  const emails = [...new Set(commits.map((c) => c.committerEmail.toLowerCase()))];
  if (!emails.length) return new Set();
  const users = await r.db.user.findMany({ where: { email: { in: emails } }, select: { id: true } });
  return new Set(users.map((u) => u.id));
}

/** The rules not yet approved (GitLab's approval_rules_left): any_approver ones only when they need more. */
export function rulesLeft(state: ApprovalState): WrappedRule[] {
  const others = state.rules.filter((x) => !isAny(x));
  const anyLeft = sum(state.rules.filter(isAny), (x) => x.approvalsLeft);
  const candidates = anyLeft <= sum(others, (x) => x.approvalsLeft) ? others : state.rules;
  return candidates.filter((x) => !x.approved);
}

/**
 * Rules that cannot be satisfied: fewer eligible approvers than approvals required; a code owner
 * rule without enough eligible owners only where the target branch requires code owner approval.
 */
export function invalidRules(state: ApprovalState): WrappedRule[] {
  return state.rules.filter((x) => {
    if (isAny(x) || (x.approvers.length > 0 && x.approvers.length >= x.approvalsRequired)) return false;
    return x.rule.row.ruleType === "code_owner" ? state.codeOwnerApprovalRequired : x.approvalsRequired > x.approvers.length;
  });
}

export const hasApproved = (state: ApprovalState, userId: number) => state.approvals.some((a) => a.userId === userId);

/**
 * GitLab's eligible_for_approval_by? for a user who may approve at all (approve_merge_request):
 * an eligible approver who has not approved yet, or anyone else who has not approved, is not the
 * author (unless authors may approve) and is not a committer (when committers may not).
 */
export function eligibleToApprove(state: ApprovalState, userId: number): boolean {
  if (hasApproved(state, userId)) return false;
  if (state.approvers.some((u) => u.id === userId)) return true;
  if (!state.settings.mergeRequestsAuthorApproval && state.mergeRequest.authorId === userId) return false;
  if (state.committerIds.has(userId)) return false;
  return true;
}
