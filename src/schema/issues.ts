// Project issues: GitLab's Issue entity, the project and instance-wide lists, one issue, and
// create / update (including state_event close and reopen), each through one domain function.
// Emoji reactions add upvotes, downvotes and award_emoji to IssueEntity (award-emoji/queries.ts).
import type { Issue } from "../generated/prisma/client.js";
import { ISSUE_ORDER_COLUMNS, ISSUE_STATES, listIssues, listProjectIssues, projectIssueFilters } from "../domain/issues/lists.js";
import { issueLinks, issueReferences, isSubscribed } from "../domain/issues/presenter.js";
import { issuableFactsLoader, issuableKey } from "../domain/shared/issuable-facts.js";
import { findProject, projectById, findProjectToWrite } from "../domain/shared/parents.js";
import type { Context } from "../context.js";
import { projectPageUrl } from "../domain/shared/web-urls.js";
import { taskStatus } from "../domain/issues/rules.js";
import { taskCompletionStatus } from "../domain/shared/task-lists.js";
import { createIssue, requireIssueChanges, updateIssue } from "../domain/issues/writes.js";
import { findIssue } from "../domain/issues/queries.js";
import { builder } from "./builder.js";
import {
  IssuableNotFilter, IssuableReferences, labelsField, labelsShown, milestoneOf, none, showLabelsDetails, TaskCompletionStatus, TimeStats, user, users,
} from "./issuables.js";
import { pageArgs, rowsOf, SortDirectionEnum } from "./pagination.js";
import { UserBasic } from "./users.js";
import * as route from "../rest/route.js";

/** The issue's project with its namespace, from the server's project cache. */
const projectOf = async (ctx: Context, issue: Issue) => (await projectById(ctx, issue.projectId))!;
const factsOf = (ctx: Context, issue: Issue) => ctx.loaders.get(issuableFactsLoader).load(issuableKey("Issue", issue.id));
const assigneesOf = async (ctx: Context, issue: Issue) => users(ctx, (await factsOf(ctx, issue)).assigneeIds);

const IssueLinks = builder.objectRef<ReturnType<typeof issueLinks>>("IssueLinks").implement({
  fields: (t) => ({
    self: t.exposeString("self"),
    notes: t.exposeString("notes"),
    award_emoji: t.exposeString("award_emoji"),
    project: t.exposeString("project"),
    closed_as_duplicate_of: t.string({ nullable: true, resolve: (links) => links.closed_as_duplicate_of }),
  }),
});


export const IssueEntity = builder.prismaObject("Issue", {
  name: "Issue",
  fields: (t) => ({
    id: t.exposeInt("id"),
    iid: t.exposeInt("iid"),
    project_id: t.exposeInt("projectId"),
    title: t.exposeString("title"),
    description: t.exposeString("description", { nullable: true }),
    state: t.exposeString("state"),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
    closed_at: t.expose("closedAt", { type: "DateTime", nullable: true }),
    closed_by: t.field({ type: UserBasic, nullable: true, resolve: (i, _a, ctx) => user(ctx, i.closedById) }),
    labels: t.field({ ...labelsField, resolve: (i, _a, ctx) => labelsShown(ctx, "Issue", i.id) }),
    milestone: t.field({ type: "JSON", nullable: true, resolve: (i, _a, ctx) => milestoneOf(ctx, i.milestoneId) }),
    assignees: t.field({ type: [UserBasic], resolve: (i, _a, ctx) => assigneesOf(ctx, i) }),
    author: t.field({ type: UserBasic, resolve: async (i, _a, ctx) => (await user(ctx, i.authorId))! }),
    type: t.string({ resolve: () => "ISSUE" }),
    assignee: t.field({ type: UserBasic, nullable: true, resolve: async (i, _a, ctx) => (await assigneesOf(ctx, i))[0] ?? null }),
    user_notes_count: t.int({ resolve: async (i, _a, ctx) => (await factsOf(ctx, i)).userNotesCount }),
    merge_requests_count: t.int({ resolve: () => 0 }),
    due_date: t.exposeString("dueDate", { nullable: true }),
    confidential: t.exposeBoolean("confidential"),
    discussion_locked: t.exposeBoolean("discussionLocked", { nullable: true }),
    issue_type: t.string({ resolve: () => "issue" }),
    web_url: t.string({ resolve: async (i, _a, ctx) => projectPageUrl(ctx, await projectOf(ctx, i), "issues", i.iid) }),
    time_stats: t.field({ type: TimeStats, resolve: () => ({}) }),
    task_completion_status: t.field({ type: TaskCompletionStatus, resolve: (i) => taskCompletionStatus(i.description) }),
    weight: t.int({ nullable: true, resolve: none }),
    blocking_issues_count: t.int({ resolve: () => 0 }),
    // GitLab's has_tasks is true when the description has *no* task list items (and task_status
    // is shown then); kept as GitLab answers it.
    has_tasks: t.boolean({ resolve: (i) => taskCompletionStatus(i.description).count === 0 }),
    task_status: t.string({ resolve: (i) => taskStatus(i.description) }),
    _links: t.field({ type: IssueLinks, resolve: (i, _a, ctx) => issueLinks(ctx, i) }),
    references: t.field({ type: IssuableReferences, resolve: async (i, _a, ctx) => issueReferences(await projectOf(ctx, i), i.iid) }),
    severity: t.string({ resolve: () => "UNKNOWN" }),
    subscribed: t.boolean({ resolve: async (i, _a, ctx) => isSubscribed(ctx, i, (await factsOf(ctx, i)).assigneeIds) }),
    moved_to_id: t.int({ nullable: true, resolve: none }),
    imported: t.boolean({ resolve: () => false }),
    imported_from: t.string({ resolve: () => "none" }),
    service_desk_reply_to: t.string({ nullable: true, resolve: none }),
    epic_iid: t.int({ nullable: true, resolve: none }),
    epic: t.field({ type: "JSON", nullable: true, resolve: none }),
    iteration: t.field({ type: "JSON", nullable: true, resolve: none }),
  }),
});

