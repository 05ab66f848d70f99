// Protected branches API (lib/api/protected_branches.rb with EE's unprotect levels and
// allowed_to_* lists): read by whoever reads the code, managed by Maintainers.
import type { Prisma } from "../../generated/prisma/client.js";
import { AppError, conflict, forbidden, paramError, recordNotFound } from "../../errors.js";
import { findProject, type ProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { paginateList, type Page, type PageArgs } from "../shared/pagination.js";
import { assertUnmodifiedSince } from "../shared/preconditions.js";
import { canAdminProject, findProjectWithCode, requireReadCode } from "./access.js";
import { publish } from "../shared/events.js";
import {
  ACCESS_KINDS, ALLOWED_ACCESS_LEVELS, accessEntryAllows, projectProtections, type AccessKind, type ProtectedBranchWithLevels,
} from "./protection-rules.js";

export interface AccessEntryInput {
  access_level?: number | null;
  user_id?: number | null;
  group_id?: number | null;
}

export interface ProtectBranchInput {
  name: string;
  push_access_level?: number | null;
  merge_access_level?: number | null;
  unprotect_access_level?: number | null;
  allow_force_push?: boolean | null;
  code_owner_approval_required?: boolean | null;
  allowed_to_push?: AccessEntryInput[] | null;
  allowed_to_merge?: AccessEntryInput[] | null;
  allowed_to_unprotect?: AccessEntryInput[] | null;
}

const MAINTAINER_DEFAULT = 40;

export interface ProtectedBranchFilters {
  /** the rule's name contains this, in any case */
  search?: string | null;
}

/** GET /projects/:id/protected_branches. */
export async function listProtectedBranches(
  ctx: DomainContext, access: ProjectAccess, filters: ProtectedBranchFilters, page: PageArgs,
): Promise<Page<ProtectedBranchWithLevels>> {
  requireReadCode(ctx, access);
  const term = filters.search?.toLowerCase();
  const rules = (await projectProtections(ctx.db, access.project.id)).filter((rule) => !term || rule.name.toLowerCase().includes(term));
  return paginateList(rules, page);
}

/** A protection rule of a project, found with the access that let the caller find it. */
export interface FoundProtectedBranch {
  access: ProjectAccess;
  rule: ProtectedBranchWithLevels;
}

async function protectionOrFail(ctx: DomainContext, access: ProjectAccess, name: string): Promise<FoundProtectedBranch> {
  const rule = await ctx.db.protectedBranch.findUnique({
    where: { projectId_name: { projectId: access.project.id, name } },
    include: { accessLevels: { orderBy: { id: "asc" } } },
  });
  if (!rule) throw recordNotFound();
  return { access, rule };
}

/** GET /projects/:id/protected_branches/:name: for whoever reads the code. */
export async function findProtectedBranch(ctx: DomainContext, id: string, name: string): Promise<FoundProtectedBranch> {
  return protectionOrFail(ctx, await findProjectWithCode(ctx, id), name);
}

/**
 * DELETE /projects/:id/protected_branches/:name (destroy_protected_branch): signed in (401), the
 * project (404), the rule (404), then Maintainers, and when the rule names who may unprotect it,
 * one of those (403).
 */
export async function findProtectedBranchToUnprotect(ctx: DomainContext, id: string, name: string): Promise<FoundProtectedBranch> {
  requireAuthenticated(ctx);
  const found = await protectionOrFail(ctx, await findProject(ctx, id), name);
  if (!(await mayUnprotect(ctx, found.access, found.rule))) throw forbidden();
  return found;
}

/** Grape's `values:` checks of the levels, top-level and inside the allowed_to_* lists. */
function levelParamErrors(input: ProtectBranchInput): string[] {
  const errors: string[] = [];
  for (const kind of ACCESS_KINDS) {
    const allowed = ALLOWED_ACCESS_LEVELS[kind];
    const level = input[`${kind}_access_level`];
    if (level != null && !allowed.includes(level)) errors.push(`${kind}_access_level does not have a valid value`);
    (input[`allowed_to_${kind}`] ?? []).forEach((entry, i) => {
      if (entry.access_level != null && !allowed.includes(entry.access_level)) {
        errors.push(`allowed_to_${kind}[${i}][access_level] does not have a valid value`);
      }
    });
  }
  return errors;
}

type EntryData = { kind: AccessKind; accessLevel: number; userId: number | null; groupId: number | null };

/** ProtectedRefs::AccessLevelParams: the role level (40 unless a list is given) plus the list entries. */
function accessEntries(input: ProtectBranchInput): EntryData[] {
  return ACCESS_KINDS.flatMap((kind) => {
    const list = (input[`allowed_to_${kind}`] ?? []).filter((e) => e.access_level != null || e.user_id != null || e.group_id != null);
    const level = input[`${kind}_access_level`] ?? (list.length ? null : MAINTAINER_DEFAULT);
    const entries: EntryData[] = level == null ? [] : [{ kind, accessLevel: level, userId: null, groupId: null }];
    for (const entry of list) {
      const userId = entry.user_id ?? null;
      const groupId = userId == null ? (entry.group_id ?? null) : null;
      entries.push({ kind, accessLevel: userId ?? groupId ? MAINTAINER_DEFAULT : entry.access_level!, userId, groupId });
    }
    return entries;
  });
}

const KIND_LABEL: Record<AccessKind, string> = { push: "Push", merge: "Merge", unprotect: "Unprotect" };

/** The uniqueness validations of the access level models, as full messages. */
function duplicateEntryErrors(entries: EntryData[]): string[] {
  const seen = new Set<string>();
  const errors: string[] = [];
  for (const entry of entries) {
    const [field, value] = entry.userId != null ? ["user", entry.userId] : entry.groupId != null ? ["group", entry.groupId] : ["access level", entry.accessLevel];
    const key = `${entry.kind}/${field}/${value}`;
    if (seen.has(key)) errors.push(`${KIND_LABEL[entry.kind]} access levels ${field} has already been taken`);
    seen.add(key);
  }
  return [...new Set(errors)];
}

/** POST /projects/:id/protected_branches, before the project is looked up: signed in (401), then the levels (400). */
export function checkBranchProtection(ctx: DomainContext, input: ProtectBranchInput): void {
  requireAuthenticated(ctx);
  const problems = levelParamErrors(input);
  if (problems.length) throw paramError(problems.join(", "));
}

/** The project of a new protection rule: Maintainers (403). */
export async function findProjectToProtectBranches(ctx: DomainContext, id: string): Promise<ProjectAccess> {
  const access = await findProject(ctx, id);
  if (!canAdminProject(ctx, access)) throw forbidden();
  return access;
}

/** Creates a protection rule in a project found by findProjectToProtectBranches, after checkBranchProtection. */
export async function protectBranch(ctx: DomainContext, access: ProjectAccess, input: ProtectBranchInput): Promise<ProtectedBranchWithLevels> {
  const projectId = access.project.id;
  const { name } = input;
  if (await ctx.db.protectedBranch.findUnique({ where: { projectId_name: { projectId, name } }, select: { id: true } })) {
    throw conflict(`Protected branch '${name}' already exists`);
  }
  const entries = accessEntries(input);
  const errors = [...(name.trim() ? [] : ["Name can't be blank"]), ...duplicateEntryErrors(entries)];
  // render_api_error!(errors.full_messages, 422)
  if (errors.length) throw new AppError(422, { message: errors });
  const data: Prisma.ProtectedBranchCreateInput = {
    project: { connect: { id: projectId } },
    name,
    allowForcePush: input.allow_force_push ?? false,
    codeOwnerApprovalRequired: input.code_owner_approval_required ?? false,
    accessLevels: { create: entries },
  };
  try {
    return await ctx.db.$transaction(async (tx) => {
      const created = await tx.protectedBranch.create({ data, include: { accessLevels: { orderBy: { id: "asc" } } } });
      await publish(tx, ctx, "protected_branch", { action: "create", projectId, name, actorId: ctx.actor!.user.id });
      return created;
    });
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw conflict(`Protected branch '${name}' already exists`);
    throw error;
  }
}

/** Deletes a rule found by findProtectedBranchToUnprotect: a changed rule answers 412 to If-Unmodified-Since. */
export async function unprotectBranch(ctx: DomainContext, { rule }: FoundProtectedBranch, unmodifiedSince?: string | null): Promise<boolean> {
  assertUnmodifiedSince(rule.updatedAt, unmodifiedSince);
  await ctx.db.$transaction(async (tx) => {
    await tx.protectedBranch.delete({ where: { id: rule.id } });
    await publish(tx, ctx, "protected_branch", { action: "destroy", projectId: rule.projectId, name: rule.name, actorId: ctx.actor!.user.id });
  });
  return true;
}

async function mayUnprotect(ctx: DomainContext, access: ProjectAccess, rule: ProtectedBranchWithLevels): Promise<boolean> {
  if (!canAdminProject(ctx, access)) return false;
  const entries = rule.accessLevels.filter((entry) => entry.kind === "unprotect");
  if (!entries.length) return true;
  for (const entry of entries) if (await accessEntryAllows(ctx, access, entry)) return true;
  return false;
}
