// Sharing a project or a group with a group, and ending a share (GitLab's Projects::GroupLinks and
// Groups::GroupLinks services). The shares' effect on levels is in shared/memberships.ts.
import { AppError, conflict, forbidden, notFound } from "../../errors.js";
import type { GroupGroupLink, ProjectGroupLink } from "../../generated/prisma/client.js";
import { AccessLevel, ancestorIds } from "../shared/access-levels.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { requireLevel } from "../shared/guards.js";
import { groupAccessLevel } from "../shared/memberships.js";
import type { GroupAccess, ProjectAccess } from "../shared/parents.js";
import { checkShareInput, type ShareInput } from "./rules.js";

/** GroupLinkable's answer when the caller may not create the share: the group stays unnamed. */
const shareNotFound = () => new AppError(404, { message: "Not Found" });

/**
 * POST /projects/:id/share: Maintainers (`admin_project`) share with a group they are a member of
 * (`read_namespace_via_membership`); sharing as Owner takes an Owner of the project.
 */
export async function shareProject(ctx: DomainContext, access: ProjectAccess, input: ShareInput): Promise<ProjectGroupLink> {
  const { groupAccess, expiresAt } = checkShareInput(input);
  requireLevel(ctx, access.level, AccessLevel.maintainer);
  if (groupAccess === AccessLevel.owner && !isAdmin(ctx.actor) && access.level < AccessLevel.owner) throw forbidden();
  const group = await ctx.db.namespace.findFirst({ where: { id: input.group_id, kind: "group" } });
  if (!group || (!isAdmin(ctx.actor) && (await groupAccessLevel(ctx, group)) === 0)) throw shareNotFound();
  const { namespace } = access.project;
  if (namespace.kind === "group" && ancestorIds(namespace).includes(group.id)) {
    throw conflict("Project cannot be shared with the group it is in or one of its ancestors.");
  }
  try {
    return await ctx.db.projectGroupLink.create({ data: { projectId: access.project.id, groupId: group.id, groupAccess, expiresAt } });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("Project already shared with this group");
    throw error;
  }
}

/** DELETE /projects/:id/share/:group_id: Maintainers; 404 Group Link when the project is not shared with it. */
export async function unshareProject(ctx: DomainContext, access: ProjectAccess, groupId: number): Promise<void> {
  requireLevel(ctx, access.level, AccessLevel.maintainer);
  const { count } = await ctx.db.projectGroupLink.deleteMany({ where: { projectId: access.project.id, groupId } });
  if (!count) throw notFound("Group Link");
}

/** POST /groups/:id/share: the shared group's Owners (`admin_group_member`), with a group they can see. */
export async function shareGroup(ctx: DomainContext, shared: GroupAccess, sharedWith: GroupAccess, input: ShareInput): Promise<GroupGroupLink> {
  const { groupAccess, expiresAt } = checkShareInput(input);
  if (!canAdministerMembers(ctx, shared)) throw shareNotFound();
  try {
    return await ctx.db.groupGroupLink.create({ data: { sharedGroupId: shared.group.id, sharedWithGroupId: sharedWith.group.id, groupAccess, expiresAt } });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("Shared group The group has already been shared with this group");
    throw error;
  }
}

/**
 * DELETE /groups/:id/share/:group_id: 404 Group Link when the group is not shared with it; the
 * shared group's Owners remove it. GitLab answers anyone else 204 without removing anything
 * (DestroyService's refusal is dropped); Forgeline answers that refusal, 404 "Not Found".
 */
export async function unshareGroup(ctx: DomainContext, shared: GroupAccess, groupId: number): Promise<void> {
  const link = await ctx.db.groupGroupLink.findUnique({ where: { sharedGroupId_sharedWithGroupId: { sharedGroupId: shared.group.id, sharedWithGroupId: groupId } } });
  if (!link) throw notFound("Group Link");
  if (!canAdministerMembers(ctx, shared)) throw shareNotFound();
  await ctx.db.groupGroupLink.deleteMany({ where: { id: link.id } });
}

/** `admin_group_member`: the group's Owners and administrators. */
const canAdministerMembers = (ctx: DomainContext, { level }: GroupAccess) => isAdmin(ctx.actor) || level >= AccessLevel.owner;

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "P2002";
