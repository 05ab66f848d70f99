// mergeRequestCreate, mergeRequestUpdate, mergeRequestSetDraft, mergeRequestSetLabels and
// mergeRequestSetAssignees: one `input`, a payload `{ mergeRequest, errors }` (writes.ts and
// set-fields.ts rules, as REST POST and PUT /projects/:id/merge_requests).
import { setMergeRequestAssignees, setMergeRequestDraft, type OperationMode } from "../../domain/merge-requests/set-fields.js";
import { findMergeRequest } from "../../domain/merge-requests/queries.js";
import { createMergeRequest, requireMergeRequestChanges, updateMergeRequest, type UpdateMergeRequestInput } from "../../domain/merge-requests/writes.js";
import { findProjectToWrite } from "../../domain/shared/parents.js";
import { userIdByUsername } from "../../domain/users/queries.js";
import type { Context } from "../../context.js";
import { builder } from "../shared/builder.js";
import { mergeRequestInputFields } from "./inputs.js";
import { MergeRequestRef } from "./types.js";
import { issuablePathOf, projectPathOf, userIdsOf } from "../shared/mutation-inputs.js";
import { payloadMutation } from "../shared/payload-mutation.js";

const MergeRequestNewStateEnum = builder.enumType("MergeRequestNewState", {
  values: { OPEN: { value: "reopen" }, CLOSED: { value: "close" } } as const,
});

const OperationModeEnum = builder.enumType("MutationOperationMode", {
  values: { REPLACE: { value: "replace" }, APPEND: { value: "append" }, REMOVE: { value: "remove" } } as const,
});

const mergeRequest = { field: "mergeRequest", type: MergeRequestRef };

payloadMutation("mergeRequestCreate", {
  inputFields: (t) => ({
    projectPath: t.id({ required: true }),
    title: t.string({ required: true }),
    sourceBranch: t.string({ required: true }),
    targetBranch: t.string({ required: true }),
    description: t.string(),
    labels: t.stringList({ description: "Label names." }),
    assigneeIds: t.idList({ description: "Global ids of users." }),
    reviewerIds: t.idList({ description: "Global ids of users." }),
    removeSourceBranch: t.boolean(),
    squash: t.boolean(),
  }),
  write: async (input, ctx) => {
    const path = projectPathOf(input.projectPath);
    return createMergeRequest(ctx, await findProjectToWrite(ctx, path), {
      title: input.title,
      source_branch: input.sourceBranch,
      target_branch: input.targetBranch,
      description: input.description,
      labels: input.labels,
      assignee_ids: userIdsOf(input.assigneeIds),
      reviewer_ids: userIdsOf(input.reviewerIds),
      remove_source_branch: input.removeSourceBranch,
      squash: input.squash,
    });
  },
  returns: mergeRequest,
});

payloadMutation("mergeRequestUpdate", {
  inputFields: (t) => ({
    ...mergeRequestInputFields(t),
    title: t.string(),
    description: t.string(),
    targetBranch: t.string(),
    state: t.field({ type: MergeRequestNewStateEnum, description: "Close or reopen the merge request." }),
  }),
  write: (input, ctx) =>
    update(ctx, input, {
      title: input.title,
      description: input.description,
      target_branch: input.targetBranch,
      state_event: input.state,
    }),
  returns: mergeRequest,
});

payloadMutation("mergeRequestSetDraft", {
  inputFields: (t) => ({ ...mergeRequestInputFields(t), draft: t.boolean({ required: true }) }),
  write: async (input, ctx) => setMergeRequestDraft(ctx, await findMergeRequest(ctx, ...issuablePathOf(input), "read"), input.draft),
  returns: mergeRequest,
});

payloadMutation("mergeRequestSetLabels", {
  inputFields: (t) => ({
    ...mergeRequestInputFields(t),
    labels: t.stringList({ required: true, description: "Label names (GitLab takes label ids; Forgeline's labels are names)." }),
    operationMode: t.field({ type: OperationModeEnum, description: "REPLACE unless given." }),
  }),
  write: (input, ctx) => update(ctx, input, labelsChange(input.labels, input.operationMode ?? "replace")),
  returns: mergeRequest,
});

payloadMutation("mergeRequestSetAssignees", {
  inputFields: (t) => ({
    ...mergeRequestInputFields(t),
    assigneeUsernames: t.stringList({ required: true }),
    operationMode: t.field({ type: OperationModeEnum, description: "REPLACE unless given." }),
  }),
  write: async (input, ctx) => {
    const found = await findMergeRequest(ctx, ...issuablePathOf(input), "read");
    return setMergeRequestAssignees(ctx, found, await userIdsByUsername(ctx, input.assigneeUsernames), input.operationMode ?? "replace");
  },
  returns: mergeRequest,
});

/** mergeRequestUpdate and mergeRequestSetLabels: REST PUT's checks in its order (params, then the merge request, then the right to update it). */
async function update(ctx: Context, input: { projectPath: string | number; iid: string }, changes: UpdateMergeRequestInput) {
  const [path, iid] = issuablePathOf(input);
  requireMergeRequestChanges(ctx, changes);
  return updateMergeRequest(ctx, await findMergeRequest(ctx, path, iid, "update"), changes);
}

const labelsChange = (labels: string[], mode: OperationMode) =>
  mode === "replace" ? { labels } : mode === "append" ? { add_labels: labels } : { remove_labels: labels };

/** Users by username; an unknown one matches nobody (the domain drops ids it cannot assign). */
const userIdsByUsername = (ctx: Context, usernames: readonly string[]) =>
  Promise.all(usernames.map(async (username) => (await userIdByUsername(ctx, username)) ?? -1));
