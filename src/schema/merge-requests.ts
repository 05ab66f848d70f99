// Merge requests: GitLab's MergeRequestBasic (lists) and MergeRequest (one MR, create, update)
// entities, the project, group and instance-wide lists, and create / update (state_event close
// and reopen), each through one domain function. Emoji reactions add upvotes, downvotes and
// award_emoji to both types (award-emoji/queries.ts).
import type { Context } from "../context.js";
import { mergeRequestDiffOnce } from "../domain/merge-requests/versions.js";
import { referencesOf } from "../domain/merge-requests/fields.js";
import { projectPageUrl } from "../domain/shared/web-urls.js";
import { taskCompletionStatus } from "../domain/shared/task-lists.js";
import {
  listAllMergeRequests, listGroupMergeRequests, listProjectMergeRequests, MERGE_REQUEST_ORDER, MERGE_REQUEST_STATES,
} from "../domain/merge-requests/lists.js";
import { findMergeRequest, presentMergeRequest, type MergeRequestRow } from "../domain/merge-requests/queries.js";
import { listCommitMergeRequests } from "../domain/merge-requests/by-commit.js";
import { findGroup, findProject, findProjectToWrite } from "../domain/shared/parents.js";
import { canMerge, detailedMergeStatusOf, discussionsResolved, isSubscribed } from "../domain/merge-requests/presenter.js";
import { squashOnMerge } from "../domain/projects/merge-settings.js";
import { rebaseInProgress } from "../domain/merge-requests/rebase.js";
import { issuableFactsLoader, issuableKey } from "../domain/shared/issuable-facts.js";
import { createMergeRequest, requireMergeRequestChanges, updateMergeRequest } from "../domain/merge-requests/writes.js";
import { builder } from "./builder.js";
import {
  IssuableNotFilter, IssuableReferences, labelsField, labelsShown, milestoneOf, none, showLabelsDetails, TaskCompletionStatus, TimeStats, user, userIdsOf, users,
} from "./issuables.js";
import { pageArgs, rowsOf, SortDirectionEnum } from "./pagination.js";
import { UserBasic } from "./users.js";
import * as route from "../rest/route.js";

const references = (mr: MergeRequestRow) => referencesOf(mr.project, mr.iid, mr.listedInGroupId);

const DiffRefs = builder.objectRef<{ base_sha: string | null; head_sha: string | null; start_sha: string | null }>("MergeRequestDiffRefs").implement({
  fields: (t) => ({
    base_sha: t.exposeString("base_sha", { nullable: true }),
    head_sha: t.exposeString("head_sha", { nullable: true }),
    start_sha: t.exposeString("start_sha", { nullable: true }),
  }),
});

const UserAbilities = builder.objectRef<MergeRequestRow>("MergeRequestUserAbilities").implement({
  fields: (t) => ({ can_merge: t.boolean({ resolve: (mr, _a, ctx) => canMerge(ctx, mr) }) }),
});

const row = (mr: unknown) => mr as MergeRequestRow;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Fields = PothosSchemaTypes.PrismaObjectFieldBuilder<any, any, any>;

