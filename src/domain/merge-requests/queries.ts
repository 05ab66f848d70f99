// Project merge requests: who may read, open and change them (GitLab's ProjectPolicy and
// MergeRequestPolicy) and the lookups every MR endpoint starts from: one finder per way in,
// findMergeRequest (project and iid) and findMergeRequestById (a global id). Writes: writes.ts; lists:
// lists.ts; derived fields (draft, references, diff refs, commits): fields.ts.
import type { MergeRequest, MergeRequestAssignee, MergeRequestReviewer, Namespace, Project } from "../../generated/prisma/client.js";
import { mergeRequestByIid } from "../../db/hot-reads.js";
import { forbidden, recordNotFound } from "../../errors.js";
import { AccessLevel } from "../shared/access-levels.js";
import { findProject, type ProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { featureAvailable } from "../shared/project-features.js";
import { fitsIdColumn } from "../shared/record-ids.js";
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

/**
 * How the finder authorises, in GitLab's two ways in. `find` (MergeRequestsFinder): one the
 * caller may not read answers 404, as if missing. `read` and `update`
 * (find_merge_request_with_access): the record (404), then the ability (403); `update` comes with
 * the merge request's people and project (MergeRequestRowAccess). `write` (merge, rebase): a
 * signed-in caller (401 before the lookup), then as `find`; the verb checks its own ability.
 */
export type MergeRequestCheck = "find" | "read" | "update" | "write";

/** A merge request of a project the caller can see, by iid, authorised as `check` says (`find` unless said). */
export async function findMergeRequest(ctx: DomainContext, projectRef: string | number, iid: number, check?: "find" | "read" | "write"): Promise<MergeRequestAccess>;
export async function findMergeRequest(ctx: DomainContext, projectRef: string | number, iid: number, check: "update"): Promise<MergeRequestRowAccess>;
export async function findMergeRequest(ctx: DomainContext, projectRef: string | number, iid: number, check: MergeRequestCheck = "find"): Promise<MergeRequestAccess> {
  if (check === "write") requireAuthenticated(ctx);
  const access = await findProject(ctx, projectRef);
  return authorised(ctx, access, await mergeRequestByIid(ctx.db, access.project.id, iid), check);
}

/** A merge request by database id (a global id): the same answers as findMergeRequest for that merge request. */
export async function findMergeRequestById(ctx: DomainContext, id: number, check?: "find" | "read"): Promise<MergeRequestAccess>;
export async function findMergeRequestById(ctx: DomainContext, id: number, check: "update"): Promise<MergeRequestRowAccess>;
export async function findMergeRequestById(ctx: DomainContext, id: number, check: MergeRequestCheck = "find"): Promise<MergeRequestAccess> {
  const mergeRequest = fitsIdColumn(id) ? await ctx.db.mergeRequest.findUnique({ where: { id } }) : null;
  if (!mergeRequest) throw recordNotFound();
  return authorised(ctx, await findProject(ctx, mergeRequest.projectId), mergeRequest, check);
}

async function authorised(ctx: DomainContext, access: ProjectAccess, mergeRequest: MergeRequest | null, check: MergeRequestCheck): Promise<MergeRequestAccess> {
  if (!mergeRequest) throw recordNotFound();
  if (!canReadMergeRequests(ctx, access)) throw check === "find" || check === "write" ? recordNotFound() : forbidden();
  if (check !== "update") return { mergeRequest, access };
  const found = await withPeople(ctx, { mergeRequest, access });
  if (!canUpdateMergeRequest(ctx, access, found.mergeRequest)) throw forbidden();
  return found;
}

/** The merge request as the entities render it: with its assignees and reviewers, and its project. */
export async function withPeople(ctx: DomainContext, { mergeRequest, access }: MergeRequestAccess): Promise<MergeRequestRowAccess> {
  const where = { mergeRequestId: mergeRequest.id };
  const [assignees, reviewers] = await Promise.all([ctx.db.mergeRequestAssignee.findMany({ where }), ctx.db.mergeRequestReviewer.findMany({ where })]);
  return { mergeRequest: { ...mergeRequest, assignees, reviewers, project: access.project }, access };
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

/** MergeRequestAccess with the merge request as the entities render it (withPeople). */
export interface MergeRequestRowAccess extends MergeRequestAccess {
  mergeRequest: MergeRequestRow;
}

/** One merge request as its entity shows it: with its people, its merge_status checked first when it waits for a check. */
export const presentMergeRequest = async (ctx: DomainContext, found: MergeRequestAccess): Promise<MergeRequestRow> =>
  withCheckedMergeability(ctx, (await withPeople(ctx, found)).mergeRequest);

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
