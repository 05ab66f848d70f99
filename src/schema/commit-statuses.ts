// Commit statuses (lib/api/commit_statuses.rb): GitLab's Entities::CommitStatus, a commit's
// statuses and posting one; and the external pipelines' Entities::Ci::PipelineBasic that the
// commit entity shows as `last_pipeline`.
import type { Context } from "../context.js";
import { findCommitToPostStatus, findCommitWithStatuses } from "../domain/commit-statuses/queries.js";
import { listCommitStatuses } from "../domain/commit-statuses/lists.js";
import { checkStatusInput, createCommitStatus } from "../domain/commit-statuses/writes.js";
import { pipelineWebUrl } from "../domain/commit-statuses/presenter.js";
import { POSTED_STATES } from "../domain/commit-statuses/rules.js";
import { userLoader } from "../domain/shared/loaders.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf, SortDirectionEnum } from "./pagination.js";
import { UserBasic } from "./users.js";
import * as route from "../rest/route.js";

export const CommitStatusEntity = builder.prismaObject("CommitStatus", {
  name: "CommitStatus",
  fields: (t) => ({
    id: t.exposeInt("id"),
    sha: t.exposeString("sha"),
    ref: t.exposeString("ref"),
    status: t.exposeString("status"),
    name: t.exposeString("name"),
    target_url: t.exposeString("targetUrl", { nullable: true }),
    description: t.exposeString("description", { nullable: true }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    started_at: t.expose("startedAt", { type: "DateTime", nullable: true }),
    finished_at: t.expose("finishedAt", { type: "DateTime", nullable: true }),
    allow_failure: t.exposeBoolean("allowFailure"),
    coverage: t.exposeFloat("coverage", { nullable: true }),
    pipeline_id: t.exposeInt("pipelineId"),
    author: t.field({ type: UserBasic, nullable: true, resolve: (status, _a, ctx) => authorOf(ctx, status.userId) }),
  }),
});

async function authorOf(ctx: Context, id: number | null) {
  return id == null ? null : ctx.loaders.get(userLoader).load(id);
}

/** GitLab's Entities::Ci::PipelineBasic of an external pipeline. */
export const PipelineBasicEntity = builder.prismaObject("CiPipeline", {
  name: "PipelineBasic",
  fields: (t) => ({
    id: t.exposeInt("id"),
    iid: t.exposeInt("iid"),
    project_id: t.exposeInt("projectId"),
    sha: t.exposeString("sha"),
    ref: t.exposeString("ref"),
    status: t.exposeString("status"),
    source: t.exposeString("source"),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    updated_at: t.expose("updatedAt", { type: "DateTime" }),
    web_url: t.string({ resolve: (pipeline, _a, ctx) => pipelineWebUrl(ctx, pipeline) }),
  }),
});

const CommitStatusState = builder.enumType("CommitStatusState", { values: POSTED_STATES });
const CommitStatusOrder = builder.enumType("CommitStatusOrder", { values: ["id", "pipeline_id"] as const });

builder.queryFields((t) => ({
  commitStatuses: t.prismaField({
    extensions: { rest: route.get("/projects/:id/repository/commits/:sha/statuses"), access: "authenticated" },
    type: ["CommitStatus"],
    args: {
      id: t.arg.id({ required: true }),
      sha: t.arg.string({ required: true }),
      ref: t.arg.string({ required: false }),
      stage: t.arg.string({ required: false }),
      name: t.arg.string({ required: false }),
      pipeline_id: t.arg.int({ required: false }),
      all: t.arg.boolean({ required: false }),
      order_by: t.arg({ type: CommitStatusOrder, required: false }),
      sort: t.arg({ type: SortDirectionEnum, required: false }),
      ...pageArgs,
    },
    resolve: async (_q, _r, { id, sha, page, per_page, ...filters }, ctx) =>
      rowsOf(ctx, await listCommitStatuses(ctx, await findCommitWithStatuses(ctx, String(id), sha), filters, { page, per_page })),
  }),
}));

builder.mutationFields((t) => ({
  createCommitStatus: t.prismaField({
    extensions: { rest: route.post("/projects/:id/statuses/:sha"), access: "authenticated" },
    type: "CommitStatus",
    args: {
      id: t.arg.id({ required: true }),
      sha: t.arg.string({ required: true }),
      state: t.arg({ type: CommitStatusState, required: true }),
      ref: t.arg.string({ required: false }),
      target_url: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
      name: t.arg.string({ required: false }),
      context: t.arg.string({ required: false }),
      coverage: t.arg.float({ required: false }),
      pipeline_id: t.arg.int({ required: false }),
    },
    resolve: async (_q, _r, { id, sha, ...input }, ctx) => {
      checkStatusInput(ctx, input);
      return createCommitStatus(ctx, await findCommitToPostStatus(ctx, String(id), sha), input);
    },
  }),
}));
