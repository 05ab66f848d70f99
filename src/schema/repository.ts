// Repository: GitLab's Commit, CommitDetail and Branch entities, the branches and commits root
// fields; protected branches live in protected-branches.ts.
import type { Commit } from "../generated/prisma/client.js";
import { createBranch, deleteBranch, getBranch, listBranches, type BranchView } from "../domain/repository/branches.js";
import { createCommit, getCommit, getMergeBase, listCommits, type CommitDetailView } from "../domain/repository/commit-api.js";
import { branchWebUrl, commitWebUrl } from "../domain/repository/urls.js";
import { findProject } from "../domain/shared/access.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf } from "./pagination.js";
import "./protected-branches.js";

type SchemaTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type CommitFields = PothosSchemaTypes.ObjectFieldBuilder<SchemaTypes, Commit>;

/** GitLab's Commit entity; the committer is the API caller, the author may be someone else. */
const commitFields = (t: CommitFields) => ({
  id: t.exposeString("sha"),
  short_id: t.string({ resolve: (commit) => commit.sha.slice(0, 8) }),
  created_at: t.expose("authoredAt", { type: "DateTime" }),
  parent_ids: t.stringList({ resolve: (commit) => [commit.parentSha, commit.secondParentSha].filter((sha): sha is string => sha != null) }),
  title: t.exposeString("title"),
  message: t.exposeString("message"),
  author_name: t.exposeString("authorName"),
  author_email: t.exposeString("authorEmail"),
  authored_date: t.expose("authoredAt", { type: "DateTime" }),
  committer_name: t.exposeString("committerName"),
  committer_email: t.exposeString("committerEmail"),
  committed_date: t.expose("authoredAt", { type: "DateTime" }),
  trailers: t.field({ type: "JSON", resolve: () => ({}) }),
  extended_trailers: t.field({ type: "JSON", resolve: () => ({}) }),
  web_url: t.string({ resolve: (commit, _a, ctx) => commitWebUrl(ctx, commit.projectId, commit.sha) }),
});

export const CommitEntity = builder.objectRef<Commit>("Commit").implement({
  fields: (t) => commitFields(t),
});

const CommitStats = builder.objectRef<Commit>("CommitStats").implement({
  fields: (t) => ({
    additions: t.exposeInt("additions"),
    deletions: t.exposeInt("deletions"),
    total: t.int({ resolve: (commit) => commit.additions + commit.deletions }),
  }),
});

/** GitLab's CommitDetail: stats (unless `stats=false`), no pipelines. */
export const CommitDetailEntity = builder.objectRef<CommitDetailView>("CommitDetail").implement({
  fields: (t) => ({
    ...commitFields(t as unknown as CommitFields),
    stats: t.field({ type: CommitStats, nullable: true, resolve: (commit) => (commit.includeStats ? commit : null) }),
    status: t.string({ nullable: true, resolve: () => null }),
    project_id: t.exposeInt("projectId"),
    last_pipeline: t.field({ type: "JSON", nullable: true, resolve: () => null }),
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

builder.queryFields((t) => ({
  projectBranches: t.field({
    type: [BranchEntity],
    args: { id: t.arg.id({ required: true }), search: t.arg.string({ required: false }), ...pageArgs },
    resolve: async (_r, { id, page, per_page, ...filters }, ctx) =>
      rowsOf(ctx, await listBranches(ctx, await findProject(ctx, String(id)), filters, { page, per_page })),
  }),
  projectBranch: t.field({
    type: BranchEntity,
    args: { id: t.arg.id({ required: true }), branch: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => getBranch(ctx, String(args.id), args.branch),
  }),
  projectCommits: t.field({
    type: [CommitEntity],
    args: { id: t.arg.id({ required: true }), ref_name: t.arg.string({ required: false }), all: t.arg.boolean({ required: false }), ...pageArgs },
    resolve: async (_r, { id, page, per_page, ...filters }, ctx) =>
      rowsOf(ctx, await listCommits(ctx, await findProject(ctx, String(id)), filters, { page, per_page })),
  }),
  projectMergeBase: t.field({
    type: CommitEntity,
    args: { id: t.arg.id({ required: true }), refs: t.arg.stringList({ required: true }) },
    resolve: (_r, args, ctx) => getMergeBase(ctx, String(args.id), args.refs),
  }),
  projectCommit: t.field({
    type: CommitDetailEntity,
    args: { id: t.arg.id({ required: true }), sha: t.arg.string({ required: true }), stats: t.arg.boolean({ required: false }) },
    resolve: (_r, args, ctx) => getCommit(ctx, String(args.id), args.sha, args.stats ?? true),
  }),
}));

builder.mutationFields((t) => ({
  createBranch: t.field({
    type: BranchEntity,
    extensions: { access: "authenticated" },
    args: { id: t.arg.id({ required: true }), branch: t.arg.string({ required: true }), ref: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => createBranch(ctx, String(args.id), args.branch, args.ref),
  }),
  deleteBranch: t.boolean({
    extensions: { access: "authenticated" },
    args: { id: t.arg.id({ required: true }), branch: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => deleteBranch(ctx, String(args.id), args.branch, ctx.request.headers.get("if-unmodified-since")),
  }),
  createCommit: t.field({
    type: CommitDetailEntity,
    extensions: { access: "authenticated" },
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
    resolve: (_r, { id, ...input }, ctx) => createCommit(ctx, String(id), input),
  }),
}));
