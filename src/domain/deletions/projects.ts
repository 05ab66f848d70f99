// Deleting projects (GitLab's Projects::DestroyService, run at once as CE without delayed
// deletion): the project row cascades to most of what hangs from it (members, issues, merge
// requests, notes, snippets, branches, commits, redirects, topics, hooks); what refers to it
// without a foreign key (polymorphic reactions, approvals, approval rules and settings, iid
// counters, the bot users of its access tokens) is removed here, in the same transaction.
// The ghost user (users/ghost.ts) and the contributions helpers (users/contributions.ts) are the
// user lifecycle's.
import { Prisma } from "../../generated/prisma/client.js";
import { AccessLevel } from "../shared/access-levels.js";
import type { ProjectAccess } from "../shared/parents.js";
import { requireLevel } from "../shared/guards.js";
import type { ProjectWithNamespace } from "../shared/caches.js";
import type { DomainContext } from "../shared/context.js";
import { publish, type Tx } from "../shared/events.js";
import { assertUnmodifiedSince } from "../shared/preconditions.js";
import { recountTopics } from "../topics/assignments.js";
import { deleteContributions, detachUser, moveContributionsToGhost } from "../users/contributions.js";
import { ghostUser } from "../users/ghost.js";
import { lockForDeletion } from "../shared/row-locks.js";

/** A big project or group takes longer to delete than Prisma's default 5 s for a transaction. */
export const DELETION_TRANSACTION = { timeout: 60_000 } as const;

/** Grape's `accepted!` body: deletion answers 202 with it. */
export const ACCEPTED = Object.freeze({ message: "202 Accepted" });

/** remove_project: Owners (direct, inherited, or of the personal namespace) and admins. */
export async function deleteProject(ctx: DomainContext, { project, level }: ProjectAccess, ifUnmodifiedSince?: string | null): Promise<typeof ACCEPTED> {
  requireLevel(ctx, level, AccessLevel.owner);
  assertUnmodifiedSince(project.updatedAt, ifUnmodifiedSince);
  const ghostId = await ghostForBots(ctx, { projectIds: [project.id], groupIds: [] });
  await ctx.db.$transaction((tx) => destroyProjects(tx, ctx, [project], ghostId), DELETION_TRANSACTION);
  return ACCEPTED;
}

/**
 * The ghost user that receives the contributions of the bots about to be deleted with these
 * projects and groups (null: there are none). Found or created before the deletion's transaction,
 * as users/ghost.ts requires.
 */
export async function ghostForBots(ctx: DomainContext, of: { projectIds: number[]; groupIds: number[] }): Promise<number | null> {
  const bot = await ctx.db.accessToken.findFirst({
    where: {
      OR: [{ kind: "project", resourceId: { in: of.projectIds } }, { kind: "group", resourceId: { in: of.groupIds } }],
      user: { userType: "project_bot" },
    },
    select: { id: true },
  });
  return bot ? (await ghostUser(ctx)).id : null;
}

/**
 * Removes the projects and everything hanging from them. The `project` destroy event is published
 * first, while the rows its hook payload is built from still exist. The contributions of their
 * bots move to the ghost user (`ghostId`), or are deleted with them when it is null.
 */
export async function destroyProjects(tx: Tx, ctx: DomainContext, projects: ProjectWithNamespace[], ghostId: number | null = null): Promise<void> {
  if (!projects.length) return;
  const ids = projects.map((p) => p.id);
  await lockForDeletion(tx, ctx, "Project", ids);
  for (const project of projects) await publish(tx, ctx, "project", { action: "destroy", project, actorId: ctx.actor?.user.id ?? null });
  const topicIds = (await tx.projectTopic.findMany({ where: { projectId: { in: ids } }, select: { topicId: true } })).map((t) => t.topicId);
  await deletePolymorphicRows(tx, ids);
  await tx.approvalRule.deleteMany({ where: { OR: [{ projectId: { in: ids } }, { kind: "project", containerId: { in: ids } }] } });
  await tx.projectApprovalSetting.deleteMany({ where: { projectId: { in: ids } } });
  await tx.internalId.deleteMany({ where: { projectId: { in: ids } } });
  await deleteResourceBots(tx, ctx, "project", ids, ghostId);
  await tx.project.deleteMany({ where: { id: { in: ids } } });
  await recountTopics(tx, [...new Set(topicIds)]);
}

/**
 * Rows that point at issues, merge requests, snippets and notes of the projects by type and id
 * (no foreign key): reactions, approvals and user agent details. Subqueries keep the statement size independent of
 * how many issues or notes there are.
 */
async function deletePolymorphicRows(tx: Tx, projectIds: number[]): Promise<void> {
  const ids = Prisma.join(projectIds);
  const ofProjects = (table: string) => Prisma.sql`SELECT "id" FROM ${Prisma.raw(`"${table}"`)} WHERE "projectId" IN (${ids})`;
  for (const [type, table] of [["Issue", "Issue"], ["MergeRequest", "MergeRequest"], ["Snippet", "Snippet"], ["Note", "Note"]] as const) {
    await tx.$executeRaw`DELETE FROM "AwardEmoji" WHERE "awardableType" = ${type} AND "awardableId" IN (${ofProjects(table)})`;
  }
  await tx.$executeRaw`DELETE FROM "Approval" WHERE "mergeRequestId" IN (${ofProjects("MergeRequest")})`;
  for (const type of ["Issue", "Snippet"] as const) {
    await tx.$executeRaw`DELETE FROM "UserAgentDetail" WHERE "subjectType" = ${type} AND "subjectId" IN (${ofProjects(type)})`;
  }
}

/**
 * The bot users behind the access tokens of projects or groups, as GitLab's destroy services do
 * (Users::DestroyService for each bot): what they wrote moves to the ghost user (deleted without
 * one), their personal projects go, and their tokens and memberships cascade with the user rows.
 */
export async function deleteResourceBots(tx: Tx, ctx: DomainContext, kind: "project" | "group", resourceIds: number[], ghostId: number | null): Promise<void> {
  const tokens = await tx.accessToken.findMany({
    where: { kind, resourceId: { in: resourceIds }, user: { userType: "project_bot" } },
    select: { userId: true },
  });
  const botIds = [...new Set(tokens.map((t) => t.userId))];
  if (!botIds.length) return;
  const personal = await tx.project.findMany({ where: { namespace: { ownerId: { in: botIds } } }, include: { namespace: true } });
  await destroyProjects(tx, ctx, personal, ghostId);
  for (const botId of botIds) {
    if (ghostId !== null) await moveContributionsToGhost(tx, botId, ghostId);
    else await deleteContributions(tx, botId);
    await detachUser(tx, botId);
  }
  await tx.user.deleteMany({ where: { id: { in: botIds }, userType: "project_bot" } });
}
