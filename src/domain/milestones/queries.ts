// One milestone of a project or a group, found through a parent the caller may see (GitLab's
// `parent.milestones.find(milestone_id)`: by database id, among the parent's own milestones), the
// milestones a project's issues and merge requests may use, and title uniqueness.
import type { Milestone, Prisma } from "../../generated/prisma/client.js";
import { recordNotFound } from "../../errors.js";
import { ancestorIds } from "../shared/access-levels.js";
import type { DomainContext } from "../shared/context.js";
import type { Tx } from "../shared/events.js";
import { findGroup, findProject, type GroupOrProjectAccess, type ProjectAccess } from "../shared/parents.js";
import { fitsIdColumn } from "../shared/record-ids.js";
import { requireAdminMilestones, requireReadMilestones } from "./rules.js";

/** A milestone found through a parent the caller may see. */
export interface FoundMilestone {
  parent: GroupOrProjectAccess;
  milestone: Milestone;
}

/** The `projectId` or `groupId` condition of a parent's own milestones. */
export const ownerOf = (parent: GroupOrProjectAccess) =>
  "group" in parent ? { groupId: parent.group.id } : { projectId: parent.project.id };

/** GET/PUT/DELETE .../milestones/:milestone_id: read_milestone (403), then the parent's own milestone (404 Not found). */
export async function findMilestone(ctx: DomainContext, parent: GroupOrProjectAccess, id: number): Promise<FoundMilestone> {
  requireReadMilestones(ctx, parent);
  const milestone = fitsIdColumn(id) ? await ctx.db.milestone.findFirst({ where: { id, ...ownerOf(parent) } }) : null;
  if (!milestone) throw recordNotFound();
  return { parent, milestone };
}

/** A milestone by database id (the graph's global ids): its project or group found for the caller, then read_milestone. */
export async function findMilestoneById(ctx: DomainContext, id: number): Promise<FoundMilestone> {
  const milestone = fitsIdColumn(id) ? await ctx.db.milestone.findUnique({ where: { id } }) : null;
  if (!milestone) throw recordNotFound();
  const parent = milestone.projectId !== null ? await findProject(ctx, milestone.projectId) : await findGroup(ctx, milestone.groupId!);
  requireReadMilestones(ctx, parent);
  return { parent, milestone };
}

/** The groups above a project (its namespace and that group's ancestors; none in a personal namespace). */
export const projectGroupIds = ({ project }: ProjectAccess) => (project.namespace.kind === "group" ? ancestorIds(project.namespace) : []);

/**
 * The milestones an issue or a merge request of the project may have (IssuableBaseService's
 * filter_milestone): the project's and its groups'.
 */
export const usableMilestonesWhere = (projectId: number, groupIds: number[]): Prisma.MilestoneWhereInput => ({
  OR: [{ projectId }, ...(groupIds.length ? [{ groupId: { in: groupIds } }] : [])],
});

/** A milestone id the project's issuables may use, or null (unknown, or another parent's: GitLab sets none). */
export async function usableMilestone(ctx: DomainContext, access: ProjectAccess, id: number): Promise<Milestone | null> {
  if (!fitsIdColumn(id)) return null;
  return ctx.db.milestone.findFirst({ where: { id, ...usableMilestonesWhere(access.project.id, projectGroupIds(access)) } });
}

/**
 * Milestone#uniqueness_of_title: a project milestone's title is taken by the project's others and
 * its groups'; a group milestone's by the milestones of the group, its ancestors and descendants,
 * and of every project below it.
 */
export async function titleTaken(tx: Tx | DomainContext["db"], parent: GroupOrProjectAccess, title: string, exceptId?: number): Promise<boolean> {
  let where: Prisma.MilestoneWhereInput;
  if ("group" in parent) {
    const below = { traversalIds: { startsWith: parent.group.traversalIds } };
    where = {
      OR: [
        { groupId: { in: ancestorIds(parent.group) } },
        { group: below },
        { project: { namespace: below } },
      ],
    };
  } else {
    where = usableMilestonesWhere(parent.project.id, projectGroupIds(parent));
  }
  const except = exceptId != null ? [{ id: { not: exceptId } }] : [];
  return (await tx.milestone.count({ where: { AND: [where, { title }, ...except] }, take: 1 })) > 0;
}

/** PUT/DELETE .../milestones/:milestone_id: admin_milestone (403) before the lookup, as GitLab authorizes first. */
export async function findMilestoneToAdminister(ctx: DomainContext, parent: GroupOrProjectAccess, id: number): Promise<FoundMilestone> {
  requireAdminMilestones(ctx, parent);
  return findMilestone(ctx, parent, id);
}
