// Creating and changing approval rules of any container (GitLab's ApprovalRules::CreateService,
// UpdateService and Updater): approvers are narrowed to members of the container, groups to the
// ones the caller can see (hidden ones kept on update unless remove_hidden_groups), then the
// model's validations in GitLab's order, then one transaction writing the rule and its links.
import type { ApprovalRule } from "../../../generated/prisma/client.js";
import { validationError } from "../../../errors.js";
import { projectMemberLevels } from "../../shared/memberships.js";
import type { ProjectAccess } from "../../shared/parents.js";
import type { DomainContext } from "../../shared/context.js";
import type { Tx } from "../../shared/events.js";
import { findRule, splitGroups, visibleGroupIds, type LoadedRule, type RuleKind } from "./rules.js";

export interface RuleInput {
  name?: string | null;
  approvals_required?: number | null;
  rule_type?: string | null;
  report_type?: string | null;
  user_ids?: number[] | null;
  usernames?: string[] | null;
  group_ids?: number[] | null;
  protected_branch_ids?: number[] | null;
  applies_to_all_protected_branches?: boolean | null;
  remove_hidden_groups?: boolean | null;
}

export interface RuleContainer {
  kind: RuleKind;
  id: number;
  projectId: number | null;
  /** "project", "group" or "merge request": the any-approver uniqueness message names it */
  label: string;
  /** the users among `ids` who may approve here (project members, or direct members of the group) */
  membersAmong(ids: number[]): Promise<number[]>;
  /** model validations of the container's own kind (merged merge request, top-level group ...) */
  extraErrors?: Errors;
}

type Errors = Record<string, string[]>;

export const NAME_LENGTH_LIMIT = 1024;
export const APPROVALS_REQUIRED_MAX = 100;
const COVERAGE_CHECK = "Coverage-Check";

/** The rule as it will be saved: columns plus the user, group and protected branch ids. */
export interface RuleValues {
  name: string;
  ruleType: string;
  reportType: string | null;
  approvalsRequired: number;
  appliesToAllProtectedBranches: boolean;
  sourceRuleId: number | null;
  userIds: number[];
  groupIds: number[];
  protectedBranchIds: number[];
}

/** Project members among users: direct members of the project and members of its groups up the tree. */
export async function projectMembersAmong(ctx: DomainContext, project: ProjectAccess["project"], ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const levels = await projectMemberLevels(ctx, project, ids);
  return [...new Set(ids)].filter((id) => levels.has(id));
}

/** User.by_ids_or_usernames, narrowed to the container's members. */
async function resolveUsers(ctx: DomainContext, container: RuleContainer, input: RuleInput): Promise<number[]> {
  const usernames = (input.usernames ?? []).map((u) => u.toLowerCase());
  const found = await ctx.db.user.findMany({
    where: { OR: [{ id: { in: input.user_ids ?? [] } }, { usernameLower: { in: usernames } }] },
    select: { id: true },
  });
  return container.membersAmong(found.map((u) => u.id));
}

async function resolveGroups(ctx: DomainContext, input: RuleInput, current: LoadedRule | null): Promise<number[]> {
  const ids = [...new Set(input.group_ids ?? [])];
  const existing = await ctx.db.namespace.findMany({ where: { id: { in: ids }, kind: "group" }, select: { id: true } });
  const visible = await visibleGroupIds(ctx, existing.map((g) => g.id));
  const chosen = existing.map((g) => g.id).filter((id) => visible.has(id));
  if (!current || input.remove_hidden_groups) return chosen;
  // hidden group ids never travel to or from clients, so an update keeps them unless told otherwise
  const hidden = splitGroups(current, await visibleGroupIds(ctx, current.groups.map((g) => g.id))).hidden.map((g) => g.id);
  return [...new Set([...chosen, ...hidden])];
}

async function resolveProtectedBranches(ctx: DomainContext, container: RuleContainer, ids: number[]): Promise<number[]> {
  if (container.kind !== "project" || !ids.length) return [];
  const branches = await ctx.db.protectedBranch.findMany({ where: { id: { in: ids }, projectId: container.id }, select: { id: true } });
  return branches.map((b) => b.id);
}

