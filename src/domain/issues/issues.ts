// Project issues. (Interface first: findIssue and canReadIssue are what notes, emoji and
// webhooks build on; the issues area fills in the rest.)
import type { Issue, IssueAssignee } from "../../generated/prisma/client.js";
import { recordNotFound } from "../../errors.js";
import { AccessLevel, findProject, type ProjectAccess } from "../access.js";
import { isAdmin, type DomainContext } from "../context.js";
import { featureAvailable } from "../project-features.js";

export type IssueWithAssignees = Issue & { assignees: IssueAssignee[] };

export interface IssueAccess {
  issue: IssueWithAssignees;
  access: ProjectAccess;
}

/** An issue of a project the caller can see, by iid; one they may not read answers 404. */
export async function findIssue(ctx: DomainContext, projectRef: string | number, iid: number): Promise<IssueAccess> {
  const access = await findProject(ctx, projectRef);
  const issue = await ctx.db.issue.findUnique({
    where: { projectId_iid: { projectId: access.project.id, iid } },
    include: { assignees: true },
  });
  if (!issue || !canReadIssue(ctx, access, issue)) throw recordNotFound();
  return { issue, access };
}

/** Confidential issues: Planners and above, the author and the assignees (and administrators). */
export function canReadIssue(ctx: DomainContext, access: ProjectAccess, issue: IssueWithAssignees): boolean {
  if (!featureAvailable(ctx, access, "issues")) return false;
  if (!issue.confidential || isAdmin(ctx.actor)) return true;
  const userId = ctx.actor?.user.id;
  if (userId == null) return false;
  return access.level >= AccessLevel.planner || issue.authorId === userId || issue.assignees.some((a) => a.userId === userId);
}
