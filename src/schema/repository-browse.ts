// Browsing a repository: the tree, archives, compare, commit diffs and refs, contributors.
import { archiveKindOfExtension, archiveKindOfParam, repositoryArchive, type ArchiveFile, type ArchiveKind, type ArchiveRequest } from "../domain/repository/archives.js";
import { listCommitDiffs, listCommitRefs, type CommitRefView } from "../domain/repository/commit-diffs.js";
import { compareRefs, findComparedProject, type CompareView } from "../domain/repository/compare.js";
import { findRepositoryProject } from "../domain/repository/access.js";
import { listContributors, type ContributorView } from "../domain/repository/contributors.js";
import { listTree, type TreeObjectView } from "../domain/repository/tree.js";
import { findProject } from "../domain/shared/parents.js";
import type { Context } from "../context.js";
import { builder } from "./builder.js";
import { DiffEntity } from "./merge-request-merging.js";
import { pageArgs, rowsOf, SortDirectionEnum } from "./pagination.js";
import { CommitEntity } from "./repository.js";
import * as route from "../rest/route.js";

const TreeObjectEntity = builder.objectRef<TreeObjectView>("TreeObject").implement({
  fields: (t) => ({
    id: t.exposeString("id"),
    name: t.exposeString("name"),
    type: t.exposeString("type"),
    path: t.exposeString("path"),
    mode: t.exposeString("mode"),
  }),
});

const TreePagination = builder.enumType("TreePagination", { values: ["legacy", "keyset", "none"] as const });

const CompareEntity = builder.objectRef<CompareView>("Compare").implement({
  fields: (t) => ({
    commit: t.field({ type: CommitEntity, nullable: true, resolve: (compare) => compare.commit }),
    commits: t.field({ type: [CommitEntity], resolve: (compare) => compare.commits }),
    diffs: t.field({ type: [DiffEntity], resolve: (compare) => compare.diffs }),
    compare_timeout: t.exposeBoolean("compare_timeout"),
    compare_same_ref: t.boolean({ nullable: true, resolve: (compare) => compare.compare_same_ref }),
    web_url: t.exposeString("web_url"),
  }),
});

const CommitRefEntity = builder.objectRef<CommitRefView>("CommitRef").implement({
  fields: (t) => ({ type: t.exposeString("type"), name: t.exposeString("name") }),
});

const CommitRefType = builder.enumType("CommitRefType", { values: ["branch", "tag", "all"] as const });

const ContributorEntity = builder.objectRef<ContributorView>("Contributor").implement({
  fields: (t) => ({
    name: t.exposeString("name"),
    email: t.exposeString("email"),
    commits: t.exposeInt("commits"),
    additions: t.exposeInt("additions"),
    deletions: t.exposeInt("deletions"),
  }),
});

const ContributorOrderBy = builder.enumType("ContributorOrderBy", { values: ["email", "name", "commits"] as const });

const ArchiveEntity = builder.objectRef<ArchiveFile>("RepositoryArchive").implement({
  fields: (t) => ({ file_name: t.exposeString("fileName") }),
});

/** The archive's file goes in ctx.rest.download (a `download` route sends it); the field answers its name. */
async function sendArchive(ctx: Context, kind: ArchiveKind, { id, ...request }: ArchiveRequest & { id: string | number }): Promise<ArchiveFile> {
  const archive = await repositoryArchive(ctx, await findRepositoryProject(ctx, String(id)), kind, request);
  ctx.rest.download = archive.download;
  return archive;
}

