// Assignees and reviewers: GitLab keeps only the users who may read the merge request
// (IssuableBaseService filters the ids it is given; unknown ids and 0 fall away silently).
import { AccessLevel, ancestorIds, notExpired, type ProjectAccess } from "../access.js";
import type { DomainContext } from "../context.js";
import { featureAccessLevel } from "../project-features.js";

/** The given user ids (in the caller's order, once each) of users who can read the project's merge requests. */
export async function mergeRequestReaders(ctx: DomainContext, access: ProjectAccess, userIds: number[]): Promise<number[]> {
  const wanted = [...new Set(userIds.filter((id) => id > 0))];
  const setting = featureAccessLevel(access.project, "merge_requests");
  if (!wanted.length || setting === "disabled") return [];
  const users = await ctx.db.user.findMany({ where: { id: { in: wanted }, state: "active" }, select: { id: true, isAdmin: true } });
  const openToAll = setting === "enabled" && access.project.visibility !== "private";
  const members = openToAll ? null : await reporterMembers(ctx, access, users.map((u) => u.id));
  const allowed = new Set(users.filter((u) => openToAll || u.isAdmin || members!.has(u.id)).map((u) => u.id));
  return wanted.filter((id) => allowed.has(id));
}

/** Which of the users are Reporters or above on the project (directly, through its groups, or as namespace owner). */
async function reporterMembers(ctx: DomainContext, { project }: ProjectAccess, userIds: number[]): Promise<Set<number>> {
  const minimum = { accessLevel: { gte: AccessLevel.reporter }, ...notExpired(ctx) };
  const groupIds = project.namespace.kind === "group" ? ancestorIds(project.namespace) : [];
  const [direct, inherited] = await Promise.all([
    ctx.db.projectMember.findMany({ where: { projectId: project.id, userId: { in: userIds }, ...minimum }, select: { userId: true } }),
    ctx.db.groupMember.findMany({ where: { groupId: { in: groupIds }, userId: { in: userIds }, ...minimum }, select: { userId: true } }),
  ]);
  const ids = new Set([...direct, ...inherited].map((m) => m.userId));
  if (project.namespace.ownerId != null) ids.add(project.namespace.ownerId);
  return ids;
}
