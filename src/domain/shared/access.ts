// Who may see and do what: access levels (with membership inherited from ancestor groups),
// visibility, and the parent lookups every resource starts from. Invisible parents answer 404.
import type { Namespace, Prisma, Project } from "../../generated/prisma/client.js";
import { AppError, forbidden, notFound } from "../../errors.js";
import { loadUnexpired, type MembershipLevels, type ProjectWithNamespace } from "./caches.js";
import { isAdmin, type Actor, type DomainContext } from "./context.js";
import { fitsIdColumn, recordId } from "./record-ids.js";

export const AccessLevel = { none: 0, minimal: 5, guest: 10, planner: 15, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;
export const VALID_MEMBER_LEVELS = [5, 10, 15, 20, 30, 40, 50];

/** GitLab's role names (Gitlab::Access.human_access) by access level. */
export const ROLE_NAMES: Record<number, string> = {
  5: "Minimal Access", 10: "Guest", 15: "Planner", 20: "Reporter", 30: "Developer", 40: "Maintainer", 50: "Owner",
};

export const VISIBILITY_LEVELS: Record<string, number> = { private: 0, internal: 10, public: 20 };

/** Traversal ids are stored as "1/5/9/": each ancestor id followed by "/". */
export const traversalOf = (parent: Pick<Namespace, "traversalIds"> | null, id: number) =>
  `${parent ? parent.traversalIds : ""}${id}/`;
export const ancestorIds = (ns: Pick<Namespace, "traversalIds">) =>
  ns.traversalIds.split("/").filter(Boolean).map(Number);

/** Visibility levels an actor can see without any membership. */
export function openVisibilities(actor: Actor | null): string[] {
  return actor ? ["public", "internal"] : ["public"];
}

/** Highest group membership of the user in the namespace or any of its ancestors. */
export async function groupAccessLevel(ctx: DomainContext, ns: Namespace): Promise<number> {
  const user = ctx.actor?.user;
  if (!user) return 0;
  if (ns.kind === "user") return ns.ownerId === user.id ? AccessLevel.owner : 0;
  const levels = await cachedLevels(ctx, `${user.id}/g${ns.id}`, () => loadLevels(ctx, user.id, null, ns));
  return levels.inherited;
}

export async function projectAccessLevel(ctx: DomainContext, project: Project & { namespace: Namespace }): Promise<number> {
  const { direct, inherited } = await projectMemberships(ctx, project);
  return Math.max(direct, inherited);
}

/**
 * `projectAccessLevel` of other users, in one pair of queries: each user's highest direct or
 * inherited (ancestor group) membership, Owner for the owner of a personal namespace. Users
 * without any are left out.
 */
export async function projectMemberLevels(ctx: DomainContext, project: Project & { namespace: Namespace }, userIds: number[]): Promise<Map<number, number>> {
  const ns = project.namespace;
  const memberOf = { userId: { in: userIds }, ...notExpired(ctx) };
  const select = { userId: true, accessLevel: true } as const;
  const [direct, inherited] = await Promise.all([
    ctx.db.projectMember.findMany({ where: { projectId: project.id, ...memberOf }, select }),
    ns.kind === "group" ? ctx.db.groupMember.findMany({ where: { groupId: { in: ancestorIds(ns) }, ...memberOf }, select }) : [],
  ]);
  const levels = new Map<number, number>();
  for (const row of [...direct, ...inherited]) levels.set(row.userId, Math.max(levels.get(row.userId) ?? 0, row.accessLevel));
  if (ns.kind === "user" && ns.ownerId != null && userIds.includes(ns.ownerId)) levels.set(ns.ownerId, AccessLevel.owner);
  return levels;
}

export interface ProjectMemberships {
  /** level of the caller's own project membership (0: none) */
  direct: number;
  /** highest level through the namespace (groups up the tree, or owning the personal namespace) */
  inherited: number;
}

/** The caller's memberships on a project (kept between requests: domain/shared/caches.ts). */
export async function projectMemberships(ctx: DomainContext, project: Project & { namespace: Namespace }): Promise<ProjectMemberships> {
  const user = ctx.actor?.user;
  if (!user) return { direct: 0, inherited: 0 };
  const ns = project.namespace;
  const owner = ns.kind === "user" && ns.ownerId === user.id ? AccessLevel.owner : 0;
  const levels = await cachedLevels(ctx, `${user.id}/p${project.id}`, () => loadLevels(ctx, user.id, project.id, ns.kind === "group" ? ns : null));
  return { direct: levels.direct, inherited: Math.max(levels.inherited, owner) };
}

/** GitLab's `permissions` of a project: the caller's project membership and group membership levels. */
export async function projectPermissions(ctx: DomainContext, project: Project & { namespace: Namespace }) {
  const { direct, inherited } = await projectMemberships(ctx, project);
  return { project: direct, group: project.namespace.kind === "group" ? inherited : 0 };
}

function cachedLevels(ctx: DomainContext, key: string, load: () => Promise<MembershipLevels>): Promise<MembershipLevels> {
  return loadUnexpired(ctx.caches.memberships, key, ctx.now().getTime(), load);
}

/** The user's membership rows in the project (when given) and in the group and its ancestors. */
async function loadLevels(ctx: DomainContext, userId: number, projectId: number | null, group: Namespace | null): Promise<MembershipLevels> {
  const select = { accessLevel: true, expiresAt: true } as const;
  const [direct, inherited] = await Promise.all([
    projectId === null ? [] : ctx.db.projectMember.findMany({ where: { userId, projectId, ...notExpired(ctx) }, select }),
    group ? ctx.db.groupMember.findMany({ where: { userId, groupId: { in: ancestorIds(group) }, ...notExpired(ctx) }, select }) : [],
  ]);
  const expiries = [...direct, ...inherited].flatMap((row) => (row.expiresAt ? [row.expiresAt.getTime()] : []));
  return {
    direct: Math.max(0, ...direct.map((row) => row.accessLevel)),
    inherited: Math.max(0, ...inherited.map((row) => row.accessLevel)),
    validUntil: expiries.length ? Math.min(...expiries) : null,
  };
}

/** Memberships past their `expires_at` no longer count. */
export const notExpired = (ctx: DomainContext) => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: ctx.now() } }] });

