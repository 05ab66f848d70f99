// Issue lists (GitLab's IssuesFinder as lib/api/issues.rb drives it): a project's issues and the
// instance-wide GET /issues, both limited to issues the caller may read (confidential ones only
// for Planners and above, their author and their assignees) and filtered by GitLab's params.
import type { Issue, Prisma } from "../../generated/prisma/client.js";
import { paramError } from "../../errors.js";
import { AccessLevel, openVisibilities } from "../shared/access-levels.js";
import type { ProjectAccess } from "../shared/parents.js";
import { authorizedProjectsWhere } from "../shared/visibility-filters.js";
import { requireAuthenticated } from "../shared/guards.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs, type SortDirection } from "../shared/pagination.js";
import { requireExclusive } from "../shared/param-rules.js";
import { featureAvailable } from "../shared/project-features.js";
import { userIdByUsername } from "../users/queries.js";
import { labelFilter, labelsCondition, notLabelsCondition } from "./rules.js";
import { canReadAllConfidential } from "./queries.js";
import { containsText, type Dialect } from "../shared/paths.js";
import { fitsIdColumn } from "../shared/record-ids.js";
import { checkMilestoneFilter, issuableMilestoneWhere } from "../milestones/filters.js";
import type { GroupAccess } from "../shared/parents.js";

export const ISSUE_ORDER_COLUMNS = ["created_at", "updated_at", "title", "due_date"] as const;
export const ISSUE_STATES = ["opened", "closed", "all"] as const;

export interface IssueFilters {
  state?: (typeof ISSUE_STATES)[number] | null;
  labels?: string[] | null;
  /** GitLab's `not` Hash: not[labels] */
  not?: { labels?: string[] | null } | null;
  milestone?: string | null;
  /** a wildcard: Any, None, Upcoming or Started */
  milestone_id?: string | null;
  iids?: number[] | null;
  search?: string | null;
  in?: string | null;
  author_id?: number | null;
  author_username?: string | null;
  /** an id, or "None" / "Any" */
  assignee_id?: string | null;
  assignee_username?: string[] | null;
  confidential?: boolean | null;
  created_after?: Date | null;
  created_before?: Date | null;
  updated_after?: Date | null;
  updated_before?: Date | null;
  order_by?: (typeof ISSUE_ORDER_COLUMNS)[number] | null;
  sort?: SortDirection | null;
  /** created_by_me, assigned_to_me (or the hyphenated forms) or all */
  scope?: string | null;
  /** a text match found by the caller (search's index-backed matching), besides `search` */
  matching?: Prisma.IssueWhereInput | null;
}

const SCOPES = ["created_by_me", "assigned_to_me", "all"] as const;
type IssueScope = (typeof SCOPES)[number];

/** Filters that passed Grape's checks (projectIssueFilters, or listIssues itself), the scope normalised. */
export type CheckedIssueFilters = Omit<IssueFilters, "scope"> & { scope: IssueScope };

/** GET /projects/:id/issues' params, checked (400) before the project is looked up: every scope defaults to all. */
export const projectIssueFilters = (filters: IssueFilters): CheckedIssueFilters => checkedFilters(filters, "all");

/** GET /projects/:id/issues: a project without readable issues lists none. */
export async function listProjectIssues(
  ctx: DomainContext, access: ProjectAccess, filters: CheckedIssueFilters, page: PageArgs,
): Promise<Page<Issue>> {
  const readable: Prisma.IssueWhereInput = !featureAvailable(ctx, access, "issues")
    ? { id: { in: [] } }
    : canReadAllConfidential(ctx, access) ? {} : ownConfidentialOnly(ctx);
  return pageOf(ctx, { AND: [{ projectId: access.project.id }, readable, ...(await filterWhere(ctx, filters))] }, filters, page);
}

/** GET /issues: the caller's issues (`scope` defaults to created_by_me; only `all` works anonymously). */
export async function listIssues(
  ctx: DomainContext, filters: IssueFilters & { non_archived?: boolean | null }, page: PageArgs,
): Promise<Page<Issue>> {
  const checked = checkedFilters(filters, "created_by_me");
  if (checked.scope !== "all") requireAuthenticated(ctx);
  const projects: Prisma.ProjectWhereInput = { AND: [await issueProjectsWhere(ctx), filters.non_archived === false ? {} : { archived: false }] };
  const where = { AND: [{ project: projects }, await confidentialWhere(ctx), ...(await filterWhere(ctx, checked))] };
  return pageOf(ctx, where, checked, page);
}

