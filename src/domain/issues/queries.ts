// Project issues: lookup and GitLab's IssuePolicy. Lists: issues/lists.ts; create and update:
// issues/writes.ts; what the entity shows beyond the columns: issues/presenter.ts.
// One finder per way in: findIssue (project and iid), findIssueById (a global id); canReadIssue
// and issueWithReadRule are what notes, emoji and webhooks build on.
import type { Issue, IssueAssignee } from "../../generated/prisma/client.js";
import { issueByIid } from "../../db/hot-reads.js";
import { forbidden, notFound, recordNotFound } from "../../errors.js";
import { AccessLevel } from "../shared/access-levels.js";
import { findProject, type ProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { featureAvailable } from "../shared/project-features.js";
import { fitsIdColumn } from "../shared/record-ids.js";

export type IssueWithAssignees = Issue & { assignees: IssueAssignee[] };

/**
 * An issue the caller was authorised for, with its project access. `issue.assignees` is there
 * when the finder had to read them (for a write, or for the read rule on a confidential issue):
 * issueAssigneeIds reads them otherwise.
 */
export interface IssueAccess<Row extends IssueRow = IssueRow> {
  issue: Row;
  access: ProjectAccess;
}

export type IssueRow = Issue & { assignees?: Pick<IssueAssignee, "userId">[] };

/**
 * What the caller means to do with the issue, and so what the finder checks. `read`: one they may
 * not read answers 404, as if missing. `update` and `destroy` (GitLab's routes: the record, then
 * the ability): 404 for a missing issue ("404 Issue Not Found" for `destroy`), 403 without the
 * ability, confidential or not; the issue comes with its assignees. `destroy` needs a signed-in
 * caller first (401 before the lookup).
 */
export type IssueAbility = "read" | "update" | "destroy";

/** An issue of a project the caller can see, by iid, authorised for `ability` (read unless said). */
export async function findIssue(
  ctx: DomainContext, projectRef: string | number, iid: number, ability?: "read",
): Promise<IssueAccess>;
export async function findIssue(
  ctx: DomainContext, projectRef: string | number, iid: number, ability: "update" | "destroy",
): Promise<IssueAccess<IssueWithAssignees>>;
export async function findIssue(
  ctx: DomainContext, projectRef: string | number, iid: number, ability: IssueAbility = "read",
): Promise<IssueAccess> {
  if (ability === "destroy") requireAuthenticated(ctx);
  const access = await findProject(ctx, projectRef);
  if (ability !== "read") {
    const issue = await ctx.db.issue.findUnique({ where: { projectId_iid: { projectId: access.project.id, iid } }, include: { assignees: true } });
    return authorisedForWrite(ctx, access, issue, ability);
  }
  return readable(ctx, access, await issueByIid(ctx.db, access.project.id, iid));
}

/** An issue by database id (a global id), readable by the caller: the same answers as findIssue for that issue. */
export async function findIssueById(ctx: DomainContext, id: number): Promise<IssueAccess> {
  const issue = fitsIdColumn(id) ? await ctx.db.issue.findUnique({ where: { id } }) : null;
  if (!issue) throw recordNotFound();
  return readable(ctx, await findProject(ctx, issue.projectId), issue);
}

/**
 * The issue if the caller may read it, else 404 as if missing. Assignees are read only for a
 * confidential issue whose reader is neither privileged nor its author: no statement in the
 * usual case.
 */
async function readable(ctx: DomainContext, access: ProjectAccess, issue: Issue | null): Promise<IssueAccess> {
  if (!issue) throw recordNotFound();
  const found = await withReadRule(ctx, access, issue);
  if (!found.readable) throw recordNotFound();
  return { issue: found.issue, access };
}

/**
 * The issue by iid and whether the caller may read it (null: no such issue). Notes and emoji
 * reactions, which answer for an unreadable issue in their own ways, build on it.
 */
export async function issueWithReadRule(ctx: DomainContext, access: ProjectAccess, iid: number): Promise<{ issue: IssueRow; readable: boolean } | null> {
  const issue = await issueByIid(ctx.db, access.project.id, iid);
  return issue && withReadRule(ctx, access, issue);
}

/** The issue and whether the caller may read it, its assignees read only when the rule needs them. */
async function withReadRule(ctx: DomainContext, access: ProjectAccess, issue: Issue): Promise<{ issue: IssueRow; readable: boolean }> {
  const userId = ctx.actor?.user.id;
  const needsAssignees = issue.confidential && userId != null && issue.authorId !== userId && !canReadAllConfidential(ctx, access);
  if (!needsAssignees) return { issue, readable: canReadIssue(ctx, access, { ...issue, assignees: [] }) };
  const withAssignees = { ...issue, assignees: await ctx.db.issueAssignee.findMany({ where: { issueId: issue.id }, select: { userId: true } }) };
  return { issue: withAssignees, readable: canReadIssue(ctx, access, withAssignees) };
}

function authorisedForWrite(ctx: DomainContext, access: ProjectAccess, issue: IssueWithAssignees | null, ability: "update" | "destroy") {
  if (!issue) throw ability === "destroy" ? notFound("Issue") : recordNotFound();
  const allowed = ability === "update" ? canUpdateIssue(ctx, access, issue) : canDestroyIssue(ctx, access, issue);
  if (!allowed) throw forbidden();
  return { issue, access };
}

/** The ids of the issue's assignees, by ascending id: those the finder read, else read now. */
export async function issueAssigneeIds(ctx: DomainContext, issue: IssueRow): Promise<number[]> {
  const assignees = issue.assignees ?? (await ctx.db.issueAssignee.findMany({ where: { issueId: issue.id }, select: { userId: true } }));
  return assignees.map((a) => a.userId).sort((a, b) => a - b);
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

/**
 * `destroy_issue`: the project's Owners (ProjectPolicy's owner_access, administrators included)
 * and Planners (the planner_access rule, GitLab 17.7); Reporters, Developers and Maintainers may
 * not. IssuePolicy takes it away from whoever may not read a confidential issue, and from
 * everyone when the issues feature is off for them.
 */
export function canDestroyIssue(ctx: DomainContext, access: ProjectAccess, issue: IssueWithAssignees): boolean {
  if (!featureAvailable(ctx, access, "issues") || !canReadIssue(ctx, access, issue)) return false;
  return isAdmin(ctx.actor) || access.level === AccessLevel.planner || access.level >= AccessLevel.owner;
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
