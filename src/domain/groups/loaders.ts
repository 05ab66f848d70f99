// Batch loads for the per-request loaders (shared/loaders.ts): the counts GitLab's Namespace
// entity shows a group's Owners, for a page of groups in one statement.
import DataLoader from "dataloader";
import { Prisma } from "../../generated/prisma/client.js";
import type { Db } from "../../db/client.js";
import { AccessLevel } from "../shared/access-levels.js";
import type { LoaderFactory } from "../shared/loaders.js";

export interface GroupCounts {
  /** distinct active users holding a membership (Guest and up, unexpired) in the group or any group below it */
  members: number;
  /** projects in the group and every group below it */
  projects: number;
}

/**
 * Each group's counts over its whole hierarchy (traversal ids starting with its own): GitLab's
 * `users_with_descendants.count` (members of the group and its descendants, active users,
 * neither access requests nor Minimal Access) and `all_projects.count`.
 */
export async function batchGroupCounts(db: Db, now: Date, ids: readonly number[]): Promise<GroupCounts[]> {
  const rows = await db.$queryRaw<{ id: number; members: bigint | number; projects: bigint | number }[]>`
    SELECT "root"."id" AS "id",
      (SELECT COUNT(DISTINCT "m"."userId") FROM "GroupMember" AS "m"
        JOIN "Namespace" AS "d" ON "d"."id" = "m"."groupId"
        JOIN "User" AS "u" ON "u"."id" = "m"."userId"
        WHERE "d"."traversalIds" LIKE "root"."traversalIds" || '%' AND "m"."accessLevel" > ${AccessLevel.minimal}
          AND "u"."state" = 'active' AND ("m"."expiresAt" IS NULL OR "m"."expiresAt" > ${now})) AS "members",
      (SELECT COUNT(*) FROM "Project" AS "p"
        JOIN "Namespace" AS "d" ON "d"."id" = "p"."namespaceId"
        WHERE "d"."traversalIds" LIKE "root"."traversalIds" || '%') AS "projects"
    FROM "Namespace" AS "root" WHERE "root"."id" IN (${Prisma.join(ids)})`;
  const byId = new Map(rows.map((row) => [Number(row.id), { members: Number(row.members), projects: Number(row.projects) }]));
  return ids.map((id) => byId.get(id) ?? { members: 0, projects: 0 });
}

/** A group's counts by id (GroupCounts), batched per page. */
export const groupCountsLoader: LoaderFactory<DataLoader<number, GroupCounts>> = (services) =>
  new DataLoader((ids) => batchGroupCounts(services.db, services.now(), ids));
