// The one place a branch moves: created, advanced by new commits, or deleted. It is GitLab's
// push, so it publishes the "push" domain event in the caller's transaction; merge requests,
// approvals and webhooks react to branches through that event.
import { Prisma } from "../../generated/prisma/client.js";
import { AppError } from "../../errors.js";
import type { DomainContext } from "../shared/context.js";
import { BLANK_SHA, publish, type Tx } from "../shared/events.js";

export interface BranchUpdate {
  projectId: number;
  branch: string;
  /** the head the caller saw (BLANK_SHA: the branch is created) */
  before: string;
  /** the new head (BLANK_SHA: the branch is deleted) */
  after: string;
  /** shas of the new commits, oldest first */
  commitShas: string[];
}

/** Gitaly's answer when the reference moved under the caller's feet. */
const staleReference = (branch: string) =>
  new AppError(400, { message: `Could not update refs/heads/${branch}. Please refresh and try again.` });

/**
 * Makes concurrent writers of these branches queue up behind this transaction, as SQLite's one
 * writer at a time does: on PostgreSQL the branch rows are locked until it ends.
 */
export async function lockBranches(tx: Tx, ctx: Pick<DomainContext, "dialect">, projectId: number, names: string[]): Promise<void> {
  if (ctx.dialect !== "postgresql") return;
  await tx.$queryRaw`SELECT "id" FROM "Branch" WHERE "projectId" = ${projectId} AND "name" IN (${Prisma.join(names)}) FOR UPDATE`;
}

/**
 * Moves the branch as a compare-and-swap on its old head (a concurrent push makes this one fail
 * instead of being lost), then publishes the push event.
 */
export async function pushBranch(tx: Tx, ctx: DomainContext, update: BranchUpdate): Promise<void> {
  const { projectId, branch: name, before, after } = update;
  if (before === BLANK_SHA) {
    const existing = await tx.branch.findUnique({ where: { projectId_name: { projectId, name } }, select: { id: true } });
    if (existing) throw staleReference(name);
    await tx.branch.create({ data: { projectId, name, headSha: after } });
  } else {
    const where = { projectId, name, headSha: before };
    const moved = after === BLANK_SHA ? await tx.branch.deleteMany({ where }) : await tx.branch.updateMany({ where, data: { headSha: after } });
    if (moved.count !== 1) throw staleReference(name);
  }
  await publish(tx, ctx, "push", { ...update, actorId: ctx.actor?.user.id ?? null });
}
