// Labels as GitLab's Labels and Group Labels APIs find them: a project's own and its ancestor
// groups' (include_ancestor_groups), a group's own, its ancestors' and its descendants'; a label
// named by id or by title. Reading follows the parent's visibility, writing needs GitLab's
// admin_label (Planner and above, or an administrator).
import type { Label, Prisma } from "../../generated/prisma/client.js";
import { forbidden, notFound } from "../../errors.js";
import { AccessLevel, ancestorIds } from "../shared/access-levels.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import type { GroupAccess, GroupOrProjectAccess, ProjectAccess } from "../shared/parents.js";
import { fitsIdColumn } from "../shared/record-ids.js";
import { visibleGroupsWhere, visibleProjectsWhere } from "../shared/visibility-filters.js";

/** A label of a project found for the caller, with the access that found it. */
export interface ProjectLabelAccess {
  access: ProjectAccess;
  label: Label;
}

/** A label found through a group the caller may see. */
export interface GroupLabelAccess {
  access: GroupAccess;
  label: Label;
}

/** admin_label on a project. */
export const canAdminProjectLabels = (ctx: DomainContext, access: ProjectAccess) =>
  isAdmin(ctx.actor) || access.level >= AccessLevel.planner;

/** admin_label on a group. */
export const canAdminGroupLabels = (ctx: DomainContext, access: GroupAccess) =>
  isAdmin(ctx.actor) || access.level >= AccessLevel.planner;

/** The groups whose labels a project shows: its namespace and the namespace's ancestors (none for a personal project). */
export const labelGroupIds = (access: ProjectAccess) =>
  access.project.namespace.kind === "group" ? ancestorIds(access.project.namespace) : [];

/** GitLab's authorize! :admin_label on the found project: 403 without it, signed in or not. */
export function requireAdminProjectLabels(ctx: DomainContext, access: ProjectAccess): void {
  if (!canAdminProjectLabels(ctx, access)) throw forbidden();
}

/** GitLab's authorize! :admin_label on the found group. */
export function requireAdminGroupLabels(ctx: DomainContext, access: GroupAccess): void {
  if (!canAdminGroupLabels(ctx, access)) throw forbidden();
}

/** authorize! :admin_label on a group or a project. */
export const requireAdminLabels = (ctx: DomainContext, parent: GroupOrProjectAccess) =>
  "group" in parent ? requireAdminGroupLabels(ctx, parent) : requireAdminProjectLabels(ctx, parent);

/**
 * `labels.find_by_id(ref) || labels.find_by_title(ref)` among `owners`: a label with that id
 * first, else one with that title, the one `preferred` puts first among several.
 */
async function labelByIdOrTitle(
  ctx: DomainContext, owners: Prisma.LabelWhereInput, ref: string, preferred: (a: Label, b: Label) => number,
): Promise<Label> {
  const byId = /^\d+$/.test(ref) && fitsIdColumn(Number(ref)) ? [{ id: Number(ref) }] : [];
  const found = await ctx.db.label.findMany({ where: { AND: [owners, { OR: [...byId, { title: ref }] }] } });
  const label = found.find((l) => byId.length && l.id === Number(ref)) ?? found.filter((l) => l.title === ref).sort(preferred)[0];
  if (!label) throw notFound("Label");
  return label;
}

/**
 * `:label_id` of a project's label: a numeric id, else a title; the project's own label first,
 * then its groups' (nearest first). 404 Label Not Found otherwise.
 */
export async function findProjectLabel(ctx: DomainContext, access: ProjectAccess, ref: string): Promise<ProjectLabelAccess> {
  const groups = labelGroupIds(access);
  const owners = { OR: [{ projectId: access.project.id }, ...(groups.length ? [{ groupId: { in: groups } }] : [])] };
  const depth = (label: Label) => (label.projectId != null ? Infinity : groups.indexOf(label.groupId!));
  return { access, label: await labelByIdOrTitle(ctx, owners, ref, (a, b) => depth(b) - depth(a)) };
}

/** The label of this title a project shows (the graph's Project.label): its own, else its nearest group's; null when none. */
export async function projectLabelTitled(ctx: DomainContext, access: ProjectAccess, title: string): Promise<Label | null> {
  const groups = labelGroupIds(access);
  const owners = { OR: [{ projectId: access.project.id }, ...(groups.length ? [{ groupId: { in: groups } }] : [])] };
  const depth = (label: Label) => (label.projectId != null ? Infinity : groups.indexOf(label.groupId!));
  const found = await ctx.db.label.findMany({ where: { AND: [owners, { title }] } });
  return found.sort((a, b) => depth(b) - depth(a))[0] ?? null;
}

