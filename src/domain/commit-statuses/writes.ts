// POST /projects/:id/statuses/:sha (Ci::CreateCommitStatusService): a status posted from outside
// CI joins the newest external pipeline of the sha (and ref, and pipeline_id when given), or a new
// one; a running or pending status of the same name, ref and author moves on, otherwise a new
// status starts and the older ones of that name are retried; the pipeline's status follows.
import type { CiPipeline, CommitStatus } from "../../generated/prisma/client.js";
import { AppError, forbidden, notFound } from "../../errors.js";
import { canMergeToBranch, canPushToBranch } from "../repository/access.js";
import type { FoundCommit } from "../repository/commit-api.js";
import { repositoryOf } from "../repository/git.js";
import { protectedBranchesMatching } from "../repository/protection-rules.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import type { Tx } from "../shared/events.js";
import { nextInternalId } from "../shared/internal-ids.js";
import { checkStatusRecord, compositeStatus, POSTED_STATES, statusName, transition, type PostedState, type StatusInput } from "./rules.js";

const BRANCH_PREFIX = "refs/heads/";
/** pg_advisory_xact_lock's first key for status posts (the second is the project id). */
const STATUS_LOCK_SPACE = 4_170_031;

/** Grape's checks, after `authenticate!` and before the lookup: `state` one of the posted states. */
export function checkStatusInput(ctx: DomainContext, input: StatusInput): void {
  requireAuthenticated(ctx);
  if (!(POSTED_STATES as readonly string[]).includes(input.state)) throw new AppError(400, { error: "state does not have a valid value" });
}

/** first_matching_pipeline: the newest pipeline of the sha, of the ref and with the id when given. */
function firstMatchingPipeline(db: DomainContext["db"] | Tx, { access, commit }: FoundCommit, input: StatusInput): Promise<CiPipeline | null> {
  return db.ciPipeline.findFirst({
    where: {
      projectId: access.project.id,
      sha: commit.sha,
      ...(input.ref != null ? { ref: input.ref } : {}),
      ...(input.pipeline_id != null ? { id: input.pipeline_id } : {}),
    },
    orderBy: { id: "desc" },
  });
}

/** The ref a status is for: the one given, the matching pipeline's, or the first branch holding the commit. */
async function refOf(ctx: DomainContext, found: FoundCommit, input: StatusInput, pipeline: CiPipeline | null): Promise<string | null> {
  if (input.ref != null) return input.ref;
  if (pipeline) return pipeline.ref;
  const refs = await repositoryOf(ctx, found.access.project.id).refsContaining(found.commit.sha, [BRANCH_PREFIX]);
  return refs[0]?.slice(BRANCH_PREFIX.length) ?? null;
}

/** update_pipeline on a pipeline of `ref`: a protected ref needs the right to push or merge to it. */
async function canUpdatePipeline(ctx: DomainContext, found: FoundCommit, ref: string): Promise<boolean> {
  const matching = await protectedBranchesMatching(ctx.db, found.access.project.id, ref);
  return (await canPushToBranch(ctx, found.access, ref, matching)) || (await canMergeToBranch(ctx, found.access, ref, matching));
}

/**
 * After findCommitToPostStatus and checkStatusInput: 404 References for commit when no ref can
 * be picked, 404 for a pipeline_id that names no pipeline of the sha and ref, 403 for a protected
 * ref the caller may neither push nor merge to, 400 for an invalid record or a refused transition.
 * Checked before anything is written (GitLab creates the pipeline before its 403 and 400s).
 */
export async function createCommitStatus(ctx: DomainContext, found: FoundCommit, input: StatusInput): Promise<CommitStatus> {
  const user = ctx.actor!.user;
  const pipeline = await firstMatchingPipeline(ctx.db, found, input);
  const ref = await refOf(ctx, found, input, pipeline);
  if (!ref) throw notFound("References for commit");
  if (input.pipeline_id != null && !pipeline) throw notFound("Pipeline for pipeline_id, sha and ref");
  if (!(await canUpdatePipeline(ctx, found, ref))) throw forbidden();
  checkStatusRecord(input);
  const projectId = found.access.project.id;
  const isProtected = (await protectedBranchesMatching(ctx.db, projectId, ref)).length > 0;
  const name = statusName(input);
  const now = ctx.now();
  const write = async (tx: Tx, pipelineId: number) => {
    const existing = await tx.commitStatus.findFirst({
      where: { pipelineId, name, ref, userId: user.id, protected: isProtected, status: { in: ["pending", "running"] } },
      orderBy: { id: "desc" },
    });
    const moved = transition(existing ?? { status: "created", startedAt: null, finishedAt: null }, input.state as PostedState, now);
    const fields = {
      ...moved,
      ...(input.target_url !== undefined ? { targetUrl: input.target_url?.trim() ?? null } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.coverage !== undefined ? { coverage: input.coverage } : {}),
    };
    const status = existing
      ? await tx.commitStatus.update({ where: { id: existing.id }, data: fields })
      : await tx.commitStatus.create({
          data: { ...fields, projectId, pipelineId, sha: found.commit.sha, name, ref, protected: isProtected, userId: user.id, createdAt: now },
        });
    // update_older_statuses_retried!: only the newest status of a name counts
    await tx.commitStatus.updateMany({ where: { pipelineId, name, retried: false, id: { not: status.id } }, data: { retried: true } });
    const latest = await tx.commitStatus.findMany({ where: { pipelineId, retried: false }, select: { status: true } });
    await tx.ciPipeline.update({ where: { id: pipelineId }, data: { status: compositeStatus(latest.map((row) => row.status)) ?? "created" } });
    return status;
  };
  return ctx.db.$transaction(async (tx) => {
    // GitLab's lease on the project and sha: one post at a time finds or creates the pipeline
    // (SQLite's transactions already take the database's write lock from their start)
    if (ctx.dialect === "postgresql") await tx.$executeRaw`SELECT pg_advisory_xact_lock(${STATUS_LOCK_SPACE}::int, ${projectId}::int)`;
    const current = await firstMatchingPipeline(tx, found, { ...input, ref });
    if (current) return write(tx, current.id);
    const created = await tx.ciPipeline.create({
      data: {
        projectId, iid: await nextInternalId(tx, projectId, "ci_pipelines"), sha: found.commit.sha, ref, protected: isProtected,
        source: "external", userId: user.id, createdAt: now,
      },
    });
    return write(tx, created.id);
  });
}
