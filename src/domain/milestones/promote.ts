// Promoting a project milestone to a group milestone (GitLab's Milestones::PromoteService behind
// POST /projects/:id/milestones/:milestone_id/promote): admin_milestone on the project, then on its
// group (a personal project has none: 403, as GitLab's authorize! on no group); in one transaction
// a group milestone with the milestone's title, description and dates (active: the service passes
// no state), the issues and merge requests of the group's own projects on any milestone of that
// title move to it, those milestones go, and the group milestone must then be valid (its title
// unique in the group's hierarchy) or everything is rolled back with 400 "Promotion failed - ...".
import type { Milestone } from "../../generated/prisma/client.js";
import { AppError, forbidden } from "../../errors.js";
import type { DomainContext } from "../shared/context.js";
import { publish } from "../shared/events.js";
import { requireAuthenticated } from "../shared/guards.js";
import { withNextInternalId } from "../shared/internal-ids.js";
import { shownGroupAccess, type ProjectAccess } from "../shared/parents.js";
import { findMilestone, titleTaken } from "./queries.js";
import { requireAdminMilestones, TITLE_TAKEN } from "./rules.js";

const promotionFailed = (message: string) => new AppError(400, { message: `Promotion failed - ${message}` });

/** POST /projects/:id/milestones/:milestone_id/promote on a project the caller sees: the group milestone made. */
export async function promoteMilestone(ctx: DomainContext, access: ProjectAccess, milestoneId: number): Promise<Milestone> {
  const actor = requireAuthenticated(ctx);
  requireAdminMilestones(ctx, access);
  const namespace = access.project.namespace;
  if (namespace.kind !== "group") throw forbidden();
  const group = await shownGroupAccess(ctx, namespace);
  requireAdminMilestones(ctx, group);
  const { milestone } = await findMilestone(ctx, access, milestoneId);
  if (milestone.projectId == null) throw promotionFailed("Only project milestones can be promoted.");
  const now = ctx.now();
  return withNextInternalId(ctx, namespace.id, "group_milestones", async (tx, iid) => {
    const created = await tx.milestone.create({
      data: {
        groupId: namespace.id, iid, title: milestone.title, description: milestone.description,
        startDate: milestone.startDate, dueDate: milestone.dueDate, createdAt: now, updatedAt: now,
      },
    });
    const merged = (await tx.milestone.findMany({
      where: { title: milestone.title, project: { namespaceId: namespace.id } },
      select: { id: true },
    })).map((m) => m.id);
    const inGroupProjects = { project: { namespaceId: namespace.id }, milestoneId: { in: merged } };
    await tx.issue.updateMany({ where: inGroupProjects, data: { milestoneId: created.id } });
    await tx.mergeRequest.updateMany({ where: inGroupProjects, data: { milestoneId: created.id } });
    await tx.milestone.deleteMany({ where: { id: { in: merged } } });
    // Milestone#uniqueness_of_title once the project milestones are gone
    if (await titleTaken(tx, group, milestone.title, created.id)) throw promotionFailed(`Title ${TITLE_TAKEN}`);
    await publish(tx, ctx, "milestone", { action: "create", milestone: created, actorId: actor.user.id });
    return created;
  });
}
