// Who may read and write a project's repository: the repository feature, GitLab's read_code and
// push_code abilities, and the push / merge / delete rules of protected branches.
import { forbidden, notFound } from "../../errors.js";
import { AccessLevel } from "../shared/access-levels.js";
import { findProject, type ProjectAccess } from "../shared/parents.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { featureAccessLevel, featureAvailable } from "../shared/project-features.js";
import type { AccessKind, ProtectedBranchWithLevels } from "./protection-rules.js";
import { accessEntryAllows, protectedBranchesMatching } from "./protection-rules.js";

/**
 * `require_repository_enabled!` (404 Repository when the feature is off or members-only for this
 * caller), then read_code (403: a guest of a private project).
 */
export function requireRepositoryEnabled(ctx: DomainContext, access: ProjectAccess): void {
  if (!featureAvailable(ctx, access, "repository")) {
    throw featureAccessLevel(access.project, "repository") === "enabled" ? forbidden() : notFound("Repository");
  }
}

/** The project of a repository route: found, then requireRepositoryEnabled. */
export async function findRepositoryProject(ctx: DomainContext, id: string | number): Promise<ProjectAccess> {
  const access = await findProject(ctx, id);
  requireRepositoryEnabled(ctx, access);
  return access;
}

/** The project of a repository write: findRepositoryProject, then push_code (403). */
export async function findRepositoryToPush(ctx: DomainContext, id: string | number): Promise<ProjectAccess> {
  const access = await findRepositoryProject(ctx, id);
  requirePushCode(ctx, access);
  return access;
}

/** `authorize_read_code!` alone (protected branches API): 403 whatever the reason. */
export function requireReadCode(ctx: DomainContext, access: ProjectAccess): void {
  if (!featureAvailable(ctx, access, "repository")) throw forbidden();
}

/** The project of a protected branches route: found, then requireReadCode. */
export async function findProjectWithCode(ctx: DomainContext, id: string | number): Promise<ProjectAccess> {
  const access = await findProject(ctx, id);
  requireReadCode(ctx, access);
  return access;
}

/** The project of a files API write: findProjectWithCode, then push_code (403). */
export async function findProjectWithCodeToPush(ctx: DomainContext, id: string | number): Promise<ProjectAccess> {
  const access = await findProjectWithCode(ctx, id);
  requirePushCode(ctx, access);
  return access;
}

/** push_code: Developers and up (admins too) of a project that is not archived. */
export function canPushCode(ctx: DomainContext, access: ProjectAccess): boolean {
  if (!ctx.actor || access.project.archived) return false;
  return isAdmin(ctx.actor) || access.level >= AccessLevel.developer;
}

export function requirePushCode(ctx: DomainContext, access: ProjectAccess): void {
  if (!canPushCode(ctx, access)) throw forbidden();
}

/** admin_project (and the protected-branch abilities built on it): Maintainers and up. */
export function canAdminProject(ctx: DomainContext, access: ProjectAccess): boolean {
  return isAdmin(ctx.actor) || access.level >= AccessLevel.maintainer;
}

/**
 * The protected-branch half of Gitlab::UserAccess: with no protection matching, push_code decides;
 * otherwise any matching rule's access entries of that kind may let the caller through.
 */
async function protectedAccess(
  ctx: DomainContext,
  access: ProjectAccess,
  branch: string,
  kind: AccessKind,
  matching?: ProtectedBranchWithLevels[],
): Promise<boolean> {
  if (!canPushCode(ctx, access)) return false;
  const rules = matching ?? (await protectedBranchesMatching(ctx.db, access.project.id, branch));
  if (!rules.length) return true;
  const entries = rules.flatMap((rule) => rule.accessLevels.filter((entry) => entry.kind === kind));
  for (const entry of entries) if (await accessEntryAllows(ctx, access, entry)) return true;
  return false;
}

/** can_push_to_branch? */
export const canPushToBranch = (ctx: DomainContext, access: ProjectAccess, branch: string, matching?: ProtectedBranchWithLevels[]) =>
  protectedAccess(ctx, access, branch, "push", matching);

/** can_merge_to_branch? */
export const canMergeToBranch = (ctx: DomainContext, access: ProjectAccess, branch: string, matching?: ProtectedBranchWithLevels[]) =>
  protectedAccess(ctx, access, branch, "merge", matching);

/** can_delete_branch?: a protected branch needs a Maintainer (push_to_delete_protected_branch). */
export async function canDeleteBranch(ctx: DomainContext, access: ProjectAccess, branch: string): Promise<boolean> {
  const rules = await protectedBranchesMatching(ctx.db, access.project.id, branch);
  if (!rules.length) return canPushToBranch(ctx, access, branch, rules);
  return canPushCode(ctx, access) && canAdminProject(ctx, access);
}
