// The `milestone` and `milestone_id` filters of issue and merge request lists (IssuableFinder's
// by_milestone): a title, or one of GitLab's wildcards (None, Any, Upcoming, Started).
import type { Prisma } from "../../generated/prisma/client.js";
import { paramError } from "../../errors.js";
import type { DomainContext } from "../shared/context.js";
import { requireExclusive } from "../shared/param-rules.js";

/** The values `milestone_id` accepts (Grape's `values`, exactly spelled). */
export const MILESTONE_WILDCARDS = ["Any", "None", "Upcoming", "Started"] as const;

type Wildcard = "none" | "any" | "upcoming" | "started";

/** A condition that fits issues and merge requests alike (both have `milestoneId` and `milestone`). */
export type IssuableMilestoneWhere = Prisma.IssueWhereInput & Prisma.MergeRequestWhereInput;

/** Grape's checks of the filters: `milestone_id` among the wildcards, not both. */
export function checkMilestoneFilter(filters: { milestone?: string | null; milestone_id?: string | null }): void {
  if (filters.milestone_id != null && !(MILESTONE_WILDCARDS as readonly string[]).includes(filters.milestone_id)) {
    throw paramError("milestone_id does not have a valid value");
  }
  requireExclusive(filters, [["milestone_id", "milestone"]]);
}

/**
 * What `milestone` (a title; "None" or the older "No Milestone", "Any" in any case; "#upcoming",
 * "#started") or `milestone_id` (a wildcard) asks for, as a condition; null when neither is given.
 */
export async function issuableMilestoneWhere(
  ctx: DomainContext, filters: { milestone?: string | null; milestone_id?: string | null },
): Promise<IssuableMilestoneWhere | null> {
  const wildcard = wildcardOf(filters);
  if (wildcard === undefined) return filters.milestone == null ? null : { milestone: { title: filters.milestone } };
  const today = ctx.now().toISOString().slice(0, 10);
  if (wildcard === "none") return { milestoneId: null };
  if (wildcard === "any") return { milestoneId: { not: null } };
  if (wildcard === "started") return { milestone: { state: "active", startDate: { lte: today } } };
  return { milestoneId: { in: await upcomingIds(ctx, today) } };
}

function wildcardOf(filters: { milestone?: string | null; milestone_id?: string | null }): Wildcard | undefined {
  if (filters.milestone_id != null) return filters.milestone_id.toLowerCase() as Wildcard;
  const title = filters.milestone;
  if (title == null) return undefined;
  const lower = title.toLowerCase();
  if (lower === "none" || title === "No Milestone") return "none";
  if (lower === "any") return "any";
  if (title === "#upcoming") return "upcoming";
  if (title === "#started") return "started";
  return undefined;
}

/**
 * Milestone.upcoming_ids: for each project and group, its active milestone due soonest after
 * today.
 */
async function upcomingIds(ctx: DomainContext, today: string): Promise<number[]> {
  const rows = await ctx.db.milestone.findMany({
    where: { state: "active", dueDate: { gt: today } },
    select: { id: true, projectId: true, groupId: true },
    orderBy: [{ dueDate: "asc" }, { id: "asc" }],
  });
  const first = new Map<string, number>();
  for (const row of rows) {
    const owner = `${row.projectId ?? ""}:${row.groupId ?? ""}`;
    if (!first.has(owner)) first.set(owner, row.id);
  }
  return [...first.values()];
}
