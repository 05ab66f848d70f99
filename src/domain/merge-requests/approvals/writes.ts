// Approving, unapproving and resetting a merge request's approvals (MergeRequests::ApprovalService,
// RemoveApprovalService). Each change is one transaction that publishes an "approval" event.
import { conflict, forbidden, notFound, unauthorized } from "../../../errors.js";
import type { MergeRequest } from "../../../generated/prisma/client.js";
import { isResourceBot } from "../../access-tokens/resource.js";
import type { DomainContext } from "../../shared/context.js";
import { publish, type ApprovalEvent, type Tx } from "../../shared/events.js";
import { passwordMatches } from "../../users/records.js";
import { canApprove } from "./permissions.js";
import type { MergeRequestRowAccess } from "../queries.js";
import { approvalStatusView, type ApprovalStatusView } from "./state-views.js";
import { computeApprovalState, eligibleToApprove, hasApproved, type ApprovalState } from "./state.js";

/** approve_merge_request on a merge request found by findMergeRequestForApprovals (403). */
async function requireApprover(ctx: DomainContext, { mergeRequest, access }: MergeRequestRowAccess): Promise<void> {
  if (!(await canApprove(ctx, access, mergeRequest))) throw forbidden();
}

export interface ApproveInput {
  sha?: string | null;
  approval_password?: string | null;
}

/**
 * POST .../approve: a sha other than the current head answers 409 and records nothing; a wrong or
 * missing password (when re-authentication is required), a second approval, the author (unless
 * authors may approve), a committer (when committers may not) or a merged MR answer 401.
 */
export async function approveMergeRequest(ctx: DomainContext, found: MergeRequestRowAccess, input: ApproveInput): Promise<ApprovalStatusView> {
  await requireApprover(ctx, found);
  const { mergeRequest } = found;
  if (input.sha != null && input.sha !== mergeRequest.headSha) {
    throw conflict(`SHA does not match HEAD of source branch: ${mergeRequest.headSha ?? ""}`);
  }
  const user = ctx.actor!.user;
  const before = await computeApprovalState(ctx, mergeRequest);
  if (before.settings.requireReauthenticationToApprove && !passwordMatches(user, input.approval_password)) throw unauthorized();
  if (mergeRequest.state === "merged" || !eligibleToApprove(before, user.id)) throw unauthorized();
  const after = await ctx.db.$transaction(async (tx) => {
    await tx.approval.create({ data: { mergeRequestId: mergeRequest.id, userId: user.id } });
    await setReviewerState(tx, mergeRequest, [user.id], "approved");
    const state = await computeApprovalState({ db: tx, now: ctx.now, git: ctx.git }, mergeRequest);
    await publishApproval(tx, ctx, mergeRequest, { action: state.approved ? "approved" : "approval", userIds: [user.id], cause: "api" });
    return state;
  }).catch((error) => {
    // the same approval sent twice at once: the loser is a second approval (401), with no event
    throw (error as { code?: string }).code === "P2002" ? unauthorized() : error;
  });
  return approvalStatusView(ctx, after, true);
}

/** POST .../unapprove: 404 when the caller has not approved or the MR is merged. */
export async function unapproveMergeRequest(ctx: DomainContext, found: MergeRequestRowAccess): Promise<ApprovalStatusView> {
  await requireApprover(ctx, found);
  const { mergeRequest } = found;
  const userId = ctx.actor!.user.id;
  if (mergeRequest.state === "merged") throw notFound();
  const after = await ctx.db.$transaction(async (tx) => {
    const reader = { db: tx, now: ctx.now, git: ctx.git };
    const before = await computeApprovalState(reader, mergeRequest);
    if (!hasApproved(before, userId)) throw notFound();
    await tx.approval.deleteMany({ where: { mergeRequestId: mergeRequest.id, userId } });
    await setReviewerState(tx, mergeRequest, [userId], "unapproved");
    const state = await computeApprovalState(reader, mergeRequest);
    await publishApproval(tx, ctx, mergeRequest, { action: removalAction(before, state), userIds: [userId], cause: "api" });
    return state;
  });
  return approvalStatusView(ctx, after, true);
}

/** "unapproved" when the removal took the MR from approved to not approved, else "unapproval". */
export const removalAction = (before: ApprovalState, after: ApprovalState) => (before.approved && !after.approved ? "unapproved" : "unapproval");

/**
 * PUT .../reset_approvals of a merge request found by findMergeRequestForReset: only the bot user of a
 * project or group access token that may approve the MR; anyone else (owners and administrators
 * included) and merged MRs answer 401.
 */
export async function resetMergeRequestApprovals(ctx: DomainContext, { mergeRequest, access }: MergeRequestRowAccess): Promise<number> {
  const user = ctx.actor!.user;
  if (!isResourceBot(user) || mergeRequest.state === "merged" || !(await canApprove(ctx, access, mergeRequest))) throw unauthorized();
  await ctx.db.$transaction((tx) => clearApprovals(tx, ctx, mergeRequest, user.id, "api"));
  return 202;
}

/** Deletes every approval of the MR and publishes a "reset" event (nothing when there were none). */
export async function clearApprovals(tx: Tx, ctx: DomainContext, mergeRequest: MergeRequest, actorId: number | null, cause: ApprovalEvent["cause"]): Promise<void> {
  const approvals = await tx.approval.findMany({ where: { mergeRequestId: mergeRequest.id }, select: { userId: true }, orderBy: { id: "asc" } });
  if (!approvals.length) return;
  await tx.approval.deleteMany({ where: { mergeRequestId: mergeRequest.id } });
  await publishApproval(tx, ctx, mergeRequest, { action: "reset", userIds: approvals.map((a) => a.userId), cause, actorId });
}

/** The approvers' reviewer state on the MR, as GitLab keeps it ("approved" / "unapproved"). */
export async function setReviewerState(tx: Tx, mergeRequest: MergeRequest, userIds: number[], state: string): Promise<void> {
  await tx.mergeRequestReviewer.updateMany({ where: { mergeRequestId: mergeRequest.id, userId: { in: userIds } }, data: { state } });
}

export async function publishApproval(
  tx: Tx,
  ctx: DomainContext,
  mergeRequest: MergeRequest,
  event: Pick<ApprovalEvent, "action" | "userIds" | "cause"> & { actorId?: number | null },
): Promise<void> {
  await publish(tx, ctx, "approval", {
    projectId: mergeRequest.projectId,
    mergeRequestId: mergeRequest.id,
    actorId: event.actorId !== undefined ? event.actorId : (ctx.actor?.user.id ?? null),
    action: event.action,
    userIds: event.userIds,
    cause: event.cause,
  });
}
