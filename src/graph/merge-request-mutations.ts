// mergeRequestAccept (merge), mergeRequestApprove and mergeRequestUnapprove: one `input`, a
// payload `{ mergeRequest, errors }` (merge and approval rules in src/domain/).
import { approveMergeRequest, unapproveMergeRequest } from "../domain/merge-requests/approvals/service.js";
import { mergeMergeRequest } from "../domain/merge-requests/merge.js";
import { getMergeRequest } from "../domain/merge-requests/queries.js";
import type { Context } from "../context.js";
import { forgetApprovalStatus } from "./approvals.js";
import { MergeRequestRef } from "./merge-requests.js";
import { iidArg, projectPathOf } from "./mutation-inputs.js";
import { payloadMutation, type PayloadInputFieldBuilder } from "./payload-mutation.js";

const mrInput = (t: PayloadInputFieldBuilder) => ({
  projectPath: t.id({ required: true }),
  iid: t.string({ required: true }),
});

/** The merge request as it is after an approval change (re-read: the status is cached per request). */
async function reread(ctx: Context, path: string, iid: number) {
  const mergeRequest = await getMergeRequest(ctx, path, iid);
  forgetApprovalStatus(ctx, mergeRequest);
  return mergeRequest;
}

const mergeRequest = { field: "mergeRequest", type: MergeRequestRef };

payloadMutation("mergeRequestAccept", {
  inputFields: (t) => ({
    ...mrInput(t),
    sha: t.string({ required: true, description: "The head of the source branch the caller expects to merge." }),
    commitMessage: t.string(),
    squash: t.boolean(),
    squashCommitMessage: t.string(),
    shouldRemoveSourceBranch: t.boolean(),
  }),
  write: (input, ctx) =>
    mergeMergeRequest(ctx, projectPathOf(input.projectPath), iidArg(input.iid), {
      sha: input.sha,
      merge_commit_message: input.commitMessage,
      squash: input.squash,
      squash_commit_message: input.squashCommitMessage,
      should_remove_source_branch: input.shouldRemoveSourceBranch,
    }),
  returns: mergeRequest,
});

payloadMutation("mergeRequestApprove", {
  inputFields: (t) => ({ ...mrInput(t), sha: t.string({ description: "The head the approval is for." }) }),
  write: async (input, ctx) => {
    const [path, iid] = [projectPathOf(input.projectPath), iidArg(input.iid)];
    await approveMergeRequest(ctx, path, iid, { sha: input.sha });
    return reread(ctx, path, iid);
  },
  returns: mergeRequest,
});

payloadMutation("mergeRequestUnapprove", {
  inputFields: mrInput,
  write: async (input, ctx) => {
    const [path, iid] = [projectPathOf(input.projectPath), iidArg(input.iid)];
    await unapproveMergeRequest(ctx, path, iid);
    return reread(ctx, path, iid);
  },
  returns: mergeRequest,
});
