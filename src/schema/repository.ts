// Repository: GitLab's Commit, CommitDetail and Branch entities, the branches and commits root
// fields; protected branches live in protected-branches.ts.
import { findRepositoryProject, findRepositoryToPush } from "../domain/repository/access.js";
import {
  branchView, checkBranchCreation, createBranch, deleteBranch, findBranch, findBranchToDelete, listBranches, type BranchView,
} from "../domain/repository/branches.js";
import { checkCommitInput, commitDetail, createCommit, findCommit, listCommits, mergeBase, type CommitDetailView } from "../domain/repository/commit-api.js";
import { gitTime, type CommitRecord } from "../domain/repository/git.js";
import { branchWebUrl, commitWebUrl } from "../domain/repository/urls.js";
import { withListDetails, type ListedCommit } from "../domain/repository/commit-diffs.js";
import { findProject } from "../domain/shared/parents.js";
import { latestPipeline } from "../domain/commit-statuses/presenter.js";
import { PipelineBasicEntity } from "./commit-statuses.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf } from "./pagination.js";
import "./protected-branches.js";
import * as route from "../rest/route.js";

type SchemaTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type CommitFields = PothosSchemaTypes.ObjectFieldBuilder<SchemaTypes, CommitRecord>;

/** GitLab's Commit entity: times in the author's and committer's own offsets, as git records them. */
const commitFields = (t: CommitFields) => ({
  id: t.exposeString("sha"),
  short_id: t.string({ resolve: (commit) => commit.sha.slice(0, 8) }),
  created_at: t.field({ type: "DateTime", resolve: (commit) => gitTime(commit.committedAt, commit.committerTimezone) }),
  parent_ids: t.stringList({ resolve: (commit) => commit.parentShas }),
  title: t.exposeString("title"),
  message: t.exposeString("message"),
  author_name: t.exposeString("authorName"),
  author_email: t.exposeString("authorEmail"),
  authored_date: t.field({ type: "DateTime", resolve: (commit) => gitTime(commit.authoredAt, commit.authorTimezone) }),
  committer_name: t.exposeString("committerName"),
  committer_email: t.exposeString("committerEmail"),
  committed_date: t.field({ type: "DateTime", resolve: (commit) => gitTime(commit.committedAt, commit.committerTimezone) }),
  trailers: t.field({ type: "JSON", resolve: (commit) => commit.trailers ?? {} }),
  extended_trailers: t.field({ type: "JSON", resolve: (commit) => commit.extendedTrailers ?? {} }),
  web_url: t.string({ resolve: (commit, _a, ctx) => commitWebUrl(ctx, commit.projectId, commit.sha) }),
});

export const CommitEntity = builder.objectRef<CommitRecord>("Commit").implement({
  fields: (t) => commitFields(t),
});

/**
 * The commits list's entity: GitLab's Commit with the trailers read when asked for, and
 * CommitWithStats' `stats` only with `with_stats` (null otherwise, which REST answers leave out:
 * rest/exposure.ts).
 */
const CommitWithStatsEntity = builder.objectRef<ListedCommit>("CommitWithStats").implement({
  fields: (t) => ({
    ...commitFields(t as unknown as CommitFields),
    stats: t.field({ type: CommitStats, nullable: true, extensions: { restIf: "stats" }, resolve: (commit) => commit.stats }),
  }),
});

const CommitStats = builder.objectRef<{ additions: number; deletions: number }>("CommitStats").implement({
  fields: (t) => ({
    additions: t.exposeInt("additions"),
    deletions: t.exposeInt("deletions"),
    total: t.int({ resolve: (stats) => stats.additions + stats.deletions }),
  }),
});

/** GitLab's CommitDetail: stats (unless `stats=false`), the latest external pipeline and its status. */
export const CommitDetailEntity = builder.objectRef<CommitDetailView>("CommitDetail").implement({
  fields: (t) => ({
    ...commitFields(t as unknown as CommitFields),
    stats: t.field({ type: CommitStats, nullable: true, extensions: { restIf: "stats" }, resolve: (commit) => commit.stats }),
    status: t.string({ nullable: true, resolve: async (commit, _a, ctx) => (await latestPipeline(ctx, commit.projectId, commit.sha))?.status ?? null }),
    project_id: t.exposeInt("projectId"),
    last_pipeline: t.field({ type: PipelineBasicEntity, nullable: true, resolve: (commit, _a, ctx) => latestPipeline(ctx, commit.projectId, commit.sha) }),
  }),
});

export const BranchEntity = builder.objectRef<BranchView>("Branch").implement({
  fields: (t) => ({
    name: t.string({ resolve: (view) => view.branch.name }),
    commit: t.field({ type: CommitEntity, resolve: (view) => view.commit }),
    merged: t.boolean({ resolve: (view) => view.merged }),
    protected: t.boolean({ resolve: (view) => view.protected }),
    developers_can_push: t.boolean({ resolve: (view) => view.developersCanPush }),
    developers_can_merge: t.boolean({ resolve: (view) => view.developersCanMerge }),
    can_push: t.boolean({ resolve: (view) => view.canPush }),
    default: t.boolean({ resolve: (view) => view.isDefault }),
    web_url: t.string({ resolve: (view, _a, ctx) => branchWebUrl(ctx, view.branch.projectId, view.branch.name) }),
  }),
});

