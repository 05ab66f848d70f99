// Merging and reviewing a merge request: merge, rebase, the merge ref, and what reviewers read
// besides the entity (commits, participants, changes, diffs), each through one domain function.
import type { Context } from "../context.js";
import { mergeMergeRequest } from "../domain/merge-requests/merge.js";
import { mergeRequestMergeRef, rebaseMergeRequest } from "../domain/merge-requests/rebase.js";
import {
  listMergeRequestCommits, listMergeRequestDiffs, listMergeRequestParticipants, mergeRequestDiffCollection, type DiffView,
} from "../domain/merge-requests/reviews.js";
import { findMergeRequest, withPeople, type MergeRequestRow } from "../domain/merge-requests/queries.js";
import { closingIssues } from "../domain/merge-requests/issue-links.js";
import { builder } from "./builder.js";
import { IssueEntity } from "./issues.js";
import { detailFields, MergeRequestDetail, type Fields } from "./merge-requests.js";
import { pageArgs, rowsOf } from "./pagination.js";
import { CommitEntity } from "./repository.js";
import { UserBasic } from "./users.js";
import * as route from "../rest/route.js";

/** Entities::Diff. */
export const DiffEntity = builder.objectRef<DiffView>("MergeRequestDiff").implement({
  fields: (t) => ({
    diff: t.exposeString("diff"),
    collapsed: t.exposeBoolean("collapsed"),
    too_large: t.exposeBoolean("too_large"),
    new_path: t.exposeString("new_path"),
    old_path: t.exposeString("old_path"),
    a_mode: t.exposeString("a_mode"),
    b_mode: t.exposeString("b_mode"),
    new_file: t.exposeBoolean("new_file"),
    renamed_file: t.exposeBoolean("renamed_file"),
    deleted_file: t.exposeBoolean("deleted_file"),
    generated_file: t.boolean({ nullable: true, resolve: (diff) => diff.generated_file }),
  }),
});

const collections = new WeakMap<object, ReturnType<typeof mergeRequestDiffCollection>>();

/** The changes of a merge request row once (changes and overflow share them). */
function changesOnce(ctx: Context, mr: MergeRequestRow): ReturnType<typeof mergeRequestDiffCollection> {
  let collection = collections.get(mr);
  if (!collection) {
    collection = mergeRequestDiffCollection(ctx, mr);
    collections.set(mr, collection);
  }
  return collection;
}

/** Entities::MergeRequestChanges: the merge request with its changes. */
const MergeRequestChanges = builder.prismaObject("MergeRequest", {
  variant: "MergeRequestChanges",
  fields: (t) => ({
    ...detailFields(t as Fields, true),
    changes: t.field({ type: [DiffEntity], resolve: async (mr, _a, ctx: Context) => (await changesOnce(ctx, mr as MergeRequestRow)).diffs }),
    overflow: t.boolean({ resolve: async (mr, _a, ctx: Context) => (await changesOnce(ctx, mr as MergeRequestRow)).overflow }),
  }),
});

const RebaseResult = builder.objectRef<{ rebase_in_progress: boolean }>("MergeRequestRebase").implement({
  fields: (t) => ({ rebase_in_progress: t.exposeBoolean("rebase_in_progress") }),
});

const MergeRef = builder.objectRef<{ commit_id: string }>("MergeRequestMergeRef").implement({
  fields: (t) => ({ commit_id: t.exposeString("commit_id") }),
});

const mrArgs = builder.args((t) => ({ id: t.id({ required: true }), merge_request_iid: t.int({ required: true }) }));

