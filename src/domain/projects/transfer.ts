// Transferring a project to another namespace (PUT /projects/:id/transfer).
import { AppError } from "../../errors.js";
import type { Namespace, Prisma } from "../../generated/prisma/client.js";
import { addRedirect } from "../groups/writes.js";
import { AccessLevel, VISIBILITY_LEVELS } from "../shared/access-levels.js";
import { findNamespace, type ProjectAccess } from "../shared/parents.js";
import { requireLevel } from "../shared/guards.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { rubyErrorHash } from "../shared/paths.js";
import { recheckIfTaken } from "../shared/preconditions.js";
import { projectFullPath } from "../shared/web-urls.js";
import { recountTopics, topicIdsOf } from "../topics/assignments.js";
import type { ProjectWithNamespace } from "./lists.js";
import { takeOverPath } from "./writes.js";

/** TransferService failures: 400 "Failed to transfer project {:new_namespace=>[...]}". */
const transferFailed = (reason: string) =>
  new AppError(400, { message: `Failed to transfer project ${rubyErrorHash({ new_namespace: [reason] })}` });

/** transfer_projects: the owner of a personal namespace, Maintainer+ of a group, admins. */
function mayTransferInto(ctx: DomainContext, target: Namespace, level: number): boolean {
  return isAdmin(ctx.actor) || level >= (target.kind === "user" ? AccessLevel.owner : AccessLevel.maintainer);
}

/**
 * Owners (change_namespace) move a project; it keeps answering on its old path with a redirect.
 * The destination `namespace` (id or full path) is found here, after the Owner check.
 */
export async function transferProject(ctx: DomainContext, { project, level }: ProjectAccess, namespace: string): Promise<ProjectWithNamespace> {
  requireLevel(ctx, level, AccessLevel.owner);
  const { namespace: target, level: targetLevel } = await findNamespace(ctx, namespace);
  if (target.id === project.namespaceId) throw transferFailed("Project is already in this namespace.");
  if (!mayTransferInto(ctx, target, targetLevel)) throw transferFailed("You don't have permission to transfer projects into that namespace.");
  const refuseClash = async () => {
    const clash = await ctx.db.project.findFirst({
      where: { namespaceId: target.id, OR: [{ pathLower: project.pathLower }, { name: project.name }] },
      select: { id: true },
    });
    if (clash) throw transferFailed("Project with same name or path in target namespace already exists");
  };
  await refuseClash();
  // A project more visible than its new group takes the group's visibility.
  const visibility = target.kind === "group" && VISIBILITY_LEVELS[project.visibility]! > VISIBILITY_LEVELS[target.visibility]! ? target.visibility : project.visibility;
  return recheckIfTaken(() => ctx.db.$transaction(async (tx) => {
    await addRedirect(tx, projectFullPath(project), project.id);
    const moved = await tx.project.update({ where: { id: project.id }, data: { namespaceId: target.id, visibility }, include: { namespace: true } });
    await takeOverPath(tx, moved);
    if (target.ownerId) await ensureOwner(tx, project.id, target.ownerId);
    if (visibility !== project.visibility) await recountTopics(tx, await topicIdsOf(tx, project.id));
    return moved;
  }), refuseClash);
}

/** The owner of a personal namespace is an Owner member of every project in it. */
async function ensureOwner(tx: Prisma.TransactionClient, projectId: number, userId: number): Promise<void> {
  await tx.projectMember.upsert({
    where: { projectId_userId: { projectId, userId } },
    create: { projectId, userId, accessLevel: AccessLevel.owner },
    update: { accessLevel: AccessLevel.owner, expiresAt: null },
  });
}