export interface ProjectAccess {
  project: Project & { namespace: Namespace };
  level: number;
}

export class ProjectMovedError extends AppError {
  constructor(readonly projectId: number) {
    super(405, { message: "Non GET methods are not allowed for moved projects" });
  }
}

/** `:id` of a project: numeric id or full path (old paths of moved projects raise ProjectMovedError). */
export async function findProject(ctx: DomainContext, id: string | number): Promise<ProjectAccess> {
  const project = await loadProject(ctx, String(id));
  if (!project) throw notFound("Project");
  const level = await projectAccessLevel(ctx, project);
  if (!canSee(ctx.actor, project.visibility, level)) throw notFound("Project");
  return { project, level };
}

/**
 * The access to a project the caller was already shown (found by findProject, listed among
 * visible projects, or by node(id:)): its level, without checking visibility again. List
 * functions take a ProjectAccess, so the surface authorises a list's parent once.
 */
export async function shownProjectAccess(ctx: DomainContext, project: Project & { namespace: Namespace }): Promise<ProjectAccess> {
  return { project, level: await projectAccessLevel(ctx, project) };
}

/** A project with its namespace by id (kept between requests: domain/shared/caches.ts). */
export function projectById(ctx: Pick<DomainContext, "caches" | "db">, id: number): Promise<ProjectWithNamespace | null> {
  if (!fitsIdColumn(id)) return Promise.resolve(null);
  return ctx.caches.projects.load(id, () => readProjectRow(ctx.db, id));
}

/** projectById inside a transaction: a cache miss reads through it (TableCache.loadInTransaction). */
export function projectByIdInTransaction(caches: DomainContext["caches"], tx: Pick<DomainContext["db"], "project">, id: number): Promise<ProjectWithNamespace | null> {
  if (!fitsIdColumn(id)) return Promise.resolve(null);
  return caches.projects.loadInTransaction(id, () => readProjectRow(tx, id));
}

async function readProjectRow(db: Pick<DomainContext["db"], "project">, id: number) {
  const project = await db.project.findUnique({ where: { id }, include: { namespace: true } });
  return project && { value: project };
}