const approversGiven = (input: RuleInput) => !!(input.user_ids?.length || input.group_ids?.length || input.usernames?.length);
const usersSent = (input: RuleInput) => input.user_ids != null || input.usernames != null;

/** The values of a new rule; `copied` holds what approval_project_rule_id copies (merge request rules). */
export async function newRuleValues(
  ctx: DomainContext,
  container: RuleContainer,
  input: RuleInput & { name: string; approvals_required: number },
  copied: LoadedRule | null = null,
): Promise<RuleValues> {
  // sending user_ids or group_ids stops the copy; usernames only replace the copied users
  const copyApprovers = copied && input.user_ids == null && input.group_ids == null;
  const hasApprovers = approversGiven(input) || (copyApprovers && (copied.users.length > 0 || copied.groups.length > 0));
  const appliesToAll = container.kind === "group" ? true : !!input.applies_to_all_protected_branches;
  return {
    name: copied ? copied.row.name : input.name,
    // a rule without approvers is the any_approver rule unless a type is given (handle_any_approver_rule_creation)
    ruleType: input.rule_type ?? (hasApprovers ? "regular" : "any_approver"),
    reportType: input.report_type ?? null,
    approvalsRequired: input.approvals_required,
    appliesToAllProtectedBranches: appliesToAll,
    sourceRuleId: copied?.row.id ?? null,
    userIds: copyApprovers && !usersSent(input) ? copied.users.map((u) => u.id) : await resolveUsers(ctx, container, input),
    groupIds: copyApprovers ? copied.groups.map((g) => g.id) : await resolveGroups(ctx, input, null),
    protectedBranchIds: appliesToAll ? [] : await resolveProtectedBranches(ctx, container, input.protected_branch_ids ?? []),
  };
}

/**
 * The values after an update: what was sent changes (users and groups are replaced when sent), the
 * rest stays, except applies_to_all_protected_branches, which is false unless sent.
 */
export async function updatedRuleValues(ctx: DomainContext, container: RuleContainer, rule: LoadedRule, input: RuleInput): Promise<RuleValues> {
  const row = rule.row;
  // GitLab declares applies_to_all_protected_branches with default false on update too
  const appliesToAll = container.kind === "group" ? true : !!input.applies_to_all_protected_branches;
  const branchIds = input.protected_branch_ids != null
    ? await resolveProtectedBranches(ctx, container, input.protected_branch_ids)
    : rule.protectedBranches.map((b) => b.id);
  return {
    name: input.name ?? row.name,
    ruleType: input.rule_type ?? row.ruleType,
    reportType: input.report_type !== undefined && input.report_type !== null ? input.report_type : row.reportType,
    approvalsRequired: input.approvals_required ?? row.approvalsRequired,
    appliesToAllProtectedBranches: appliesToAll,
    sourceRuleId: row.sourceRuleId,
    userIds: input.user_ids != null || input.usernames != null ? await resolveUsers(ctx, container, input) : rule.users.map((u) => u.id),
    groupIds: input.group_ids != null ? await resolveGroups(ctx, input, rule) : rule.groups.map((g) => g.id),
    protectedBranchIds: appliesToAll ? [] : branchIds,
  };
}

