// Opening and changing merge requests (MergeRequests::CreateService / UpdateService through
// lib/api/merge_requests.rb), each in one transaction with its "merge_request" domain event.
import { paramError } from "../../errors.js";
import type { ProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { publish, type Changes, type Tx } from "../shared/events.js";
import { nextInternalId } from "../shared/internal-ids.js";
import { requireAtLeastOne } from "../shared/param-rules.js";
import { branchHead } from "./branches.js";
import { withCheckedMergeability } from "./mergeability.js";
import { labelsAfter } from "../issues/rules.js";
import { labelSnapshot, labelsNamed, labelsOfIssuables, linkLabels } from "../labels/issuable-labels.js";
import type { Label } from "../../generated/prisma/client.js";
import { isDraftTitle } from "./fields.js";
import {
  canSetMetadata, requireCreateMergeRequest, type MergeRequestRow, type MergeRequestRowAccess, type MergeRequestWithPeople,
} from "./queries.js";
import { mergeRequestReaders } from "./people.js";
import { validateMergeRequest } from "./rules.js";
import { takeVersion } from "./versions.js";
import { milestoneIdToSet, recordMilestoneChange } from "../milestones/history.js";

/** Params shared by create and update (GitLab's `optional_params`). */
export interface MergeRequestParams {
  description?: string | null;
  assignee_id?: number | null;
  assignee_ids?: number[] | null;
  reviewer_ids?: number[] | null;
  labels?: string[] | null;
  milestone_id?: number | null;
  remove_source_branch?: boolean | null;
  allow_collaboration?: boolean | null;
  squash?: boolean | null;
}

export interface CreateMergeRequestInput extends MergeRequestParams {
  title: string;
  source_branch: string;
  target_branch: string;
}

export interface UpdateMergeRequestInput extends MergeRequestParams {
  title?: string | null;
  target_branch?: string | null;
  state_event?: "close" | "reopen" | null;
  discussion_locked?: boolean | null;
  add_labels?: string[] | null;
  remove_labels?: string[] | null;
}

/** GitLab's `update_params_at_least_one_of`, in its order (the ones Forgeline declares). */
const UPDATE_PARAMS = [
  "assignee_id", "assignee_ids", "reviewer_ids", "description", "labels", "add_labels", "remove_labels", "milestone_id",
  "remove_source_branch", "allow_collaboration", "squash", "target_branch", "title", "state_event", "discussion_locked",
] as const;

/** POST /projects/:id/merge_requests, in the project found for the caller. */
export async function createMergeRequest(ctx: DomainContext, access: ProjectAccess, input: CreateMergeRequestInput): Promise<MergeRequestRow> {
  const actor = requireAuthenticated(ctx);
  requireCreateMergeRequest(ctx, access);
  const metadata = await metadataOf(ctx, access, input, []);
  const now = ctx.now();
  const created = await ctx.db.$transaction(async (tx) => {
    const candidate = {
      id: null, projectId: access.project.id, title: input.title, description: input.description ?? null,
      sourceBranch: input.source_branch, targetBranch: input.target_branch, state: "opened",
    };
    await validateMergeRequest(tx, candidate, { sourceBranch: true, targetBranch: true }, true);
    const row = await tx.mergeRequest.create({
      data: {
        projectId: access.project.id,
        iid: await nextInternalId(tx, access.project.id, "merge_requests"),
        title: input.title,
        description: input.description ?? null,
        sourceBranch: input.source_branch,
        targetBranch: input.target_branch,
        headSha: await branchHead(tx, access.project.id, input.source_branch),
        mergeStatus: "unchecked",
        draft: isDraftTitle(input.title),
        milestoneId: metadata.milestoneId ?? null,
        squash: input.squash ?? false,
        // the project's remove_source_branch_after_merge setting, on by default, when not asked
        forceRemoveSourceBranch: input.remove_source_branch ?? true,
        authorId: actor.user.id,
        createdAt: now,
        updatedAt: now,
        assignees: { create: (metadata.assigneeIds ?? []).map((userId) => ({ userId })) },
        reviewers: { create: (metadata.reviewerIds ?? []).map((userId) => ({ userId })) },
      },
      include: { assignees: true, reviewers: true },
    });
    await linkLabels(tx, ctx, "MergeRequest", row.id, [], await labelsNamed(tx, access.project, metadata.labels ?? [], true, now, ctx.dialect));
    // a milestone set at creation is an "add" event, as GitLab's CommonSystemNotesService records it (is_update: false)
    await recordMilestoneChange(tx, ctx, { mergeRequestId: row.id }, { before: null, after: row.milestoneId, state: row.state });
    await takeVersion(tx, ctx, row, actor.user.id);
    await publish(tx, ctx, "merge_request", { action: "open", projectId: row.projectId, mergeRequestId: row.id, actorId: actor.user.id, changes: {} });
    return row;
  });
  return withCheckedMergeability(ctx, { ...created, project: access.project });
}

/**
 * What PUT checks before it looks the merge request up, in GitLab's order: the params (400), then
 * a signed-in caller (401).
 */
export function requireMergeRequestChanges(ctx: DomainContext, input: UpdateMergeRequestInput): void {
  requireAtLeastOne(input, UPDATE_PARAMS);
  if (input.title != null && !input.title.trim()) throw paramError("title is empty");
  if (input.target_branch != null && !input.target_branch.trim()) throw paramError("target_branch is empty");
  requireAuthenticated(ctx);
}

/**
 * PUT /projects/:id/merge_requests/:iid on the merge request found for `update` (findMergeRequest:
 * 404, then 403), the input checked by requireMergeRequestChanges.
 */
export async function updateMergeRequest(ctx: DomainContext, { mergeRequest: mr, access }: MergeRequestRowAccess, input: UpdateMergeRequestInput): Promise<MergeRequestRow> {
  const actor = requireAuthenticated(ctx);
  const labelsBefore = (await labelsOfIssuables(ctx.db, "MergeRequest", [mr.id])).get(mr.id) ?? [];
  const metadata = await metadataOf(ctx, access, input, labelsBefore.map((label) => label.title));
  const updated = await ctx.db.$transaction(async (tx) => {
    const labels = metadata.labels ? { before: labelsBefore, after: await labelsNamed(tx, access.project, metadata.labels, true, ctx.now(), ctx.dialect) } : null;
    const next = {
      title: input.title ?? mr.title,
      description: input.description ?? mr.description,
      targetBranch: input.target_branch ?? mr.targetBranch,
      state: stateAfter(mr, input.state_event),
    };
    const changes = changesOf(mr, next, metadata, input, labels);
    if (!Object.keys(changes).length) return mr;
    await validateMergeRequest(tx, { ...mr, ...next }, { sourceBranch: false, targetBranch: next.targetBranch !== mr.targetBranch }, false);
    const row = await tx.mergeRequest.update({ where: { id: mr.id }, data: await rowData(tx, ctx, mr, next, metadata, input), include: { assignees: true, reviewers: true } });
    await replacePeople(tx, mr, metadata);
    if (labels) await linkLabels(tx, ctx, "MergeRequest", mr.id, labels.before, labels.after);
    if (metadata.milestoneId !== undefined) await recordMilestoneChange(tx, ctx, { mergeRequestId: mr.id }, { before: mr.milestoneId, after: row.milestoneId, state: row.state });
    if (diffReloads(mr, next)) await takeVersion(tx, ctx, row, actor.user.id);
    changes.updated_at = { previous: mr.updatedAt, current: row.updatedAt }; // every save moves it, as GitLab reports
    await publish(tx, ctx, "merge_request", { action: actionOf(mr.state, next.state), projectId: mr.projectId, mergeRequestId: mr.id, actorId: actor.user.id, changes });
    return metadata.assigneeIds || metadata.reviewerIds
      ? tx.mergeRequest.findUniqueOrThrow({ where: { id: mr.id }, include: { assignees: true, reviewers: true } })
      : row;
  });
  return withCheckedMergeability(ctx, { ...updated, project: access.project });
}

/** MergeRequest#reload_diff_if_branch_changed and ReopenService: a retargeted or reopened merge request gets a new version. */
const diffReloads = (mr: MergeRequestWithPeople, next: Next) =>
  next.targetBranch !== mr.targetBranch || (mr.state !== "opened" && next.state === "opened");

/**
 * close only from opened, reopen only from closed and never while the discussion is locked (as
 * for issues); anything else leaves the state as it is.
 */
function stateAfter(mr: Pick<MergeRequestWithPeople, "state" | "discussionLocked">, event: UpdateMergeRequestInput["state_event"]): string {
  if (event === "close" && mr.state === "opened") return "closed";
  if (event === "reopen" && mr.state === "closed" && !mr.discussionLocked) return "opened";
  return mr.state;
}

const actionOf = (before: string, after: string) =>
  before === after ? "update" : after === "closed" ? "close" : "reopen";

interface Metadata {
  /** null: leave as it is */
  assigneeIds: number[] | null;
  reviewerIds: number[] | null;
  labels: string[] | null;
  discussionLocked: boolean | null;
  /** undefined: leave as it is */
  milestoneId?: number | null;
}

/**
 * Assignees, reviewers, labels and the discussion lock, as the caller may set them: only users
 * who can read the merge request stay; callers below Developer have them dropped silently.
 */
async function metadataOf(ctx: DomainContext, access: ProjectAccess, input: UpdateMergeRequestInput, labels: string[]): Promise<Metadata> {
  if (!canSetMetadata(ctx, access)) return { assigneeIds: null, reviewerIds: null, labels: null, discussionLocked: null };
  const assignees = input.assignee_id != null ? [input.assignee_id] : input.assignee_ids;
  return {
    assigneeIds: assignees != null ? await mergeRequestReaders(ctx, access, assignees) : null,
    reviewerIds: input.reviewer_ids != null ? await mergeRequestReaders(ctx, access, input.reviewer_ids) : null,
    labels: labelsChange(labels, input),
    discussionLocked: input.discussion_locked ?? null,
    milestoneId: await milestoneIdToSet(ctx, access, input.milestone_id),
  };
}

/** The issues' label rules (`labels` replaces, then add / remove), or null when no label param is given. */
function labelsChange(current: string[], input: UpdateMergeRequestInput): string[] | null {
  if (input.labels == null && input.add_labels == null && input.remove_labels == null) return null;
  return labelsAfter(current, input);
}

/** People compared as sets (the join rows keep no order), by id as the issue events report them. */
const sortedIds = (ids: number[]) => [...ids].sort((a, b) => a - b);

type Next = { title: string; description: string | null; targetBranch: string; state: string };

/** Old and new values of what this update changes, by REST field name (people by user id). */
function changesOf(mr: MergeRequestWithPeople, next: Next, metadata: Metadata, input: UpdateMergeRequestInput, labels: { before: Label[]; after: Label[] } | null): Changes {
  const changes: Changes = {};
  const note = (key: string, previous: unknown, current: unknown) => {
    if (JSON.stringify(previous) !== JSON.stringify(current)) changes[key] = { previous, current };
  };
  note("title", mr.title, next.title);
  note("description", mr.description, next.description);
  note("target_branch", mr.targetBranch, next.targetBranch);
  note("state", mr.state, next.state);
  if (metadata.assigneeIds) note("assignees", sortedIds(mr.assignees.map((a) => a.userId)), sortedIds(metadata.assigneeIds));
  if (metadata.reviewerIds) note("reviewers", sortedIds(mr.reviewers.map((r) => r.userId)), sortedIds(metadata.reviewerIds));
  if (labels) note("labels", labels.before.map(labelSnapshot), labels.after.map(labelSnapshot));
  if (metadata.discussionLocked != null) note("discussion_locked", mr.discussionLocked, metadata.discussionLocked);
  if (metadata.milestoneId !== undefined) note("milestone_id", mr.milestoneId, metadata.milestoneId);
  if (input.squash != null) note("squash", mr.squash, input.squash);
  if (input.remove_source_branch != null) note("force_remove_source_branch", mr.forceRemoveSourceBranch, input.remove_source_branch);
  return changes;
}

async function rowData(tx: Tx, ctx: DomainContext, mr: MergeRequestWithPeople, next: Next, metadata: Metadata, input: UpdateMergeRequestInput) {
  const reopened = mr.state !== "opened" && next.state === "opened";
  const closed = mr.state !== "closed" && next.state === "closed";
  const recheck = reopened || next.targetBranch !== mr.targetBranch;
  return {
    updatedAt: ctx.now(),
    title: next.title,
    description: next.description,
    targetBranch: next.targetBranch,
    state: next.state,
    draft: isDraftTitle(next.title),
    ...(recheck ? { mergeStatus: "unchecked", mergeStatusVersion: { increment: 1 } } : {}),
    ...(closed ? { closedById: ctx.actor!.user.id, closedAt: ctx.now() } : {}),
    // a closed merge request does not follow its branch: reopened, it takes the branch's head (ReopenService's reload_diff)
    ...(reopened ? { closedById: null, closedAt: null, headSha: (await branchHead(tx, mr.projectId, mr.sourceBranch)) ?? mr.headSha } : {}),
    ...(metadata.discussionLocked != null ? { discussionLocked: metadata.discussionLocked } : {}),
    ...(metadata.milestoneId !== undefined ? { milestoneId: metadata.milestoneId } : {}),
    ...(input.squash != null ? { squash: input.squash } : {}),
    ...(input.remove_source_branch != null ? { forceRemoveSourceBranch: input.remove_source_branch } : {}),
  };
}

async function replacePeople(tx: Tx, mr: MergeRequestWithPeople, metadata: Metadata): Promise<void> {
  if (metadata.assigneeIds) {
    await tx.mergeRequestAssignee.deleteMany({ where: { mergeRequestId: mr.id } });
    await tx.mergeRequestAssignee.createMany({ data: metadata.assigneeIds.map((userId) => ({ mergeRequestId: mr.id, userId })) });
  }
  if (metadata.reviewerIds) {
    // reviewers who stay keep their review state
    await tx.mergeRequestReviewer.deleteMany({ where: { mergeRequestId: mr.id, userId: { notIn: metadata.reviewerIds } } });
    const kept = new Set(mr.reviewers.map((r) => r.userId));
    const added = metadata.reviewerIds.filter((id) => !kept.has(id));
    if (added.length) await tx.mergeRequestReviewer.createMany({ data: added.map((userId) => ({ mergeRequestId: mr.id, userId })) });
  }
}
