// mergeRequestAccept (merge), mergeRequestApprove and mergeRequestUnapprove: one `input`, a
// payload `{ mergeRequest, errors }` (merge and approval rules in src/domain/).
import { approveMergeRequest, unapproveMergeRequest } from "../domain/approvals/approvals.js";
import { mergeMergeRequest } from "../domain/merge-requests/merge.js";
import { getMergeRequest } from "../domain/merge-requests/merge-requests.js";
import type { Context } from "../context.js";
import { forgetApprovalStatus } from "./approvals.js";
import { builder } from "./builder.js";
import { payload } from "./errors.js";
import { MergeRequestRef } from "./merge-requests.js";
import { iidArg, projectPathOf } from "./mutation-inputs.js";

const mrInput = (t: PothosSchemaTypes.InputFieldBuilder<any, "InputObject">) => ({
  projectPath: t.id({ required: true }),
  iid: t.string({ required: true }),
});


/** The merge request as it is after an approval change (re-read: the status is cached per request). */
async function reread(ctx: Context, path: string, iid: number) {
  const mergeRequest = await getMergeRequest(ctx, path, iid);
  forgetApprovalStatus(ctx, mergeRequest);
  return mergeRequest;
}

builder.relayMutationField(
  "mergeRequestAccept",
  {
    inputFields: (t) => ({
      ...mrInput(t),
      sha: t.string({ required: true, description: "The head of the source branch the caller expects to merge." }),
      commitMessage: t.string(),
      squash: t.boolean(),
      squashCommitMessage: t.string(),
      shouldRemoveSourceBranch: t.boolean(),
    }),
  },
  {
    resolve: (_root, { input }, ctx) =>
      payload(ctx, "mergeRequest", () =>
        mergeMergeRequest(ctx, projectPathOf(input.projectPath), iidArg(input.iid), {
          sha: input.sha,
          merge_commit_message: input.commitMessage,
          squash: input.squash,
          squash_commit_message: input.squashCommitMessage,
          should_remove_source_branch: input.shouldRemoveSourceBranch,
        })),
  },
  {
    outputFields: (t) => ({
      mergeRequest: t.field({ type: MergeRequestRef, nullable: true, resolve: (result) => result.mergeRequest }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);

builder.relayMutationField(
  "mergeRequestApprove",
  { inputFields: (t) => ({ ...mrInput(t), sha: t.string({ description: "The head the approval is for." }) }) },
  {
    resolve: (_root, { input }, ctx) =>
      payload(ctx, "mergeRequest", async () => {
        const [path, iid] = [projectPathOf(input.projectPath), iidArg(input.iid)];
        await approveMergeRequest(ctx, path, iid, { sha: input.sha });
        return reread(ctx, path, iid);
      }),
  },
  {
    outputFields: (t) => ({
      mergeRequest: t.field({ type: MergeRequestRef, nullable: true, resolve: (result) => result.mergeRequest }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);

builder.relayMutationField(
  "mergeRequestUnapprove",
  { inputFields: mrInput },
  {
    resolve: (_root, { input }, ctx) =>
      payload(ctx, "mergeRequest", async () => {
        const [path, iid] = [projectPathOf(input.projectPath), iidArg(input.iid)];
        await unapproveMergeRequest(ctx, path, iid);
        return reread(ctx, path, iid);
      }),
  },
  {
    outputFields: (t) => ({
      mergeRequest: t.field({ type: MergeRequestRef, nullable: true, resolve: (result) => result.mergeRequest }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);
