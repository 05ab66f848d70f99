// Issue, merge request and note payloads (Gitlab::DataBuilder::Issuable and ::Note with the
// HookData builders' safe attributes) and the hook attributes of each kind, which emoji payloads
// reuse. Times in attribute dumps are Ruby's Time#to_s; labels are read with the row.
import type { Issue, Label, MergeRequest, Note, Snippet, User } from "../../generated/prisma/client.js";
import type { Changes, Tx } from "../../domain/shared/events.js";
import { VISIBILITY_LEVELS } from "../../domain/shared/access-levels.js";
import { labelsOfIssuables, labelSnapshot, type IssuableKind } from "../../domain/labels/issuable-labels.js";
import { projectPageUrl } from "../../domain/shared/web-urls.js";
import { issueHookChanges, mergeRequestHookChanges } from "./changes.js";
import { readCommit } from "../../domain/repository/git.js";
import { withUnresolvedThreads } from "../../domain/merge-requests/loaders.js";
import { discussionsResolvedWith, needsRebase } from "../../domain/merge-requests/presenter.js";
import { commitHookAttrs } from "./push.js";
import {
  STATE_IDS, labelHookAttrs, projectHookAttrs, rubyTime, userHookAttrs, usersById, type Ctx, type ProjectWithNamespace,
} from "./common.js";

export type IssueRow = Issue & { assignees: { userId: number }[] };
export type MergeRequestRow = MergeRequest & { assignees: { userId: number }[]; reviewers: { userId: number }[] };

/** The issuable's labels as Label#hook_attrs: those the event carries, else read in the write's transaction. */
const labelAttrs = async (db: Tx, kind: IssuableKind, row: (IssueRow | MergeRequestRow) & { labels?: Label[] }) =>
  labelHookAttrs((row.labels ?? (await labelsOfIssuables(db, kind, [row.id])).get(row.id) ?? []).map(labelSnapshot));

/** Gitlab::HookData::IssueBuilder#build. */
export async function issueHookAttrs(ctx: Ctx, db: Tx, project: ProjectWithNamespace, issue: IssueRow) {
  const assigneeIds = issue.assignees.map((a) => a.userId);
  return {
    id: issue.id, title: issue.title, assignee_ids: assigneeIds, assignee_id: assigneeIds[0] ?? null,
    author_id: issue.authorId, project_id: issue.projectId, created_at: rubyTime(issue.createdAt), updated_at: rubyTime(issue.updatedAt),
    updated_by_id: null, last_edited_at: null, last_edited_by_id: null, relative_position: null,
    description: issue.description, milestone_id: issue.milestoneId, state_id: STATE_IDS[issue.state] ?? 1, confidential: issue.confidential,
    discussion_locked: issue.discussionLocked, due_date: issue.dueDate, moved_to_id: null, duplicated_to_id: null,
    time_estimate: 0, total_time_spent: 0, time_change: 0, human_total_time_spent: null, human_time_estimate: null,
    human_time_change: null, weight: null, health_status: null, type: "Issue", iid: issue.iid,
    url: projectPageUrl(ctx, project, "issues", issue.iid), state: issue.state, severity: "unknown",
    closed_at: rubyTime(issue.closedAt), labels: await labelAttrs(db, "Issue", issue), customer_relations_contacts: [],
  };
}

/** Gitlab::HookData::MergeRequestBuilder#build. */
export async function mergeRequestHookAttrs(ctx: Ctx, db: Tx, project: ProjectWithNamespace, mr: MergeRequestRow) {
  const lastCommit = mr.headSha ? await readCommit(ctx, mr.projectId, mr.headSha) : null;
  const projectAttrs = projectHookAttrs(ctx, project);
  return {
    assignee_id: mr.assignees[0]?.userId ?? null, author_id: mr.authorId, created_at: rubyTime(mr.createdAt),
    description: mr.description, draft: mr.draft, head_pipeline_id: null, id: mr.id, iid: mr.iid, last_edited_at: null,
    last_edited_by_id: null, merge_commit_sha: mr.mergeCommitSha, merge_error: mr.mergeError, merge_params: {}, merge_status: mr.mergeStatus,
    merge_user_id: mr.mergedById, merge_when_pipeline_succeeds: false, milestone_id: mr.milestoneId, source_branch: mr.sourceBranch,
    source_project_id: mr.projectId, state_id: STATE_IDS[mr.state] ?? 1, target_branch: mr.targetBranch,
    target_project_id: mr.projectId, time_estimate: 0, title: mr.title, updated_at: rubyTime(mr.updatedAt), updated_by_id: null,
    assignee_ids: mr.assignees.map((a) => a.userId), reviewer_ids: mr.reviewers.map((r) => r.userId),
    detailed_merge_status: hookMergeStatus(mr, project),
    human_time_change: null, human_time_estimate: null, human_total_time_spent: null, time_change: 0, total_time_spent: 0,
    labels: await labelAttrs(db, "MergeRequest", mr), last_commit: lastCommit ? commitHookAttrs(ctx, project, lastCommit, false) : null,
    source: projectAttrs, target: projectAttrs, state: mr.state, url: projectPageUrl(ctx, project, "merge_requests", mr.iid),
    work_in_progress: mr.draft,
    // authors are always members (no forks), and diffs are ready at once
    blocking_discussions_resolved: await blockingDiscussionsResolved(db, project, mr), first_contribution: false, prepared_at: rubyTime(mr.createdAt),
  };
}

