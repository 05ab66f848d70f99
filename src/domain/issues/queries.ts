// Project issues: lookup and GitLab's IssuePolicy. Lists: issues/lists.ts; create and update:
// issues/writes.ts; what the entity shows beyond the columns: issues/presenter.ts.
// findIssue and canReadIssue are what notes, emoji and webhooks build on.
import type { Issue, IssueAssignee } from "../../generated/prisma/client.js";
import { issueByIid } from "../../db/hot-reads.js";
import { recordNotFound } from "../../errors.js";
import { AccessLevel } from "../shared/access-levels.js";
import { findProject, type ProjectAccess } from "../shared/parents.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { featureAvailable } from "../shared/project-features.js";
import type { RelationQuery } from "../shared/prisma-query.js";

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

/**
 * The issue by iid and whether the caller may read it (null: no such issue). Assignees are read
 * only for a confidential issue whose reader is neither privileged nor its author: one statement
 * in the usual case.
 */
export async function issueWithReadRule(ctx: DomainContext, access: ProjectAccess, iid: number): Promise<{ issue: Issue; readable: boolean } | null> {
  const issue = await issueByIid(ctx.db, access.project.id, iid);
  if (!issue) return null;
  const userId = ctx.actor?.user.id;
  const needsAssignees = issue.confidential && userId != null && issue.authorId !== userId && !canReadAllConfidential(ctx, access);
  const assignees = needsAssignees ? await ctx.db.issueAssignee.findMany({ where: { issueId: issue.id }, select: { userId: true } }) : [];
  return { issue, readable: canReadIssue(ctx, access, { ...issue, assignees }) };
}

/** GET /projects/:id/issues/:issue_iid, with what the entity selects. */
export async function getIssue(ctx: DomainContext, projectRef: string | number, iid: number, query?: RelationQuery): Promise<Issue> {
  const access = await findProject(ctx, projectRef);
  const found = await issueWithReadRule(ctx, access, iid);
  if (!found?.readable) throw recordNotFound();
  const wanted = query?.include && Object.keys(query.include).length;
  return wanted ? ctx.db.issue.findUniqueOrThrow({ where: { id: found.issue.id }, include: query.include }) : found.issue;
}

/** The issue row with the relations the GraphQL selection wants (plus its assignees). */
export async function loadIssue(ctx: DomainContext, id: number, query?: RelationQuery): Promise<IssueWithAssignees> {
  return ctx.db.issue.findUniqueOrThrow({ where: { id }, include: { ...(query?.include ?? {}), assignees: true } });
}

/** Confidential issues: Planners and above, the author and the assignees (and administrators). */
export function canReadIssue(ctx: DomainContext, access: ProjectAccess, issue: IssueReadRow): boolean {
  if (!featureAvailable(ctx, access, "issues")) return false;
  if (!issue.confidential || isAdmin(ctx.actor)) return true;
  const userId = ctx.actor?.user.id;
  if (userId == null) return false;
  return canReadAllConfidential(ctx, access) || isAuthorOrAssignee(userId, issue);
}

/** `read_confidential_issues` on the project: Planner (or Reporter) and above, administrators. */
export function canReadAllConfidential(ctx: DomainContext, access: ProjectAccess): boolean {
  return isAdmin(ctx.actor) || access.level >= AccessLevel.planner;
}

type IssueReadRow = Pick<Issue, "confidential" | "authorId"> & { assignees: Pick<IssueAssignee, "userId">[] };

const isAuthorOrAssignee = (userId: number, issue: IssueReadRow) =>
  issue.authorId === userId || issue.assignees.some((a) => a.userId === userId);

/**
 * `create_issue`: any signed-in user who may read the project's issues (non-members of public
 * and internal projects too); archived projects take no new issues.
 */
export function canCreateIssue(ctx: DomainContext, access: ProjectAccess): boolean {
  return !!ctx.actor && !access.project.archived && featureAvailable(ctx, access, "issues");
}

/** `update_issue`: Planners and above, or the author or an assignee who can read the issue. */
export function canUpdateIssue(ctx: DomainContext, access: ProjectAccess, issue: IssueWithAssignees): boolean {
  const userId = ctx.actor?.user.id;
  if (userId == null || access.project.archived || !canReadIssue(ctx, access, issue)) return false;
  return canAdminIssue(ctx, access) || isAuthorOrAssignee(userId, issue);
}

/** `admin_issue`: Planners and above (and administrators). */
const canAdminIssue = (ctx: DomainContext, access: ProjectAccess) => isAdmin(ctx.actor) || access.level >= AccessLevel.planner;

/**
 * `set_issue_metadata` (assignees, labels, milestone, due date, discussion lock): on a new issue
 * any project member (or an administrator); on an existing one `admin_issue`. Params the caller
 * may not set are dropped silently, as GitLab does.
 */
export function canSetIssueMetadata(ctx: DomainContext, access: ProjectAccess, existing: boolean): boolean {
  if (existing) return canAdminIssue(ctx, access);
  return isAdmin(ctx.actor) || access.level >= AccessLevel.guest;
}

/** `set_confidentiality`: whoever opens an issue (so that security reports can be confidential); later metadata rights. */
export function canSetConfidentiality(ctx: DomainContext, access: ProjectAccess, existing: boolean): boolean {
  return existing ? canSetIssueMetadata(ctx, access, true) : canCreateIssue(ctx, access);
}
