// What GitLab's Namespace entity shows beyond the columns: the counts a group's Owners and the
// administrators (`admin_group`) see.
import type { Namespace } from "../../generated/prisma/client.js";
import { AccessLevel } from "../shared/access-levels.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { groupAccessLevel } from "../shared/memberships.js";
import { groupCountsLoader, type GroupCounts } from "./loaders.js";

/**
 * `members_count_with_descendants` and `projects_count` of a group, for its Owners (also through
 * an ancestor) and administrators; null for anyone else and for personal namespaces.
 */
export async function ownerCountsOf(ctx: DomainContext, namespace: Namespace): Promise<GroupCounts | null> {
  if (namespace.kind !== "group") return null;
  if (!isAdmin(ctx.actor) && (await groupAccessLevel(ctx, namespace)) < AccessLevel.owner) return null;
  return ctx.loaders.get(groupCountsLoader).load(namespace.id);
}
