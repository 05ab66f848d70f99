// An issue's lifecycle and surroundings beyond the Issue entity: DELETE, its participants, the
// merge requests that close it when merged (closed_by) and those related to it, each through one
// domain function.
import { deleteIssue } from "../domain/issues/destroy.js";
import { closingMergeRequests, relatedMergeRequests } from "../domain/merge-requests/issue-links.js";
import { issueParticipants } from "../domain/issues/participants.js";
import { findIssue } from "../domain/issues/queries.js";
import { builder } from "./builder.js";
import { MergeRequestEntity, MergeRequestWithoutSubscription } from "./merge-requests.js";
import { pageArgs, rowsOf } from "./pagination.js";
import { UserBasic } from "./users.js";
import * as route from "../rest/route.js";

const issueArgs = builder.args((t) => ({
  id: t.id({ required: true }),
  issue_iid: t.int({ required: true }),
  ...pageArgs,
}));

builder.queryFields((t) => ({
  issueParticipants: t.prismaField({
    extensions: { rest: route.get("/projects/:id/issues/:issue_iid/participants") },
    type: [UserBasic],
    args: issueArgs,
    resolve: async (_q, _r, { id, issue_iid, ...page }, ctx) =>
      rowsOf(ctx, await issueParticipants(ctx, await findIssue(ctx, String(id), issue_iid), page)),
  }),
  issueClosedBy: t.prismaField({
    extensions: { rest: route.get("/projects/:id/issues/:issue_iid/closed_by") },
    type: [MergeRequestEntity],
    args: issueArgs,
    resolve: async (_q, _r, { id, issue_iid, ...page }, ctx) =>
      rowsOf(ctx, await closingMergeRequests(ctx, await findIssue(ctx, String(id), issue_iid), page)),
  }),
  issueRelatedMergeRequests: t.prismaField({
    extensions: { rest: route.get("/projects/:id/issues/:issue_iid/related_merge_requests") },
    type: [MergeRequestWithoutSubscription],
    args: issueArgs,
    resolve: async (_q, _r, { id, issue_iid, ...page }, ctx) =>
      rowsOf(ctx, await relatedMergeRequests(ctx, await findIssue(ctx, String(id), issue_iid), page)),
  }),
}));

builder.mutationFields((t) => ({
  deleteIssue: t.boolean({
    extensions: { rest: route.del("/projects/:id/issues/:issue_iid"), access: "authenticated" },
    args: { id: t.arg.id({ required: true }), issue_iid: t.arg.int({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const found = await findIssue(ctx, String(args.id), args.issue_iid, "destroy");
      return deleteIssue(ctx, found, ctx.request.headers.get("if-unmodified-since"));
    },
  }),
}));
