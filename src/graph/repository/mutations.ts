// Repository writes: commitCreate (commit-api.ts rules, as REST POST
// /projects/:id/repository/commits), commitCherryPick and commitRevert (commit-changes rules, as
// REST POST .../commits/:sha/cherry_pick and .../revert), tagCreate and tagDelete (tags.ts rules, as REST POST and
// DELETE /projects/:id/repository/tags) and mergeRequestRebase (rebase.ts rules, as REST PUT
// /projects/:id/merge_requests/:iid/rebase, which Forgeline finishes before answering).
import { findMergeRequest } from "../../domain/merge-requests/queries.js";
import { rebaseMergeRequest } from "../../domain/merge-requests/rebase.js";
import { checkCommitChange, cherryPickCommit, revertCommit } from "../../domain/commit-changes/writes.js";
import { findRepositoryToPush } from "../../domain/repository/access.js";
import { checkCommitInput, createCommit } from "../../domain/repository/commit-api.js";
import { checkTagCreation, createTag, deleteTag, findTagToDelete } from "../../domain/repository/tags.js";
import { FILE_ACTIONS } from "../../domain/repository/file-actions.js";
import { builder } from "../shared/builder.js";
import { CommitRef } from "./commits.js";
import { changeMergeRequest, mergeRequestInputFields } from "../merge-requests/inputs.js";
import { MergeRequestRef } from "../merge-requests/types.js";
import { projectPathOf } from "../shared/mutation-inputs.js";
import { refusalsAsErrors } from "../shared/errors.js";
import { payloadMutation, type PayloadInputFieldBuilder } from "../shared/payload-mutation.js";
import { TagRef } from "./tags.js";

/** GitLab's CommitActionMode: CREATE, UPDATE, MOVE, DELETE, CHMOD. */
const CommitActionModeEnum = builder.enumType("CommitActionMode", {
  values: Object.fromEntries(FILE_ACTIONS.map((action) => [action.toUpperCase(), { value: action }])),
});

const CommitEncodingEnum = builder.enumType("CommitEncoding", { values: { TEXT: { value: "text" }, BASE64: { value: "base64" } } });

const CommitActionInput = builder.inputType("CommitAction", {
  description: "A change to one file (REST `actions[]`).",
  fields: (t) => ({
    action: t.field({ type: CommitActionModeEnum, required: true }),
    filePath: t.string({ required: true }),
    previousPath: t.string({ description: "The file's path before a move." }),
    content: t.string({ description: "The file's content (create and update)." }),
    encoding: t.field({ type: CommitEncodingEnum, description: "TEXT unless given." }),
    executeFilemode: t.boolean({ description: "The executable flag (chmod)." }),
  }),
});

payloadMutation("commitCreate", {
  description: "Commits file changes to a branch (a new branch when startBranch is given).",
  inputFields: (t) => ({
    projectPath: t.id({ required: true }),
    branch: t.string({ required: true, description: "The branch to commit to." }),
    startBranch: t.string({ description: "The branch to start a new `branch` from." }),
    message: t.string({ required: true }),
    actions: t.field({ type: [CommitActionInput], required: true }),
  }),
  // a protected branch's refusal is listed in `errors`, as GitLab's commitCreate lists it
  write: (input, ctx) =>
    refusalsAsErrors(async () => {
      const access = await findRepositoryToPush(ctx, projectPathOf(input.projectPath));
      const commit = {
        branch: input.branch,
        start_branch: input.startBranch,
        commit_message: input.message,
        actions: input.actions.map((action) => ({
          action: action.action as string,
          file_path: action.filePath,
          previous_path: action.previousPath,
          content: action.content,
          encoding: action.encoding as string | null | undefined,
          execute_filemode: action.executeFilemode,
        })),
      };
      checkCommitInput(ctx, commit);
      return createCommit(ctx, access, commit);
    }),
  returns: { field: "commit", type: CommitRef },
});

const commitChangeFields = (t: PayloadInputFieldBuilder) => ({
  projectPath: t.id({ required: true }),
  sha: t.string({ required: true, description: "The commit: a SHA, or a branch or tag name." }),
  branch: t.string({ required: true, description: "The branch the new commit goes on." }),
  dryRun: t.boolean({ description: "Only check that the change applies: nothing is written and `commit` is null." }),
});

payloadMutation("commitCherryPick", {
  description: "Applies a commit's changes to a branch as a new commit (a merge commit's against its first parent).",
  inputFields: (t) => ({ ...commitChangeFields(t), message: t.string({ description: "The new commit's message instead of GitLab's." }) }),
  // a protected branch's refusal and a conflict are listed in `errors`
  write: async (input, ctx) => {
    const access = await findRepositoryToPush(ctx, projectPathOf(input.projectPath));
    const change = { branch: input.branch, dry_run: input.dryRun, message: input.message };
    checkCommitChange(ctx, change);
    return refusalsAsErrors(() => cherryPickCommit(ctx, access, input.sha, change));
  },
  returns: { field: "commit", type: CommitRef },
});

payloadMutation("commitRevert", {
  description: "Undoes a commit's changes on a branch with a new commit (a merge commit's against its first parent).",
  inputFields: commitChangeFields,
  write: async (input, ctx) => {
    const access = await findRepositoryToPush(ctx, projectPathOf(input.projectPath));
    const change = { branch: input.branch, dry_run: input.dryRun };
    checkCommitChange(ctx, change);
    return refusalsAsErrors(() => revertCommit(ctx, access, input.sha, change));
  },
  returns: { field: "commit", type: CommitRef },
});

payloadMutation("tagCreate", {
  description: "Tags a commit: a lightweight tag, or an annotated one when a message is given.",
  inputFields: (t) => ({
    projectPath: t.id({ required: true }),
    name: t.string({ required: true }),
    ref: t.string({ required: true, description: "Branch, tag or commit SHA to tag." }),
    message: t.string({ description: "Makes the tag annotated." }),
  }),
  write: async (input, ctx) => {
    const path = projectPathOf(input.projectPath);
    const tag = { tag_name: input.name, ref: input.ref, message: input.message };
    checkTagCreation(ctx, tag);
    return createTag(ctx, await findRepositoryToPush(ctx, path), tag);
  },
  returns: { field: "tag", type: TagRef },
});

payloadMutation("tagDelete", {
  inputFields: (t) => ({ projectPath: t.id({ required: true }), name: t.string({ required: true }) }),
  write: async (input, ctx) => deleteTag(ctx, await findTagToDelete(ctx, projectPathOf(input.projectPath), input.name)),
});

payloadMutation("mergeRequestRebase", {
  description: "Rebases the source branch onto the target branch (done when the payload answers).",
  inputFields: mergeRequestInputFields,
  write: (input, ctx) => changeMergeRequest(ctx, input, async (path, iid) => {
    return rebaseMergeRequest(ctx, await findMergeRequest(ctx, path, iid, "write"));
  }),
  returns: { field: "mergeRequest", type: MergeRequestRef },
});
