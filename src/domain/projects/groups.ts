// GET /projects/:id/groups (GitLab's Projects::GroupsFinder): the project's group and its
// ancestors, newest id first, for anyone who can read the project. Shared groups (with_shared)
// come from groups invited to the project, which Forgeline has no way to invite yet: none.
import type { Namespace, Prisma } from "../../generated/prisma/client.js";
import { paramError } from "../../errors.js";
import { ancestorIds, findProject, VALID_MEMBER_LEVELS } from "../shared/access.js";
import type { DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { fuzzySearch } from "../shared/paths.js";

export interface ProjectGroupFilters extends PageArgs {
  search?: string | null;
  skip_groups?: number[] | null;
  with_shared?: boolean | null;
  shared_visible_only?: boolean | null;
  shared_min_access_level?: number | null;
}

export async function listProjectGroups(ctx: DomainContext, id: string, filters: ProjectGroupFilters): Promise<Page<Namespace>> {
  if (filters.shared_min_access_level != null && !VALID_MEMBER_LEVELS.includes(filters.shared_min_access_level)) {
    throw paramError("shared_min_access_level does not have a valid value");
  }
  const { project } = await findProject(ctx, id);
  const ancestors = project.namespace.kind === "group" ? ancestorIds(project.namespace) : [];
  const and: Prisma.NamespaceWhereInput[] = [{ id: { in: ancestors } }];
  if (filters.skip_groups?.length) and.push({ id: { notIn: filters.skip_groups } });
  if (filters.search) and.push(fuzzySearch<Prisma.NamespaceWhereInput>(ctx.dialect, ["name", "path"], filters.search));
  const where = { AND: and };
  return paginate(
    filters,
    (cap) => ctx.db.namespace.count({ where, take: cap }),
    (skip, take) => ctx.db.namespace.findMany({ where, orderBy: { id: "desc" }, skip, take }),
  );
}