/**
 * A group milestone's issues (IssuesFinder with group_id): those of the group's own projects the
 * caller may read; with `withSubgroups` (a group's search), those of its subgroups' projects too.
 */
export async function listGroupIssues(
  ctx: DomainContext, { group }: GroupAccess, filters: CheckedIssueFilters, page: PageArgs, withSubgroups = false,
): Promise<Page<Issue>> {
  const inGroup = withSubgroups ? { namespace: { traversalIds: { startsWith: group.traversalIds } }, archived: false } : { namespaceId: group.id };
  const projects: Prisma.ProjectWhereInput = { AND: [await issueProjectsWhere(ctx), inGroup] };
  return pageOf(ctx, { AND: [{ project: projects }, await confidentialWhere(ctx), ...(await filterWhere(ctx, filters))] }, filters, page);
}

export type PersonFilter = number | "none" | "any";

/** Grape's IntegerNoneAny (assignee_id of issue and merge request lists, reviewer_id): an integer, None or Any in any case. */
export function integerNoneAny(name: string, value: string | null | undefined): PersonFilter | undefined {
  if (value == null) return undefined;
  const word = value.trim().toLowerCase();
  if (word === "none" || word === "any") return word;
  if (/^\d+$/.test(word)) {
    if (!fitsIdColumn(Number(word))) throw paramError(`${name} is invalid`); // as an Int param past 32 bits (params.ts)
    return Number(word);
  }
  throw paramError(`${name} should be an integer, none, or any, however got ${value}`);
}

/** A person filter on the assignees or reviewers of issues and merge requests. */
export function personWhere<R extends "assignees" | "reviewers">(relation: R, filter: PersonFilter) {
  const match: { none: object } | { some: { userId?: number } } =
    filter === "none" ? { none: {} } : filter === "any" ? { some: {} } : { some: { userId: filter } };
  return { [relation]: match } as { [K in R]: typeof match };
}

/** A username filter: the user's id, or one nobody has (-1) so that the filter matches nothing, as the finders' joins do. */
export const personIdOf = async (ctx: DomainContext, username: string) => (await userIdByUsername(ctx, username)) ?? -1;

/** Grape's checks of the params the schema types cannot express. */
function checkedFilters(filters: IssueFilters, defaultScope: IssueScope): CheckedIssueFilters {
  requireExclusive(filters, [["author_id", "author_username"], ["assignee_id", "assignee_username"]]);
  integerNoneAny("assignee_id", filters.assignee_id);
  checkMilestoneFilter(filters);
  return { ...filters, scope: filters.scope == null ? defaultScope : scopeOf(filters.scope) };
}

function scopeOf(value: string): IssueScope {
  const scope = SCOPES.find((known) => known === value.replace(/-/g, "_"));
  if (!scope) throw paramError("scope does not have a valid value");
  return scope;
}

async function pageOf(ctx: DomainContext, where: Prisma.IssueWhereInput, filters: CheckedIssueFilters, page: PageArgs) {
  const column = { created_at: "createdAt", updated_at: "updatedAt", title: "title", due_date: "dueDate" }[filters.order_by ?? "created_at"];
  const sort = filters.sort ?? "desc";
  // a missing due date sorts last either way, as GitLab orders it (and the same on SQLite and PostgreSQL)
  const orderBy = [{ [column]: column === "dueDate" ? { sort, nulls: "last" } : sort }, { id: sort }];
  return paginate(
    page,
    // counted in the page's order too: the index that serves the page serves the count
    (cap) => keptCount(ctx, `${cap}:${JSON.stringify(where)}`, () => ctx.db.issue.count({ where, orderBy, take: cap })),
    (skip, take) => ctx.db.issue.findMany({ where, skip, take, orderBy }),
  );
}

/** Filters longer than this (labels matched by id lists) are counted each time rather than kept. */
const LONGEST_KEPT_FILTER = 4_096;

/**
 * A list's count, kept until an issue changes (in any process): a project's later pages and
 * repeated reads do not count up to 10,001 rows again.
 */
async function keptCount(ctx: DomainContext, filter: string, count: () => Promise<number>): Promise<number> {
  if (filter.length > LONGEST_KEPT_FILTER) return count();
  return (await ctx.caches.issueCounts.load(filter, async () => ({ value: await count() })))!;
}

