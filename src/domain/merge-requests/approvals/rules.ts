// Approval rules as stored (one table for group, project and merge request rules) and as loaded:
// each rule with its users, groups, the direct members of those groups and its protected
// branches, fetched for a whole list at once. GitLab: ApprovalRuleLike and ApprovalRulePresenter.
import type { ApprovalRule, Namespace, Prisma, User } from "../../../generated/prisma/client.js";
import { notExpired } from "../../shared/memberships.js";
import { visibleGroupsWhere } from "../../shared/visibility-filters.js";
import { isAdmin, type DomainContext } from "../../shared/context.js";
import { loadUnexpired, type Caches, type Expiring } from "../../shared/caches.js";
import type { Tx } from "../../shared/events.js";
import type { GitStore } from "../../../git/store.js";
import type { ProtectedBranchWithLevels } from "../../repository/protection-rules.js";
import { fitsIdColumn } from "../../shared/record-ids.js";

/**
 * What reading rules needs: a client (or the open transaction) and the clock (membership expiry);
 * with the server's caches, the approval configuration comes from them (domain/caches.ts).
 */
export interface Reader {
  db: Tx;
  now: () => Date;
  caches?: Caches;
  /** the repositories (the committers of a merge request's commits) */
  git: GitStore;
}

export type RuleKind = "group" | "project" | "merge_request";
/** Rules people define (GitLab's user_defined?); report approver and code owner rules come from the system. */
export const isUserDefined = (rule: Pick<ApprovalRule, "ruleType">) => rule.ruleType === "regular" || rule.ruleType === "any_approver";

/** The name GitLab shows for an any_approver rule in a merge request's approval state. */
export const ALL_MEMBERS = "All Members";

export interface LoadedRule {
  row: ApprovalRule;
  users: User[];
  groups: Namespace[];
  /** users plus the direct members of the groups, active only, by id (GitLab's `approvers`) */
  approvers: User[];
  /** the protected branches the rule is scoped to (explicitly) */
  protectedBranches: ProtectedBranchWithLevels[];
  /** the project rule a merge request rule was made from */
  source: LoadedRule | null;
}

const byId = <T extends { id: number }>(a: T, b: T) => a.id - b.id;

const RULE_INCLUDE = { users: true, groups: true, protectedBranches: true } as const;
type RuleRow = Prisma.ApprovalRuleGetPayload<{ include: typeof RULE_INCLUDE }>;

/** Rules of a container, by id (kept between requests when the reader has the caches). */
export async function findRules(r: Reader, kind: RuleKind, containerId: number): Promise<readonly LoadedRule[]> {
  const read = () => readRules(r, kind, containerId);
  const loaded = r.caches ? await loadUnexpired(r.caches.approvalRules, `${kind}/${containerId}`, r.now().getTime(), read) : await read();
  return loaded.rules;
}

async function readRules(r: Reader, kind: RuleKind, containerId: number): Promise<LoadedRules> {
  const rows = await r.db.approvalRule.findMany({ where: { kind, containerId }, orderBy: { id: "asc" } });
  return loadRules(r, await withLinks(r.db, rows));
}

/** The rules' user, group and protected branch links (RULE_INCLUDE), read only when there are rules. */
async function withLinks(db: Tx, rows: ApprovalRule[]): Promise<RuleRow[]> {
  if (!rows.length) return [];
  const ruleId = { in: rows.map((row) => row.id) };
  const [users, groups, protectedBranches] = await Promise.all([
    db.approvalRuleUser.findMany({ where: { ruleId } }),
    db.approvalRuleGroup.findMany({ where: { ruleId } }),
    db.approvalRuleProtectedBranch.findMany({ where: { ruleId } }),
  ]);
  const of = <T extends { ruleId: number }>(links: T[], id: number) => links.filter((link) => link.ruleId === id);
  return rows.map((row) => ({ ...row, users: of(users, row.id), groups: of(groups, row.id), protectedBranches: of(protectedBranches, row.id) }));
}

export async function findRule(r: Reader, kind: RuleKind, containerId: number, id: number): Promise<LoadedRule | null> {
  const row = await r.db.approvalRule.findFirst({ where: { id, kind, containerId }, include: RULE_INCLUDE });
  return row ? (await loadRules(r, [row])).rules[0]! : null;
}

/** A rule of `kind` by database id as stored (null for a missing rule or one of another kind): policies check its container first. */
export async function ruleRowById(r: Reader, kind: RuleKind, id: number): Promise<ApprovalRule | null> {
  const row = fitsIdColumn(id) ? await r.db.approvalRule.findUnique({ where: { id } }) : null;
  return row?.kind === kind ? row : null;
}

/** A rule read by ruleRowById, with what findRule loads with it. */
export async function loadRule(r: Reader, row: ApprovalRule): Promise<LoadedRule> {
  return (await loadRules(r, await withLinks(r.db, [row]))).rules[0]!;
}

export interface LoadedRules extends Expiring {
  rules: LoadedRule[];
}

