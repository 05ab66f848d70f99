// Group approval rules (experimental): /groups/:id/approval_rules (ee/lib/api/group_approval_rules.rb).
// Only while the instance feature flag approval_group_rules is on (off: 404), for the group's
// Owners and administrators; a rule always applies to every protected branch of the group's
// projects, and only top-level groups may have rules. They are stored and listed; merge request
// approval state does not read them (as in GitLab's ApprovalState).
import { notFound } from "../../../errors.js";
import { AccessLevel } from "../../shared/access-levels.js";
import { notExpired } from "../../shared/memberships.js";
import { findGroup, type GroupAccess } from "../../shared/parents.js";
import { requireAuthenticated, requireLevel } from "../../shared/guards.js";
import type { DomainContext } from "../../shared/context.js";
import { isFeatureEnabled } from "../../features/flags.js";
import { paginateList, type Page, type PageArgs } from "../../shared/pagination.js";
import { newRuleValues, saveRule, updatedRuleValues, type RuleContainer, type RuleInput } from "./rule-input.js";
import { findRule, findRules, loadRule, ruleRowById, type LoadedRule } from "./rules.js";
import { ruleViews, type RuleView } from "./views.js";

/** The group of an approval rule route: 401 anonymous, then 404 invisible. */
export async function findRulesGroup(ctx: DomainContext, groupRef: string | number): Promise<GroupAccess> {
  requireAuthenticated(ctx);
  return findGroup(ctx, groupRef);
}

/** The feature flag (off: 404), then admin_group. */
async function requireRulesManager(ctx: DomainContext, access: GroupAccess): Promise<void> {
  requireAuthenticated(ctx);
  if (!(await isFeatureEnabled(ctx, "approval_group_rules"))) throw notFound();
  requireLevel(ctx, access.level, AccessLevel.owner);
}

function groupContainer(ctx: DomainContext, { group }: GroupAccess): RuleContainer {
  return {
    kind: "group",
    id: group.id,
    projectId: null,
    label: "group",
    // only direct members of the group may be named (filter_group_members)
    membersAmong: async (ids) => {
      const members = await ctx.db.groupMember.findMany({ where: { groupId: group.id, userId: { in: ids }, ...notExpired(ctx) }, select: { userId: true } });
      return members.map((m) => m.userId);
    },
    extraErrors: group.parentId !== null ? { group: ["must be a top level Group"] } : undefined,
  };
}

/** A group rule shows every protected branch of the group's projects. */
async function groupRuleViews(ctx: DomainContext, { group }: GroupAccess, rules: LoadedRule[]): Promise<RuleView[]> {
  const allProtectedBranches = rules.length
    ? await ctx.db.protectedBranch.findMany({
      where: { project: { namespaceId: group.id } },
      include: { accessLevels: { orderBy: { id: "asc" } } },
      orderBy: { id: "asc" },
    })
    : [];
  return ruleViews(ctx, rules, { projectMember: false, allProtectedBranches });
}

/** A group rule with its group, whose rules the caller may manage. */
export interface GroupRuleAccess {
  rule: LoadedRule;
  access: GroupAccess;
}

const view = async (ctx: DomainContext, { access, rule }: GroupRuleAccess) => (await groupRuleViews(ctx, access, [rule]))[0]!;

/** GET /groups/:id/approval_rules */
export async function listGroupRules(ctx: DomainContext, access: GroupAccess, page: PageArgs): Promise<Page<RuleView>> {
  await requireRulesManager(ctx, access);
  const rules = await paginateList(await findRules(ctx, "group", access.group.id), page);
  return { rows: await groupRuleViews(ctx, access, rules.rows), info: rules.info };
}

/** /groups/:id/approval_rules/:approval_rule_id, in GitLab's order: authenticate, the group, the feature flag, admin_group, then the rule. */
export async function findGroupRule(ctx: DomainContext, groupRef: string | number, id: number): Promise<GroupRuleAccess> {
  const access = await findRulesGroup(ctx, groupRef);
  await requireRulesManager(ctx, access);
  const rule = await findRule(ctx, "group", access.group.id, id);
  if (!rule) throw notFound("Approval Rule");
  return { rule, access };
}

/** The group rule with database id `id` (404 for a missing rule or one of another kind), then findGroupRule's rules. */
export async function findGroupRuleById(ctx: DomainContext, id: number): Promise<GroupRuleAccess> {
  const row = await ruleRowById(ctx, "group", id);
  if (!row) throw notFound();
  const access = await findRulesGroup(ctx, row.containerId);
  await requireRulesManager(ctx, access);
  return { rule: await loadRule(ctx, row), access };
}

/** POST /groups/:id/approval_rules on a group found by findRulesGroup (the feature flag, then admin_group). */
export async function createGroupRule(ctx: DomainContext, access: GroupAccess, input: RuleInput & { name: string; approvals_required: number }): Promise<RuleView> {
  await requireRulesManager(ctx, access);
  const container = groupContainer(ctx, access);
  return view(ctx, { access, rule: await saveRule(ctx, container, await newRuleValues(ctx, container, input), null) });
}

/** PUT /groups/:id/approval_rules/:approval_rule_id */
export async function updateGroupRule(ctx: DomainContext, { access, rule }: GroupRuleAccess, input: RuleInput): Promise<RuleView> {
  const container = groupContainer(ctx, access);
  return view(ctx, { access, rule: await saveRule(ctx, container, await updatedRuleValues(ctx, container, rule, input), rule) });
}