builder.queryFields((t) => {
  const archiveArgs = {
    id: t.arg.id({ required: true }),
    sha: t.arg.string({ required: false }),
    path: t.arg.string({ required: false }),
    exclude_paths: t.arg.stringList({ required: false }),
  };

  return {
    projectTree: t.field({
      extensions: { rest: route.get("/projects/:id/repository/tree") },
      type: [TreeObjectEntity],
      args: {
        id: t.arg.id({ required: true }),
        ref: t.arg.string({ required: false }),
        path: t.arg.string({ required: false }),
        recursive: t.arg.boolean({ required: false }),
        pagination: t.arg({ type: TreePagination, required: false }),
        page_token: t.arg.string({ required: false }),
        ...pageArgs,
      },
      resolve: async (_r, { id, pagination, page, per_page, page_token, ...filters }, ctx) => {
        const listed = await listTree(ctx, await findProject(ctx, String(id)), filters, { pagination, page, per_page, page_token });
        // GitLab's first legacy page counts its pages itself: none for an empty tree
        if ("info" in listed && listed.info.total === 0 && listed.info.page === 1) ctx.rest.headers = { "X-Total-Pages": "0" };
        return rowsOf(ctx, listed);
      },
    }),
    projectArchive: t.field({
      extensions: { rest: route.get("/projects/:id/repository/archive", { download: true }) },
      type: ArchiveEntity,
      args: { ...archiveArgs, format: t.arg.string({ required: false }) },
      resolve: (_r, { format, ...args }, ctx) => sendArchive(ctx, archiveKindOfParam(format), args),
    }),
    projectArchiveWithFormat: t.field({
      extensions: { rest: route.get("/projects/:id/repository/archive.:format", { download: true }) },
      type: ArchiveEntity,
      args: { ...archiveArgs, format: t.arg.string({ required: true }) },
      resolve: (_r, { format, ...args }, ctx) => sendArchive(ctx, archiveKindOfExtension(format), args),
    }),
    projectCompare: t.field({
      extensions: { rest: route.get("/projects/:id/repository/compare") },
      type: CompareEntity,
      args: {
        id: t.arg.id({ required: true }),
        from: t.arg.string({ required: true }),
        to: t.arg.string({ required: true }),
        from_project_id: t.arg.int({ required: false }),
        straight: t.arg.boolean({ required: false }),
        unidiff: t.arg.boolean({ required: false }),
      },
      resolve: async (_r, { id, from_project_id, ...request }, ctx) =>
        compareRefs(ctx, await findComparedProject(ctx, String(id), from_project_id), request),
    }),
    projectCommitDiff: t.field({
      extensions: { rest: route.get("/projects/:id/repository/commits/:sha/diff") },
      type: [DiffEntity],
      args: { id: t.arg.id({ required: true }), sha: t.arg.string({ required: true }), unidiff: t.arg.boolean({ required: false }), ...pageArgs },
      resolve: async (_r, { id, page, per_page, ...filters }, ctx) =>
        rowsOf(ctx, await listCommitDiffs(ctx, await findProject(ctx, String(id)), filters, { page, per_page })),
    }),
    projectCommitRefs: t.field({
      extensions: { rest: route.get("/projects/:id/repository/commits/:sha/refs") },
      type: [CommitRefEntity],
      args: { id: t.arg.id({ required: true }), sha: t.arg.string({ required: true }), type: t.arg({ type: CommitRefType, required: false }), ...pageArgs },
      resolve: async (_r, { id, page, per_page, ...filters }, ctx) =>
        rowsOf(ctx, await listCommitRefs(ctx, await findProject(ctx, String(id)), filters, { page, per_page })),
    }),
    projectContributors: t.field({
      extensions: { rest: route.get("/projects/:id/repository/contributors") },
      type: [ContributorEntity],
      args: {
        id: t.arg.id({ required: true }),
        ref: t.arg.string({ required: false }),
        order_by: t.arg({ type: ContributorOrderBy, required: false }),
        sort: t.arg({ type: SortDirectionEnum, required: false }),
        ...pageArgs,
      },
      resolve: async (_r, { id, page, per_page, ...filters }, ctx) =>
        rowsOf(ctx, await listContributors(ctx, await findProject(ctx, String(id)), filters, { page, per_page })),
    }),
  };
});
