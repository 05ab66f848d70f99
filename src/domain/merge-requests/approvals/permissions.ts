// Who may approve a merge request (GitLab's approve_merge_request): whoever may update it and is a
// member of its project, plus members (Planner and up) of the approver groups of project rules
// scoped to a protected branch that matches the target branch (EE's merge_request_group_approver).
import { AccessLevel } from "../../shared/access-levels.js";
import { notExpired } from "../../shared/memberships.js";
import type { ProjectAccess } from "../../shared/parents.js";
import type { DomainContext } from "../../shared/context.js";
import { canUpdateMergeRequest, type MergeRequestWithPeople } from "../queries.js";
import { protectedBranchesMatching } from "../../repository/protection-rules.js";

export async function canApprove(ctx: DomainContext, access: ProjectAccess, mergeRequest: MergeRequestWithPeople): Promise<boolean> {
  if (!ctx.actor) return false;
  if (canUpdateMergeRequest(ctx, access, mergeRequest) && access.level >= AccessLevel.guest) return true;
  return isGroupApprover(ctx, mergeRequest);
}

async function isGroupApprover(ctx: DomainContext, mergeRequest: MergeRequestWithPeople): Promise<boolean> {
  const matching = await protectedBranchesMatching(ctx.db, mergeRequest.projectId, mergeRequest.targetBranch);
  if (!matching.length) return false;
  const found = await ctx.db.approvalRule.count({
    where: {
      kind: "project",
      containerId: mergeRequest.projectId,
      protectedBranches: { some: { protectedBranchId: { in: matching.map((b) => b.id) } } },
      groups: { some: { groupId: { in: await memberGroupIds(ctx) } } },
    },
  });
  return found > 0;
}

async function memberGroupIds(ctx: DomainContext): Promise<number[]> {
  const rows = await ctx.db.groupMember.findMany({
    where: { userId: ctx.actor!.user.id, accessLevel: { gte: AccessLevel.planner }, ...notExpired(ctx) },
    select: { groupId: true },
  });
  return rows.map((r) => r.groupId);
}
