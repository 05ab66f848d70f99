// Per-caller and per-row values of the merge request entities: note counts, branch state,
// subscription, whether the caller may merge.
import type { MergeRequest, Project } from "../../generated/prisma/client.js";
import { projectAccessLevel } from "../shared/memberships.js";
import type { DomainContext } from "../shared/context.js";
import { canMergeToBranch, canPushToBranch } from "../repository/access.js";
import { computeApprovalState } from "./approvals/state.js";
import { ffMergeMustBePossible } from "../projects/merge-settings.js";
import { detailedMergeStatus, SETTLED } from "./fields.js";
import { branchHeadLoader, branchKey, hasApprovalRulesLoader, unresolvedThreadsLoader } from "./loaders.js";
import type { MergeRequestRow } from "./queries.js";

/** CheckCommitsStatusService: the source branch exists and brings commits (as the last check found). */
export async function hasCommits(ctx: DomainContext, mr: MergeRequestRow): Promise<boolean> {
  const source = await ctx.loaders.get(branchHeadLoader).load(branchKey(mr.projectId, mr.sourceBranch));
  return source != null && !mr.hasNoCommits;
}

/**
 * Whether the merge request's approval rules are satisfied. Most projects have no approval rules
 * at all (nothing to approve): one query per page of merge requests finds the projects that do,
 * and only their merge requests get their approval state computed.
 */
export async function approvalsSatisfied(ctx: DomainContext, mr: MergeRequestRow): Promise<boolean> {
  if (!(await ctx.loaders.get(hasApprovalRulesLoader).load(mr.projectId))) return true;
  return (await computeApprovalState(ctx, mr)).approved;
}

/**
 * MergeRequest#mergeable_discussions_state? (the entities' blocking_discussions_resolved): true
 * unless the project requires resolved threads and one is not.
 */
export async function discussionsResolved(ctx: DomainContext, mr: MergeRequestRow): Promise<boolean> {
  return discussionsResolvedWith(mr.project, () => ctx.loaders.get(unresolvedThreadsLoader).load(mr.id));
}

/** mergeable_discussions_state?, asking `hasUnresolvedThread` only where the project's rule is on. */
export async function discussionsResolvedWith(
  project: Pick<Project, "onlyAllowMergeIfAllDiscussionsAreResolved">, hasUnresolvedThread: () => Promise<boolean>,
): Promise<boolean> {
  return !project.onlyAllowMergeIfAllDiscussionsAreResolved || !(await hasUnresolvedThread());
}

/** should_be_rebased?: the project merges by fast-forward or semi-linear history and the last check found the source lacking the target's head. */
export const needsRebase = (project: Pick<Project, "mergeMethod">, mr: Pick<MergeRequest, "divergedFromTarget">) =>
  ffMergeMustBePossible(project) && mr.divergedFromTarget;

export async function detailedMergeStatusOf(ctx: DomainContext, mr: MergeRequestRow): Promise<string> {
  if (mr.state !== "opened") return detailedMergeStatus(mr, SETTLED);
  const [commits, approved, resolved] = await Promise.all([hasCommits(ctx, mr), approvalsSatisfied(ctx, mr), discussionsResolved(ctx, mr)]);
  return detailedMergeStatus(mr, { hasCommits: commits, approved, discussionsResolved: resolved, needsRebase: needsRebase(mr.project, mr) });
}

/** Participants are subscribed: the author, assignees and reviewers. */
export function isSubscribed(ctx: DomainContext, mr: MergeRequestRow): boolean {
  const userId = ctx.actor?.user.id;
  if (userId == null) return false;
  return mr.authorId === userId || mr.assignees.some((a) => a.userId === userId) || mr.reviewers.some((r) => r.userId === userId);
}

/** can_be_merged_by?: the caller may update the target branch (push to it, or merge into it). */
export async function canMerge(ctx: DomainContext, mr: MergeRequestRow): Promise<boolean> {
  if (!ctx.actor) return false;
  const access = { project: mr.project, level: await projectAccessLevel(ctx, mr.project) };
  return (await canPushToBranch(ctx, access, mr.targetBranch)) || canMergeToBranch(ctx, access, mr.targetBranch);
}
