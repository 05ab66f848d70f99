// GET /projects/:id/labels: the project's labels and, unless include_ancestor_groups=false, its
// ancestor groups'; GET /groups/:id/labels: the group's, its ancestors' and descendants' as
// asked (queries.ts groupLabelsWhere). Both by title then id (GitLab's LabelsFinder order),
// searched in title and description.
import type { Label, Prisma } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import type { GroupAccess, ProjectAccess } from "../shared/parents.js";
import { containsText } from "../shared/paths.js";
import { groupLabelsWhere, labelGroupIds, type GroupLabelScope } from "./queries.js";

export interface ProjectLabelFilters {
  include_ancestor_groups?: boolean | null;
  search?: string | null;
  /** exactly this title (GitLab's LabelsFinder `title`, the graph's `title:`) */
  title?: string | null;
}

export interface GroupLabelFilters extends GroupLabelScope {
  search?: string | null;
  title?: string | null;
}

export async function listProjectLabels(ctx: DomainContext, access: ProjectAccess, filters: ProjectLabelFilters, page: PageArgs): Promise<Page<Label>> {
  const groups = filters.include_ancestor_groups === false ? [] : labelGroupIds(access);
  return pageOf(ctx, { OR: [{ projectId: access.project.id }, ...(groups.length ? [{ groupId: { in: groups } }] : [])] }, filters, page);
}

export async function listGroupLabels(ctx: DomainContext, access: GroupAccess, filters: GroupLabelFilters, page: PageArgs): Promise<Page<Label>> {
  return pageOf(ctx, await groupLabelsWhere(ctx, access, filters), filters, page);
}

function pageOf(ctx: DomainContext, owners: Prisma.LabelWhereInput, { search, title }: { search?: string | null; title?: string | null }, page: PageArgs): Promise<Page<Label>> {
  const and: Prisma.LabelWhereInput[] = [owners];
  if (search) and.push({ OR: [{ title: containsText(ctx.dialect, search) }, { description: containsText(ctx.dialect, search) }] });
  if (title != null) and.push({ title });
  const where: Prisma.LabelWhereInput = and.length > 1 ? { AND: and } : owners;
  return paginate(
    page,
    (cap) => ctx.db.label.count({ where, take: cap }),
    (skip, take) => ctx.db.label.findMany({ where, skip, take, orderBy: [{ title: "asc" }, { id: "asc" }] }),
  );
}
