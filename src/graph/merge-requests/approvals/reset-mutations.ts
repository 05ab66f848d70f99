// mergeRequestResetApprovals (Forgeline's: GitLab's graph has none) over REST PUT
// /projects/:id/merge_requests/:iid/reset_approvals: approvals.ts's rule lets only the bot user of
// a project or group access token that may approve the merge request reset them; a signed-in
// caller refused by that rule gets its reason in `errors`, a hidden merge request is not available.
import { resetMergeRequestApprovals } from "../../../domain/merge-requests/approvals/writes.js";
import { findMergeRequestForReset } from "../../../domain/merge-requests/approvals/queries.js";
import { MergeRequestRef } from "../types.js";
import { changeMergeRequest, mergeRequestInputFields } from "../inputs.js";
import { payloadMutation } from "../../shared/payload-mutation.js";

payloadMutation("mergeRequestResetApprovals", {
  description: "Removes every approval of an open merge request (project and group access token bots only).",
  inputFields: mergeRequestInputFields,
  write: (input, ctx) => changeMergeRequest(ctx, input, async (path, iid) => resetMergeRequestApprovals(ctx, await findMergeRequestForReset(ctx, path, iid))),
  returns: { field: "mergeRequest", type: MergeRequestRef },
});