async function projectByPath(ctx: DomainContext, lower: string): Promise<ProjectWithNamespace | null> {
  const slash = lower.lastIndexOf("/");
  if (slash < 0) return null;
  const id = await ctx.caches.projectIds.load(lower, async () => {
    const project = await ctx.db.project.findFirst({
      where: { pathLower: lower.slice(slash + 1), namespace: { fullPathLower: lower.slice(0, slash) } },
      select: { id: true },
    });
    return project && { value: project.id };
  });
  return id === null ? null : projectById(ctx, id);
}

async function loadProject(ctx: DomainContext, id: string) {
  if (/^\d+$/.test(id)) return projectById(ctx, recordId(id));
  const lower = id.toLowerCase();
  const project = await projectByPath(ctx, lower);
  if (project) return project;
  const redirect = await ctx.db.redirectRoute.findUnique({ where: { pathLower: lower } });
  if (redirect) {
    const moved = await projectById(ctx, redirect.projectId);
    if (moved && canSee(ctx.actor, moved.visibility, await projectAccessLevel(ctx, moved))) {
      if (ctx.followProjectRedirects) return moved;
      throw new ProjectMovedError(moved.id);
    }
  }
  return null;
}

/** Visible without membership (public; internal for signed-in users), through membership, or to admins. */
export function canSee(actor: Actor | null, visibility: string, level: number): boolean {
  if (actor?.user.isAdmin) return true;
  if (level >= AccessLevel.guest) return true;
  return openVisibilities(actor).includes(visibility);
}

export interface GroupAccess {
  group: Namespace;
  level: number;
}

/** A group or project the caller may see (found or shown); `"group" in parent` tells which. */
export type GroupOrProjectAccess = GroupAccess | ProjectAccess;

/** `:id` of a group: numeric id or full path. */
export async function findGroup(ctx: DomainContext, id: string | number): Promise<GroupAccess> {
  const key = String(id);
  const group = await ctx.db.namespace.findFirst({
    where: /^\d+$/.test(key) ? { id: recordId(key), kind: "group" } : { fullPathLower: key.toLowerCase(), kind: "group" },
  });
  if (!group) throw notFound("Group");
  const level = await groupAccessLevel(ctx, group);
  if (!(await canSeeGroup(ctx, group, level))) throw notFound("Group");
  return { group, level };
}

/** shownProjectAccess for a group the caller was already shown (findGroup, a visible list, node(id:)). */
export async function shownGroupAccess(ctx: DomainContext, group: Namespace): Promise<GroupAccess> {
  return { group, level: await groupAccessLevel(ctx, group) };
}

async function canSeeGroup(ctx: DomainContext, group: Namespace, level: number): Promise<boolean> {
  if (canSee(ctx.actor, group.visibility, level)) return true;
  const user = ctx.actor?.user;
  if (!user) return false;
  // Members of a subgroup or of a project below a private group may see that group.
  const below = { traversalIds: { startsWith: group.traversalIds } };
  const [inSubgroup, inProject] = await Promise.all([
    ctx.db.groupMember.count({ where: { userId: user.id, group: below, ...notExpired(ctx) } }),
    ctx.db.projectMember.count({ where: { userId: user.id, project: { namespace: below }, ...notExpired(ctx) } }),
  ]);
  return inSubgroup + inProject > 0;
}

/** `find_namespace!` (id or full path): a group the caller can see, or their own personal namespace. */
export async function findNamespace(ctx: DomainContext, key: string): Promise<{ namespace: Namespace; level: number }> {
  const namespace = await ctx.db.namespace.findFirst({
    where: /^\d+$/.test(key) ? { id: recordId(key) } : { fullPathLower: key.toLowerCase() },
  });
  if (!namespace) throw notFound("Namespace");
  const level = await groupAccessLevel(ctx, namespace);
  const visible = namespace.kind === "group" ? await canSeeGroup(ctx, namespace, level) : isAdmin(ctx.actor) || level > 0;
  if (!visible) throw notFound("Namespace");
  return { namespace, level };
}

/** Prisma filter for the projects an actor can see (lists). */
export async function visibleProjectsWhere(ctx: DomainContext): Promise<Prisma.ProjectWhereInput> {
  const actor = ctx.actor;
  if (actor?.user.isAdmin) return {};
  if (!actor) return { visibility: "public" };
  return { OR: [{ visibility: { in: openVisibilities(actor) } }, await authorizedProjectsWhere(ctx, AccessLevel.guest)] };
}

