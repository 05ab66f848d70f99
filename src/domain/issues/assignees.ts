// Who may be assigned to an issue: GitLab keeps only the requested users who can read the
// project's issues (`filter_assignees`) and silently drops the rest.
import type { ProjectAccess } from "../shared/parents.js";
import type { DomainContext } from "../shared/context.js";
import { featureUsers } from "../shared/project-features.js";

/** GitLab's "None" for assignee ids: `[0]` unassigns everybody. */
const UNASSIGN = 0;

/**
 * The assignee ids to store, or undefined when the request changes nothing: `[0]` and `[]`
 * clear the assignees; otherwise the readers among the requested users, and when none of
 * them qualifies the param is dropped (the assignees stay as they are).
 */
export async function assigneesToStore(ctx: DomainContext, access: ProjectAccess, requested: number[] | undefined): Promise<number[] | undefined> {
  if (requested === undefined) return undefined;
  if (requested.length === 0 || (requested.length === 1 && requested[0] === UNASSIGN)) return [];
  const readers = await featureUsers(ctx, access, "issues", [...new Set(requested)]);
  const kept = requested.filter((id, index) => readers.has(id) && requested.indexOf(id) === index);
  return kept.length ? kept : undefined;
}
