// Cherry-picking and reverting a commit onto a branch (POST .../commits/:sha/cherry_pick and
// .../revert): GitLab's Commit entity, or after a successful dry run 200 {"dry_run":"success"},
// which the field leaves to the REST answer (its GraphQL value is then null).
import type { Context } from "../context.js";
import { checkCommitChange, cherryPickCommit, revertCommit, type CommitChangeResult } from "../domain/commit-changes/writes.js";
import { findRepositoryProject } from "../domain/repository/access.js";
import { builder } from "./builder.js";
import { CommitEntity } from "./repository.js";
import * as route from "../rest/route.js";

/** A cherry-pick's or revert's dry run that would have succeeded (the commits API's `status :ok`), for the API description. */
const DRY_RUN_SUCCESS: route.OtherAnswer = {
  status: 200,
  description: "dry_run: the change would apply; nothing was written.",
  schema: { type: "object", properties: { dry_run: { type: "string", enum: ["success"] } }, required: ["dry_run"] },
};

/** A dry run that would have succeeded answers 200 {"dry_run":"success"} on REST. */
function answered(ctx: Context, result: CommitChangeResult) {
  if (!result) {
    ctx.rest.status = 200;
    ctx.rest.answer = { dry_run: "success" };
  }
  return result;
}

builder.mutationFields((t) => ({
  cherryPickCommit: t.field({
    type: CommitEntity,
    nullable: true,
    description: "The new commit; null after a dry run that would have succeeded.",
    extensions: { rest: route.post("/projects/:id/repository/commits/:sha/cherry_pick", { otherAnswers: [DRY_RUN_SUCCESS] }), access: "authenticated" },
    args: {
      id: t.arg.id({ required: true }),
      sha: t.arg.string({ required: true }),
      branch: t.arg.string({ required: true }),
      dry_run: t.arg.boolean({ required: false }),
      message: t.arg.string({ required: false }),
    },
    resolve: async (_r, { id, sha, ...input }, ctx) => {
      checkCommitChange(ctx, input);
      return answered(ctx, await cherryPickCommit(ctx, await findRepositoryProject(ctx, String(id)), sha, input));
    },
  }),
  revertCommit: t.field({
    type: CommitEntity,
    nullable: true,
    description: "The new commit; null after a dry run that would have succeeded.",
    extensions: { rest: route.post("/projects/:id/repository/commits/:sha/revert", { otherAnswers: [DRY_RUN_SUCCESS] }), access: "authenticated" },
    args: {
      id: t.arg.id({ required: true }),
      sha: t.arg.string({ required: true }),
      branch: t.arg.string({ required: true }),
      dry_run: t.arg.boolean({ required: false }),
    },
    resolve: async (_r, { id, sha, ...input }, ctx) => {
      checkCommitChange(ctx, input);
      return answered(ctx, await revertCommit(ctx, await findRepositoryProject(ctx, String(id)), sha, input));
    },
  }),
}));