/**
 * Projects where the caller's highest access level (direct, inherited from a group, or as the
 * owner of the personal namespace) is at least `min`: GitLab's `authorized_projects(min)`.
 */
export async function authorizedProjectsWhere(ctx: DomainContext, min: number): Promise<Prisma.ProjectWhereInput> {
  const userId = ctx.actor?.user.id;
  if (!userId) return { id: -1 };
  const groups = await memberGroupTraversals(ctx, min);
  return {
    OR: [
      { members: { some: { userId, accessLevel: { gte: min }, ...notExpired(ctx) } } },
      { namespace: { ownerId: userId } },
      ...groups.map((t) => ({ namespace: { traversalIds: { startsWith: t } } })),
    ],
  };
}

/** Prisma filter for the groups an actor can see (lists). */
export async function visibleGroupsWhere(ctx: DomainContext): Promise<Prisma.NamespaceWhereInput> {
  const actor = ctx.actor;
  if (actor?.user.isAdmin) return { kind: "group" };
  if (!actor) return { kind: "group", visibility: "public" };
  return { kind: "group", OR: [{ visibility: { in: openVisibilities(actor) } }, await hierarchyGroupsWhere(ctx)] };
}

/**
 * The groups of the caller's own hierarchy (GitLab's GroupsFinder without `all_available`):
 * groups they are a member of, with their descendants, plus the ancestors of those groups
 * and of the groups holding projects they are a member of.
 */
export async function hierarchyGroupsWhere(ctx: DomainContext): Promise<Prisma.NamespaceWhereInput> {
  const userId = ctx.actor?.user.id;
  if (!userId) return { id: -1 };
  const [groups, projectNamespaces] = await Promise.all([
    memberGroupTraversals(ctx),
    ctx.db.namespace.findMany({
      where: { kind: "group", projects: { some: { members: { some: { userId, ...notExpired(ctx) } } } } },
      select: { traversalIds: true },
    }),
  ]);
  const ancestors = [...groups, ...projectNamespaces.map((n) => n.traversalIds)].flatMap((t) => ancestorIds({ traversalIds: t }));
  return {
    kind: "group",
    OR: [{ id: { in: [...new Set(ancestors)] } }, ...groups.map((t) => ({ traversalIds: { startsWith: t } }))],
  };
}

/** Traversal ids of the groups the caller is a direct member of (at least `min`). */
export async function memberGroupTraversals(ctx: DomainContext, min: number = AccessLevel.minimal): Promise<string[]> {
  const userId = ctx.actor?.user.id;
  if (!userId) return [];
  const rows = await ctx.db.groupMember.findMany({
    where: { userId, accessLevel: { gte: min }, ...notExpired(ctx) },
    select: { group: { select: { traversalIds: true } } },
  });
  return rows.map((r) => r.group.traversalIds);
}

export function requireAuthenticated(ctx: DomainContext): Actor {
  if (!ctx.actor) throw new AppError(401, { message: "401 Unauthorized" });
  return ctx.actor;
}

/** `authenticated_as_admin!`: 401 anonymous, 403 non-admin. */
export function requireAdmin(ctx: DomainContext): Actor {
  const actor = requireAuthenticated(ctx);
  if (!actor.user.isAdmin) throw forbidden();
  return actor;
}

/** The resource is visible; the caller must hold at least `min` on it (admins always do). */
export function requireLevel(ctx: DomainContext, level: number, min: number): void {
  requireAuthenticated(ctx);
  if (ctx.actor!.user.isAdmin) return;
  if (level < min) throw forbidden();
}

/** Field-level access declared on root fields (`extensions: { access }`), checked before params. */
export type CoarseAccess = "authenticated" | "admin";

export function requireCoarseAccess(ctx: DomainContext, access: CoarseAccess | undefined): void {
  if (access === "admin") requireAdmin(ctx);
  else if (access === "authenticated") requireAuthenticated(ctx);
}

/** `read_internal_note` / `mark_note_as_internal`: Reporters and above, administrators. */
export function canReadInternalNotes(ctx: DomainContext, access: ProjectAccess): boolean {
  return isAdmin(ctx.actor) || access.level >= AccessLevel.reporter;
}
