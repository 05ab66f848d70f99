// Merge request lists (MergeRequestsFinder behind GET /projects/:id/merge_requests,
// /groups/:id/merge_requests and /merge_requests): GitLab's filters, scopes and ordering over
// the merge requests the caller may read, offset-paginated.
import type { Prisma } from "../../generated/prisma/client.js";
import { paramError, unauthorized } from "../../errors.js";
import { AccessLevel, openVisibilities } from "../shared/access-levels.js";
import type { GroupAccess, ProjectAccess } from "../shared/parents.js";
import { authorizedProjectsWhere } from "../shared/visibility-filters.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { requireExclusive } from "../shared/param-rules.js";
import { fuzzySearch } from "../shared/paths.js";
import { integerNoneAny, personIdOf, personWhere, searchColumns, type PersonFilter } from "../issues/lists.js";
import { labelFilter, labelsCondition, notLabelsCondition } from "../issues/rules.js";
import { issuableMilestoneWhere } from "../milestones/filters.js";
import { ROW_INCLUDE, requireReadMergeRequests, type MergeRequestRow } from "./queries.js";

export const MERGE_REQUEST_STATES = ["opened", "closed", "locked", "merged", "all"] as const;
/** GitLab's order_by values; label_priority, milestone_due, popularity and priority order as created_at (no such data here). */
export const MERGE_REQUEST_ORDER = ["created_at", "label_priority", "milestone_due", "popularity", "priority", "title", "updated_at", "merged_at"] as const;
const SCOPES = ["created-by-me", "assigned-to-me", "created_by_me", "assigned_to_me", "all"];

export interface MergeRequestFilters {
  state?: (typeof MERGE_REQUEST_STATES)[number] | null;
  order_by?: (typeof MERGE_REQUEST_ORDER)[number] | null;
  sort?: "asc" | "desc" | null;
  scope?: string | null;
  author_id?: number | null;
  author_username?: string | null;
  assignee_id?: string | null;
  assignee_username?: string[] | null;
  reviewer_id?: string | null;
  reviewer_username?: string | null;
  labels?: string[] | null;
  /** GitLab's `not` Hash: not[labels] */
  not?: { labels?: string[] | null } | null;
  milestone?: string | null;
  source_branch?: string | null;
  target_branch?: string | null;
  search?: string | null;
  in?: string | null;
  wip?: "yes" | "no" | null;
  created_after?: Date | null;
  created_before?: Date | null;
  updated_after?: Date | null;
  updated_before?: Date | null;
  iids?: number[] | null;
  /** a text match found by the caller (search's index-backed matching), besides `search` */
  matching?: Prisma.MergeRequestWhereInput | null;
}

/** GET /projects/:id/merge_requests: 403 without the merge requests feature. */
export async function listProjectMergeRequests(
  ctx: DomainContext, access: ProjectAccess, filters: MergeRequestFilters, page: PageArgs,
): Promise<Page<MergeRequestRow>> {
  requireReadMergeRequests(ctx, access);
  return listMergeRequests(ctx, { projectId: access.project.id }, filters, page);
}

/** GET /groups/:id/merge_requests: across the projects of the group and its subgroups whose merge requests the caller may read. */
export async function listGroupMergeRequests(
  ctx: DomainContext, { group }: GroupAccess, filters: MergeRequestFilters & { non_archived?: boolean | null }, page: PageArgs,
): Promise<Page<MergeRequestRow>> {
  const project: Prisma.ProjectWhereInput = {
    AND: [await readableProjectsWhere(ctx), { namespace: { traversalIds: { startsWith: group.traversalIds } } }],
    ...(filters.non_archived !== false ? { archived: false } : {}),
  };
  const listed = await listMergeRequests(ctx, { project }, filters, page);
  return { ...listed, rows: listed.rows.map((mr) => ({ ...mr, listedInGroupId: group.id })) };
}

/** GET /merge_requests: the caller's own by default (scope created_by_me); only scope=all works anonymously. */
export async function listAllMergeRequests(ctx: DomainContext, filters: MergeRequestFilters, page: PageArgs): Promise<Page<MergeRequestRow>> {
  const scoped = { ...filters, scope: filters.scope ?? "created_by_me" };
  if (scoped.scope !== "all" && !ctx.actor) throw unauthorized();
  return listMergeRequests(ctx, { project: await readableProjectsWhere(ctx) }, scoped, page);
}

