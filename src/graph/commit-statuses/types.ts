// Commit statuses in the graph: the CommitStatus type, Commit.statuses (the latest of each name
// unless `all`, as REST GET .../commits/:sha/statuses lists them) and Commit.status with
// Commit.latestPipeline (the newest external pipeline of the sha, as REST's commit entity shows).
import type { CiPipeline, CommitStatus } from "../../generated/prisma/client.js";
import { listCommitStatuses } from "../../domain/commit-statuses/lists.js";
import { latestPipeline, pipelineWebUrl } from "../../domain/commit-statuses/presenter.js";
import { shownCommitWithStatuses } from "../../domain/commit-statuses/queries.js";
import { userLoader } from "../../domain/shared/loaders.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { offsetConnection } from "../shared/connections.js";
import { orNull } from "../shared/errors.js";
import { CommitRef } from "../repository/commits.js";
import { UserRef } from "../users/types.js";

export const CommitStatusRef = builder.objectRef<CommitStatus>("CommitStatus");

builder.objectType(CommitStatusRef, {
  description: "A status a system outside CI posted on a commit (a job of an external pipeline).",
  fields: (t) => ({
    id: t.id({ resolve: (status) => `gid://forgeline/CommitStatus/${status.id}` }),
    sha: t.exposeString("sha"),
    ref: t.exposeString("ref"),
    status: t.exposeString("status", { description: "pending, running, success, failed, canceled or skipped." }),
    name: t.exposeString("name"),
    stage: t.exposeString("stage"),
    targetUrl: t.exposeString("targetUrl", { nullable: true }),
    description: t.exposeString("description", { nullable: true }),
    coverage: t.exposeFloat("coverage", { nullable: true }),
    allowFailure: t.exposeBoolean("allowFailure"),
    createdAt: t.expose("createdAt", { type: "Time" }),
    startedAt: t.expose("startedAt", { type: "Time", nullable: true }),
    finishedAt: t.expose("finishedAt", { type: "Time", nullable: true }),
    pipelineId: t.exposeInt("pipelineId", { description: "The external pipeline the status belongs to." }),
    author: t.field({ type: UserRef, nullable: true, resolve: (status, _a, ctx) => (status.userId == null ? null : ctx.loaders.get(userLoader).load(status.userId)) }),
  }),
});

const PipelineRef = builder.objectRef<CiPipeline>("ExternalPipeline");

builder.objectType(PipelineRef, {
  description: "The pipeline GitLab wraps a sha and ref's external statuses in (Forgeline runs no CI).",
  fields: (t) => ({
    id: t.id({ resolve: (pipeline) => `gid://forgeline/Ci::Pipeline/${pipeline.id}` }),
    iid: t.exposeInt("iid"),
    sha: t.exposeString("sha"),
    ref: t.exposeString("ref"),
    status: t.exposeString("status", { description: "The composite of its latest statuses." }),
    source: t.exposeString("source"),
    createdAt: t.expose("createdAt", { type: "Time" }),
    updatedAt: t.expose("updatedAt", { type: "Time" }),
    webUrl: t.string({ resolve: (pipeline, _a, ctx) => pipelineWebUrl(ctx, pipeline) }),
  }),
});

const CommitStatusConnection = countedConnection(CommitStatusRef, "CommitStatus");

builder.objectFields(CommitRef, (t) => ({
  statuses: t.connection(
    {
      type: CommitStatusRef,
      nullable: true,
      description: "The commit's statuses, oldest first (null without read_commit_status).",
      args: {
        ref: t.arg.string(),
        name: t.arg.string(),
        all: t.arg.boolean({ description: "Every status, not only the latest of each name." }),
      },
      resolve: (commit, args, ctx) =>
        orNull(async () => {
          const found = await shownCommitWithStatuses(ctx, commit);
          return offsetConnection(args, (page) => listCommitStatuses(ctx, found, { ref: args.ref, name: args.name, all: args.all }, page));
        }),
    },
    CommitStatusConnection,
  ),
  latestPipeline: t.field({
    type: PipelineRef,
    nullable: true,
    description: "The newest external pipeline of the commit's sha.",
    resolve: (commit, _a, ctx) => latestPipeline(ctx, commit.projectId, commit.sha),
  }),
}));