/** MergeRequestBasic, in GitLab's order (upvotes and downvotes come from award-emoji/queries.ts). */
const basicFields = (t: Fields) => ({
  id: t.exposeInt("id"),
  iid: t.exposeInt("iid"),
  project_id: t.exposeInt("projectId"),
  title: t.exposeString("title"),
  description: t.exposeString("description", { nullable: true }),
  state: t.exposeString("state"),
  created_at: t.expose("createdAt", { type: "DateTime" }),
  updated_at: t.expose("updatedAt", { type: "DateTime" }),
  merged_by: t.field({ type: UserBasic, nullable: true, resolve: (mr: unknown, _a: unknown, ctx: Context) => user(ctx, row(mr).mergedById) }),
  merge_user: t.field({ type: UserBasic, nullable: true, resolve: (mr: unknown, _a: unknown, ctx: Context) => user(ctx, row(mr).mergedById) }),
  merged_at: t.expose("mergedAt", { type: "DateTime", nullable: true }),
  merge_after: t.field({ type: "DateTime", nullable: true, resolve: none }),
  prepared_at: t.expose("createdAt", { type: "DateTime", nullable: true }),
  closed_by: t.field({ type: UserBasic, nullable: true, resolve: (mr: unknown, _a: unknown, ctx: Context) => user(ctx, row(mr).closedById) }),
  closed_at: t.expose("closedAt", { type: "DateTime", nullable: true }),
  target_branch: t.exposeString("targetBranch"),
  source_branch: t.exposeString("sourceBranch"),
  user_notes_count: t.int({
    resolve: async (mr: unknown, _a: unknown, ctx: Context) => (await ctx.loaders.get(issuableFactsLoader).load(issuableKey("MergeRequest", row(mr).id))).userNotesCount,
  }),
  author: t.field({ type: UserBasic, resolve: async (mr: unknown, _a: unknown, ctx: Context) => (await user(ctx, row(mr).authorId))! }),
  assignees: t.field({ type: [UserBasic], resolve: (mr: unknown, _a: unknown, ctx: Context) => users(ctx, userIdsOf(row(mr).assignees)) }),
  assignee: t.field({
    type: UserBasic,
    nullable: true,
    resolve: async (mr: unknown, _a: unknown, ctx: Context) => (await users(ctx, userIdsOf(row(mr).assignees)))[0] ?? null,
  }),
  reviewers: t.field({ type: [UserBasic], resolve: (mr: unknown, _a: unknown, ctx: Context) => users(ctx, userIdsOf(row(mr).reviewers)) }),
  source_project_id: t.exposeInt("projectId"),
  target_project_id: t.exposeInt("projectId"),
  labels: t.field({ ...labelsField, resolve: (mr: unknown, _a: unknown, ctx: Context) => labelsShown(ctx, "MergeRequest", row(mr).id) }),
  draft: t.exposeBoolean("draft"),
  imported: t.boolean({ resolve: () => false }),
  imported_from: t.string({ resolve: () => "none" }),
  work_in_progress: t.exposeBoolean("draft"),
  milestone: t.field({ type: "JSON", nullable: true, resolve: (mr: unknown, _a: unknown, ctx: Context) => milestoneOf(ctx, row(mr).milestoneId) }),
  merge_when_pipeline_succeeds: t.boolean({ resolve: () => false }),
  merge_status: t.exposeString("mergeStatus"),
  detailed_merge_status: t.string({ resolve: (mr: unknown, _a: unknown, ctx: Context) => detailedMergeStatusOf(ctx, row(mr)) }),
  sha: t.exposeString("headSha", { nullable: true }),
  merge_commit_sha: t.exposeString("mergeCommitSha", { nullable: true }),
  squash_commit_sha: t.exposeString("squashCommitSha", { nullable: true }),
  discussion_locked: t.exposeBoolean("discussionLocked", { nullable: true }),
  should_remove_source_branch: t.exposeBoolean("shouldRemoveSourceBranch", { nullable: true }),
  force_remove_source_branch: t.exposeBoolean("forceRemoveSourceBranch", { nullable: true }),
  reference: t.string({ resolve: (mr: unknown) => references(row(mr)).relative }),
  references: t.field({ type: IssuableReferences, resolve: (mr: unknown) => references(row(mr)) }),
  web_url: t.string({ resolve: (mr: unknown, _a: unknown, ctx: Context) => projectPageUrl(ctx, row(mr).project, "merge_requests", row(mr).iid) }),
  time_stats: t.field({ type: TimeStats, resolve: () => ({}) }),
  squash: t.exposeBoolean("squash"),
  squash_on_merge: t.boolean({ resolve: (mr: unknown) => squashOnMerge(row(mr).project, row(mr).squash) }),
  task_completion_status: t.field({ type: TaskCompletionStatus, resolve: (mr: unknown) => taskCompletionStatus(row(mr).description) }),
  has_conflicts: t.boolean({ resolve: (mr: unknown) => row(mr).mergeStatus === "cannot_be_merged" }),
  blocking_discussions_resolved: t.boolean({ resolve: (mr: unknown, _a: unknown, ctx: Context) => discussionsResolved(ctx, row(mr)) }),
});

export const MergeRequestEntity = builder.prismaObject("MergeRequest", {
  name: "MergeRequest",
  fields: (t) => basicFields(t as Fields),
});

