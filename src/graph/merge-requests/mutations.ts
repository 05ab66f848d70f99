// mergeRequestAccept (merge), mergeRequestApprove and mergeRequestUnapprove: one `input`, a
// payload `{ mergeRequest, errors }` (merge and approval rules in src/domain/).
import { approveMergeRequest, unapproveMergeRequest } from "../../domain/merge-requests/approvals/writes.js";
import { findMergeRequestForApprovals } from "../../domain/merge-requests/approvals/queries.js";
import { mergeMergeRequest } from "../../domain/merge-requests/merge.js";
import { findMergeRequest } from "../../domain/merge-requests/queries.js";
import { changeMergeRequest, mergeRequestInputFields } from "./inputs.js";
import { MergeRequestRef } from "./types.js";
import { issuablePathOf } from "../shared/mutation-inputs.js";
import { payloadMutation } from "../shared/payload-mutation.js";

const mergeRequest = { field: "mergeRequest", type: MergeRequestRef };

payloadMutation("mergeRequestAccept", {
  inputFields: (t) => ({
    ...mergeRequestInputFields(t),
    sha: t.string({ required: true, description: "The head of the source branch the caller expects to merge." }),
    commitMessage: t.string(),
    squash: t.boolean(),
    squashCommitMessage: t.string(),
    shouldRemoveSourceBranch: t.boolean(),
  }),
  write: async (input, ctx) => {
    const [path, iid] = issuablePathOf(input);
    return mergeMergeRequest(ctx, await findMergeRequest(ctx, path, iid, "write"), {
      sha: input.sha,
      merge_commit_message: input.commitMessage,
      squash: input.squash,
      squash_commit_message: input.squashCommitMessage,
      should_remove_source_branch: input.shouldRemoveSourceBranch,
    });
  },
  returns: mergeRequest,
});

payloadMutation("mergeRequestApprove", {
  inputFields: (t) => ({ ...mergeRequestInputFields(t), sha: t.string({ description: "The head the approval is for." }) }),
  write: (input, ctx) => changeMergeRequest(ctx, input, async (path, iid) => approveMergeRequest(ctx, await findMergeRequestForApprovals(ctx, path, iid), { sha: input.sha })),
  returns: mergeRequest,
});

payloadMutation("mergeRequestUnapprove", {
  inputFields: mergeRequestInputFields,
  write: (input, ctx) => changeMergeRequest(ctx, input, async (path, iid) => unapproveMergeRequest(ctx, await findMergeRequestForApprovals(ctx, path, iid))),
  returns: mergeRequest,
});