async function listMergeRequests(
  ctx: DomainContext,
  scope: Prisma.MergeRequestWhereInput,
  filters: MergeRequestFilters,
  page: PageArgs,
): Promise<Page<MergeRequestRow>> {
  const where: Prisma.MergeRequestWhereInput = { AND: [scope, ...(await filterConditions(ctx, filters))] };
  const direction = filters.sort ?? "desc";
  const orderBy = [orderOf(orderColumn(filters.order_by), direction), { id: direction }];
  return paginate(
    page,
    // counted in the page's order too: the index that serves the page serves the count
    (cap) => ctx.db.mergeRequest.count({ where, orderBy, take: cap }),
    (skip, take) => ctx.db.mergeRequest.findMany({ include: ROW_INCLUDE, where, orderBy, skip, take }) as Promise<MergeRequestRow[]>,
  );
}

/** Unmerged merge requests sort last by merged_at either way (GitLab's nulls_last; SQLite and PostgreSQL differ without it). */
const orderOf = (column: ReturnType<typeof orderColumn>, sort: "asc" | "desc") =>
  ({ [column]: column === "mergedAt" ? { sort, nulls: "last" } : sort }) as Prisma.MergeRequestOrderByWithRelationInput;

function orderColumn(orderBy: MergeRequestFilters["order_by"]): "createdAt" | "updatedAt" | "title" | "mergedAt" {
  if (orderBy === "updated_at") return "updatedAt";
  if (orderBy === "title") return "title";
  if (orderBy === "merged_at") return "mergedAt";
  return "createdAt";
}

/** Projects whose merge requests the caller may read (read_merge_request), for lists across projects. */
export async function readableProjectsWhere(ctx: DomainContext): Promise<Prisma.ProjectWhereInput> {
  const featureOn = { mergeRequestsAccessLevel: { not: "disabled" } };
  if (isAdmin(ctx.actor)) return featureOn;
  const open = { visibility: { in: openVisibilities(ctx.actor) }, mergeRequestsAccessLevel: "enabled" };
  if (!ctx.actor) return open;
  return { OR: [open, { AND: [featureOn, await authorizedProjectsWhere(ctx, AccessLevel.reporter)] }] };
}

async function filterConditions(ctx: DomainContext, f: MergeRequestFilters): Promise<Prisma.MergeRequestWhereInput[]> {
  requireExclusive(f, [["author_id", "author_username"], ["assignee_id", "assignee_username"], ["reviewer_id", "reviewer_username"]]);
  if (f.scope != null && !SCOPES.includes(f.scope)) throw paramError("scope does not have a valid value");
  const assigneeId = integerNoneAny("assignee_id", f.assignee_id);
  const reviewerId = integerNoneAny("reviewer_id", f.reviewer_id);
  const conditions: Prisma.MergeRequestWhereInput[] = [];
  const userId = ctx.actor?.user.id ?? -1;
  if (f.scope === "created_by_me" || f.scope === "created-by-me") conditions.push({ authorId: userId });
  if (f.scope === "assigned_to_me" || f.scope === "assigned-to-me") conditions.push({ assignees: { some: { userId } } });
  if (f.state && f.state !== "all") conditions.push({ state: f.state });
  if (f.author_id != null) conditions.push({ authorId: f.author_id });
  if (f.author_username != null) conditions.push({ authorId: await personIdOf(ctx, f.author_username) });
  if (assigneeId !== undefined) conditions.push(personWhere("assignees", assigneeId));
  for (const name of f.assignee_username ?? []) conditions.push(personWhere("assignees", await personIdOf(ctx, name)));
  if (reviewerId !== undefined) conditions.push(personWhere("reviewers", reviewerId));
  if (f.reviewer_username != null) conditions.push(personWhere("reviewers", await reviewerUsername(ctx, f.reviewer_username)));
  const labels = labelsCondition(labelFilter(f.labels));
  if (labels) conditions.push(labels);
  const notLabels = notLabelsCondition(f.not?.labels);
  if (notLabels) conditions.push(notLabels);
  const milestone = await issuableMilestoneWhere(ctx, { milestone: f.milestone });
  if (milestone) conditions.push(milestone);
  if (f.source_branch != null) conditions.push({ sourceBranch: f.source_branch });
  if (f.target_branch != null) conditions.push({ targetBranch: f.target_branch });
  if (f.search) conditions.push(fuzzySearch<Prisma.MergeRequestWhereInput>(ctx.dialect, searchColumns(f.in), f.search));
  if (f.wip) conditions.push({ draft: f.wip === "yes" });
  if (f.created_after || f.created_before) conditions.push({ createdAt: { gte: f.created_after ?? undefined, lte: f.created_before ?? undefined } });
  if (f.updated_after || f.updated_before) conditions.push({ updatedAt: { gte: f.updated_after ?? undefined, lte: f.updated_before ?? undefined } });
  if (f.iids) conditions.push({ iid: { in: f.iids } });
  if (f.matching) conditions.push(f.matching);
  return conditions;
}

async function reviewerUsername(ctx: DomainContext, name: string): Promise<PersonFilter> {
  const word = name.toLowerCase();
  return word === "none" || word === "any" ? word : personIdOf(ctx, name);
}
