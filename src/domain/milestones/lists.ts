// GET /projects/:id/milestones and /groups/:id/milestones (GitLab's MilestonesFinder as
// milestone_responses.rb drives it): a parent's milestones, optionally with its ancestor groups',
// filtered, earliest due date first (none last), then newest.
import type { Milestone, Prisma } from "../../generated/prisma/client.js";
import { paramError } from "../../errors.js";
import { ancestorIds } from "../shared/access-levels.js";
import type { DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { requireExclusive } from "../shared/param-rules.js";
import type { GroupOrProjectAccess } from "../shared/parents.js";
import { containsText, fuzzySearch } from "../shared/paths.js";
import { projectGroupIds, usableMilestonesWhere } from "./queries.js";
import { requireReadMilestones } from "./rules.js";

export const MILESTONE_STATES = ["active", "closed", "all"] as const;

export interface MilestoneFilters {
  state?: string | null;
  iids?: number[] | null;
  title?: string | null;
  search?: string | null;
  include_ancestors?: boolean | null;
  /** the deprecated name of include_ancestors */
  include_parent_milestones?: boolean | null;
  updated_before?: Date | null;
  updated_after?: Date | null;
}

/** Grape's checks of the list params, before the parent is looked up. */
export function checkMilestoneFilters(filters: MilestoneFilters): MilestoneFilters {
  if (filters.state != null && !(MILESTONE_STATES as readonly string[]).includes(filters.state)) throw paramError("state does not have a valid value");
  requireExclusive(filters, [["include_ancestors", "include_parent_milestones"]]);
  return filters;
}

export async function listMilestones(ctx: DomainContext, parent: GroupOrProjectAccess, filters: MilestoneFilters, page: PageArgs): Promise<Page<Milestone>> {
  requireReadMilestones(ctx, parent);
  const where: Prisma.MilestoneWhereInput = { AND: [ownersWhere(parent, ancestorsAsked(filters)), ...filterWhere(ctx, filters)] };
  const orderBy: Prisma.MilestoneOrderByWithRelationInput[] = [{ dueDate: { sort: "asc", nulls: "last" } }, { id: "desc" }];
  return paginate(
    page,
    (cap) => ctx.db.milestone.count({ where, take: cap }),
    (skip, take) => ctx.db.milestone.findMany({ where, orderBy, skip, take }),
  );
}

const ancestorsAsked = (filters: MilestoneFilters) => !!(filters.include_ancestors ?? filters.include_parent_milestones);

/** The parent's own milestones, or with those of its groups (a project's) or its ancestors (a group's). */
function ownersWhere(parent: GroupOrProjectAccess, withAncestors: boolean): Prisma.MilestoneWhereInput {
  if ("group" in parent) return withAncestors ? { groupId: { in: ancestorIds(parent.group) } } : { groupId: parent.group.id };
  return withAncestors ? usableMilestonesWhere(parent.project.id, projectGroupIds(parent)) : { projectId: parent.project.id };
}

/** Milestone's minimum search length for a substring match (shorter terms match whole titles or descriptions). */
const MIN_CHARS_FOR_PARTIAL_MATCHING = 2;

function filterWhere(ctx: DomainContext, f: MilestoneFilters): Prisma.MilestoneWhereInput[] {
  const where: Prisma.MilestoneWhereInput[] = [];
  // Timebox.filter_by_state: closed, all, and anything else (active) the active ones
  const state = f.state ?? "all";
  if (state !== "all") where.push({ state: state === "closed" ? "closed" : "active" });
  // iids are ignored together with the ancestors' milestones (MilestonesFinder#by_iids)
  if (f.iids?.length && !ancestorsAsked(f)) where.push({ iid: { in: f.iids } });
  if (f.title != null) where.push({ title: f.title });
  if (f.search) {
    where.push(
      f.search.length >= MIN_CHARS_FOR_PARTIAL_MATCHING
        ? { OR: [{ title: containsText(ctx.dialect, f.search) }, { description: containsText(ctx.dialect, f.search) }] }
        : fuzzySearch<Prisma.MilestoneWhereInput>(ctx.dialect, ["title", "description"], f.search),
    );
  }
  if (f.updated_before) where.push({ updatedAt: { lte: f.updated_before } });
  if (f.updated_after) where.push({ updatedAt: { gte: f.updated_after } });
  return where;
}
