// Branch writes (branches.ts and protected-branches.ts rules, as REST POST and DELETE
// /projects/:id/repository/branches and /projects/:id/protected_branches): GitLab's createBranch,
// and branchDelete, protectedBranchCreate and protectedBranchDelete. There is no protected branch
// edit: Forgeline's REST has no PATCH for it (unprotect and protect again).
import { createBranch, deleteBranch } from "../domain/repository/branches.js";
import { protectBranch, unprotectBranch, type AccessEntryInput } from "../domain/repository/protected-branches.js";
import { builder } from "./builder.js";
import { payload } from "./errors.js";
import { idOfGid } from "./ids.js";
import { projectPathOf } from "./mutation-inputs.js";
import { BranchRef, ProtectedBranchRef } from "./repository.js";

builder.relayMutationField(
  "createBranch",
  {
    inputFields: (t) => ({
      projectPath: t.id({ required: true }),
      name: t.string({ required: true }),
      ref: t.string({ required: true, description: "Branch, tag or commit SHA to start from." }),
    }),
  },
  { resolve: (_root, { input }, ctx) => payload(ctx, "branch", () => createBranch(ctx, projectPathOf(input.projectPath), input.name, input.ref)) },
  {
    outputFields: (t) => ({
      branch: t.field({ type: BranchRef, nullable: true, resolve: (result) => result.branch }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);

builder.relayMutationField(
  "branchDelete",
  { inputFields: (t) => ({ projectPath: t.id({ required: true }), name: t.string({ required: true }) }) },
  { resolve: (_root, { input }, ctx) => payload(ctx, "deleted", () => deleteBranch(ctx, projectPathOf(input.projectPath), input.name)) },
  { outputFields: (t) => ({ errors: t.stringList({ resolve: (result) => result.errors }) }) },
);

const ProtectedBranchAccessInput = builder.inputType("ProtectedBranchAccessInput", {
  description: "One who may: a role (accessLevel), a user or a group (global ids).",
  fields: (t) => ({ accessLevel: t.int(), userId: t.id(), groupId: t.id() }),
});

type AccessInput = { accessLevel?: number | null; userId?: string | number | null; groupId?: string | number | null };

/** An id of another type or a malformed one matches nobody (the domain's rules then refuse it). */
const entriesOf = (list: readonly AccessInput[] | null | undefined): AccessEntryInput[] | null | undefined =>
  list?.map((entry) => ({
    access_level: entry.accessLevel,
    user_id: entry.userId == null ? null : (idOfGid(String(entry.userId), "User") ?? -1),
    group_id: entry.groupId == null ? null : (idOfGid(String(entry.groupId), "Group") ?? -1),
  }));

const LEVELS = "0 (no one), 30 (Developers and Maintainers), 40 (Maintainers, the default) or 60 (administrators).";

builder.relayMutationField(
  "protectedBranchCreate",
  {
    inputFields: (t) => ({
      projectPath: t.id({ required: true }),
      name: t.string({ required: true, description: "A branch name or a wildcard (release/*)." }),
      pushAccessLevel: t.int({ description: LEVELS }),
      mergeAccessLevel: t.int({ description: LEVELS }),
      unprotectAccessLevel: t.int({ description: LEVELS }),
      allowForcePush: t.boolean(),
      codeOwnerApprovalRequired: t.boolean(),
      allowedToPush: t.field({ type: [ProtectedBranchAccessInput] }),
      allowedToMerge: t.field({ type: [ProtectedBranchAccessInput] }),
      allowedToUnprotect: t.field({ type: [ProtectedBranchAccessInput] }),
    }),
  },
  {
    resolve: (_root, { input }, ctx) =>
      payload(ctx, "protectedBranch", () =>
        protectBranch(ctx, projectPathOf(input.projectPath), {
          name: input.name,
          push_access_level: input.pushAccessLevel,
          merge_access_level: input.mergeAccessLevel,
          unprotect_access_level: input.unprotectAccessLevel,
          allow_force_push: input.allowForcePush,
          code_owner_approval_required: input.codeOwnerApprovalRequired,
          allowed_to_push: entriesOf(input.allowedToPush),
          allowed_to_merge: entriesOf(input.allowedToMerge),
          allowed_to_unprotect: entriesOf(input.allowedToUnprotect),
        })),
  },
  {
    outputFields: (t) => ({
      protectedBranch: t.field({ type: ProtectedBranchRef, nullable: true, resolve: (result) => result.protectedBranch }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);

builder.relayMutationField(
  "protectedBranchDelete",
  { inputFields: (t) => ({ projectPath: t.id({ required: true }), name: t.string({ required: true, description: "The rule's name, as created." }) }) },
  { resolve: (_root, { input }, ctx) => payload(ctx, "deleted", () => unprotectBranch(ctx, projectPathOf(input.projectPath), input.name)) },
  { outputFields: (t) => ({ errors: t.stringList({ resolve: (result) => result.errors }) }) },
);
