// commitStatusCreate: REST POST /projects/:id/statuses/:sha (commit-statuses domain rules).
import { findCommitToPostStatus } from "../../domain/commit-statuses/queries.js";
import { POSTED_STATES } from "../../domain/commit-statuses/rules.js";
import { checkStatusInput, createCommitStatus } from "../../domain/commit-statuses/writes.js";
import { builder } from "../shared/builder.js";
import { projectPathOf } from "../shared/mutation-inputs.js";
import { payloadMutation } from "../shared/payload-mutation.js";
import { CommitStatusRef } from "./types.js";

const CommitStatusStateEnum = builder.enumType("CommitStatusState", {
  values: Object.fromEntries(POSTED_STATES.map((state) => [state.toUpperCase(), { value: state }])),
});

payloadMutation("commitStatusCreate", {
  description: "Posts a status on a commit from outside CI; a running or pending status of the same name, ref and author moves on.",
  inputFields: (t) => ({
    projectPath: t.id({ required: true }),
    sha: t.string({ required: true, description: "The commit: a SHA, or a branch or tag name." }),
    state: t.field({ type: CommitStatusStateEnum, required: true }),
    ref: t.string({ description: "The branch or tag; the newest pipeline's, or the first branch holding the commit, unless given." }),
    name: t.string({ description: "Tells this status from other systems' (\"default\" unless given)." }),
    targetUrl: t.string(),
    description: t.string(),
    coverage: t.float(),
    pipelineId: t.int({ description: "The external pipeline to post into." }),
  }),
  write: async (input, ctx) => {
    const status = {
      state: input.state as string,
      ref: input.ref,
      name: input.name,
      target_url: input.targetUrl,
      description: input.description,
      coverage: input.coverage,
      pipeline_id: input.pipelineId,
    };
    checkStatusInput(ctx, status);
    return createCommitStatus(ctx, await findCommitToPostStatus(ctx, projectPathOf(input.projectPath), input.sha), status);
  },
  returns: { field: "commitStatus", type: CommitStatusRef },
});
