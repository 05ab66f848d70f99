// Whether a merge request can be merged (GitLab's merge_status, MergeabilityCheckService), found
// by trying the merge in git rather than on every read:
//   - when one of its branches moves (a push or an API write, in the transaction that records it)
//     or it is opened, reopened or retargeted, it becomes "unchecked" ("cannot_be_merged_recheck"
//     if it could not be merged) and its version goes up;
//   - after that transaction commits, its process checks it in the background; one merge request
//     shown on its own (GET, POST, PUT, merge) is checked before it is shown, never a list's rows;
//   - a check writes "can_be_merged" or "cannot_be_merged" only if the version it read is still
//     current (a branch that moved meanwhile asks for a new check), and keeps the merge ref
//     (refs/merge-requests/:iid/merge, the merge of both heads) and refs/merge-requests/:iid/head;
//     it also notes whether the target's head is missing from the source (a fast-forward is then
//     impossible: "need_rebase" where the project merges by fast-forward or semi-linear history).
// As in GitLab, a missing branch or a source with no commits the target lacks cannot be merged.
import { afterCommit, type TransactionClient } from "../../db/after-commit.js";
import { Prisma, type MergeRequest, type Namespace, type Project } from "../../generated/prisma/client.js";
import { NULL_SHA } from "../../git/objects.js";
import type { DomainContext } from "../shared/context.js";
import { systemContext } from "../shared/context.js";
import type { Tx } from "../shared/events.js";
import { repositoryOf, signature, type GitRepository } from "../repository/git.js";
import { MergeConflictError, writeMergeCommit, type Person } from "../repository/merges.js";
import { branchHead } from "./branches.js";
import { defaultMergeMessage } from "./fields.js";

const CHECKED = new Set(["can_be_merged", "cannot_be_merged"]);

type Checkable = Pick<MergeRequest, "id" | "iid" | "projectId" | "state" | "mergeStatus" | "mergeStatusVersion" | "sourceBranch" | "targetBranch" | "title" | "authorId">
  & { project: Pick<Project, "path" | "namespaceId"> & { namespace: Pick<Namespace, "fullPath"> } };

/** An open merge request whose merge_status waits for a check. */
export const needsMergeabilityCheck = (mr: Pick<MergeRequest, "state" | "mergeStatus">) => mr.state === "opened" && !CHECKED.has(mr.mergeStatus);

/** GitLab's cannot_be_merged?, the entities' has_conflicts. */
export const cannotBeMerged = (mr: Pick<MergeRequest, "mergeStatus">) => mr.mergeStatus === "cannot_be_merged";

/**
 * In a transaction that changes what a merge request merges: the open merge requests of the
 * project matching `where` (by branch, or by id) wait for a new check (GitLab's mark_as_unchecked),
 * run once the transaction has committed. Their updated_at stays: nobody edited them.
 */
export async function markUnchecked(tx: Tx, ctx: DomainContext, projectId: number, where: { branch: string } | { id: number }): Promise<void> {
  const match = "branch" in where
    ? Prisma.sql`("sourceBranch" = ${where.branch} OR "targetBranch" = ${where.branch})`
    : Prisma.sql`"id" = ${where.id}`;
  const changed = await tx.$executeRaw`
    UPDATE "MergeRequest"
    SET "mergeStatus" = CASE WHEN "mergeStatus" IN ('cannot_be_merged', 'cannot_be_merged_recheck') THEN 'cannot_be_merged_recheck' ELSE 'unchecked' END,
        "mergeStatusVersion" = "mergeStatusVersion" + 1
    WHERE "projectId" = ${projectId} AND "state" = 'opened' AND ${match}`;
  if (changed) checkAfterCommit(tx, ctx, projectId);
}

const projectsToCheck = new WeakMap<object, { ctx: DomainContext; projectIds: Set<number> }>();
const hooked = new WeakSet<object>();

function checkAfterCommit(tx: Tx, ctx: DomainContext, projectId: number): void {
  const db = ctx.db as unknown as TransactionClient;
  if (!hooked.has(db)) {
    hooked.add(db);
    afterCommit(db, (committed) => {
      const pending = projectsToCheck.get(committed);
      if (pending) for (const id of pending.projectIds) scheduleChecks(pending.ctx, id);
    });
  }
  const pending = projectsToCheck.get(tx) ?? { ctx, projectIds: new Set<number>() };
  pending.projectIds.add(projectId);
  projectsToCheck.set(tx, pending);
}

/** One background pass per project at a time in this process; a pass asked for meanwhile runs after it. */
const running = new Map<number, { again: boolean; done: Promise<void> }>();

/** Resolves once this process runs no background check (statement budgets measure after it). */
export async function backgroundChecksDone(): Promise<void> {
  while (running.size) await Promise.all([...running.values()].map((pass) => pass.done));
}

function scheduleChecks(ctx: DomainContext, projectId: number): void {
  const current = running.get(projectId);
  if (current) return void (current.again = true);
  const system = systemContext(ctx);
  const state = { again: false, done: Promise.resolve() };
  running.set(projectId, state);
  state.done = (async () => {
    try {
      do {
        state.again = false;
        await checkProject(system, projectId);
      } while (state.again);
    } catch {
      // left unchecked: the next push, or the first read of the merge request, checks it again
    } finally {
      running.delete(projectId);
    }
  })();
}

const CHECKS_PER_PASS = 100;

