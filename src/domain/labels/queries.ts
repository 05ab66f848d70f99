// A project's labels as GitLab's Labels API finds them: the project's own and its ancestor
// groups' (include_ancestor_groups), a label named by id or by title; reading follows the
// project's visibility, writing needs GitLab's admin_label (Planner and above, or an administrator).
import type { Label } from "../../generated/prisma/client.js";
import { forbidden, notFound } from "../../errors.js";
import { AccessLevel, ancestorIds } from "../shared/access-levels.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import type { ProjectAccess } from "../shared/parents.js";

/** A label of a project found for the caller, with the access that found it. */
export interface ProjectLabelAccess {
  access: ProjectAccess;
  label: Label;
}

/** admin_label on a project. */
export const canAdminProjectLabels = (ctx: DomainContext, access: ProjectAccess) =>
  isAdmin(ctx.actor) || access.level >= AccessLevel.planner;

/** The groups whose labels a project shows: its namespace and the namespace's ancestors (none for a personal project). */
export const labelGroupIds = (access: ProjectAccess) =>
  access.project.namespace.kind === "group" ? ancestorIds(access.project.namespace) : [];

/** GitLab's authorize! :admin_label on the found project: 403 without it, signed in or not. */
export function requireAdminProjectLabels(ctx: DomainContext, access: ProjectAccess): void {
  if (!canAdminProjectLabels(ctx, access)) throw forbidden();
}

/**
 * `:label_id` of a project's label: a numeric id, else a title; the project's own label first,
 * then its groups' (nearest first). 404 Label Not Found otherwise.
 */
export async function findProjectLabel(ctx: DomainContext, access: ProjectAccess, ref: string): Promise<ProjectLabelAccess> {
  const groups = labelGroupIds(access);
  const owners = [{ projectId: access.project.id }, ...(groups.length ? [{ groupId: { in: groups } }] : [])];
  const byId = /^\d+$/.test(ref) && Number(ref) <= 2_147_483_647 ? { id: Number(ref) } : null;
  const found = await ctx.db.label.findMany({ where: { OR: owners, ...(byId ?? { title: ref }) } });
  const depth = (label: Label) => (label.projectId != null ? Infinity : groups.indexOf(label.groupId!));
  const label = found.sort((a, b) => depth(b) - depth(a))[0];
  if (!label) throw notFound("Label");
  return { access, label };
}