const CommitAction = builder.inputType("CommitAction", {
  // all optional: the domain answers Grape's per-action errors ("actions[0][file_path] is missing")
  fields: (t) => ({
    action: t.string({ required: false }),
    file_path: t.string({ required: false }),
    previous_path: t.string({ required: false }),
    content: t.string({ required: false }),
    encoding: t.string({ required: false }),
    last_commit_id: t.string({ required: false }),
    execute_filemode: t.boolean({ required: false }),
  }),
});

const CommitOrder = builder.enumType("CommitOrder", { values: ["default", "topo"] as const });

builder.queryFields((t) => ({
  projectBranches: t.field({
    extensions: { rest: route.get("/projects/:id/repository/branches") },
    type: [BranchEntity],
    args: { id: t.arg.id({ required: true }), search: t.arg.string({ required: false }), ...pageArgs },
    resolve: async (_r, { id, page, per_page, ...filters }, ctx) =>
      rowsOf(ctx, await listBranches(ctx, await findProject(ctx, String(id)), filters, { page, per_page })),
  }),
  projectBranch: t.field({
    extensions: { rest: route.get("/projects/:id/repository/branches/:branch") },
    type: BranchEntity,
    args: { id: t.arg.id({ required: true }), branch: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => branchView(ctx, await findBranch(ctx, String(args.id), args.branch)),
  }),
  projectCommits: t.field({
    extensions: { rest: route.get("/projects/:id/repository/commits") },
    type: [CommitWithStatsEntity],
    args: {
      id: t.arg.id({ required: true }),
      ref_name: t.arg.string({ required: false }),
      since: t.arg({ type: "DateTime", required: false }),
      until: t.arg({ type: "DateTime", required: false }),
      path: t.arg.string({ required: false }),
      author: t.arg.string({ required: false }),
      all: t.arg.boolean({ required: false }),
      with_stats: t.arg.boolean({ required: false }),
      first_parent: t.arg.boolean({ required: false }),
      order: t.arg({ type: CommitOrder, required: false }),
      trailers: t.arg.boolean({ required: false }),
      ...pageArgs,
    },
    resolve: async (_r, { id, page, per_page, with_stats, trailers, ...filters }, ctx) => {
      const access = await findProject(ctx, String(id));
      const listed = await listCommits(ctx, access, filters, { page, per_page });
      return rowsOf(ctx, { ...listed, rows: await withListDetails(ctx, access.project.id, listed.rows, { with_stats, trailers }) });
    },
  }),
  projectMergeBase: t.field({
    extensions: { rest: route.get("/projects/:id/repository/merge_base") },
    type: CommitEntity,
    args: { id: t.arg.id({ required: true }), refs: t.arg.stringList({ required: true }) },
    resolve: async (_r, args, ctx) => mergeBase(ctx, await findRepositoryProject(ctx, String(args.id)), args.refs),
  }),
  projectCommit: t.field({
    extensions: { rest: route.get("/projects/:id/repository/commits/:sha") },
    type: CommitDetailEntity,
    args: { id: t.arg.id({ required: true }), sha: t.arg.string({ required: true }), stats: t.arg.boolean({ required: false }) },
    resolve: async (_r, args, ctx) => commitDetail(ctx, await findCommit(ctx, String(args.id), args.sha), args.stats ?? true),
  }),
}));

builder.mutationFields((t) => ({
  createBranch: t.field({
    type: BranchEntity,
    extensions: { rest: route.post("/projects/:id/repository/branches"), access: "authenticated" },
    args: { id: t.arg.id({ required: true }), branch: t.arg.string({ required: true }), ref: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      checkBranchCreation(ctx, args.branch, args.ref);
      return createBranch(ctx, await findRepositoryToPush(ctx, String(args.id)), args.branch, args.ref);
    },
  }),
  deleteBranch: t.boolean({
    extensions: { rest: route.del("/projects/:id/repository/branches/:branch"), access: "authenticated" },
    args: { id: t.arg.id({ required: true }), branch: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) =>
      deleteBranch(ctx, await findBranchToDelete(ctx, String(args.id), args.branch), ctx.request.headers.get("if-unmodified-since")),
  }),
  createCommit: t.field({
    type: CommitDetailEntity,
    extensions: { rest: route.post("/projects/:id/repository/commits"), access: "authenticated" },
    args: {
      id: t.arg.id({ required: true }),
      branch: t.arg.string({ required: true }),
      commit_message: t.arg.string({ required: true }),
      actions: t.arg({ type: [CommitAction], required: true }),
      start_branch: t.arg.string({ required: false }),
      author_name: t.arg.string({ required: false }),
      author_email: t.arg.string({ required: false }),
      stats: t.arg.boolean({ required: false }),
    },
    resolve: async (_r, { id, ...input }, ctx) => {
      checkCommitInput(ctx, input);
      return createCommit(ctx, await findRepositoryProject(ctx, String(id)), input);
    },
  }),
}));
