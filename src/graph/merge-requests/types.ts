// Merge requests: the MergeRequest node (Awardable, Noteable), its approvals, and
// Project.mergeRequests / Project.mergeRequest, read through the domain's list and lookup.
import { issuableFactsLoader, issuableKey } from "../../domain/shared/issuable-facts.js";
import { findMergeRequest, findMergeRequestById, presentMergeRequest, type MergeRequestRow } from "../../domain/merge-requests/queries.js";
import { listProjectMergeRequests, MERGE_REQUEST_STATES, type MergeRequestFilters } from "../../domain/merge-requests/lists.js";
import { shownProjectAccess } from "../../domain/shared/parents.js";
import { indexedSearchFilter } from "../../domain/search/text-index.js";
import { detailedMergeStatusOf } from "../../domain/merge-requests/presenter.js";
import { AwardableRef } from "../award-emoji/types.js";
import { ApprovalStateRef, approvalStatusOf, approvalStateOf } from "./approvals/state.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { arrayConnection, offsetConnection } from "../shared/connections.js";
import { orNull } from "../shared/errors.js";
import { iidOf, issuableWebUrl, LabelConnection, LabelRef, labelsConnection, SORTS } from "../shared/issuables.js";
import { registerNodeLoader } from "../shared/node.js";
import { NoteableRef } from "../notes/types.js";
import { ProjectRef } from "../projects/types.js";
import { userById, UserCoreConnection, usersConnection, UserRef } from "../users/types.js";

export const MergeRequestRef = builder.objectRef<MergeRequestRow>("MergeRequest");

const MR_SORTS = { ...SORTS, MERGED_AT_ASC: { order_by: "merged_at", sort: "asc" }, MERGED_AT_DESC: { order_by: "merged_at", sort: "desc" } } as const;
const MergeRequestSortEnum = builder.enumType("MergeRequestSort", { values: Object.keys(MR_SORTS) as (keyof typeof MR_SORTS)[] });
const MergeRequestStateEnum = builder.enumType("MergeRequestState", { values: MERGE_REQUEST_STATES });

const facts = (ctx: Parameters<typeof userById>[0], mr: MergeRequestRow) => ctx.loaders.get(issuableFactsLoader).load(issuableKey("MergeRequest", mr.id));

