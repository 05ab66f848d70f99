// Who may be assigned to an issue: GitLab keeps only the requested users who can read the
// project's issues (`filter_assignees`) and silently drops the rest.
import type { User } from "../../generated/prisma/client.js";
import { AccessLevel, ancestorIds, canSee, notExpired, type ProjectAccess } from "../access.js";
import type { DomainContext } from "../context.js";
import { featureAvailable } from "../project-features.js";

/** GitLab's "None" for assignee ids: `[0]` unassigns everybody. */
const UNASSIGN = 0;

/**
 * The assignee ids to store, or undefined when the request changes nothing: `[0]` and `[]`
 * clear the assignees; otherwise the readers among the requested users, and when none of
 * them qualifies the param is dropped (the assignees stay as they are).
 */
export async function assigneesToStore(ctx: DomainContext, access: ProjectAccess, requested: number[] | undefined): Promise<number[] | undefined> {
  if (requested === undefined) return undefined;
  if (requested.length === 0 || (requested.length === 1 && requested[0] === UNASSIGN)) return [];
  const readers = await issueReaders(ctx, access, [...new Set(requested)]);
  const kept = requested.filter((id, index) => readers.has(id) && requested.indexOf(id) === index);
  return kept.length ? kept : undefined;
}

/** The users among `userIds` who may read the project's issues. */
async function issueReaders(ctx: DomainContext, access: ProjectAccess, userIds: number[]): Promise<Set<number>> {
  const { project } = access;
  const [users, levels] = await Promise.all([
    ctx.db.user.findMany({ where: { id: { in: userIds }, state: "active" } }),
    membershipLevels(ctx, access, userIds),
  ]);
  const readers = users.filter((user) => {
    const level = Math.max(levels.get(user.id) ?? 0, project.namespace.ownerId === user.id ? AccessLevel.owner : 0);
    const asUser = actingAs(ctx, user);
    return canSee(asUser.actor, project.visibility, level) && featureAvailable(asUser, { project, level }, "issues");
  });
  return new Set(readers.map((user) => user.id));
}

/** Highest direct or inherited (ancestor group) membership of each user. */
async function membershipLevels(ctx: DomainContext, access: ProjectAccess, userIds: number[]): Promise<Map<number, number>> {
  const { project } = access;
  const groupIds = project.namespace.kind === "group" ? ancestorIds(project.namespace) : [];
  const [direct, inherited] = await Promise.all([
    ctx.db.projectMember.findMany({ where: { projectId: project.id, userId: { in: userIds }, ...notExpired(ctx) } }),
    groupIds.length
      ? ctx.db.groupMember.findMany({ where: { groupId: { in: groupIds }, userId: { in: userIds }, ...notExpired(ctx) } })
      : Promise.resolve([]),
  ]);
  const levels = new Map<number, number>();
  for (const row of [...direct, ...inherited]) levels.set(row.userId, Math.max(levels.get(row.userId) ?? 0, row.accessLevel));
  return levels;
}

/** The same context with another user as the actor, to ask the access rules about them. */
const actingAs = (ctx: DomainContext, user: User): DomainContext => ({ ...ctx, actor: { user, scopes: new Set(), tokenId: null } });
