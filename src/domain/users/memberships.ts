// GET /users/:user_id/memberships (administrators; users.rb with Entities::Membership) and
// GET /users/:user_id/projects (projects.rb: the projects of the user's personal namespace that the
// caller may see, with the project list's filters).
import type { User } from "../../generated/prisma/client.js";
import { requireAdmin } from "../shared/guards.js";
import type { DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { listProjectsIn, type ProjectFilters } from "../projects/lists.js";
import { findUserByIdOrUsername } from "./queries.js";

export interface Membership {
  source_id: number;
  source_name: string;
  source_type: "Namespace" | "Project";
  access_level: number;
}

export type MembershipType = "Project" | "Namespace";

/** The user of GET /users/:user_id/memberships: 403 for non-administrators, then 404 unknown. */
export async function findMembershipsUser(ctx: DomainContext, userId: number): Promise<User> {
  requireAdmin(ctx);
  return findUserByIdOrUsername(ctx, String(userId));
}

/** The user's group memberships (source_type Namespace), then their project memberships, each by id: administrators only. */
export async function listUserMemberships(ctx: DomainContext, user: User, filters: { type?: MembershipType | null }, page: PageArgs): Promise<Page<Membership>> {
  requireAdmin(ctx);
  const groups = filters.type !== "Project";
  const projects = filters.type !== "Namespace";
  const where = { userId: user.id };
  return paginate(
    page,
    async (cap) =>
      Math.min(cap, (groups ? await ctx.db.groupMember.count({ where }) : 0) + (projects ? await ctx.db.projectMember.count({ where }) : 0)),
    async (skip, take) => {
      const groupRows = groups
        ? await ctx.db.groupMember.findMany({ where, orderBy: { id: "asc" }, skip, take, include: { group: { select: { name: true } } } })
        : [];
      const groupCount = groups && groupRows.length < take ? await ctx.db.groupMember.count({ where }) : 0;
      const projectRows = projects && groupRows.length < take
        ? await ctx.db.projectMember.findMany({
          where, orderBy: { id: "asc" }, skip: Math.max(0, skip - groupCount), take: take - groupRows.length,
          include: { project: { select: { name: true } } },
        })
        : [];
      return [
        ...groupRows.map((m) => membership(m.groupId, m.group.name, "Namespace", m.accessLevel)),
        ...projectRows.map((m) => membership(m.projectId, m.project.name, "Project", m.accessLevel)),
      ];
    },
  );
}

const membership = (source_id: number, source_name: string, source_type: Membership["source_type"], access_level: number): Membership =>
  ({ source_id, source_name, source_type, access_level });

/** The projects of the user's personal namespace (found by findUserByIdOrUsername) that the caller may see. */
export async function listUserProjects(ctx: DomainContext, user: User, filters: ProjectFilters, page: PageArgs) {
  return listProjectsIn(ctx, { namespace: { ownerId: user.id } }, filters, page);
}
