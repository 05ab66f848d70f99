// GET /projects/:id/labels: the project's labels and, unless include_ancestor_groups=false, its
// ancestor groups', by title then id (GitLab's LabelsFinder order), searched in title and description.
import type { Label, Prisma } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import type { ProjectAccess } from "../shared/parents.js";
import { containsText } from "../shared/paths.js";
import { labelGroupIds } from "./queries.js";

export interface ProjectLabelFilters {
  include_ancestor_groups?: boolean | null;
  search?: string | null;
}

export async function listProjectLabels(ctx: DomainContext, access: ProjectAccess, filters: ProjectLabelFilters, page: PageArgs): Promise<Page<Label>> {
  const groups = filters.include_ancestor_groups === false ? [] : labelGroupIds(access);
  const where: Prisma.LabelWhereInput = {
    OR: [{ projectId: access.project.id }, ...(groups.length ? [{ groupId: { in: groups } }] : [])],
    ...(filters.search ? { AND: [{ OR: [{ title: containsText(ctx.dialect, filters.search) }, { description: containsText(ctx.dialect, filters.search) }] }] } : {}),
  };
  return paginate(
    page,
    (cap) => ctx.db.label.count({ where, take: cap }),
    (skip, take) => ctx.db.label.findMany({ where, skip, take, orderBy: [{ title: "asc" }, { id: "asc" }] }),
  );
}
