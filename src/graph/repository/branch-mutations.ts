// Branch writes (branches.ts and protected-branches.ts rules, as REST POST and DELETE
// /projects/:id/repository/branches and /projects/:id/protected_branches): GitLab's createBranch,
// and branchDelete, protectedBranchCreate and protectedBranchDelete. There is no protected branch
// edit: Forgeline's REST has no PATCH for it (unprotect and protect again).
import { findRepositoryToPush } from "../../domain/repository/access.js";
import { checkBranchCreation, createBranch, deleteBranch, findBranchToDelete } from "../../domain/repository/branches.js";
import {
  checkBranchProtection, findProjectToProtectBranches, findProtectedBranchToUnprotect, protectBranch, unprotectBranch, type AccessEntryInput,
} from "../../domain/repository/protected-branches.js";
import { builder } from "../shared/builder.js";
import { matchingIdOf, projectPathOf, userIdOf } from "../shared/mutation-inputs.js";
import { payloadMutation } from "../shared/payload-mutation.js";
import { BranchRef, ProtectedBranchRef } from "./types.js";

payloadMutation("createBranch", {
  inputFields: (t) => ({
    projectPath: t.id({ required: true }),
    name: t.string({ required: true }),
    ref: t.string({ required: true, description: "Branch, tag or commit SHA to start from." }),
  }),
  write: async (input, ctx) => {
    const path = projectPathOf(input.projectPath);
    checkBranchCreation(ctx, input.name, input.ref);
    return createBranch(ctx, await findRepositoryToPush(ctx, path), input.name, input.ref);
  },
  returns: { field: "branch", type: BranchRef },
});

payloadMutation("branchDelete", {
  inputFields: (t) => ({ projectPath: t.id({ required: true }), name: t.string({ required: true }) }),
  write: async (input, ctx) => deleteBranch(ctx, await findBranchToDelete(ctx, projectPathOf(input.projectPath), input.name)),
});

const ProtectedBranchAccessInput = builder.inputType("ProtectedBranchAccessInput", {
  description: "One who may: a role (accessLevel), a user or a group (global ids).",
  fields: (t) => ({ accessLevel: t.int(), userId: t.id(), groupId: t.id() }),
});

type AccessInput = { accessLevel?: number | null; userId?: string | number | null; groupId?: string | number | null };

/** An id of another type or a malformed one matches nobody (the domain's rules then refuse it). */
const entriesOf = (list: readonly AccessInput[] | null | undefined): AccessEntryInput[] | null | undefined =>
  list?.map((entry) => ({
    access_level: entry.accessLevel,
    user_id: entry.userId == null ? null : userIdOf(entry.userId),
    group_id: entry.groupId == null ? null : matchingIdOf(entry.groupId, "Group"),
  }));

const LEVELS = "0 (no one), 30 (Developers and Maintainers), 40 (Maintainers, the default) or 60 (administrators).";

payloadMutation("protectedBranchCreate", {
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
  write: async (input, ctx) => {
    const path = projectPathOf(input.projectPath);
    const protection = {
      name: input.name,
      push_access_level: input.pushAccessLevel,
      merge_access_level: input.mergeAccessLevel,
      unprotect_access_level: input.unprotectAccessLevel,
      allow_force_push: input.allowForcePush,
      code_owner_approval_required: input.codeOwnerApprovalRequired,
      allowed_to_push: entriesOf(input.allowedToPush),
      allowed_to_merge: entriesOf(input.allowedToMerge),
      allowed_to_unprotect: entriesOf(input.allowedToUnprotect),
    };
    checkBranchProtection(ctx, protection);
    return protectBranch(ctx, await findProjectToProtectBranches(ctx, path), protection);
  },
  returns: { field: "protectedBranch", type: ProtectedBranchRef },
});

payloadMutation("protectedBranchDelete", {
  inputFields: (t) => ({ projectPath: t.id({ required: true }), name: t.string({ required: true, description: "The rule's name, as created." }) }),
  write: async (input, ctx) => unprotectBranch(ctx, await findProtectedBranchToUnprotect(ctx, projectPathOf(input.projectPath), input.name)),
});
