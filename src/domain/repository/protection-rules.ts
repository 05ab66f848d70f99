// Protected branch rules: which rules match a branch (exact names and wildcards) and whether one
// access entry (a role, a user or a group) lets the caller push, merge or unprotect.
import type { Db } from "../../db/client.js";
import type { ProtectedBranch, ProtectedBranchAccessLevel } from "../../generated/prisma/client.js";
import { AccessLevel } from "../shared/access-levels.js";
import { groupAccessLevel } from "../shared/memberships.js";
import type { ProjectAccess } from "../shared/parents.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import type { Tx } from "../shared/events.js";
import { refMatches } from "./refs.js";

export type AccessKind = "push" | "merge" | "unprotect";
export const ACCESS_KINDS: readonly AccessKind[] = ["push", "merge", "unprotect"];

export type ProtectedBranchWithLevels = ProtectedBranch & { accessLevels: ProtectedBranchAccessLevel[] };

/** Gitlab::Access::NO_ACCESS and ADMIN as protected-ref access levels. */
export const NO_ONE = 0;
export const INSTANCE_ADMINS = 60;

/** ProtectedRefAccess.allowed_access_levels; "No one" cannot unprotect (nobody could undo it). */
export const ALLOWED_ACCESS_LEVELS: Record<AccessKind, readonly number[]> = {
  push: [AccessLevel.developer, AccessLevel.maintainer, INSTANCE_ADMINS, NO_ONE],
  merge: [AccessLevel.developer, AccessLevel.maintainer, INSTANCE_ADMINS, NO_ONE],
  unprotect: [AccessLevel.developer, AccessLevel.maintainer, INSTANCE_ADMINS],
};

const ROLE_DESCRIPTIONS: Record<number, string> = {
  [AccessLevel.developer]: "Developers + Maintainers",
  [AccessLevel.maintainer]: "Maintainers",
  [INSTANCE_ADMINS]: "Instance admins",
  [NO_ONE]: "No one",
};

export const roleDescription = (level: number | null) => (level == null ? null : (ROLE_DESCRIPTIONS[level] ?? null));

/** Every protection of the project whose name or wildcard matches the branch, oldest first. */
export async function protectedBranchesMatching(db: Db | Tx, projectId: number, branchName: string): Promise<ProtectedBranchWithLevels[]> {
  const rules = await projectProtections(db, projectId);
  return rules.filter((rule) => refMatches(rule.name, branchName));
}

export function projectProtections(db: Db | Tx, projectId: number): Promise<ProtectedBranchWithLevels[]> {
  return db.protectedBranch.findMany({ where: { projectId }, include: { accessLevels: { orderBy: { id: "asc" } } }, orderBy: { id: "asc" } });
}

/** ProtectedBranch.developers_can?: some matching rule lets Developers do it. */
export function developersCan(kind: AccessKind, matching: ProtectedBranchWithLevels[]): boolean {
  return matching.some((rule) =>
    rule.accessLevels.some((entry) => entry.kind === kind && entry.userId == null && entry.groupId == null && entry.accessLevel === AccessLevel.developer),
  );
}

/** ProtectedRefAccess#check_access for one entry. */
export async function accessEntryAllows(ctx: DomainContext, access: ProjectAccess, entry: ProtectedBranchAccessLevel): Promise<boolean> {
  const user = ctx.actor?.user;
  if (!user) return false;
  if (entry.userId != null) return entry.userId === user.id && access.level >= AccessLevel.guest;
  if (entry.groupId != null) return isGroupMember(ctx, entry.groupId);
  if (entry.accessLevel === NO_ONE || entry.accessLevel == null) return false;
  // administrators pass every role but "No one" (GitLab's long-standing admin bypass)
  if (isAdmin(ctx.actor)) return true;
  return entry.accessLevel !== INSTANCE_ADMINS && access.level >= entry.accessLevel;
}

/** Member of the group, directly or through one of its ancestors (memberships past their expiry do not count). */
async function isGroupMember(ctx: DomainContext, groupId: number): Promise<boolean> {
  const group = await ctx.db.namespace.findUnique({ where: { id: groupId } });
  return !!group && (await groupAccessLevel(ctx, group)) > 0;
}
