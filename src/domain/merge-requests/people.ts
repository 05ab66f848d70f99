// Assignees and reviewers: GitLab keeps only the users who may read the merge request
// (IssuableBaseService filters the ids it is given; unknown ids and 0 fall away silently).
import type { ProjectAccess } from "../shared/parents.js";
import type { DomainContext } from "../shared/context.js";
import { featureUsers } from "../shared/project-features.js";

/** The given user ids (in the caller's order, once each) of users who can read the project's merge requests. */
export async function mergeRequestReaders(ctx: DomainContext, access: ProjectAccess, userIds: number[]): Promise<number[]> {
  const wanted = [...new Set(userIds.filter((id) => id > 0))];
  if (!wanted.length) return [];
  const readers = await featureUsers(ctx, access, "merge_requests", wanted);
  return wanted.filter((id) => readers.has(id));
}
