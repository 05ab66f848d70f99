// Opening, editing, closing and reopening issues (GitLab's Issues::CreateService, UpdateService,
// CloseService and ReopenService as the REST API drives them). Each write publishes the
// domain event "issue" in its transaction, with GitLab's webhook-style `changes`.
import { recordUserAgentDetail } from "../shared/user-agent-details.js";
import type { Issue, Label } from "../../generated/prisma/client.js";
import { forbidden, validationError } from "../../errors.js";
import type { ProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { publish, type Changes, type Tx } from "../shared/events.js";
import { withNextInternalId } from "../shared/internal-ids.js";
import { issuableFactsLoader, issuableKey } from "../shared/issuable-facts.js";
import { requireAtLeastOne } from "../shared/param-rules.js";
import { assigneesToStore } from "./assignees.js";
import { knownLabels, labelSnapshot, labelsNamed, labelsOfIssuables, linkLabels } from "../labels/issuable-labels.js";
import { labelsAfter, parseDueDate, titleAndDescriptionErrors, type LabelChanges } from "./rules.js";
import { milestoneIdToSet, recordMilestoneChange } from "../milestones/history.js";
import { canCreateIssue, canSetConfidentiality, canSetIssueMetadata, type IssueAccess, type IssueWithAssignees } from "./queries.js";

export interface IssueFieldsInput {
  title?: string | null;
  description?: string | null;
  assignee_ids?: number[] | null;
  /** GitLab's deprecated single-assignee form */
  assignee_id?: number | null;
  /** the project's milestone or one of its groups' (0, or any other id: none) */
  milestone_id?: number | null;
  labels?: string[] | null;
  add_labels?: string[] | null;
  remove_labels?: string[] | null;
  due_date?: string | null;
  confidential?: boolean | null;
  discussion_locked?: boolean | null;
}

export type StateEvent = "close" | "reopen";

export interface UpdateIssueInput extends IssueFieldsInput {
  state_event?: StateEvent | null;
}

/** PUT's `at_least_one_of`, in GitLab's order (of the params Forgeline declares). */
const UPDATE_PARAMS = [
  "assignee_id", "assignee_ids", "confidential", "description", "discussion_locked", "due_date",
  "labels", "add_labels", "remove_labels", "milestone_id", "state_event", "title",
] as const;

/** POST /projects/:id/issues, in the project found for the caller. */
export async function createIssue(ctx: DomainContext, access: ProjectAccess, input: IssueFieldsInput & { title: string }) {
  const actor = requireAuthenticated(ctx);
  if (!canCreateIssue(ctx, access)) throw forbidden();
  const fields = permittedFields(ctx, access, input, false);
  const assigneeIds = (await assigneesToStore(ctx, access, requestedAssignees(fields))) ?? [];
  const values = {
    title: input.title,
    description: input.description ?? null,
    confidential: fields.confidential ?? false,
    discussionLocked: fields.discussion_locked ?? null,
    dueDate: fields.due_date != null ? parseDueDate(fields.due_date) : null,
    milestoneId: (await milestoneIdToSet(ctx, access, fields.milestone_id)) ?? null,
  };
  const labelTitles = labelsAfter([], fields);
  assertValid(values);
  const now = ctx.now();
  const created = await withNextInternalId(ctx, access.project.id, "issues", async (tx, iid) => {
    const row = await insertIssue(tx, { ...values, projectId: access.project.id, iid, authorId: actor.user.id, createdAt: now, updatedAt: now });
    const assignees = assigneeIds.map((userId) => ({ issueId: row.id, userId }));
    if (assignees.length) await tx.issueAssignee.createMany({ data: assignees });
    const labels = await labelsNamed(tx, access.project, labelTitles, true, now, ctx.dialect);
    await linkLabels(tx, ctx, "Issue", row.id, [], labels);
    // a milestone set at creation is an "add" event, as GitLab's CommonSystemNotesService records it (is_update: false)
    await recordMilestoneChange(tx, ctx, { issueId: row.id }, { before: null, after: row.milestoneId, state: row.state });
    const issue = { ...row, assignees, labels };
    // on open GitLab reports the columns the insert set, not the associations (hook_association_changes runs for updates only)
    const { assignees: _assignees, ...columns } = snapshot(issue);
    const changes = diff(NEW_ISSUE, columns);
    await publish(tx, ctx, "issue", { action: "open", projectId: issue.projectId, issue, actorId: actor.user.id, changes });
    await recordUserAgentDetail(tx, ctx, "Issue", issue.id);
    return issue;
  });
  // the answer's counts need no statement: a new issue has no comments or votes yet, and the assignees it was created with
  const facts = { userNotesCount: 0, upvotes: 0, downvotes: 0, assigneeIds: [...assigneeIds].sort((a, b) => a - b), labelIds: created.labels.map((label) => label.id) };
  ctx.loaders.get(issuableFactsLoader).prime(issuableKey("Issue", created.id), facts);
  knownLabels(ctx, created.labels);
  return created;
}

type NewIssue = Pick<Issue, "projectId" | "iid" | "title" | "description" | "confidential" | "discussionLocked" | "dueDate" | "milestoneId" | "authorId" | "createdAt" | "updatedAt">;

/**
 * The issue's row, as inserted (open, nobody closed it). Raw SQL on the hot write path: a Prisma
 * model create costs several times the statement's own CPU. Portable (RETURNING exists on SQLite
 * and PostgreSQL); the columns are returned in the model's order, as Prisma returns them.
 */
async function insertIssue(tx: Tx, row: NewIssue): Promise<Issue> {
  const [inserted] = await tx.$queryRaw<Issue[]>`
    INSERT INTO "Issue" ("projectId", "iid", "title", "description", "state", "confidential", "discussionLocked", "dueDate", "authorId", "createdAt", "updatedAt", "milestoneId")
    VALUES (${row.projectId}, ${row.iid}, ${row.title}, ${row.description}, 'opened', ${row.confidential}, ${row.discussionLocked}, ${row.dueDate},
      ${row.authorId}, ${row.createdAt}, ${row.updatedAt}, ${row.milestoneId})
    RETURNING "id", "projectId", "iid", "title", "description", "state", "confidential", "discussionLocked", "dueDate", "milestoneId", "authorId",
      "closedById", "closedAt", "createdAt", "updatedAt"`;
  return inserted!;
}

/** The issue row as written, with its assignees. */
const reread = (ctx: DomainContext, id: number): Promise<IssueWithAssignees> =>
  ctx.db.issue.findUniqueOrThrow({ where: { id }, include: { assignees: true } });

/**
 * What PUT checks before it looks the issue up, in GitLab's order: a signed-in caller (401), then
 * at least one param (400).
 */
export function requireIssueChanges(ctx: DomainContext, input: UpdateIssueInput): void {
  requireAuthenticated(ctx);
  requireAtLeastOne(input, UPDATE_PARAMS);
}

/**
 * PUT /projects/:id/issues/:issue_iid on the issue found for `update` (findIssue: 404, then 403),
 * the input checked by requireIssueChanges: the changes.
 */
export async function updateIssue(ctx: DomainContext, { issue, access }: IssueAccess<IssueWithAssignees>, input: UpdateIssueInput) {
  const fields = permittedFields(ctx, access, input, true);
  const assigneeIds = await assigneesToStore(ctx, access, requestedAssignees(fields));
  const data = columnChanges(issue, fields);
  const milestoneId = await milestoneIdToSet(ctx, access, fields.milestone_id);
  if (milestoneId !== undefined && milestoneId !== issue.milestoneId) data.milestoneId = milestoneId;
  assertValid({ title: data.title ?? issue.title, description: data.description !== undefined ? data.description : issue.description });
  await ctx.db.$transaction(async (tx) => {
    const current = input.state_event ? await changeState(tx, ctx, issue, input.state_event) : issue;
    const labels = await labelsChange(tx, ctx, access, issue.id, fields);
    await saveFields(tx, ctx, current, data, assigneeIds, labels);
  });
  return reread(ctx, issue.id);
}

/** The input without the params the caller may not set (dropped silently, as GitLab does). */
function permittedFields(ctx: DomainContext, access: ProjectAccess, input: IssueFieldsInput, existing: boolean): IssueFieldsInput {
  const fields = { ...input };
  if (!canSetIssueMetadata(ctx, access, existing)) {
    for (const name of ["assignee_ids", "assignee_id", "milestone_id", "labels", "add_labels", "remove_labels", "due_date", "discussion_locked"] as const) {
      delete fields[name];
    }
  }
  if (!canSetConfidentiality(ctx, access, existing)) delete fields.confidential;
  return fields;
}

/** `assignee_ids`, or the deprecated `assignee_id` as a one-element list. */
function requestedAssignees(fields: IssueFieldsInput): number[] | undefined {
  if (fields.assignee_ids != null) return fields.assignee_ids;
  if (fields.assignee_id != null) return [fields.assignee_id];
  return undefined;
}

type IssueColumns = Partial<Pick<Issue, "title" | "description" | "confidential" | "discussionLocked" | "dueDate" | "milestoneId">>;

/** The columns whose value the input changes. */
function columnChanges(issue: Issue, fields: IssueFieldsInput): IssueColumns {
  const data: IssueColumns = {};
  if (fields.title != null && fields.title !== issue.title) data.title = fields.title;
  if (fields.description != null && fields.description !== issue.description) data.description = fields.description;
  if (fields.confidential != null && fields.confidential !== issue.confidential) data.confidential = fields.confidential;
  if (fields.discussion_locked != null && fields.discussion_locked !== issue.discussionLocked) data.discussionLocked = fields.discussion_locked;
  if (fields.due_date != null) {
    const dueDate = parseDueDate(fields.due_date);
    if (dueDate !== issue.dueDate) data.dueDate = dueDate;
  }
  return data;
}

/** Issue's model validations on title and description. */
function assertValid(values: { title: string; description: string | null }): void {
  const errors = titleAndDescriptionErrors(values.title, values.description);
  if (Object.keys(errors).length) throw validationError(errors);
}

/**
 * close / reopen: nothing happens when the issue is already in that state, and a locked
 * discussion cannot be reopened (GitLab's `reopen_issue` is prevented while locked).
 */
export async function changeState(tx: Tx, ctx: DomainContext, issue: IssueWithAssignees, event: StateEvent): Promise<IssueWithAssignees> {
  const closing = event === "close";
  if (issue.state === (closing ? "closed" : "opened")) return issue;
  if (!closing && issue.discussionLocked) return issue;
  const actorId = ctx.actor!.user.id;
  const now = ctx.now();
  const updated = await tx.issue.update({
    where: { id: issue.id },
    data: closing ? { state: "closed", closedAt: now, closedById: actorId, updatedAt: now } : { state: "opened", closedAt: null, closedById: null, updatedAt: now },
    include: { assignees: true },
  });
  const changes = diff(snapshot(issue), snapshot(updated));
  await publish(tx, ctx, "issue", { action: event, projectId: issue.projectId, issue: updated, actorId, changes });
  return updated;
}

type LabelsChange = { before: Label[]; after: Label[] };

/**
 * The labels the label params leave (`labels` replaces, then add and remove), resolved to records
 * (a new name becomes a project label); null when no label param is given or nothing changes.
 */
async function labelsChange(tx: Tx, ctx: DomainContext, access: ProjectAccess, issueId: number, fields: LabelChanges): Promise<LabelsChange | null> {
  if (fields.labels == null && fields.add_labels == null && fields.remove_labels == null) return null;
  const before = (await labelsOfIssuables(tx, "Issue", [issueId])).get(issueId) ?? [];
  const after = await labelsNamed(tx, access.project, labelsAfter(before.map((label) => label.title), fields), true, ctx.now(), ctx.dialect);
  return sameIds(before.map((l) => l.id), after.map((l) => l.id)) ? null : { before, after };
}

/** Column, assignee and label changes, saved and published as an "update" when there are any. */
async function saveFields(tx: Tx, ctx: DomainContext, issue: IssueWithAssignees, data: IssueColumns, assigneeIds: number[] | undefined, labels: LabelsChange | null) {
  const assigneesChange = assigneeIds !== undefined && !sameIds(assigneeIds, issue.assignees.map((a) => a.userId));
  if (!Object.keys(data).length && !assigneesChange && !labels) return;
  if (labels) await linkLabels(tx, ctx, "Issue", issue.id, labels.before, labels.after);
  const updated = await tx.issue.update({
    where: { id: issue.id },
    data: {
      ...data,
      updatedAt: ctx.now(),
      ...(assigneesChange ? { assignees: { deleteMany: {}, create: assigneeIds!.map((userId) => ({ userId })) } } : {}),
    },
    include: { assignees: true },
  });
  const actorId = ctx.actor!.user.id;
  if (data.milestoneId !== undefined) await recordMilestoneChange(tx, ctx, { issueId: issue.id }, { before: issue.milestoneId, after: updated.milestoneId, state: updated.state });
  const changes = diff(snapshot(issue, labels?.before), snapshot(updated, labels?.after));
  await publish(tx, ctx, "issue", { action: "update", projectId: issue.projectId, issue: updated, actorId, changes });
}

const sameIds = (a: number[], b: number[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * The attributes `changes` reports, under GitLab's webhook keys: `labels` holds label snapshots
 * (when the write changed them) and `assignees` user ids (the webhook payload builder expands
 * them), timestamps are ISO strings.
 */
function snapshot(issue: IssueWithAssignees, labels?: Label[]): Record<string, unknown> {
  return {
    title: issue.title,
    description: issue.description,
    state: issue.state,
    closed_at: issue.closedAt?.toISOString() ?? null,
    closed_by_id: issue.closedById,
    confidential: issue.confidential,
    discussion_locked: issue.discussionLocked,
    due_date: issue.dueDate,
    milestone_id: issue.milestoneId,
    ...(labels ? { labels: labels.map(labelSnapshot) } : {}),
    assignees: issue.assignees.map((a) => a.userId).sort((x, y) => x - y),
    updated_at: issue.updatedAt?.toISOString() ?? null,
  };
}

/** What a new issue is compared with: the columns' defaults (a created issue reports what it set). */
const NEW_ISSUE: Record<string, unknown> = {
  title: null, description: null, state: "opened", closed_at: null, closed_by_id: null, confidential: false,
  discussion_locked: null, due_date: null, milestone_id: null, updated_at: null,
};

function diff(before: Record<string, unknown>, after: Record<string, unknown>): Changes {
  const changes: Changes = {};
  for (const [key, current] of Object.entries(after)) {
    const previous = before[key];
    if (JSON.stringify(previous) !== JSON.stringify(current)) changes[key] = { previous, current };
  }
  return changes;
}
