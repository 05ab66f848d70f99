// Project merge requests: who may read, open and change them (GitLab's ProjectPolicy and
// MergeRequestPolicy) and the lookups every MR endpoint starts from. Writes: writes.ts; lists:
// lists.ts; derived fields (draft, references, diff refs, commits): fields.ts.
import type { MergeRequest, MergeRequestAssignee, MergeRequestReviewer, Namespace, Project } from "../../generated/prisma/client.js";
import { mergeRequestByIid } from "../../db/hot-reads.js";
import { forbidden, recordNotFound } from "../../errors.js";
import { AccessLevel } from "../shared/access-levels.js";
import { findProject, type ProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { featureAvailable } from "../shared/project-features.js";
import { withCheckedMergeability } from "./mergeability.js";

export interface MergeRequestAccess {
  mergeRequest: MergeRequest;
  access: ProjectAccess;
}

export type MergeRequestWithPeople = MergeRequest & { assignees: MergeRequestAssignee[]; reviewers: MergeRequestReviewer[] };

/**
 * What the entities render: the merge request with its people and its project (for paths and
 * URLs), and on the rows of a group's list that group (references are relative to it).
 */
export type MergeRequestRow = MergeRequestWithPeople & { project: Project & { namespace: Namespace }; listedInGroupId?: number };

/** Relations every entity needs, loaded with the merge request. */
export const ROW_INCLUDE = { assignees: true, reviewers: true, project: { include: { namespace: true } } } as const;

/** A merge request of a project the caller can see, by iid; one they may not read answers 404. */
export async function findMergeRequest(ctx: DomainContext, projectRef: string | number, iid: number): Promise<MergeRequestAccess> {
  const access = await findProject(ctx, projectRef);
  const mergeRequest = await mergeRequestByIid(ctx.db, access.project.id, iid);
  if (!mergeRequest || !canReadMergeRequests(ctx, access)) throw recordNotFound();
  return { mergeRequest, access };
}

/** `find_merge_request_with_access` for reading, without the people: 404 first, then 403 (GitLab's order). */
export async function findReadableMergeRequest(ctx: DomainContext, projectRef: string | number, iid: number): Promise<MergeRequestAccess> {
  const access = await findProject(ctx, projectRef);
  const mergeRequest = await mergeRequestByIid(ctx.db, access.project.id, iid);
  if (!mergeRequest) throw recordNotFound();
  if (!canReadMergeRequests(ctx, access)) throw forbidden();
  return { mergeRequest, access };
}

export function canReadMergeRequests(ctx: DomainContext, access: ProjectAccess): boolean {
  return featureAvailable(ctx, access, "merge_requests");
}

/**
 * GitLab's `authorize! :read_merge_request, user_project`: the project is visible (else 404
 * Project), but without the merge requests feature the caller gets 403, as the MR API answers.
 */
export function requireReadMergeRequests(ctx: DomainContext, access: ProjectAccess): void {
  if (!canReadMergeRequests(ctx, access)) throw forbidden();
}

/** MergeRequestAccess with the merge request as the entities render it (findMergeRequestWithAccess). */
export interface MergeRequestRowAccess extends MergeRequestAccess {
  mergeRequest: MergeRequestRow;
}

/**
 * `find_merge_request_with_access`: the record by iid (404 "Not found"), then the ability on it
 * (403), exactly in GitLab's order.
 */
export async function findMergeRequestWithAccess(
  ctx: DomainContext,
  projectRef: string | number,
  iid: number,
  ability: "read" | "update" = "read",
): Promise<MergeRequestRowAccess> {
  const access = await findProject(ctx, projectRef);
  const found = await ctx.db.mergeRequest.findUnique({
    where: { projectId_iid: { projectId: access.project.id, iid } },
    include: { assignees: true, reviewers: true },
  });
  if (!found) throw recordNotFound();
  const allowed = ability === "read" ? canReadMergeRequests(ctx, access) : canUpdateMergeRequest(ctx, access, found);
  if (!allowed) throw forbidden();
  return { mergeRequest: { ...found, project: access.project }, access };
}

/** One merge request as its entity shows it, its merge_status checked first when it waits for a check. */
export const getMergeRequest = (ctx: DomainContext, projectRef: string | number, iid: number) =>
  findMergeRequestWithAccess(ctx, projectRef, iid).then((found) => withCheckedMergeability(ctx, found.mergeRequest));

/**
 * `create_merge_request_from`: Developers and up, with the feature enabled (admins always); an
 * archived project takes no new merge requests (GitLab's archived abilities), as for issues.
 */
export function requireCreateMergeRequest(ctx: DomainContext, access: ProjectAccess): void {
  requireAuthenticated(ctx);
  if (access.project.archived || !canReadMergeRequests(ctx, access) || !hasDeveloperAccess(ctx, access)) throw forbidden();
}

/** `update_merge_request`: Developers and up, or the author or an assignee who can read it; never in an archived project. */
export function canUpdateMergeRequest(ctx: DomainContext, access: ProjectAccess, mergeRequest: MergeRequestWithPeople): boolean {
  if (access.project.archived || !canReadMergeRequests(ctx, access)) return false;
  if (hasDeveloperAccess(ctx, access)) return true;
  const userId = ctx.actor?.user.id;
  return userId != null && (mergeRequest.authorId === userId || mergeRequest.assignees.some((a) => a.userId === userId));
}

/**
 * `set_merge_request_metadata` (= admin_merge_request, Developers and up): without it GitLab
 * silently drops assignees, reviewers, labels and milestone from the params.
 */
export function canSetMetadata(ctx: DomainContext, access: ProjectAccess): boolean {
  return hasDeveloperAccess(ctx, access);
}

function hasDeveloperAccess(ctx: DomainContext, access: ProjectAccess): boolean {
  return isAdmin(ctx.actor) || (!!ctx.actor && access.level >= AccessLevel.developer);
}
