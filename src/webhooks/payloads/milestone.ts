// Milestone hooks (Gitlab::DataBuilder::Milestone): a project milestone created, closed, reopened
// or deleted, with the milestone's safe hook attributes (HookData::MilestoneBuilder).
import type { Milestone } from "../../generated/prisma/client.js";
import { projectHookAttrs, rubyTime, type Ctx, type ProjectWithNamespace } from "./common.js";

export function buildMilestonePayload(ctx: Ctx, project: ProjectWithNamespace, milestone: Milestone, action: string) {
  return {
    object_kind: "milestone",
    event_type: "milestone",
    project: projectHookAttrs(ctx, project),
    object_attributes: {
      id: milestone.id,
      iid: milestone.iid,
      title: milestone.title,
      description: milestone.description,
      state: milestone.state,
      created_at: rubyTime(milestone.createdAt),
      updated_at: rubyTime(milestone.updatedAt),
      due_date: milestone.dueDate,
      start_date: milestone.startDate,
      project_id: milestone.projectId,
    },
    action,
  };
}