/** The group label of this title a group shows (the graph's Group.label): its own, else its nearest ancestor's; null when none. */
export async function groupLabelTitled(ctx: DomainContext, { group }: GroupAccess, title: string): Promise<Label | null> {
  const groups = ancestorIds(group);
  const found = await ctx.db.label.findMany({ where: { groupId: { in: groups }, title } });
  return found.sort((a, b) => groups.indexOf(b.groupId!) - groups.indexOf(a.groupId!))[0] ?? null;
}

/**
 * `:label_id` of the label to promote: GitLab's find_label without ancestor groups, so the
 * project's own labels and its group's (a group label found is refused by the promotion).
 */
export async function findProjectLabelToPromote(ctx: DomainContext, access: ProjectAccess, ref: string): Promise<Label> {
  const groupId = access.project.namespace.kind === "group" ? access.project.namespace.id : null;
  const owners = { OR: [{ projectId: access.project.id }, ...(groupId != null ? [{ groupId }] : [])] };
  return labelByIdOrTitle(ctx, owners, ref, (a, b) => (a.projectId != null ? -1 : 0) - (b.projectId != null ? -1 : 0));
}

/**
 * `:label_id` of PUT /projects/:id/labels/:label_id: GitLab's find_label without ancestor groups,
 * so the project's own labels and its group's (nearest first), 404 Label Not Found otherwise.
 */
export async function findProjectLabelToUpdate(ctx: DomainContext, access: ProjectAccess, ref: string): Promise<ProjectLabelAccess> {
  return { access, label: await findProjectLabelToPromote(ctx, access, ref) };
}

/** Which labels a group shows (GitLab's LabelsFinder params of the Group Labels API). */
export interface GroupLabelScope {
  include_ancestor_groups?: boolean | null;
  include_descendant_groups?: boolean | null;
  only_group_labels?: boolean | null;
}

/**
 * The labels a group shows the caller: its own, its ancestors' (include_ancestor_groups, on by
 * default), its descendant groups' that the caller may see (include_descendant_groups), and,
 * with only_group_labels=false, the labels of the projects in those groups the caller may see.
 */
export async function groupLabelsWhere(ctx: DomainContext, { group }: GroupAccess, scope: GroupLabelScope): Promise<Prisma.LabelWhereInput> {
  const groupIds = scope.include_ancestor_groups === false ? [group.id] : ancestorIds(group);
  const owners: Prisma.LabelWhereInput[] = [{ groupId: { in: groupIds } }];
  const below = { traversalIds: { startsWith: `${group.traversalIds}` } };
  if (scope.include_descendant_groups) {
    owners.push({ group: { AND: [below, { id: { not: group.id } }, await visibleGroupsWhere(ctx)] } });
  }
  if (scope.only_group_labels === false) {
    const namespace = scope.include_descendant_groups ? below : { id: group.id };
    owners.push({ project: { AND: [{ namespace }, await visibleProjectsWhere(ctx)] } });
  }
  return { OR: owners };
}

/** GET /groups/:id/labels/:name: a label the group shows (groupLabelsWhere), by id or title; 404 Label Not Found. */
export async function findGroupLabel(ctx: DomainContext, access: GroupAccess, ref: string, scope: GroupLabelScope = {}): Promise<GroupLabelAccess> {
  const groups = ancestorIds(access.group);
  const depth = (label: Label) => (label.groupId != null ? groups.indexOf(label.groupId) : Infinity);
  return { access, label: await labelByIdOrTitle(ctx, await groupLabelsWhere(ctx, access, scope), ref, (a, b) => depth(b) - depth(a)) };
}

/** PUT/DELETE /groups/:id/labels/:name: admin_label (403) first, then one of the group's own labels. */
export async function findGroupLabelToAdminister(ctx: DomainContext, access: GroupAccess, ref: string): Promise<GroupLabelAccess> {
  requireAdminGroupLabels(ctx, access);
  return { access, label: await labelByIdOrTitle(ctx, { groupId: access.group.id }, ref, () => 0) };
}
