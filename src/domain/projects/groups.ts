// GET /projects/:id/groups (GitLab's Projects::GroupsFinder): the project's group and its
// ancestors, newest id first, for anyone who can read the project. Shared groups (with_shared)
// come from groups invited to the project, which Forgeline has no way to invite yet: none.
import type { Namespace, Prisma } from "../../generated/prisma/client.js";
import { paramError } from "../../errors.js";
import { ancestorIds, VALID_MEMBER_LEVELS } from "../shared/access-levels.js";
import type { ProjectAccess } from "../shared/parents.js";
import type { DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { fuzzySearch } from "../shared/paths.js";

export interface ProjectGroupFilters {
  search?: string | null;
  skip_groups?: number[] | null;
}

/** The params of GET /projects/:id/groups; the shared_* ones would select the (absent) shared groups. */
export interface ProjectGroupParams extends ProjectGroupFilters {
  with_shared?: boolean | null;
  shared_visible_only?: boolean | null;
  shared_min_access_level?: number | null;
}

/** The filters of the params, checked before the project is looked up (GitLab's 400 comes first). */
export function projectGroupFilters(params: ProjectGroupParams): ProjectGroupFilters {
  if (params.shared_min_access_level != null && !VALID_MEMBER_LEVELS.includes(params.shared_min_access_level)) {
    throw paramError("shared_min_access_level does not have a valid value");
  }
  return { search: params.search, skip_groups: params.skip_groups };
}

export async function listProjectGroups(ctx: DomainContext, parent: ProjectAccess, filters: ProjectGroupFilters, page: PageArgs): Promise<Page<Namespace>> {
  const { namespace } = parent.project;
  const ancestors = namespace.kind === "group" ? ancestorIds(namespace) : [];
  const and: Prisma.NamespaceWhereInput[] = [{ id: { in: ancestors } }];
  if (filters.skip_groups?.length) and.push({ id: { notIn: filters.skip_groups } });
  if (filters.search) and.push(fuzzySearch<Prisma.NamespaceWhereInput>(ctx.dialect, ["name", "path"], filters.search));
  const where = { AND: and };
  return paginate(
    page,
    (cap) => ctx.db.namespace.count({ where, take: cap }),
    (skip, take) => ctx.db.namespace.findMany({ where, orderBy: { id: "desc" }, skip, take }),
  );
}
