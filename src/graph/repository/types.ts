// Branches and protected branches on Project, read through the domain's branch and protected
// branch lists (the REST routes' functions): null for callers who may not read the code.
import type { Context } from "../../context.js";
import type { ProtectedBranchAccessLevel } from "../../generated/prisma/client.js";
import { listBranches, type BranchView } from "../../domain/repository/branches.js";
import { listProtectedBranches } from "../../domain/repository/protected-branches.js";
import { roleDescription, type AccessKind, type ProtectedBranchWithLevels } from "../../domain/repository/protection-rules.js";
import { branchWebUrl } from "../../domain/repository/urls.js";
import { builder } from "../shared/builder.js";
import { CommitRef } from "./commits.js";
import { countedConnection } from "../shared/connection-types.js";
import { offsetConnection } from "../shared/connections.js";
import { orNull } from "../shared/errors.js";
import { ProjectRef } from "../projects/types.js";
import { UserRef } from "../users/types.js";
import { shownProjectAccess } from "../../domain/shared/parents.js";
import { namespaceLoader, userLoader } from "../../domain/shared/loaders.js";

export const BranchRef = builder.objectRef<BranchView>("Branch");

builder.objectType(BranchRef, {
  description: "A branch of the project's repository, as the caller sees it.",
  fields: (t) => ({
    name: t.string({ resolve: (view) => view.branch.name }),
    default: t.boolean({ resolve: (view) => view.isDefault }),
    protected: t.boolean({ resolve: (view) => view.protected }),
    merged: t.boolean({ description: "Merged into the default branch.", resolve: (view) => view.merged }),
    developersCanPush: t.boolean({ resolve: (view) => view.developersCanPush }),
    developersCanMerge: t.boolean({ resolve: (view) => view.developersCanMerge }),
    canPush: t.boolean({ description: "Whether the caller may push to it.", resolve: (view) => view.canPush }),
    webUrl: t.string({ resolve: (view, _a, ctx) => branchWebUrl(ctx, view.branch.projectId, view.branch.name) }),
    commit: t.field({ type: CommitRef, description: "The branch's head.", resolve: (view) => view.commit }),
  }),
});

/** GitLab's PushAccessLevel / MergeAccessLevel: a role, or one user or group (named in the description). */
function accessLevelType(name: string) {
  const ref = builder.objectRef<ProtectedBranchAccessLevel>(name);
  builder.objectType(ref, {
    fields: (t) => ({
      accessLevel: t.int({ nullable: true, resolve: (entry) => entry.accessLevel }),
      accessLevelDescription: t.string({ nullable: true, resolve: (entry, _a, ctx) => describeAccess(ctx, entry) }),
      user: t.field({ type: UserRef, nullable: true, resolve: (entry, _a, ctx) => (entry.userId == null ? null : ctx.loaders.get(userLoader).load(entry.userId)) }),
    }),
  });
  return ref;
}

/** As REST's access_level_description: the role's words, or the user's or group's name. */
async function describeAccess(ctx: Context, entry: ProtectedBranchAccessLevel): Promise<string | null> {
  if (entry.userId != null) return (await ctx.loaders.get(userLoader).load(entry.userId))?.name ?? null;
  if (entry.groupId != null) return (await ctx.loaders.get(namespaceLoader).load(entry.groupId))?.name ?? null;
  return roleDescription(entry.accessLevel);
}

const PushAccessLevelRef = accessLevelType("PushAccessLevel");
const MergeAccessLevelRef = accessLevelType("MergeAccessLevel");
const UnprotectAccessLevelRef = accessLevelType("UnprotectAccessLevel");

const levelsOf = (kind: AccessKind) => (rule: ProtectedBranchWithLevels) => rule.accessLevels.filter((entry) => entry.kind === kind);

export const ProtectedBranchRef = builder.objectRef<ProtectedBranchWithLevels>("ProtectedBranch");

builder.objectType(ProtectedBranchRef, {
  description: "A protected branch rule (the name may be a wildcard).",
  fields: (t) => ({
    id: t.id({ resolve: (rule) => `gid://forgeline/ProtectedBranch/${rule.id}` }),
    name: t.exposeString("name"),
    allowForcePush: t.exposeBoolean("allowForcePush"),
    codeOwnerApprovalRequired: t.exposeBoolean("codeOwnerApprovalRequired"),
    pushAccessLevels: t.field({ type: [PushAccessLevelRef], resolve: levelsOf("push") }),
    mergeAccessLevels: t.field({ type: [MergeAccessLevelRef], resolve: levelsOf("merge") }),
    unprotectAccessLevels: t.field({ type: [UnprotectAccessLevelRef], resolve: levelsOf("unprotect") }),
  }),
});

const BranchConnection = countedConnection(BranchRef, "Branch");
const ProtectedBranchConnection = countedConnection(ProtectedBranchRef, "ProtectedBranch");

builder.objectFields(ProjectRef, (t) => ({
  branches: t.connection(
    {
      type: BranchRef,
      nullable: true,
      description: "Branches by name; null when the caller may not read the repository.",
      args: { search: t.arg.string({ description: "Name contains this (^term: starts with, term$: ends with)." }) },
      resolve: async (project, args, ctx) => {
        const access = await shownProjectAccess(ctx, project);
        return orNull(() => offsetConnection(args, (page) => listBranches(ctx, access, { search: args.search }, page)));
      },
    },
    BranchConnection,
  ),
  protectedBranches: t.connection(
    {
      type: ProtectedBranchRef,
      nullable: true,
      description: "Protected branch rules; null when the caller may not read the repository.",
      args: { search: t.arg.string({ description: "Name contains this." }) },
      resolve: async (project, args, ctx) => {
        const access = await shownProjectAccess(ctx, project);
        return orNull(() => offsetConnection(args, (page) => listProtectedBranches(ctx, access, { search: args.search }, page)));
      },
    },
    ProtectedBranchConnection,
  ),
}));
