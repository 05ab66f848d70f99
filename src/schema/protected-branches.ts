// Protected branches: GitLab's ProtectedBranch entity (EE fields included) with its access level
// entries (ProtectedRefAccess), and the protected_branches root fields.
import type { Context } from "../context.js";
import type { ProtectedBranchAccessLevel } from "../generated/prisma/client.js";
import {
  checkBranchProtection, findProjectToProtectBranches, findProtectedBranch, findProtectedBranchToUnprotect, listProtectedBranches,
  protectBranch, unprotectBranch,
} from "../domain/repository/protected-branches.js";
import { roleDescription, type AccessKind, type ProtectedBranchWithLevels } from "../domain/repository/protection-rules.js";
import { findProject } from "../domain/shared/parents.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf } from "./pagination.js";
import { namespaceLoader, userLoader } from "../domain/shared/loaders.js";
import * as route from "../rest/route.js";

/** access_level_description: the role's words, or the name of the user or group. */
async function describe(entry: ProtectedBranchAccessLevel, ctx: Context): Promise<string | null> {
  if (entry.userId != null) return (await ctx.loaders.get(userLoader).load(entry.userId))?.name ?? null;
  if (entry.groupId != null) return (await ctx.loaders.get(namespaceLoader).load(entry.groupId))?.name ?? null;
  return roleDescription(entry.accessLevel);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const accessFields = (t: PothosSchemaTypes.ObjectFieldBuilder<any, ProtectedBranchAccessLevel>) => ({
  id: t.exposeInt("id"),
  access_level: t.exposeInt("accessLevel", { nullable: true }),
  access_level_description: t.string({ nullable: true, resolve: (entry: ProtectedBranchAccessLevel, _a: unknown, ctx: Context) => describe(entry, ctx) }),
  user_id: t.exposeInt("userId", { nullable: true }),
  group_id: t.exposeInt("groupId", { nullable: true }),
});

/** Merge and unprotect levels. */
export const ProtectedRefAccess = builder.objectRef<ProtectedBranchAccessLevel>("ProtectedRefAccess").implement({
  fields: (t) => accessFields(t),
});

/** Push levels also carry deploy_key_id (only push access levels have that column in GitLab). */
export const ProtectedPushAccess = builder.objectRef<ProtectedBranchAccessLevel>("ProtectedPushAccess").implement({
  fields: (t) => ({ ...accessFields(t), deploy_key_id: t.int({ nullable: true, resolve: () => null }) }),
});

const levelsOf = (kind: AccessKind) => (rule: ProtectedBranchWithLevels) => rule.accessLevels.filter((entry) => entry.kind === kind);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type BranchFields = PothosSchemaTypes.ObjectFieldBuilder<any, ProtectedBranchWithLevels>;

/** ProtectedBranch's fields, in GitLab's order (project approval rules embed them with one change). */
export const protectedBranchFields = (t: BranchFields) => ({
  id: t.exposeInt("id"),
  name: t.exposeString("name"),
  push_access_levels: t.field({ type: [ProtectedPushAccess], resolve: levelsOf("push") }),
  merge_access_levels: t.field({ type: [ProtectedRefAccess], resolve: levelsOf("merge") }),
  allow_force_push: t.exposeBoolean("allowForcePush"),
  unprotect_access_levels: t.field({ type: [ProtectedRefAccess], resolve: levelsOf("unprotect") }),
  code_owner_approval_required: t.exposeBoolean("codeOwnerApprovalRequired"),
  inherited: t.boolean({ resolve: () => false }),
});

export const ProtectedBranchEntity = builder.objectRef<ProtectedBranchWithLevels>("ProtectedBranch").implement({
  fields: (t) => protectedBranchFields(t),
});

const AccessEntryInput = builder.inputType("ProtectedRefAccessInput", {
  fields: (t) => ({
    access_level: t.int({ required: false }),
    user_id: t.int({ required: false }),
    group_id: t.int({ required: false }),
  }),
});

builder.queryFields((t) => ({
  projectProtectedBranches: t.field({
    extensions: { rest: route.get("/projects/:id/protected_branches") },
    type: [ProtectedBranchEntity],
    args: { id: t.arg.id({ required: true }), search: t.arg.string({ required: false }), ...pageArgs },
    resolve: async (_r, { id, page, per_page, ...filters }, ctx) =>
      rowsOf(ctx, await listProtectedBranches(ctx, await findProject(ctx, String(id)), filters, { page, per_page })),
  }),
  projectProtectedBranch: t.field({
    extensions: { rest: route.get("/projects/:id/protected_branches/:name") },
    type: ProtectedBranchEntity,
    args: { id: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => (await findProtectedBranch(ctx, String(args.id), args.name)).rule,
  }),
}));

builder.mutationFields((t) => ({
  protectBranch: t.field({
    type: ProtectedBranchEntity,
    extensions: { rest: route.post("/projects/:id/protected_branches"), access: "authenticated" },
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      push_access_level: t.arg.int({ required: false }),
      merge_access_level: t.arg.int({ required: false }),
      unprotect_access_level: t.arg.int({ required: false }),
      allow_force_push: t.arg.boolean({ required: false }),
      code_owner_approval_required: t.arg.boolean({ required: false }),
      allowed_to_push: t.arg({ type: [AccessEntryInput], required: false }),
      allowed_to_merge: t.arg({ type: [AccessEntryInput], required: false }),
      allowed_to_unprotect: t.arg({ type: [AccessEntryInput], required: false }),
    },
    resolve: async (_r, { id, ...input }, ctx) => {
      checkBranchProtection(ctx, input);
      return protectBranch(ctx, await findProjectToProtectBranches(ctx, String(id)), input);
    },
  }),
  unprotectBranch: t.boolean({
    extensions: { rest: route.del("/projects/:id/protected_branches/:name"), access: "authenticated" },
    args: { id: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) =>
      unprotectBranch(ctx, await findProtectedBranchToUnprotect(ctx, String(args.id), args.name), ctx.request.headers.get("if-unmodified-since")),
  }),
}));
