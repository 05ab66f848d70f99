// GitLab's `changes` of issue and merge request hooks (Gitlab::DataBuilder::Issuable#final_changes
// with Issuable#to_hook_data's association changes): only the builder's safe attributes and
// relations, the state as `state_id`, times as Time#to_s, labels as label hook attributes and
// assignees / reviewers as user hook attributes. Domain events carry labels as snapshots and people by id.
import type { Changes, Tx } from "../../domain/shared/events.js";
import { isDraftTitle } from "../../domain/merge-requests/fields.js";
import type { LabelSnapshot } from "../../domain/labels/issuable-labels.js";
import { STATE_IDS, labelHookAttrs, rubyTime, userHookAttrs, usersById, type Ctx } from "./common.js";

/** Gitlab::HookData::IssueBuilder.safe_hook_attributes + safe_hook_relations (EE's included). */
const ISSUE_KEYS = new Set([
  "assignee_id", "author_id", "closed_at", "confidential", "created_at", "description", "discussion_locked", "due_date", "id",
  "iid", "last_edited_at", "last_edited_by_id", "milestone_id", "moved_to_id", "duplicated_to_id", "project_id",
  "relative_position", "state_id", "time_estimate", "title", "updated_at", "updated_by_id", "weight", "health_status",
  "assignees", "labels", "total_time_spent", "time_change", "severity", "escalation_status", "customer_relations_contacts",
]);

/** Gitlab::HookData::MergeRequestBuilder.safe_hook_attributes + safe_hook_relations. */
const MERGE_REQUEST_KEYS = new Set([
  "assignee_id", "author_id", "blocking_discussions_resolved", "created_at", "description", "draft", "head_pipeline_id", "id",
  "iid", "last_edited_at", "last_edited_by_id", "merge_commit_sha", "merge_error", "merge_params", "merge_status",
  "merge_user_id", "merge_when_pipeline_succeeds", "milestone_id", "reviewer_ids", "source_branch", "source_project_id",
  "state_id", "target_branch", "target_project_id", "time_estimate", "title", "updated_at", "updated_by_id", "prepared_at",
  "assignees", "labels", "reviewers", "total_time_spent", "time_change",
]);

type Change = { previous: unknown; current: unknown };

/** What saving a new record also reports as changed from nothing: its keys and creation time. */
export function creationChanges(row: { id: number; iid: number; authorId: number; projectId: number; createdAt: Date }): Changes {
  const created = { id: row.id, iid: row.iid, author_id: row.authorId, project_id: row.projectId, created_at: row.createdAt };
  return Object.fromEntries(Object.entries(created).map(([key, current]) => [key, { previous: null, current }]));
}

/**
 * The `changes` of a merge request's open hook. GitLab 17 does not send it from the request that
 * created the merge request (MergeRequests::BaseService#execute_hooks skips a record created with
 * skip_ensure_merge_request_diff) but from NewMergeRequestWorker, on the record loaded again, once
 * MergeRequests::AfterCreateService has prepared it: the changes are what that preparation saved
 * (Issuable#to_hook_data's reportable_changes), merge_status from "preparing" to "unchecked"
 * (check_mergeability's mark_as_unchecked), then prepared_at and updated_at (mark_merge_request_as_prepared),
 * in MergeRequestBuilder.safe_hook_attributes' order. Forgeline prepares a merge request as it
 * creates it: prepared at its creation time, updated_at where it was.
 */
export function preparationChanges(mr: { mergeStatus: string; createdAt: Date; updatedAt: Date }): Changes {
  return {
    merge_status: { previous: "preparing", current: mr.mergeStatus },
    updated_at: { previous: mr.createdAt, current: mr.updatedAt },
    prepared_at: { previous: null, current: mr.createdAt },
  };
}

export async function issueHookChanges(ctx: Ctx, db: Tx, projectId: number, changes: Changes): Promise<Record<string, Change>> {
  return hookChanges(ctx, db, projectId, changes, ISSUE_KEYS);
}

/** A title that gains or loses the draft prefix also reports `draft`, a column in GitLab. */
export async function mergeRequestHookChanges(ctx: Ctx, db: Tx, projectId: number, changes: Changes): Promise<Record<string, Change>> {
  const title = changes.title;
  const withDraft = { ...changes };
  if (title && !changes.draft) {
    const [previous, current] = [isDraftTitle(String(title.previous ?? "")), isDraftTitle(String(title.current ?? ""))];
    if (previous !== current) withDraft.draft = { previous, current };
  }
  return hookChanges(ctx, db, projectId, withDraft, MERGE_REQUEST_KEYS);
}

async function hookChanges(ctx: Ctx, db: Tx, projectId: number, changes: Changes, safe: Set<string>): Promise<Record<string, Change>> {
  const entries = await Promise.all(Object.entries(changes).map(async ([key, change]) => {
    const hookKey = key === "state" ? "state_id" : key;
    if (!safe.has(hookKey)) return null;
    const convert = (value: unknown) => hookValue(ctx, db, projectId, key, value);
    return [hookKey, { previous: await convert(change.previous), current: await convert(change.current) }] as const;
  }));
  return Object.fromEntries(entries.filter((entry) => entry !== null));
}

async function hookValue(ctx: Ctx, db: Tx, projectId: number, key: string, value: unknown): Promise<unknown> {
  if (key === "state") return typeof value === "string" ? (STATE_IDS[value] ?? null) : value;
  if (key === "labels") return labelHookAttrs(Array.isArray(value) ? (value as LabelSnapshot[]) : []);
  if (key === "assignees" || key === "reviewers") {
    return (await usersById(db, Array.isArray(value) ? value.map(Number) : [])).map((user) => userHookAttrs(ctx, user));
  }
  if (key.endsWith("_at")) return timeOf(value);
  return value;
}

/** A Date or ISO 8601 text as Time#to_s; anything else as it is. */
function timeOf(value: unknown): unknown {
  if (value instanceof Date) return rubyTime(value);
  if (typeof value === "string" && !Number.isNaN(Date.parse(value))) return rubyTime(new Date(value));
  return value;
}