/** Projects whose issues the caller may read: visible projects with the issues feature open to them. */
async function issueProjectsWhere(ctx: DomainContext): Promise<Prisma.ProjectWhereInput> {
  if (isAdmin(ctx.actor)) return { issuesAccessLevel: { not: "disabled" } };
  const open: Prisma.ProjectWhereInput = { visibility: { in: openVisibilities(ctx.actor) }, issuesAccessLevel: "enabled" };
  if (!ctx.actor) return open;
  const asMember = { AND: [await authorizedProjectsWhere(ctx, AccessLevel.guest), { issuesAccessLevel: { in: ["enabled", "private"] } }] };
  return { OR: [open, asMember] };
}

/** Confidential issues across projects: those of projects where the caller is a Planner or above, or their own. */
async function confidentialWhere(ctx: DomainContext): Promise<Prisma.IssueWhereInput> {
  if (isAdmin(ctx.actor)) return {};
  if (!ctx.actor) return { confidential: false };
  return { OR: [...ownOrPublic(ctx.actor.user.id), { project: await authorizedProjectsWhere(ctx, AccessLevel.planner) }] };
}

/** Issues across projects that the caller may read (their projects' issues, confidential ones as the finders allow). */
export async function readableIssuesWhere(ctx: DomainContext): Promise<Prisma.IssueWhereInput> {
  return { AND: [{ project: await issueProjectsWhere(ctx) }, await confidentialWhere(ctx)] };
}

/** Within one project where the caller may not read every confidential issue. */
function ownConfidentialOnly(ctx: DomainContext): Prisma.IssueWhereInput {
  const userId = ctx.actor?.user.id;
  return userId == null ? { confidential: false } : { OR: ownOrPublic(userId) };
}

const ownOrPublic = (userId: number): Prisma.IssueWhereInput[] => [
  { confidential: false }, { authorId: userId }, { assignees: { some: { userId } } },
];

/** The filter params as Prisma conditions. */
async function filterWhere(ctx: DomainContext, f: CheckedIssueFilters): Promise<Prisma.IssueWhereInput[]> {
  const assigneeId = integerNoneAny("assignee_id", f.assignee_id); // checked by checkedFilters already
  const userId = ctx.actor?.user.id ?? -1;
  const where: Prisma.IssueWhereInput[] = [];
  if (f.scope === "created_by_me") where.push({ authorId: userId });
  if (f.scope === "assigned_to_me") where.push({ assignees: { some: { userId } } });
  if (f.state && f.state !== "all") where.push({ state: f.state });
  const labels = labelsCondition(labelFilter(f.labels));
  if (labels) where.push(labels);
  const notLabels = notLabelsCondition(f.not?.labels);
  if (notLabels) where.push(notLabels);
  const milestone = await issuableMilestoneWhere(ctx, f);
  if (milestone) where.push(milestone);
  if (f.iids) where.push({ iid: { in: f.iids } });
  if (f.search) where.push(searchWhere(ctx.dialect, f.search, f.in));
  if (f.matching) where.push(f.matching);
  if (f.author_id != null) where.push({ authorId: f.author_id });
  if (f.author_username != null) where.push({ authorId: await personIdOf(ctx, f.author_username) });
  if (assigneeId !== undefined) where.push(personWhere("assignees", assigneeId));
  for (const name of f.assignee_username ?? []) where.push(personWhere("assignees", await personIdOf(ctx, name)));
  if (f.confidential != null) where.push({ confidential: f.confidential });
  if (f.created_after) where.push({ createdAt: { gte: f.created_after } });
  if (f.created_before) where.push({ createdAt: { lte: f.created_before } });
  if (f.updated_after) where.push({ updatedAt: { gte: f.updated_after } });
  if (f.updated_before) where.push({ updatedAt: { lte: f.updated_before } });
  return where;
}

/**
 * Issuable.full_search's columns (issues and merge requests): `in` names title, description or
 * both comma-joined; naming neither searches both.
 */
export function searchColumns(within: string | null | undefined): ("title" | "description")[] {
  const named = (within ?? "").split(",").map((c) => c.trim());
  const columns = (["title", "description"] as const).filter((column) => named.includes(column));
  return columns.length ? columns : ["title", "description"];
}

function searchWhere(dialect: Dialect, search: string, within: string | null | undefined): Prisma.IssueWhereInput {
  return { OR: searchColumns(within).map((column) => ({ [column]: containsText(dialect, search) })) };
}

