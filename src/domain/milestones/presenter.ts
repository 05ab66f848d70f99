// What GitLab's Milestone entity shows beyond the columns: whether it is expired and its page.
import type { Milestone, Namespace } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { projectById } from "../shared/parents.js";
import { namespaceLoader } from "../shared/loaders.js";
import { projectPageUrl } from "../shared/web-urls.js";

/** Milestoneish#expired?: a due date before today (UTC). */
export const isExpired = (ctx: Pick<DomainContext, "now">, milestone: Pick<Milestone, "dueDate">) =>
  milestone.dueDate !== null && milestone.dueDate < ctx.now().toISOString().slice(0, 10);

/** A group's page of a milestone. */
export const groupMilestoneUrl = (ctx: Pick<DomainContext, "config">, group: Pick<Namespace, "fullPath">, iid: number) =>
  `${ctx.config.publicUrl}/groups/${group.fullPath}/-/milestones/${iid}`;

/** `web_url`: the project's or the group's milestone page (by iid). */
export async function milestoneWebUrl(ctx: DomainContext, milestone: Milestone): Promise<string> {
  if (milestone.projectId !== null) return projectPageUrl(ctx, (await projectById(ctx, milestone.projectId))!, "milestones", milestone.iid);
  const group = (await ctx.loaders.get(namespaceLoader).load(milestone.groupId!))!;
  return groupMilestoneUrl(ctx, group, milestone.iid);
}

/** GitLab's Milestone entity, in its order: project_id or group_id, whichever it belongs to. */
export interface MilestoneEntity {
  id: number;
  iid: number;
  project_id?: number;
  group_id?: number;
  title: string;
  description: string | null;
  state: string;
  created_at: string;
  updated_at: string;
  due_date: string | null;
  start_date: string | null;
  expired: boolean;
  web_url: string;
}

export async function milestoneEntity(ctx: DomainContext, milestone: Milestone): Promise<MilestoneEntity> {
  return {
    id: milestone.id,
    iid: milestone.iid,
    ...(milestone.projectId !== null ? { project_id: milestone.projectId } : { group_id: milestone.groupId! }),
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.createdAt.toISOString(),
    updated_at: milestone.updatedAt.toISOString(),
    due_date: milestone.dueDate,
    start_date: milestone.startDate,
    expired: isExpired(ctx, milestone),
    web_url: await milestoneWebUrl(ctx, milestone),
  };
}