/** GitLab's model validations, keys in the order Rails adds them. */
export async function ruleErrors(ctx: DomainContext, container: RuleContainer, values: RuleValues, current: ApprovalRule | null): Promise<Errors> {
  const errors: Errors = {};
  const add = (attribute: string, message: string) => (errors[attribute] ??= []).push(message);
  const nameChanged = !current || current.name !== values.name;
  if (!values.name.trim()) add("name", "can't be blank");
  if (nameChanged && [...values.name].length > NAME_LENGTH_LIMIT) add("name", `is too long (maximum is ${NAME_LENGTH_LIMIT} characters)`);
  if (values.approvalsRequired < 0) add("approvals_required", "must be greater than or equal to 0");
  if (values.approvalsRequired > APPROVALS_REQUIRED_MAX) add("approvals_required", `must be less than or equal to ${APPROVALS_REQUIRED_MAX}`);
  if (values.ruleType === "report_approver" && !values.reportType) add("report_type", "can't be blank");
  const others = await ctx.db.approvalRule.findMany({
    where: { kind: container.kind, containerId: container.id, ruleType: values.ruleType, ...(current ? { NOT: { id: current.id } } : {}) },
    select: { name: true },
  });
  if (others.some((o) => o.name === values.name)) add("name", "has already been taken");
  if (container.kind === "project") coverageCheckErrors(values, add);
  if (values.ruleType === "any_approver" && others.length > 0) add("rule_type", `any-approver for the ${container.label} already exists`);
  for (const [attribute, messages] of Object.entries(container.extraErrors ?? {})) for (const m of messages) add(attribute, m);
  return errors;
}

/** The Coverage-Check name belongs to the code_coverage report rule and the other way round. */
function coverageCheckErrors(values: RuleValues, add: (attribute: string, message: string) => void): void {
  if (values.name !== COVERAGE_CHECK && values.reportType === "code_coverage") add("report_type", `code_coverage only supports ${COVERAGE_CHECK} name`);
  else if (values.name === COVERAGE_CHECK && values.reportType !== "code_coverage") add("name", `${COVERAGE_CHECK} is reserved for code_coverage report type`);
}

export function throwIfErrors(errors: Errors): void {
  if (Object.keys(errors).length) throw validationError(errors);
}

/** Writes the rule and replaces its links, in the caller's transaction. */
export async function writeRule(tx: Tx, container: RuleContainer, values: RuleValues, current: ApprovalRule | null): Promise<number> {
  const columns = {
    name: values.name,
    ruleType: values.ruleType,
    reportType: values.reportType,
    approvalsRequired: values.approvalsRequired,
    appliesToAllProtectedBranches: values.appliesToAllProtectedBranches,
    sourceRuleId: values.sourceRuleId,
  };
  const saved = current
    ? await tx.approvalRule.update({ where: { id: current.id }, data: columns })
    : await tx.approvalRule.create({ data: { ...columns, kind: container.kind, containerId: container.id, projectId: container.projectId } });
  const ruleId = saved.id;
  await Promise.all([
    tx.approvalRuleUser.deleteMany({ where: { ruleId } }),
    tx.approvalRuleGroup.deleteMany({ where: { ruleId } }),
    tx.approvalRuleProtectedBranch.deleteMany({ where: { ruleId } }),
  ]);
  await tx.approvalRuleUser.createMany({ data: values.userIds.map((userId) => ({ ruleId, userId })) });
  await tx.approvalRuleGroup.createMany({ data: values.groupIds.map((groupId) => ({ ruleId, groupId })) });
  await tx.approvalRuleProtectedBranch.createMany({ data: values.protectedBranchIds.map((protectedBranchId) => ({ ruleId, protectedBranchId })) });
  return ruleId;
}

/** Validates and saves (create when `current` is null); a concurrent twin loses on the unique index. */
export async function saveRule(
  ctx: DomainContext,
  container: RuleContainer,
  values: RuleValues,
  current: LoadedRule | null,
  /** runs in the write's transaction once the rule is saved (the audit's domain event) */
  afterWrite?: (tx: Tx, ruleId: number) => Promise<void>,
): Promise<LoadedRule> {
  throwIfErrors(await ruleErrors(ctx, container, values, current?.row ?? null));
  try {
    const id = await ctx.db.$transaction(async (tx) => {
      const ruleId = await writeRule(tx, container, values, current?.row ?? null);
      await afterWrite?.(tx, ruleId);
      return ruleId;
    });
    return (await findRule(ctx, container.kind, container.id, id))!;
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw validationError({ name: ["has already been taken"] });
    throw error;
  }
}
