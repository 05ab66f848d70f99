// The milestones of a release (GitLab's milestone_releases): the titles or ids a release write names,
// resolved among the project's milestones and its group's (Releases::BaseService#milestones with
// the group milestones of GitLab's Premium tier), and the milestones a page of releases shows with
// their issue counts (Entities::MilestoneWithStats).
import type { Milestone, Prisma } from "../../generated/prisma/client.js";
import { AppError, paramError } from "../../errors.js";
import type { DomainContext } from "../shared/context.js";
import type { Tx } from "../shared/events.js";
import type { ProjectAccess } from "../shared/parents.js";
import { fitsIdColumn } from "../shared/record-ids.js";
import { milestoneLoader } from "../milestones/loaders.js";

export interface MilestoneInput {
  milestones?: string[] | null;
  milestone_ids?: (string | number)[] | null;
}

/** A milestone as a release shows it, with its issues' counts. */
export interface ReleaseMilestoneView {
  milestone: Milestone;
  total: number;
  closed: number;
}

/** Grape's Array[Integer] coercion of milestone_ids (CommaSeparatedToIntegerArray): integers, else 400. */
export function milestoneIdsOf(input: MilestoneInput): number[] | undefined {
  if (input.milestone_ids == null) return undefined;
  return input.milestone_ids.map((value) => {
    const id = typeof value === "number" ? value : /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(id)) throw paramError("milestone_ids is invalid");
    return id;
  });
}

/** The project's milestones and, in a group, the group's (the project's parent group only, as GitLab's project_group_id). */
const releasableWhere = ({ project }: ProjectAccess): Prisma.MilestoneWhereInput => ({
  OR: [{ projectId: project.id }, ...(project.namespace.kind === "group" ? [{ groupId: project.namespace.id }] : [])],
});

/**
 * The milestones a release write names, or undefined when it names none (milestones and
 * milestone_ids both absent). An empty list asks for none. Titles or ids that are not among the
 * project's and its group's milestones are refused with GitLab's 400.
 */
export async function resolveMilestones(ctx: DomainContext, access: ProjectAccess, input: MilestoneInput): Promise<Milestone[] | undefined> {
  const ids = milestoneIdsOf(input);
  const titles = input.milestones ?? undefined;
  if (titles === undefined && ids === undefined) return undefined;
  const found = titles?.length || ids?.length
    ? await ctx.db.milestone.findMany({
        where: { AND: [releasableWhere(access), titles ? { title: { in: titles } } : { id: { in: ids!.filter(fitsIdColumn) } }] },
        orderBy: { id: "asc" },
      })
    : [];
  if (titles) {
    const missing = titles.filter((title) => !found.some((milestone) => milestone.title === title));
    if (missing.length) throw new AppError(400, { message: `Milestone(s) not found: ${missing.join(", ")}` });
  }
  if (ids) {
    const missing = ids.filter((id) => !found.some((milestone) => milestone.id === id));
    if (missing.length) throw new AppError(400, { message: `Milestone id(s) not found: ${missing.join(", ")}` });
  }
  return found;
}

/** Replaces the release's milestones by the ones given (inside the write's transaction). */
export async function setReleaseMilestones(tx: Tx, releaseId: number, milestones: Milestone[]): Promise<void> {
  await tx.releaseMilestone.deleteMany({ where: { releaseId } });
  const ids = [...new Set(milestones.map((milestone) => milestone.id))];
  if (ids.length) await tx.releaseMilestone.createMany({ data: ids.map((milestoneId) => ({ releaseId, milestoneId })) });
}

/**
 * The milestones of a page of releases (by release id, each list by milestone id), with their
 * issues' counts: one statement for the links, the milestones from the milestones cache and one
 * statement for the counts. `releaseIds` are the releases known to have any.
 */
export async function milestonesOfReleases(ctx: DomainContext, releaseIds: number[]): Promise<Map<number, ReleaseMilestoneView[]>> {
  const byRelease = new Map<number, ReleaseMilestoneView[]>();
  if (!releaseIds.length) return byRelease;
  const links = await ctx.db.releaseMilestone.findMany({ where: { releaseId: { in: releaseIds } }, orderBy: [{ releaseId: "asc" }, { milestoneId: "asc" }] });
  if (!links.length) return byRelease;
  const milestoneIds = [...new Set(links.map((link) => link.milestoneId))];
  const [milestones, counts] = await Promise.all([
    ctx.loaders.get(milestoneLoader).loadMany(milestoneIds),
    ctx.db.issue.groupBy({ by: ["milestoneId", "state"], where: { milestoneId: { in: milestoneIds } }, _count: { _all: true } }),
  ]);
  const byId = new Map<number, Milestone>();
  for (const milestone of milestones) if (milestone && !(milestone instanceof Error)) byId.set(milestone.id, milestone);
  const stats = (id: number) => {
    const rows = counts.filter((row) => row.milestoneId === id);
    return {
      total: rows.reduce((sum, row) => sum + row._count._all, 0),
      closed: rows.filter((row) => row.state === "closed").reduce((sum, row) => sum + row._count._all, 0),
    };
  };
  for (const link of links) {
    const milestone = byId.get(link.milestoneId);
    if (!milestone) continue;
    const list = byRelease.get(link.releaseId) ?? [];
    list.push({ milestone, ...stats(milestone.id) });
    byRelease.set(link.releaseId, list);
  }
  return byRelease;
}
