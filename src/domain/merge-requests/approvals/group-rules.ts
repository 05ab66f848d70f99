// Group approval rules (experimental): /groups/:id/approval_rules (ee/lib/api/group_approval_rules.rb).
// Only while the instance feature flag approval_group_rules is on (off: 404), for the group's
// Owners and administrators; a rule always applies to every protected branch of the group's
// projects, and only top-level groups may have rules. They are stored and listed; merge request
// approval state does not read them (as in GitLab's ApprovalState).
import { notFound } from "../../../errors.js";
import { AccessLevel, findGroup, notExpired, requireAuthenticated, requireLevel, type GroupAccess } from "../../shared/access.js";
import type { DomainContext } from "../../shared/context.js";
import { isFeatureEnabled } from "../../features/flags.js";
import { paginateList, type Page, type PageArgs } from "../../shared/pagination.js";
import { newRuleValues, saveRule, updatedRuleValues, type RuleContainer, type RuleInput } from "./rule-input.js";
import { findRule, findRules, type LoadedRule } from "./rules.js";
import { ruleViews, type RuleView } from "./views.js";

/** Before-filters in GitLab's order: authenticate, the group, the feature flag, then admin_group. */
async function manageableGroup(ctx: DomainContext, groupRef: string): Promise<GroupAccess> {
  const access = await findRulesGroup(ctx, groupRef);
  await requireRulesManager(ctx, access);
  return access;
}

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

const view = async (ctx: DomainContext, access: GroupAccess, rule: LoadedRule) => (await groupRuleViews(ctx, access, [rule]))[0]!;

/** GET /groups/:id/approval_rules */
export async function listGroupRules(ctx: DomainContext, access: GroupAccess, page: PageArgs): Promise<Page<RuleView>> {
  await requireRulesManager(ctx, access);
  const rules = await paginateList(await findRules(ctx, "group", access.group.id), page);
  return { rows: await groupRuleViews(ctx, access, rules.rows), info: rules.info };
}

/** POST /groups/:id/approval_rules */
export async function createGroupRule(ctx: DomainContext, groupRef: string, input: RuleInput & { name: string; approvals_required: number }): Promise<RuleView> {
  const access = await manageableGroup(ctx, groupRef);
  const container = groupContainer(ctx, access);
  return view(ctx, access, await saveRule(ctx, container, await newRuleValues(ctx, container, input), null));
}

/** PUT /groups/:id/approval_rules/:approval_rule_id */
export async function updateGroupRule(ctx: DomainContext, groupRef: string, id: number, input: RuleInput): Promise<RuleView> {
  const access = await manageableGroup(ctx, groupRef);
  const rule = await findRule(ctx, "group", access.group.id, id);
  if (!rule) throw notFound("Approval Rule");
  const container = groupContainer(ctx, access);
  return view(ctx, access, await saveRule(ctx, container, await updatedRuleValues(ctx, container, rule, input), rule));
}