/** Users, groups, group members and protected branches of the rules (and of their source rules). */
async function loadRules({ db, now }: Reader, rows: RuleRow[]): Promise<LoadedRules> {
  const sourceIds = [...new Set(rows.map((r) => r.sourceRuleId).filter((id): id is number => id !== null))];
  const sourceRows = sourceIds.length ? await db.approvalRule.findMany({ where: { id: { in: sourceIds } }, include: RULE_INCLUDE }) : [];
  const all = [...rows, ...sourceRows];
  const groupIds = [...new Set(all.flatMap((r) => r.groups.map((g) => g.groupId)))];
  const [groups, groupMembers] = groupIds.length
    ? await Promise.all([
      db.namespace.findMany({ where: { id: { in: groupIds }, kind: "group" } }),
      db.groupMember.findMany({ where: { groupId: { in: groupIds }, ...notExpired({ now } as DomainContext) }, select: { groupId: true, userId: true, expiresAt: true } }),
    ])
    : [[], []];
  const userIds = [...new Set([...all.flatMap((r) => r.users.map((u) => u.userId)), ...groupMembers.map((m) => m.userId)])];
  const branchIds = [...new Set(all.flatMap((r) => r.protectedBranches.map((b) => b.protectedBranchId)))];
  const [users, branches] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } } }) : [],
    branchIds.length ? db.protectedBranch.findMany({ where: { id: { in: branchIds } }, include: { accessLevels: { orderBy: { id: "asc" } } }, orderBy: { id: "asc" } }) : [],
  ]);
  const userById = new Map(users.map((u) => [u.id, u]));
  const groupById = new Map(groups.map((g) => [g.id, g]));
  const membersOf = (groupId: number) => groupMembers.filter((m) => m.groupId === groupId).map((m) => userById.get(m.userId));
  const load = (row: RuleRow, source: LoadedRule | null): LoadedRule => {
    const ruleUsers = present(row.users.map((u) => userById.get(u.userId))).sort(byId);
    const ruleGroups = present(row.groups.map((g) => groupById.get(g.groupId))).sort(byId);
    const candidates = [...ruleUsers, ...present(ruleGroups.flatMap((g) => membersOf(g.id)))];
    const approvers = uniqueUsers(candidates.filter((u) => u.state === "active"));
    const protectedBranches = branches.filter((b) => row.protectedBranches.some((p) => p.protectedBranchId === b.id));
    return { row, users: ruleUsers, groups: ruleGroups, approvers, protectedBranches, source };
  };
  const sources = new Map(sourceRows.map((row) => [row.id, load(row, null)]));
  // the rules stop being true when the first group membership counted among the approvers expires
  const expiries = groupMembers.flatMap((m) => (m.expiresAt ? [m.expiresAt.getTime()] : []));
  return {
    rules: rows.map((row) => load(row, row.sourceRuleId === null ? null : (sources.get(row.sourceRuleId) ?? null))),
    validUntil: expiries.length ? Math.min(...expiries) : null,
  };
}

const present = <T>(values: (T | undefined)[]): T[] => values.filter((v): v is T => v !== undefined);

export function uniqueUsers(users: User[]): User[] {
  return [...new Map(users.map((u) => [u.id, u])).values()].sort(byId);
}

/** GitLab's user_defined_rules order: any_approver rules first, then the rest by id. */
export function userDefinedOrder(rules: readonly LoadedRule[]): LoadedRule[] {
  const user = rules.filter((r) => isUserDefined(r.row));
  return [...user.filter((r) => r.row.ruleType === "any_approver"), ...user.filter((r) => r.row.ruleType !== "any_approver")];
}

/** Ids of the given groups the caller may see (public, internal when signed in, their hierarchy; admins all). */
export async function visibleGroupIds(ctx: DomainContext, groupIds: number[]): Promise<Set<number>> {
  if (!groupIds.length) return new Set();
  if (isAdmin(ctx.actor)) return new Set(groupIds);
  const visible = await ctx.db.namespace.findMany({ where: { AND: [{ id: { in: groupIds } }, await visibleGroupsWhere(ctx)] }, select: { id: true } });
  return new Set(visible.map((g) => g.id));
}

/** The caller's view of a rule's groups: the visible ones, and whether private ones are hidden. */
export interface GroupVisibility {
  groups: Namespace[];
  hidden: Namespace[];
}

export function splitGroups(rule: LoadedRule, visible: Set<number>): GroupVisibility {
  return { groups: rule.groups.filter((g) => visible.has(g.id)), hidden: rule.groups.filter((g) => !visible.has(g.id)) };
}

/** GitLab's ApprovalRuleLike#overridden?: a merge request rule differing from its source rule. */
export function overridden(rule: LoadedRule): boolean {
  const source = rule.source;
  if (!source) return false;
  const sameIds = (a: { id: number }[], b: { id: number }[]) => a.map((x) => x.id).join() === b.map((x) => x.id).join();
  return source.row.name !== rule.row.name || source.row.approvalsRequired !== rule.row.approvalsRequired ||
    !sameIds(source.users, rule.users) || !sameIds(source.groups, rule.groups);
}