/** Snippet#hook_attrs. */
export function snippetHookAttrs(ctx: Ctx, project: ProjectWithNamespace, snippet: Snippet & { files: { path: string; content: string }[] }) {
  return {
    id: snippet.id, title: snippet.title, content: snippet.files[0]?.content ?? "", author_id: snippet.authorId,
    project_id: snippet.projectId, created_at: rubyTime(snippet.createdAt), updated_at: rubyTime(snippet.updatedAt),
    file_name: snippet.files[0]?.path ?? "", type: "ProjectSnippet", visibility_level: VISIBILITY_LEVELS[snippet.visibility] ?? 0,
    description: snippet.description, url: projectPageUrl(ctx, project, "snippets", snippet.id),
  };
}

const repository = (ctx: Ctx, project: ProjectWithNamespace) => {
  const attrs = projectHookAttrs(ctx, project);
  return { name: attrs.name, url: attrs.url, description: attrs.description, homepage: attrs.homepage };
};

/** The user hook attributes of these ids, in order. */
const hookUsers = async (ctx: Ctx, db: Tx, ids: number[]) => (await usersById(db, ids)).map((user) => userHookAttrs(ctx, user));

/** Gitlab::DataBuilder::Issuable#build: the shape issue and merge request payloads share. */
async function issuablePayload(
  ctx: Ctx, db: Tx, project: ProjectWithNamespace, user: User,
  kind: { object_kind: string; event_type: string },
  objectAttributes: { labels: unknown },
  changes: Record<string, unknown>,
  people: { assignees: { userId: number }[]; reviewers?: { userId: number }[] },
) {
  const [assignees, reviewers] = await Promise.all([
    hookUsers(ctx, db, people.assignees.map((a) => a.userId)), hookUsers(ctx, db, (people.reviewers ?? []).map((r) => r.userId)),
  ]);
  return {
    ...kind,
    user: userHookAttrs(ctx, user),
    project: projectHookAttrs(ctx, project),
    object_attributes: objectAttributes,
    labels: objectAttributes.labels,
    changes,
    repository: repository(ctx, project),
    ...(assignees.length ? { assignees } : {}),
    ...(reviewers.length ? { reviewers } : {}),
  };
}

export async function buildIssuePayload(ctx: Ctx, db: Tx, project: ProjectWithNamespace, issue: IssueRow, user: User, action: string, changes: Changes = {}) {
  const kind = { object_kind: "issue", event_type: issue.confidential ? "confidential_issue" : "issue" };
  const objectAttributes = { ...(await issueHookAttrs(ctx, db, project, issue)), action };
  return issuablePayload(ctx, db, project, user, kind, objectAttributes, await issueHookChanges(ctx, db, project.id, changes), issue);
}

/** `oldrev`: the source branch's previous head, when a push brought the update (never a blank sha). */
export async function buildMergeRequestPayload(
  ctx: Ctx, db: Tx, project: ProjectWithNamespace, mr: MergeRequestRow, user: User, action: string, changes: Changes = {}, oldrev?: string,
) {
  const kind = { object_kind: "merge_request", event_type: "merge_request" };
  const objectAttributes = { ...(await mergeRequestHookAttrs(ctx, db, project, mr)), action, ...(oldrev ? { oldrev } : {}) };
  return issuablePayload(ctx, db, project, user, kind, objectAttributes, await mergeRequestHookChanges(ctx, db, project.id, changes), mr);
}

const NOTEABLE_PATHS: Record<string, string> = { Issue: "issues", MergeRequest: "merge_requests", Snippet: "snippets" };

/** A diff note's positions (JSON in their columns); null on other notes. */
const jsonOrNull = (text: string | null): unknown => (text ? JSON.parse(text) : null);

/** Gitlab::HookData::NoteBuilder#build. */
export function noteHookAttrs(ctx: Ctx, project: ProjectWithNamespace, note: Note, noteableRef: number) {
  return {
    attachment: null, author_id: note.authorId, change_position: jsonOrNull(note.changePosition), commit_id: null, created_at: rubyTime(note.createdAt),
    discussion_id: note.discussionId, id: note.id, internal: note.internal, line_code: note.lineCode, note: note.body, noteable_id: note.noteableId,
    noteable_type: note.noteableType, original_position: jsonOrNull(note.originalPosition), position: jsonOrNull(note.position), project_id: note.projectId,
    resolved_at: rubyTime(note.resolvedAt), resolved_by_id: note.resolvedById, resolved_by_push: null, st_diff: null,
    system: note.system, type: note.type,
    updated_at: rubyTime(note.updatedAt), updated_by_id: null, description: note.body,
    url: `${projectPageUrl(ctx, project, NOTEABLE_PATHS[note.noteableType] ?? "issues", noteableRef)}#note_${note.id}`,
  };
}

