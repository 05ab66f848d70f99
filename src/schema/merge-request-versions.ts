// Merge request diff versions (lib/api/merge_request_diffs.rb): Entities::MergeRequestDiff in the
// list, Entities::MergeRequestDiffFull (with commits and diffs) for one version.
import type { Context } from "../context.js";
import { findMergeRequest } from "../domain/merge-requests/queries.js";
import { findVersion, listVersions, type Version, type VersionDetail } from "../domain/merge-requests/versions.js";
import { builder } from "./builder.js";
import { DiffEntity } from "./merge-request-merging.js";
import { pageArgs, rowsOf } from "./pagination.js";
import { CommitEntity } from "./repository.js";
import * as route from "../rest/route.js";

type VersionFields = PothosSchemaTypes.ObjectFieldBuilder<any, Version>;

const versionFields = (t: VersionFields) => ({
  id: t.exposeInt("id"),
  head_commit_sha: t.exposeString("headCommitSha", { nullable: true }),
  base_commit_sha: t.exposeString("baseCommitSha", { nullable: true }),
  start_commit_sha: t.exposeString("startCommitSha", { nullable: true }),
  created_at: t.expose("createdAt", { type: "DateTime" }),
  merge_request_id: t.exposeInt("mergeRequestId"),
  state: t.exposeString("state"),
  real_size: t.exposeString("realSize", { nullable: true }),
  patch_id_sha: t.exposeString("patchIdSha", { nullable: true }),
});

const VersionEntity = builder.objectRef<Version>("MergeRequestDiffVersion").implement({ fields: versionFields });

const VersionDetailEntity = builder.objectRef<VersionDetail>("MergeRequestDiffVersionFull").implement({
  fields: (t) => ({
    ...versionFields(t as unknown as VersionFields),
    commits: t.field({ type: [CommitEntity], resolve: (version) => version.commits }),
    diffs: t.field({ type: [DiffEntity], resolve: (version) => version.diffs }),
  }),
});

const mrArgs = builder.args((t) => ({ id: t.id({ required: true }), merge_request_iid: t.int({ required: true }) }));
// the API starts with `before { authenticate! }`
const signedIn = { access: "authenticated" } as const;

builder.queryFields((t) => ({
  mergeRequestVersions: t.field({
    type: [VersionEntity],
    extensions: { rest: route.get("/projects/:id/merge_requests/:merge_request_iid/versions"), ...signedIn },
    args: { ...mrArgs, ...pageArgs },
    resolve: async (_r, { id, merge_request_iid, ...page }, ctx: Context) =>
      rowsOf(ctx, await listVersions(ctx, await findMergeRequest(ctx, String(id), merge_request_iid, "read"), page)),
  }),
  mergeRequestVersion: t.field({
    type: VersionDetailEntity,
    extensions: { rest: route.get("/projects/:id/merge_requests/:merge_request_iid/versions/:version_id"), ...signedIn },
    args: { ...mrArgs, version_id: t.arg.int({ required: true }), unidiff: t.arg.boolean({ required: false }) },
    resolve: async (_r, { id, merge_request_iid, version_id, unidiff }, ctx: Context) =>
      findVersion(ctx, await findMergeRequest(ctx, String(id), merge_request_iid, "read"), version_id, { unidiff: unidiff ?? false }),
  }),
}));
