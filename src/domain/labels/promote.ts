// Promoting a project label to a group label (GitLab's Labels::PromoteService behind
// PUT /projects/:id/labels/:label_id/promote): a new label of the project's group with the
// label's title, colour and description takes over, in one transaction, every label of that title
// in the group and in the group's own projects (the promoted one, other projects' and an older
// group label of that title): their issues, merge requests, resource label events, priorities and
// subscribers move to it (one link, priority and subscription where several met) and those labels
// are deleted.
import type { Label } from "../../generated/prisma/client.js";
import { AppError } from "../../errors.js";
import type { DomainContext } from "../shared/context.js";
import { shownGroupAccess, type ProjectAccess } from "../shared/parents.js";
import { findProjectLabelToPromote, requireAdminGroupLabels } from "./queries.js";

const failed = () => new AppError(400, { message: "Failed to promote project label to group label" });

/** PUT /projects/:id/labels/:label_id/promote on a project the caller sees: the group label made. */
export async function promoteProjectLabel(ctx: DomainContext, access: ProjectAccess, ref: string): Promise<Label> {
  const group = access.project.namespace;
  // a personal project has no group to promote to (GitLab answers this before any permission)
  if (group.kind !== "group") throw failed();
  // admin_label on the group, not on the project
  requireAdminGroupLabels(ctx, await shownGroupAccess(ctx, group));
  const label = await findProjectLabelToPromote(ctx, access, ref);
  if (label.projectId == null) throw failed();
  const now = ctx.now();
  return ctx.db.$transaction(async (tx) => {
    const merged = await tx.label.findMany({
      where: { title: label.title, OR: [{ groupId: group.id }, { project: { namespaceId: group.id } }] },
      select: { id: true },
    });
    const ids = merged.map((m) => m.id);
    // created without an owner first: an older group label of that title still holds the unique title
    const created = await tx.label.create({
      data: { title: label.title, color: label.color, description: label.description, createdAt: now, updatedAt: now },
    });
    const issueIds = new Set((await tx.issueLabel.findMany({ where: { labelId: { in: ids } }, select: { issueId: true } })).map((l) => l.issueId));
    if (issueIds.size) await tx.issueLabel.createMany({ data: [...issueIds].map((issueId) => ({ issueId, labelId: created.id })) });
    const mrIds = new Set((await tx.mergeRequestLabel.findMany({ where: { labelId: { in: ids } }, select: { mergeRequestId: true } })).map((l) => l.mergeRequestId));
    if (mrIds.size) await tx.mergeRequestLabel.createMany({ data: [...mrIds].map((mergeRequestId) => ({ mergeRequestId, labelId: created.id })) });
    // a project that prioritised several of them keeps the highest priority (the lowest number)
    const priorities = new Map<number, number>();
    for (const p of await tx.labelPriority.findMany({ where: { labelId: { in: ids } }, select: { projectId: true, priority: true } })) {
      priorities.set(p.projectId, Math.min(p.priority, priorities.get(p.projectId) ?? Infinity));
    }
    if (priorities.size) {
      await tx.labelPriority.createMany({ data: [...priorities].map(([projectId, priority]) => ({ projectId, labelId: created.id, priority })) });
    }
    const userIds = new Set((await tx.labelSubscription.findMany({ where: { labelId: { in: ids } }, select: { userId: true } })).map((s) => s.userId));
    if (userIds.size) await tx.labelSubscription.createMany({ data: [...userIds].map((userId) => ({ userId, labelId: created.id })) });
    // their resource label events now name the group label (GitLab's update_resource_label_events)
    await tx.resourceLabelEvent.updateMany({ where: { labelId: { in: ids } }, data: { labelId: created.id } });
    // the merged labels go with their links, priorities and subscriptions (by foreign key)
    await tx.label.deleteMany({ where: { id: { in: ids } } });
    return tx.label.update({ where: { id: created.id }, data: { groupId: group.id } });
  });
}
