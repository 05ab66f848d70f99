// Project lists (GET /projects, GET /groups/:id/projects, a namespace's projects): ProjectsFinder's
// filters, GitLab's ordering with an id tie-breaker, offset and keyset (id_after / id_before) pagination.
import type { Namespace, Prisma, Project } from "../../generated/prisma/client.js";
import { AccessLevel } from "../shared/access-levels.js";
import type { GroupAccess } from "../shared/parents.js";
import { authorizedProjectsWhere, visibleProjectsWhere } from "../shared/visibility-filters.js";
import type { DomainContext } from "../shared/context.js";
import { keysetUnavailable } from "../groups/lists.js";
import { paginate, pageWindow, type KeysetPage, type KeysetPageArgs, type Page, type PageArgs, type SortDirection } from "../shared/pagination.js";
import { fuzzySearch, type Visibility } from "../shared/paths.js";

export type ProjectWithNamespace = Project & { namespace: Namespace };

export const PROJECT_ORDER_COLUMNS = ["id", "name", "path", "created_at", "updated_at", "last_activity_at"] as const;
// GitLab orders created_at by id (same order, indexed).
const projectColumn: Record<(typeof PROJECT_ORDER_COLUMNS)[number], string> = {
  id: "id", name: "name", path: "path", created_at: "id", updated_at: "updatedAt", last_activity_at: "lastActivityAt",
};

export interface ProjectFilters {
  search?: string | null;
  visibility?: Visibility | null;
  membership?: boolean | null;
  owned?: boolean | null;
  min_access_level?: number | null;
  archived?: boolean | null;
  topic?: string[] | null;
  topic_id?: number | null;
  order_by?: (typeof PROJECT_ORDER_COLUMNS)[number] | null;
  sort?: SortDirection | null;
  id_after?: number | null;
  id_before?: number | null;
}

async function projectsWhere(ctx: DomainContext, filters: ProjectFilters, scope: Prisma.ProjectWhereInput = {}): Promise<Prisma.ProjectWhereInput> {
  const and: Prisma.ProjectWhereInput[] = [scope, await visibleProjectsWhere(ctx), ...(await accessFilters(ctx, filters))];
  if (filters.search) and.push(fuzzySearch<Prisma.ProjectWhereInput>(ctx.dialect, ["path", "name", "description"], filters.search));
  if (filters.visibility) and.push({ visibility: filters.visibility });
  if (filters.archived != null) and.push({ archived: filters.archived });
  for (const name of topicNames(filters.topic)) and.push({ topics: { some: { topic: { nameLower: name.toLowerCase() } } } });
  if (filters.topic_id) and.push({ topics: { some: { topicId: filters.topic_id } } });
  if (filters.id_after) and.push({ id: { gt: filters.id_after } });
  if (filters.id_before) and.push({ id: { lt: filters.id_before } });
  return { AND: and };
}

/** `owned` (Owner, personal namespaces included), `membership` and `min_access_level`; anonymous callers own nothing. */
async function accessFilters(ctx: DomainContext, filters: ProjectFilters): Promise<Prisma.ProjectWhereInput[]> {
  const wanted = [
    filters.owned ? AccessLevel.owner : 0,
    filters.membership ? AccessLevel.guest : 0,
    filters.min_access_level ?? 0,
  ].filter((level) => level > 0);
  return Promise.all(wanted.map((min) => authorizedProjectsWhere(ctx, min)));
}

/** Every project row carries its namespace: paths, URLs and access all need it. */
const WITH_NAMESPACE = { include: { namespace: true } } as const;

const topicNames = (topics: string[] | null | undefined) =>
  (topics ?? []).flatMap((t) => t.split(",")).map((t) => t.trim()).filter(Boolean);

function projectOrder(filters: ProjectFilters): Prisma.ProjectOrderByWithRelationInput[] {
  const sort = filters.sort ?? "desc";
  const column = projectColumn[filters.order_by ?? "created_at"];
  return column === "id" ? [{ id: sort }] : [{ [column]: sort }, { id: sort }];
}

/** GET /projects */
export function listProjects(ctx: DomainContext, filters: ProjectFilters, page: PageArgs): Promise<Page<ProjectWithNamespace>> {
  return listProjectsIn(ctx, {}, filters, page);
}

/** The project list within a scope of projects (users/memberships.ts: a user's personal projects). */
export async function listProjectsIn(
  ctx: DomainContext, scope: Prisma.ProjectWhereInput, filters: ProjectFilters, page: PageArgs,
): Promise<Page<ProjectWithNamespace>> {
  const where = await projectsWhere(ctx, filters, scope);
  const orderBy = projectOrder(filters);
  return paginate(
    page,
    (cap) => ctx.db.project.count({ where, orderBy, take: cap }),
    (skip, take) => ctx.db.project.findMany({ ...WITH_NAMESPACE, where, orderBy, skip, take }) as Promise<ProjectWithNamespace[]>,
  );
}

/** Keyset pagination of GET /projects: order_by=id only, continued by id_after (asc) / id_before (desc). */
export async function listProjectsKeyset(ctx: DomainContext, filters: ProjectFilters, page: KeysetPageArgs): Promise<KeysetPage<ProjectWithNamespace>> {
  if ((filters.order_by ?? "id") !== "id") throw keysetUnavailable();
  const sort = filters.sort ?? "desc";
  const { take } = pageWindow(page);
  const where = await projectsWhere(ctx, filters);
  const rows = (await ctx.db.project.findMany({ ...WITH_NAMESPACE, where, orderBy: { id: sort }, take: take + 1 })) as ProjectWithNamespace[];
  const shown = rows.slice(0, take);
  const last = shown[shown.length - 1];
  const next = rows.length > take && last ? { [sort === "asc" ? "id_after" : "id_before"]: String(last.id) } : null;
  return { rows: shown, next };
}

export interface GroupProjectFilters extends ProjectFilters {
  include_subgroups?: boolean | null;
}

/** GET /groups/:id/projects: the group's projects (with include_subgroups, those of every level below too). */
export function listGroupProjects(
  ctx: DomainContext, parent: GroupAccess, filters: GroupProjectFilters, page: PageArgs,
): Promise<Page<ProjectWithNamespace>> {
  const { group } = parent;
  const scope = filters.include_subgroups ? { namespace: { traversalIds: { startsWith: group.traversalIds } } } : { namespaceId: group.id };
  return listProjectsIn(ctx, scope, filters, page);
}

/**
 * The projects directly in a group or personal namespace the caller was shown (findNamespace, a
 * visible list): each project is filtered by its own visibility, so the namespace needs no level.
 */
export function listNamespaceProjects(
  ctx: DomainContext, namespace: Namespace, filters: ProjectFilters, page: PageArgs,
): Promise<Page<ProjectWithNamespace>> {
  return listProjectsIn(ctx, { namespaceId: namespace.id }, filters, page);
}