/** Entities::MergeRequest's fields; `subscribed` only where the route includes it (include_subscribed). */
export const detailFields = (t: Fields, includeSubscribed: boolean) => ({
  ...basicFields(t),
  ...(includeSubscribed ? { subscribed: t.boolean({ resolve: (mr: unknown, _a: unknown, ctx: Context) => isSubscribed(ctx, row(mr)) }) } : {}),
  changes_count: t.string({ resolve: async (mr: unknown, _a: unknown, ctx: Context) => (await mergeRequestDiffOnce(ctx, row(mr))).changesCount }),
  latest_build_started_at: t.field({ type: "DateTime", nullable: true, resolve: none }),
  latest_build_finished_at: t.field({ type: "DateTime", nullable: true, resolve: none }),
  first_deployed_to_production_at: t.field({ type: "DateTime", nullable: true, resolve: none }),
  pipeline: t.field({ type: "JSON", nullable: true, resolve: none }),
  head_pipeline: t.field({ type: "JSON", nullable: true, resolve: none }),
  diff_refs: t.field({ type: DiffRefs, resolve: async (mr: unknown, _a: unknown, ctx: Context) => (await mergeRequestDiffOnce(ctx, row(mr))).diffRefs }),
  merge_error: t.exposeString("mergeError", { nullable: true }),
  // authors are Developers or above when they open an MR (no forks here): never a first contribution
  first_contribution: t.boolean({ resolve: () => false }),
  user: t.field({ type: UserAbilities, resolve: (mr: unknown) => row(mr) }),
});

/** Entities::MergeRequest: one merge request, as GET, POST and PUT answer it. */
export const MergeRequestDetail = builder.prismaObject("MergeRequest", {
  variant: "MergeRequestDetail",
  fields: (t) => ({
    ...detailFields(t as Fields, true),
    // GitLab adds it with include_rebase_in_progress; clients polling a rebase read it
    rebase_in_progress: t.boolean({ resolve: (mr: unknown, _a: unknown, ctx: Context) => rebaseInProgress(ctx, row(mr)) }),
  }),
});

/** Entities::MergeRequest presented with include_subscribed: false (an issue's related merge requests). */
export const MergeRequestWithoutSubscription = builder.prismaObject("MergeRequest", {
  variant: "RelatedMergeRequest",
  fields: (t) => detailFields(t as Fields, false),
});

const StateFilter = builder.enumType("MergeRequestStateFilter", { values: MERGE_REQUEST_STATES });
const OrderBy = builder.enumType("MergeRequestOrderBy", { values: MERGE_REQUEST_ORDER });
const StateEvent = builder.enumType("MergeRequestStateEvent", { values: ["close", "reopen"] as const });
const Wip = builder.enumType("MergeRequestWipFilter", { values: ["yes", "no"] as const });

/** merge_requests_base_params, in GitLab's declaration order. */
const filterArgs = builder.args((t) => ({
  author_id: t.int({ required: false }),
  author_username: t.string({ required: false }),
  assignee_id: t.string({ required: false }),
  assignee_username: t.stringList({ required: false }),
  reviewer_username: t.string({ required: false }),
  labels: t.stringList({ required: false }),
  with_labels_details: t.boolean({ required: false }),
  not: t.field({ type: IssuableNotFilter, required: false }),
  milestone: t.string({ required: false }),
  reviewer_id: t.string({ required: false }),
  state: t.field({ type: StateFilter, required: false }),
  order_by: t.field({ type: OrderBy, required: false }),
  sort: t.field({ type: SortDirectionEnum, required: false }),
  created_after: t.field({ type: "DateTime", required: false }),
  created_before: t.field({ type: "DateTime", required: false }),
  updated_after: t.field({ type: "DateTime", required: false }),
  updated_before: t.field({ type: "DateTime", required: false }),
  scope: t.string({ required: false }),
  source_branch: t.string({ required: false }),
  target_branch: t.string({ required: false }),
  search: t.string({ required: false }),
  in: t.string({ required: false }),
  wip: t.field({ type: Wip, required: false }),
  ...pageArgs,
}));

/** GitLab's `optional_params` of create and update. */
const optionalArgs = builder.args((t) => ({
  assignee_id: t.int({ required: false }),
  assignee_ids: t.intList({ required: false }),
  reviewer_ids: t.intList({ required: false }),
  description: t.string({ required: false }),
  labels: t.stringList({ required: false }),
  add_labels: t.stringList({ required: false }),
  remove_labels: t.stringList({ required: false }),
  milestone_id: t.int({ required: false }),
  remove_source_branch: t.boolean({ required: false }),
  allow_collaboration: t.boolean({ required: false }),
  squash: t.boolean({ required: false }),
}));

