// projectCreate, projectUpdate, projectDelete and projectTransfer (projects.ts, deletions/projects.ts
// and projects/transfer.ts rules, as REST POST, PUT and DELETE /projects and PUT
// /projects/:id/transfer): one `input`, a payload `{ project, errors }`.
import { deleteProject } from "../../domain/deletions/projects.js";
import { transferProject } from "../../domain/projects/transfer.js";
import { createProject, updateProject } from "../../domain/projects/writes.js";
import { findProject } from "../../domain/shared/parents.js";
import { namespacePathOf, projectPathOf, VisibilityLevelsEnum } from "../shared/mutation-inputs.js";
import { payloadMutation } from "../shared/payload-mutation.js";
import { ProjectRef } from "./types.js";

const project = { field: "project", type: ProjectRef };

payloadMutation("projectCreate", {
  inputFields: (t) => ({
    name: t.string({ description: "The path's name unless given (one of name and path is needed)." }),
    path: t.string({ description: "Made from the name unless given." }),
    namespacePath: t.id({ description: "Full path of the group or personal namespace; the caller's own unless given." }),
    description: t.string(),
    visibility: t.field({ type: VisibilityLevelsEnum, description: "private unless given." }),
    defaultBranch: t.string(),
    initializeWithReadme: t.boolean({ description: "A first commit adding README.md; without it the repository is empty." }),
    topics: t.stringList(),
  }),
  write: (input, ctx) =>
    createProject(ctx, {
      name: input.name,
      path: input.path,
      namespace_id: input.namespacePath == null ? null : namespacePathOf(input.namespacePath),
      description: input.description,
      visibility: input.visibility,
      default_branch: input.defaultBranch,
      initialize_with_readme: input.initializeWithReadme,
      topics: input.topics,
    }),
  returns: project,
});

payloadMutation("projectUpdate", {
  inputFields: (t) => ({
    fullPath: t.id({ required: true }),
    name: t.string(),
    path: t.string({ description: "A new path leaves a redirect from the old one." }),
    description: t.string(),
    visibility: t.field({ type: VisibilityLevelsEnum, description: "Owners only." }),
    defaultBranch: t.string(),
    topics: t.stringList({ description: "Replaces the project's topics." }),
    mergeMethod: t.string({ description: "merge, rebase_merge or ff." }),
    squashOption: t.string({ description: "never, always, default_on or default_off." }),
    mergeCommitTemplate: t.string({ description: "%{variable}s as GitLab's merge commit templates; null for the default message." }),
    squashCommitTemplate: t.string({ description: "%{variable}s as GitLab's squash commit templates; null for the merge request's title." }),
    onlyAllowMergeIfAllDiscussionsAreResolved: t.boolean(),
  }),
  write: async (input, ctx) =>
    updateProject(ctx, await findProject(ctx, projectPathOf(input.fullPath)), {
      name: input.name,
      path: input.path,
      description: input.description,
      visibility: input.visibility,
      default_branch: input.defaultBranch,
      topics: input.topics,
      merge_method: input.mergeMethod,
      squash_option: input.squashOption,
      merge_commit_template: input.mergeCommitTemplate,
      squash_commit_template: input.squashCommitTemplate,
      only_allow_merge_if_all_discussions_are_resolved: input.onlyAllowMergeIfAllDiscussionsAreResolved,
    }),
  returns: project,
});

payloadMutation("projectDelete", {
  inputFields: (t) => ({ fullPath: t.id({ required: true }) }),
  write: async (input, ctx) => deleteProject(ctx, await findProject(ctx, projectPathOf(input.fullPath))),
});

payloadMutation("projectTransfer", {
  description: "Moves a project into another group or personal namespace.",
  inputFields: (t) => ({
    fullPath: t.id({ required: true, description: "The project to move (its Owners and administrators)." }),
    namespacePath: t.id({ required: true, description: "Full path of the group or personal namespace to move it into." }),
  }),
  write: async (input, ctx) => {
    const path = projectPathOf(input.fullPath);
    const namespace = namespacePathOf(input.namespacePath);
    return transferProject(ctx, await findProject(ctx, path), namespace);
  },
  returns: { field: "project", type: ProjectRef },
});
