// Project merge requests. (Interface first: findMergeRequest is what notes, emoji, approvals and
// webhooks build on; the merge requests area fills in the rest.)
import type { MergeRequest } from "../../generated/prisma/client.js";
import { recordNotFound } from "../../errors.js";
import { findProject, type ProjectAccess } from "../access.js";
import type { DomainContext } from "../context.js";
import { featureAvailable } from "../project-features.js";

export interface MergeRequestAccess {
  mergeRequest: MergeRequest;
  access: ProjectAccess;
}

/** A merge request of a project the caller can see, by iid; one they may not read answers 404. */
export async function findMergeRequest(ctx: DomainContext, projectRef: string | number, iid: number): Promise<MergeRequestAccess> {
  const access = await findProject(ctx, projectRef);
  const mergeRequest = await ctx.db.mergeRequest.findUnique({ where: { projectId_iid: { projectId: access.project.id, iid } } });
  if (!mergeRequest || !canReadMergeRequests(ctx, access)) throw recordNotFound();
  return { mergeRequest, access };
}

export function canReadMergeRequests(ctx: DomainContext, access: ProjectAccess): boolean {
  return featureAvailable(ctx, access, "merge_requests");
}