async function checkProject(ctx: DomainContext, projectId: number): Promise<void> {
  const waiting = await ctx.db.mergeRequest.findMany({
    where: { projectId, state: "opened", mergeStatus: { notIn: [...CHECKED] } },
    include: { project: { include: { namespace: true } } },
    orderBy: { id: "asc" },
    take: CHECKS_PER_PASS,
  });
  for (const mr of waiting) await checkMergeability(ctx, mr);
}

/**
 * The merge request with its merge_status current: checked now when it waits for a check
 * (MergeabilityCheckService#execute). Returns the row as it now stands.
 */
export async function withCheckedMergeability<T extends Checkable>(ctx: DomainContext, mr: T): Promise<T> {
  if (!needsMergeabilityCheck(mr)) return mr;
  // a check git could not finish leaves the status waiting, as GitLab's failed worker does
  const status = await checkMergeability(ctx, mr).catch(() => null);
  return status ? { ...mr, ...status } : mr;
}

/**
 * Tries the merge: "can_be_merged" or "cannot_be_merged", written unless a branch moved while it
 * ran (then null, and the newer check decides). The refs move only after the status was written,
 * each from the value read before, so a check overtaken by a newer one leaves them to it.
 */
async function checkMergeability(ctx: DomainContext, mr: Checkable): Promise<Pick<MergeRequest, "mergeStatus" | "hasNoCommits" | "divergedFromTarget"> | null> {
  const [targetSha, sourceSha] = await Promise.all([branchHead(ctx.db, mr.projectId, mr.targetBranch), branchHead(ctx.db, mr.projectId, mr.sourceBranch)]);
  const repo = repositoryOf(ctx, mr.projectId);
  const headRef = `refs/merge-requests/${mr.iid}/head`;
  const oldHead = (await repo.info(headRef))?.sha ?? NULL_SHA;
  let merge: MergeRefCommit | null = null;
  let noCommits = false;
  let diverged = false;
  if (targetSha && sourceSha) {
    noCommits = await repo.isAncestor(sourceSha, targetSha);
    diverged = !noCommits && !(await repo.isAncestor(targetSha, sourceSha));
    if (!noCommits) merge = await mergeRefCommit(ctx, repo, mr, targetSha, sourceSha);
  }
  const status = merge ? "can_be_merged" : "cannot_be_merged";
  const written = await ctx.db.$executeRaw`
    UPDATE "MergeRequest" SET "mergeStatus" = ${status}, "hasNoCommits" = ${noCommits}, "divergedFromTarget" = ${diverged}
    WHERE "id" = ${mr.id} AND "mergeStatusVersion" = ${mr.mergeStatusVersion} AND "state" = 'opened'`;
  if (!written) return null;
  if (sourceSha) await keepRef(repo, headRef, sourceSha, oldHead);
  if (merge) await keepRef(repo, mergeRefName(mr), merge.sha, merge.old);
  return { mergeStatus: status, hasNoCommits: noCommits, divergedFromTarget: diverged };
}

const mergeRefName = (mr: Pick<MergeRequest, "iid">) => `refs/merge-requests/${mr.iid}/merge`;

/** The merge ref's commit for these heads, and where the ref was when it was read. */
interface MergeRefCommit {
  sha: string;
  old: string;
}

/**
 * The commit refs/merge-requests/:iid/merge should hold: the merge of the source head into the
 * target head, by the merge request's author (MergeToRefService); the one there already when its
 * parents are these heads. Null when git cannot merge them.
 */
async function mergeRefCommit(ctx: DomainContext, repo: GitRepository, mr: Checkable, targetSha: string, sourceSha: string): Promise<MergeRefCommit | null> {
  const current = await repo.commit((await repo.info(mergeRefName(mr)))?.sha ?? "");
  const old = current?.sha ?? NULL_SHA;
  if (current && current.parents[0] === targetSha && current.parents[1] === sourceSha) return { sha: current.sha, old };
  try {
    const sha = await writeMergeCommit(repo, targetSha, sourceSha, defaultMergeMessage(mr), signature(await authorOf(ctx, mr), ctx.now()));
    return { sha, old };
  } catch (error) {
    if (error instanceof MergeConflictError) return null;
    throw error;
  }
}

/** The merge request's author as commits name them (the ghost user's when the author is gone). */
export async function authorOf(ctx: DomainContext, mr: Pick<MergeRequest, "authorId">): Promise<Person> {
  const author = await ctx.db.user.findUnique({ where: { id: mr.authorId }, select: { name: true, email: true } });
  return author ?? { name: "Ghost User", email: "ghost@localhost" };
}

/** refs/merge-requests/:iid/merge brought up to date with both heads (GET .../merge_ref); null when git cannot merge them. */
export async function writeMergeRef(ctx: DomainContext, repo: GitRepository, mr: Checkable, targetSha: string, sourceSha: string): Promise<string | null> {
  const merge = await mergeRefCommit(ctx, repo, mr, targetSha, sourceSha);
  if (merge) await keepRef(repo, mergeRefName(mr), merge.sha, merge.old);
  return merge?.sha ?? null;
}

/** Points a ref GitLab keeps for itself at `sha`, from `old`; a writer that moved it meanwhile wins. */
async function keepRef(repo: GitRepository, ref: string, sha: string, old: string): Promise<void> {
  if (old === sha) return;
  await repo.updateRefs([{ ref, oldSha: old, newSha: sha }]).catch(() => {});
}