builder.queryFields((t) => ({
  mergeRequestCommits: t.field({
    extensions: { rest: route.get("/projects/:id/merge_requests/:merge_request_iid/commits") },
    type: [CommitEntity],
    args: { ...mrArgs, ...pageArgs },
    resolve: async (_r, { id, merge_request_iid, ...page }, ctx) =>
      rowsOf(ctx, await listMergeRequestCommits(ctx, (await findMergeRequest(ctx, String(id), merge_request_iid, "read")).mergeRequest, page)),
  }),
  mergeRequestParticipants: t.field({
    extensions: { rest: route.get("/projects/:id/merge_requests/:merge_request_iid/participants") },
    type: [UserBasic],
    args: { ...mrArgs, ...pageArgs },
    resolve: async (_r, { id, merge_request_iid, ...page }, ctx) =>
      rowsOf(ctx, await listMergeRequestParticipants(ctx, await withPeople(ctx, await findMergeRequest(ctx, String(id), merge_request_iid, "read")), page)),
  }),
  mergeRequestClosesIssues: t.field({
    extensions: { rest: route.get("/projects/:id/merge_requests/:merge_request_iid/closes_issues") },
    type: [IssueEntity],
    args: { ...mrArgs, ...pageArgs },
    resolve: async (_r, { id, merge_request_iid, ...page }, ctx) =>
      rowsOf(ctx, await closingIssues(ctx, await findMergeRequest(ctx, String(id), merge_request_iid, "read"), page)),
  }),
  mergeRequestChanges: t.prismaField({
    extensions: { rest: route.get("/projects/:id/merge_requests/:merge_request_iid/changes") },
    type: MergeRequestChanges,
    args: { ...mrArgs, access_raw_diffs: t.arg.boolean({ required: false }), unidiff: t.arg.boolean({ required: false }) },
    resolve: async (_q, _r, args, ctx) => {
      const { mergeRequest: mr } = await withPeople(ctx, await findMergeRequest(ctx, String(args.id), args.merge_request_iid, "read"));
      // the changes and overflow fields read this collection (changesOnce)
      collections.set(mr, mergeRequestDiffCollection(ctx, mr, { accessRawDiffs: args.access_raw_diffs ?? false, unidiff: args.unidiff ?? false }));
      return mr;
    },
  }),
  mergeRequestDiffs: t.field({
    extensions: { rest: route.get("/projects/:id/merge_requests/:merge_request_iid/diffs") },
    type: [DiffEntity],
    args: { ...mrArgs, ...pageArgs, unidiff: t.arg.boolean({ required: false }) },
    resolve: async (_r, { id, merge_request_iid, unidiff, ...page }, ctx) =>
      rowsOf(ctx, await listMergeRequestDiffs(ctx, await findMergeRequest(ctx, String(id), merge_request_iid, "read"), page, { unidiff: unidiff ?? false })),
  }),
  mergeRequestMergeRef: t.field({
    extensions: { rest: route.get("/projects/:id/merge_requests/:merge_request_iid/merge_ref") },
    type: MergeRef,
    args: mrArgs,
    resolve: async (_r, args, ctx) => mergeRequestMergeRef(ctx, await findMergeRequest(ctx, String(args.id), args.merge_request_iid)),
  }),
}));

builder.mutationFields((t) => ({
  mergeMergeRequest: t.prismaField({
    type: MergeRequestDetail,
    extensions: { rest: route.put("/projects/:id/merge_requests/:merge_request_iid/merge"), access: "authenticated" },
    args: {
      ...mrArgs,
      merge_commit_message: t.arg.string({ required: false }),
      squash_commit_message: t.arg.string({ required: false }),
      should_remove_source_branch: t.arg.boolean({ required: false }),
      merge_when_pipeline_succeeds: t.arg.boolean({ required: false }),
      sha: t.arg.string({ required: false }),
      squash: t.arg.boolean({ required: false }),
    },
    resolve: async (_q, _r, { id, merge_request_iid, ...input }, ctx) => {
      return mergeMergeRequest(ctx, await findMergeRequest(ctx, String(id), merge_request_iid, "write"), input);
    },
  }),
  rebaseMergeRequest: t.field({
    type: RebaseResult,
    // 202: GitLab rebases in the background
    extensions: { rest: route.put("/projects/:id/merge_requests/:merge_request_iid/rebase", { status: 202 }), access: "authenticated" },
    args: { ...mrArgs, skip_ci: t.arg.boolean({ required: false }) },
    resolve: async (_r, args, ctx) => {
      return rebaseMergeRequest(ctx, await findMergeRequest(ctx, String(args.id), args.merge_request_iid, "write"));
    },
  }),
}));