builder.queryFields((t) => ({
  projectMergeRequests: t.prismaField({
    extensions: { rest: route.get("/projects/:id/merge_requests") },
    type: [MergeRequestEntity],
    args: { id: t.arg.id({ required: true }), ...filterArgs, iids: t.arg.intList({ required: false }) },
    resolve: async (_query, _r, { id, page, per_page, with_labels_details, ...filters }, ctx) => {
      showLabelsDetails(ctx, with_labels_details);
      return rowsOf(ctx, await listProjectMergeRequests(ctx, await findProject(ctx, String(id)), filters, { page, per_page }));
    },
  }),
  groupMergeRequests: t.prismaField({
    extensions: { rest: route.get("/groups/:id/merge_requests") },
    type: [MergeRequestEntity],
    args: { id: t.arg.id({ required: true }), ...filterArgs, non_archived: t.arg.boolean({ required: false }) },
    resolve: async (_query, _r, { id, page, per_page, with_labels_details, ...filters }, ctx) => {
      showLabelsDetails(ctx, with_labels_details);
      return rowsOf(ctx, await listGroupMergeRequests(ctx, await findGroup(ctx, String(id)), filters, { page, per_page }));
    },
  }),
  mergeRequests: t.prismaField({
    extensions: { rest: route.get("/merge_requests") },
    type: [MergeRequestEntity],
    args: filterArgs,
    resolve: async (_query, _r, { page, per_page, with_labels_details, ...filters }, ctx) => {
      showLabelsDetails(ctx, with_labels_details);
      return rowsOf(ctx, await listAllMergeRequests(ctx, filters, { page, per_page }));
    },
  }),
  projectCommitMergeRequests: t.prismaField({
    extensions: { rest: route.get("/projects/:id/repository/commits/:sha/merge_requests") },
    type: [MergeRequestEntity],
    args: { id: t.arg.id({ required: true }), sha: t.arg.string({ required: true }), state: t.arg({ type: StateFilter, required: false }), ...pageArgs },
    resolve: async (_query, _r, { id, sha, page, per_page, state }, ctx) =>
      rowsOf(ctx, await listCommitMergeRequests(ctx, await findProject(ctx, String(id)), sha, { state }, { page, per_page })),
  }),
  projectMergeRequest: t.prismaField({
    extensions: { rest: route.get("/projects/:id/merge_requests/:merge_request_iid") },
    type: MergeRequestDetail,
    args: { id: t.arg.id({ required: true }), merge_request_iid: t.arg.int({ required: true }) },
    resolve: async (_q, _r, args, ctx) => presentMergeRequest(ctx, await findMergeRequest(ctx, String(args.id), args.merge_request_iid, "read")),
  }),
}));

builder.mutationFields((t) => ({
  createMergeRequest: t.prismaField({
    type: MergeRequestDetail,
    extensions: { rest: route.post("/projects/:id/merge_requests"), access: "authenticated" },
    args: {
      id: t.arg.id({ required: true }),
      title: t.arg.string({ required: true }),
      source_branch: t.arg.string({ required: true }),
      target_branch: t.arg.string({ required: true }),
      ...optionalArgs,
    },
    resolve: async (_q, _r, { id, ...input }, ctx) => {
      return createMergeRequest(ctx, await findProjectToWrite(ctx, String(id)), input);
    },
  }),
  updateMergeRequest: t.prismaField({
    type: MergeRequestDetail,
    extensions: { rest: route.put("/projects/:id/merge_requests/:merge_request_iid"), access: "authenticated" },
    args: {
      id: t.arg.id({ required: true }),
      merge_request_iid: t.arg.int({ required: true }),
      title: t.arg.string({ required: false }),
      target_branch: t.arg.string({ required: false }),
      state_event: t.arg({ type: StateEvent, required: false }),
      discussion_locked: t.arg.boolean({ required: false }),
      ...optionalArgs,
    },
    resolve: async (_q, _r, { id, merge_request_iid, ...input }, ctx) => {
      requireMergeRequestChanges(ctx, input);
      return updateMergeRequest(ctx, await findMergeRequest(ctx, String(id), merge_request_iid, "update"), input);
    },
  }),
}));
