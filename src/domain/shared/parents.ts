// The parents every resource starts from: a project, group or namespace by id or full path, found
// with the caller's level and their visibility checked (invisible parents answer 404), and the
// access to one already shown.
import type { Namespace, Project } from "../../generated/prisma/client.js";
import { AppError, notFound } from "../../errors.js";
import type { ProjectWithNamespace } from "./caches.js";
import { isAdmin, type DomainContext } from "./context.js";
import { fitsIdColumn, recordId } from "./record-ids.js";
import { canSee } from "./access-levels.js";
import { groupAccessLevel, notExpired, projectAccessLevel } from "./memberships.js";
import { requireAuthenticated } from "./guards.js";

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
/** findProject for a write by a signed-in caller (creating an issue or a merge request): 401 before the lookup. */
export async function findProjectToWrite(ctx: DomainContext, id: string | number): Promise<ProjectAccess> {
  requireAuthenticated(ctx);
  return findProject(ctx, id);
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
/** findGroup for a write by a signed-in caller (updating the group): 401 before the lookup. */
export async function findGroupToWrite(ctx: DomainContext, id: string | number): Promise<GroupAccess> {
  requireAuthenticated(ctx);
  return findGroup(ctx, id);
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
/** A namespace and the caller's level on it (Owner of their own personal namespace). */
export interface NamespaceAccess {
  namespace: Namespace;
  level: number;
}
/**
 * `find_namespace!` (id or full path; the Namespaces API, a project's transfer): GitLab's
 * `read_namespace_via_membership`. A group needs a membership of the caller on it or on an
 * ancestor, at any level (Minimal Access too), whatever its visibility; a personal namespace
 * its owner; administrators see every namespace. Anything else is 404 Namespace Not Found.
 */
export async function findNamespace(ctx: DomainContext, key: string): Promise<NamespaceAccess> {
  const namespace = await ctx.db.namespace.findFirst({
    where: /^\d+$/.test(key) ? { id: recordId(key) } : { fullPathLower: key.toLowerCase() },
  });
  if (!namespace) throw notFound("Namespace");
  const level = await groupAccessLevel(ctx, namespace);
  if (!isAdmin(ctx.actor) && level === 0) throw notFound("Namespace");
  return { namespace, level };
}
/**
 * The graph's `namespace(fullPath:)` (GitLab's `read_namespace`): a group the caller can see, as
 * findGroup sees it (public and internal ones without membership), or their own personal namespace.
 */
export async function findNamespaceByFullPath(ctx: DomainContext, fullPath: string): Promise<NamespaceAccess> {
  const namespace = await ctx.db.namespace.findUnique({ where: { fullPathLower: fullPath.toLowerCase() } });
  if (!namespace) throw notFound("Namespace");
  const level = await groupAccessLevel(ctx, namespace);
  const visible = namespace.kind === "group" ? await canSeeGroup(ctx, namespace, level) : isAdmin(ctx.actor) || level > 0;
  if (!visible) throw notFound("Namespace");
  return { namespace, level };
}
