// GET /projects/:id/releases (ReleasesFinder) and GET /groups/:id/releases (GroupReleasesFinder),
// and a release's asset links: a page of rows, then their views in a constant number of statements.
import type { Prisma, Release, ReleaseLink } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { shownProjectAccess, type GroupAccess, type ProjectAccess } from "../shared/parents.js";
import { visibleProjectsWhere } from "../shared/visibility-filters.js";
import type { FoundRelease } from "./queries.js";
import { COUNT_MILESTONES, releaseViews, type ReleaseView } from "./presenter.js";

export interface ReleaseFilters {
  order_by?: "released_at" | "created_at" | null;
  sort?: "asc" | "desc" | null;
  updated_before?: Date | null;
  updated_after?: Date | null;
}

/** Release.sort_by_attribute, with the id as the tie-breaker so that pages do not overlap. */
function orderOf(filters: ReleaseFilters): Prisma.ReleaseOrderByWithRelationInput[] {
  const sort = filters.sort ?? "desc";
  const column = filters.order_by === "created_at" ? "createdAt" : "releasedAt";
  return [{ [column]: sort }, { id: sort }];
}

/** The project's releases, newest release first by default (read_release: whoever may see the project). */
export async function listReleases(ctx: DomainContext, access: ProjectAccess, filters: ReleaseFilters, page: PageArgs): Promise<Page<ReleaseView>> {
  const where: Prisma.ReleaseWhereInput = {
    projectId: access.project.id,
    tag: { not: "" },
    ...(filters.updated_before || filters.updated_after
      ? { updatedAt: { ...(filters.updated_before ? { lt: filters.updated_before } : {}), ...(filters.updated_after ? { gt: filters.updated_after } : {}) } }
      : {}),
  };
  const rows = await paginate(
    page,
    (cap) => ctx.db.release.count({ where, take: cap }),
    (skip, take) => ctx.db.release.findMany({ where, orderBy: orderOf(filters), skip, take, include: COUNT_MILESTONES }),
  );
  return { ...rows, rows: await releaseViews(ctx, rows.rows.map((release) => ({ access, release }))) };
}

/** The latest release by released_at (the permalink), or null. */
export async function latestRelease(ctx: DomainContext, access: ProjectAccess): Promise<Release | null> {
  return ctx.db.release.findFirst({ where: { projectId: access.project.id, tag: { not: "" } }, orderBy: orderOf({}) });
}

/**
 * The releases of the group's projects and its subgroups' that the caller may see, by released_at
 * (GroupReleasesFinder's order, `sort` only).
 */
export async function listGroupReleases(ctx: DomainContext, { group }: GroupAccess, filters: { sort?: "asc" | "desc" | null }, page: PageArgs): Promise<Page<ReleaseView>> {
  const subtree = { namespace: { traversalIds: { startsWith: group.traversalIds } } };
  const where: Prisma.ReleaseWhereInput = { tag: { not: "" }, project: { AND: [subtree, await visibleProjectsWhere(ctx)] } };
  const rows = await paginate(
    page,
    (cap) => ctx.db.release.count({ where, take: cap }),
    (skip, take) => ctx.db.release.findMany({ where, orderBy: orderOf({ sort: filters.sort }), skip, take, include: { project: { include: { namespace: true } }, ...COUNT_MILESTONES } }),
  );
  const accesses = new Map<number, Promise<ProjectAccess>>();
  const accessOf = (release: (typeof rows.rows)[number]) => {
    if (!accesses.has(release.projectId)) accesses.set(release.projectId, shownProjectAccess(ctx, release.project));
    return accesses.get(release.projectId)!;
  };
  const items = await Promise.all(rows.rows.map(async (row) => {
    const { project: _project, ...release } = row;
    return { access: await accessOf(row), release };
  }));
  return { ...rows, rows: await releaseViews(ctx, items) };
}

/** GET .../assets/links: newest first (Releases::Link.sorted). */
export async function listLinks(ctx: DomainContext, { release }: FoundRelease, page: PageArgs): Promise<Page<ReleaseLink>> {
  const where = { releaseId: release.id };
  return paginate(
    page,
    (cap) => ctx.db.releaseLink.count({ where, take: cap }),
    (skip, take) => ctx.db.releaseLink.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip, take }),
  );
}