const IssueStateFilter = builder.enumType("IssueStateFilter", { values: ISSUE_STATES });
const IssueOrderBy = builder.enumType("IssueOrderBy", { values: ISSUE_ORDER_COLUMNS });
const IssueStateEvent = builder.enumType("IssueStateEvent", { values: ["reopen", "close"] as const });

// GitLab's declaration order (Grape reports bad params in this order)
const issueFilterArgs = builder.args((t) => ({
  state: t.field({ type: IssueStateFilter, required: false }),
  order_by: t.field({ type: IssueOrderBy, required: false }),
  sort: t.field({ type: SortDirectionEnum, required: false }),
  labels: t.stringList({ required: false }),
  with_labels_details: t.boolean({ required: false }),
  not: t.field({ type: IssuableNotFilter, required: false }),
  milestone: t.string({ required: false }),
  milestone_id: t.string({ required: false }),
  iids: t.intList({ required: false }),
  search: t.string({ required: false }),
  in: t.string({ required: false }),
  author_id: t.int({ required: false }),
  author_username: t.string({ required: false }),
  assignee_id: t.string({ required: false }),
  assignee_username: t.stringList({ required: false }),
  created_after: t.field({ type: "DateTime", required: false }),
  created_before: t.field({ type: "DateTime", required: false }),
  updated_after: t.field({ type: "DateTime", required: false }),
  updated_before: t.field({ type: "DateTime", required: false }),
  scope: t.string({ required: false }),
  confidential: t.boolean({ required: false }),
  ...pageArgs,
}));

const issueInputArgs = builder.args((t) => ({
  description: t.string({ required: false }),
  assignee_ids: t.intList({ required: false }),
  assignee_id: t.int({ required: false }),
  milestone_id: t.int({ required: false }),
  labels: t.stringList({ required: false }),
  add_labels: t.stringList({ required: false }),
  remove_labels: t.stringList({ required: false }),
  due_date: t.string({ required: false }),
  confidential: t.boolean({ required: false }),
  discussion_locked: t.boolean({ required: false }),
}));

builder.queryFields((t) => ({
  projectIssues: t.prismaField({
    extensions: { rest: route.get("/projects/:id/issues") },
    type: [IssueEntity],
    args: { id: t.arg.id({ required: true }), ...issueFilterArgs },
    resolve: async (_query, _r, { id, page, per_page, with_labels_details, ...filters }, ctx) => {
      const checked = projectIssueFilters(filters);
      showLabelsDetails(ctx, with_labels_details);
      return rowsOf(ctx, await listProjectIssues(ctx, await findProject(ctx, String(id)), checked, { page, per_page }));
    },
  }),
  issues: t.prismaField({
    extensions: { rest: route.get("/issues") },
    type: [IssueEntity],
    args: { ...issueFilterArgs, non_archived: t.arg.boolean({ required: false }) },
    resolve: async (_query, _r, { page, per_page, with_labels_details, ...filters }, ctx) => {
      showLabelsDetails(ctx, with_labels_details);
      return rowsOf(ctx, await listIssues(ctx, filters, { page, per_page }));
    },
  }),
  projectIssue: t.prismaField({
    extensions: { rest: route.get("/projects/:id/issues/:issue_iid") },
    type: IssueEntity,
    args: { id: t.arg.id({ required: true }), issue_iid: t.arg.int({ required: true }) },
    resolve: async (_query, _r, args, ctx) => (await findIssue(ctx, String(args.id), args.issue_iid, "read")).issue,
  }),
}));

builder.mutationFields((t) => ({
  createIssue: t.prismaField({
    type: IssueEntity,
    extensions: { rest: route.post("/projects/:id/issues"), access: "authenticated" },
    args: { id: t.arg.id({ required: true }), title: t.arg.string({ required: true }), ...issueInputArgs },
    resolve: async (_query, _r, { id, ...input }, ctx) => {
      return createIssue(ctx, await findProjectToWrite(ctx, String(id)), input);
    },
  }),
  updateIssue: t.prismaField({
    type: IssueEntity,
    extensions: { rest: route.put("/projects/:id/issues/:issue_iid"), access: "authenticated" },
    args: {
      id: t.arg.id({ required: true }),
      issue_iid: t.arg.int({ required: true }),
      title: t.arg.string({ required: false }),
      state_event: t.arg({ type: IssueStateEvent, required: false }),
      ...issueInputArgs,
    },
    resolve: async (_query, _r, { id, issue_iid, ...input }, ctx) => {
      requireIssueChanges(ctx, input);
      return updateIssue(ctx, await findIssue(ctx, String(id), issue_iid, "update"), input);
    },
  }),
}));