builder.node(MergeRequestRef, {
  description: "A merge request.",
  interfaces: [AwardableRef, NoteableRef],
  id: { resolve: (mr) => mr.id },
  fields: (t) => ({
    iid: t.string({ resolve: (mr) => String(mr.iid) }),
    title: t.exposeString("title"),
    description: t.exposeString("description", { nullable: true }),
    state: t.exposeString("state"),
    draft: t.exposeBoolean("draft"),
    sourceBranch: t.exposeString("sourceBranch"),
    targetBranch: t.exposeString("targetBranch"),
    diffHeadSha: t.exposeString("headSha", { nullable: true }),
    mergeCommitSha: t.exposeString("mergeCommitSha", { nullable: true }),
    detailedMergeStatus: t.string({ description: "mergeable, not_approved, ... (GitLab's values, lower case)", resolve: (mr, _a, ctx) => detailedMergeStatusOf(ctx, mr) }),
    createdAt: t.expose("createdAt", { type: "Time" }),
    updatedAt: t.expose("updatedAt", { type: "Time" }),
    mergedAt: t.expose("mergedAt", { type: "Time", nullable: true }),
    closedAt: t.expose("closedAt", { type: "Time", nullable: true }),
    projectId: t.exposeInt("projectId"),
    webUrl: t.string({ resolve: (mr, _a, ctx) => issuableWebUrl(ctx, mr, "merge_requests") }),
    reference: t.string({ resolve: (mr) => `!${mr.iid}` }),
    author: t.field({ type: UserRef, resolve: (mr, _a, ctx) => userById(ctx, mr.authorId) }),
    mergeUser: t.field({ type: UserRef, nullable: true, resolve: (mr, _a, ctx) => (mr.mergedById == null ? null : userById(ctx, mr.mergedById)) }),
    assignees: t.connection({ type: UserRef, resolve: (mr, args, ctx) => usersConnection(ctx, args, mr.assignees.map((a) => a.userId)) }, UserCoreConnection),
    reviewers: t.connection({ type: UserRef, resolve: (mr, args, ctx) => usersConnection(ctx, args, mr.reviewers.map((r) => r.userId)) }, UserCoreConnection),
    labels: t.connection({ type: LabelRef, resolve: (mr, args, ctx) => labelsConnection(ctx, args, "MergeRequest", mr) }, LabelConnection),
    upvotes: t.int({ resolve: async (mr, _a, ctx) => (await facts(ctx, mr)).upvotes }),
    downvotes: t.int({ resolve: async (mr, _a, ctx) => (await facts(ctx, mr)).downvotes }),
    userNotesCount: t.int({ resolve: async (mr, _a, ctx) => (await facts(ctx, mr)).userNotesCount }),
    // approvals: null for callers the approvals API refuses (anonymous ones)
    approved: t.boolean({ nullable: true, resolve: async (mr, _a, ctx) => (await approvalStatusOf(ctx, mr))?.approved ?? null }),
    approvalsRequired: t.int({ nullable: true, resolve: async (mr, _a, ctx) => (await approvalStatusOf(ctx, mr))?.approvals_required ?? null }),
    approvalsLeft: t.int({ nullable: true, resolve: async (mr, _a, ctx) => (await approvalStatusOf(ctx, mr))?.approvals_left ?? null }),
    approvedBy: t.connection(
      {
        type: UserRef,
        nullable: true,
        resolve: async (mr, args, ctx) => {
          const status = await approvalStatusOf(ctx, mr);
          return status && arrayConnection(args, status.approved_by.map((approval) => approval.user));
        },
      },
      UserCoreConnection,
    ),
    approvalState: t.field({ type: ApprovalStateRef, nullable: true, resolve: (mr, _a, ctx) => approvalStateOf(ctx, mr) }),
  }),
});

export const MergeRequestConnection = countedConnection(MergeRequestRef, "MergeRequest");

builder.objectFields(ProjectRef, (t) => ({
  mergeRequests: t.connection(
    {
      type: MergeRequestRef,
      nullable: true,
      description: "Merge requests, newest first unless sorted otherwise; null when the feature is closed to the caller.",
      args: {
        state: t.arg({ type: MergeRequestStateEnum }),
        labels: t.arg.stringList({ description: "Merge requests with every one of these labels." }),
        search: t.arg.string({ description: "Title or description contains this, as the Search API finds it (a term under 3 characters: the whole title or description)." }),
        sort: t.arg({ type: MergeRequestSortEnum, defaultValue: "CREATED_DESC" }),
        authorUsername: t.arg.string(),
        draft: t.arg.boolean(),
      },
      resolve: async (project, args, ctx) => {
        const access = await shownProjectAccess(ctx, project);
        const filters: MergeRequestFilters = {
          state: args.state ?? "all",
          labels: args.labels,
          ...(await indexedSearchFilter(ctx, "mergeRequest", args.search)),
          author_username: args.authorUsername,
          wip: args.draft == null ? null : args.draft ? "yes" : "no",
          ...MR_SORTS[args.sort as keyof typeof MR_SORTS],
        };
        return orNull(() => offsetConnection(args, (page) => listProjectMergeRequests(ctx, access, filters, page)));
      },
    },
    MergeRequestConnection,
  ),
  mergeRequest: t.field({
    type: MergeRequestRef,
    nullable: true,
    args: { iid: t.arg.string({ required: true }) },
    resolve: (project, args, ctx) => {
      const iid = iidOf(args.iid);
      return iid == null ? null : orNull(async () => presentMergeRequest(ctx, await findMergeRequest(ctx, project.id, iid, "read")));
    },
  }),
}));

registerNodeLoader("MergeRequest", MergeRequestRef, async (ctx, id) => presentMergeRequest(ctx, await findMergeRequestById(ctx, id, "read")));