export type NoteableAttrs = { key: "issue" | "merge_request" | "snippet"; ref: number; attrs: Record<string, unknown>; confidential: boolean };

/** The noteable's key and hook attributes (the key names the noteable's class). */
export async function noteableAttrs(ctx: Ctx, db: Tx, project: ProjectWithNamespace, type: string, id: number): Promise<NoteableAttrs | null> {
  if (type === "Issue") {
    const issue = await db.issue.findUnique({ where: { id }, include: { assignees: true } });
    return issue && { key: "issue", ref: issue.iid, attrs: await issueHookAttrs(ctx, db, project, issue), confidential: issue.confidential };
  }
  if (type === "MergeRequest") {
    const mr = await db.mergeRequest.findUnique({ where: { id }, include: { assignees: true, reviewers: true } });
    return mr && { key: "merge_request", ref: mr.iid, attrs: await mergeRequestHookAttrs(ctx, db, project, mr), confidential: false };
  }
  if (type === "Snippet") {
    const snippet = await db.snippet.findUnique({ where: { id }, include: { files: { orderBy: { position: "asc" } } } });
    return snippet && { key: "snippet", ref: snippet.id, attrs: snippetHookAttrs(ctx, project, snippet), confidential: false };
  }
  return null;
}

/** A note's hook attributes with its noteable's, keyed as note and emoji payloads carry them. */
async function noteWithNoteable(ctx: Ctx, db: Tx, project: ProjectWithNamespace, note: Note) {
  const noteable = await noteableAttrs(ctx, db, project, note.noteableType, note.noteableId);
  const attrs = noteHookAttrs(ctx, project, note, noteable?.ref ?? note.noteableId);
  return { attrs, noteable, noteableEntry: noteable ? { [noteable.key]: noteable.attrs } : {} };
}

/** What note and emoji payloads open with: who acted, in which project. */
const projectEvent = (ctx: Ctx, project: ProjectWithNamespace, user: User) =>
  ({ user: userHookAttrs(ctx, user), project_id: project.id, project: projectHookAttrs(ctx, project) });

export async function buildNotePayload(ctx: Ctx, db: Tx, project: ProjectWithNamespace, note: Note, user: User, action: string) {
  const { attrs, noteable, noteableEntry } = await noteWithNoteable(ctx, db, project, note);
  const confidential = note.internal || !!noteable?.confidential;
  return {
    object_kind: "note",
    event_type: confidential ? "confidential_note" : "note",
    ...projectEvent(ctx, project, user),
    object_attributes: { ...attrs, action },
    repository: repository(ctx, project),
    ...noteableEntry,
  };
}

/** Gitlab::DataBuilder::Emoji: the award, plus the note and its noteable, or the awardable. */
export async function buildEmojiPayload(
  ctx: Ctx, db: Tx, project: ProjectWithNamespace, user: User, action: "award" | "revoke",
  award: { id: number; name: string; userId: number; awardableType: string; awardableId: number; createdAt: Date; updatedAt: Date },
) {
  let extra: Record<string, unknown> = {};
  let awardedOnUrl: string | null = null;
  if (award.awardableType === "Note") {
    const note = await db.note.findUnique({ where: { id: award.awardableId } });
    if (note) {
      const { attrs, noteableEntry } = await noteWithNoteable(ctx, db, project, note);
      awardedOnUrl = attrs.url;
      extra = { note: attrs, ...noteableEntry };
    }
  } else {
    const awardable = await noteableAttrs(ctx, db, project, award.awardableType, award.awardableId);
    if (awardable) {
      awardedOnUrl = String(awardable.attrs.url);
      extra = { [awardable.key]: awardable.attrs };
    }
  }
  return {
    object_kind: "emoji",
    event_type: action,
    ...projectEvent(ctx, project, user),
    object_attributes: {
      user_id: award.userId, created_at: rubyTime(award.createdAt), id: award.id, name: award.name,
      awardable_type: award.awardableType, awardable_id: award.awardableId, updated_at: rubyTime(award.updatedAt),
      action, awarded_on_url: awardedOnUrl,
    },
    ...extra,
  };
}

/** The hook's detailed_merge_status, from the rows alone: waiting for a check, mergeable, a rebase needed, or not. */
function hookMergeStatus(mr: MergeRequestRow, project: ProjectWithNamespace): string {
  if (mr.state !== "opened") return "not_open";
  if (mr.mergeStatus === "unchecked") return "unchecked";
  if (mr.mergeStatus === "cannot_be_merged_recheck") return "checking";
  if (mr.mergeStatus !== "can_be_merged") return "broken_status";
  return needsRebase(project, mr) ? "need_rebase" : "mergeable";
}

/** mergeable_discussions_state?, read in the transaction that fires the hook. */
async function blockingDiscussionsResolved(db: Tx, project: ProjectWithNamespace, mr: MergeRequestRow): Promise<boolean> {
  return discussionsResolvedWith(project, async () => (await withUnresolvedThreads(db, [mr.id])).size > 0);
}
