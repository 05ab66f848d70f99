// Member lists of a group or project: its direct members, or all of them with those inherited
// from the ancestor groups.
import type { Prisma } from "../../generated/prisma/client.js";
import type { GroupOrProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { paginate, paginateList, type Page, type PageArgs } from "../shared/pagination.js";
import { containsText } from "../shared/paths.js";
import { allMembers, requireReadable, targetOf, type Member, type Target } from "./queries.js";

export interface MemberFilters {
  query?: string | null;
  user_ids?: number[] | null;
}

/** The parent of a member list, for a signed-in caller who may read its members. */
function readableParent(ctx: DomainContext, parent: GroupOrProjectAccess): Target {
  requireAuthenticated(ctx);
  return requireReadable(ctx, targetOf(parent));
}

function userFilter(ctx: DomainContext, filters: MemberFilters): Prisma.UserWhereInput {
  const query = filters.query ? containsText(ctx.dialect, filters.query) : null;
  return {
    ...(query ? { OR: [{ name: query }, { username: query }] } : {}),
    ...(filters.user_ids?.length ? { id: { in: filters.user_ids } } : {}),
  };
}

/** Direct members of a group or project. */
export async function listMembers(ctx: DomainContext, parent: GroupOrProjectAccess, filters: MemberFilters, page: PageArgs): Promise<Page<Member>> {
  const t = readableParent(ctx, parent);
  const user = userFilter(ctx, filters);
  if (t.source === "group") {
    const where = { groupId: t.id, user };
    return paginate(
      page,
      (cap) => ctx.db.groupMember.count({ where, take: cap }),
      (skip, take) => ctx.db.groupMember.findMany({ where, include: { user: true }, orderBy: { id: "asc" }, skip, take }),
    );
  }
  const where = { projectId: t.id, user };
  return paginate(
    page,
    (cap) => ctx.db.projectMember.count({ where, take: cap }),
    (skip, take) => ctx.db.projectMember.findMany({ where, include: { user: true }, orderBy: { id: "asc" }, skip, take }),
  );
}

export async function listAllMembers(ctx: DomainContext, parent: GroupOrProjectAccess, filters: MemberFilters, page: PageArgs): Promise<Page<Member>> {
  const all = await allMembers(ctx, readableParent(ctx, parent), userFilter(ctx, filters));
  return paginateList(all, page);
}
