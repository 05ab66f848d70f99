// Projects: create, list (filters, offset and keyset pagination), read, update (a new path leaves
// a redirect behind), transfer to another namespace.
import type { Namespace, Prisma, Project } from "../generated/prisma/client.js";
import { AppError, forbidden, notFound, paramError, validationError } from "../errors.js";
import {
  AccessLevel, findGroup, findProject, groupAccessLevel, requireAuthenticated, requireLevel, VISIBILITY_LEVELS,
  visibleProjectsWhere,
} from "./access.js";
import type { DomainContext } from "./context.js";
import { addRedirect } from "./groups.js";
import { insertMember } from "./members.js";
import { paginate, pageWindow, type KeysetPage, type Page, type PageArgs, type SortDirection } from "./pagination.js";
import { pathFromName, pathProblems, type Visibility } from "./paths.js";
import { withInclude, type RelationQuery } from "./prisma-query.js";
import { assignTopics, recountTopics, topicIdsOf } from "./project-topics.js";

export type ProjectWithNamespace = Project & { namespace: Namespace };

export function projectFullPath(project: { path: string; namespace: { fullPath: string } }) {
  return `${project.namespace.fullPath}/${project.path}`;
}

export interface ProjectInput {
  name?: string | null;
  path?: string | null;
  description?: string | null;
  visibility?: Visibility | null;
  default_branch?: string | null;
  topics?: string[] | null;
  tag_list?: string[] | null;
}

/** The namespace a project goes into: the caller's own, or a group where they may create projects. */
async function targetNamespace(ctx: DomainContext, namespaceId: string | null | undefined): Promise<Namespace> {
  const actor = requireAuthenticated(ctx);
  const key = namespaceId ?? String((await ctx.db.namespace.findUnique({ where: { ownerId: actor.user.id } }))?.id);
  const ns = await ctx.db.namespace.findFirst({
    where: /^\d+$/.test(key) ? { id: Number(key) } : { fullPathLower: key.toLowerCase() },
  });
  if (!ns) throw notFound("Namespace");
  const level = await groupAccessLevel(ctx, ns);
  if (actor.user.isAdmin) return ns;
  if (ns.kind === "user" ? ns.ownerId !== actor.user.id : level < AccessLevel.developer) {
    if (ns.kind === "group" && level === 0 && ns.visibility === "private") throw notFound("Namespace");
    throw forbidden();
  }
  return ns;
}

function validateProject(input: ProjectInput, ns: Namespace): void {
  const errors: Record<string, string[]> = {};
  if (input.name !== undefined && input.name !== null && !input.name.trim()) errors.name = ["can't be blank"];
  if (input.path !== undefined && input.path !== null) {
    const problems = pathProblems(input.path);
    if (problems.length) errors.path = problems;
  }
  if (input.visibility && ns.kind === "group" && VISIBILITY_LEVELS[input.visibility]! > VISIBILITY_LEVELS[ns.visibility]!) {
    errors.visibility_level = [`${input.visibility} is not allowed in a ${ns.visibility} group.`];
  }
  if (Object.keys(errors).length) throw validationError(errors);
}

async function assertPathFree(ctx: DomainContext, ns: Namespace, name: string, path: string, exceptId?: number) {
  const clash = await ctx.db.project.findMany({
    where: { namespaceId: ns.id, id: exceptId ? { not: exceptId } : undefined, OR: [{ pathLower: path.toLowerCase() }, { name }] },
  });
  if (!clash.length) return;
  const errors: Record<string, string[]> = {};
  if (clash.some((p) => p.name === name)) errors.name = ["has already been taken"];
  if (clash.some((p) => p.pathLower === path.toLowerCase())) errors.path = ["has already been taken"];
  throw validationError(errors);
}

export async function createProject(ctx: DomainContext, input: ProjectInput & { namespace_id?: string | null }): Promise<ProjectWithNamespace> {
  if (!input.name && !input.path) throw paramError("name, path are missing, at least one parameter must be provided");
  const ns = await targetNamespace(ctx, input.namespace_id);
  const path = input.path ?? pathFromName(input.name!);
  const name = input.name ?? path;
  validateProject({ ...input, path, name }, ns);
  await assertPathFree(ctx, ns, name, path);
  const creator = ctx.actor!.user;
  const inherited = await groupAccessLevel(ctx, ns);
  return ctx.db.$transaction(async (tx) => {
    const project = await tx.project.create({
      data: {
        name, path, pathLower: path.toLowerCase(), description: input.description ?? null,
        visibility: input.visibility ?? "private", defaultBranch: input.default_branch || "main",
        namespaceId: ns.id, creatorId: creator.id,
      },
      include: { namespace: true },
    });
    await tx.redirectRoute.deleteMany({ where: { pathLower: projectFullPath(project).toLowerCase() } });
    // GitLab makes the creator Owner of a personal project, Maintainer of a group project.
    const level = ns.kind === "user" ? AccessLevel.owner : AccessLevel.maintainer;
    if (inherited < level) await insertMember(tx, "project", project.id, creator.id, level, null, creator.id);
    const topics = input.topics ?? input.tag_list;
    if (topics?.length) await assignTopics(tx, project.id, topics);
    return project;
  });
}

export async function getProject(ctx: DomainContext, id: string): Promise<ProjectWithNamespace> {
  return (await findProject(ctx, id)).project;
}

export const PROJECT_ORDER_COLUMNS = ["id", "name", "path", "created_at", "updated_at", "last_activity_at"] as const;
const projectColumn: Record<(typeof PROJECT_ORDER_COLUMNS)[number], string> = {
  id: "id", name: "name", path: "path", created_at: "createdAt", updated_at: "updatedAt", last_activity_at: "lastActivityAt",
};

export interface ProjectFilters extends PageArgs {
  search?: string | null;
  visibility?: Visibility | null;
  membership?: boolean | null;
  owned?: boolean | null;
  archived?: boolean | null;
  topic?: string | null;
  order_by?: (typeof PROJECT_ORDER_COLUMNS)[number] | null;
  sort?: SortDirection | null;
  id_after?: number | null;
  id_before?: number | null;
}

async function projectsWhere(ctx: DomainContext, filters: ProjectFilters, scope: Prisma.ProjectWhereInput = {}): Promise<Prisma.ProjectWhereInput> {
  const and: Prisma.ProjectWhereInput[] = [scope, await visibleProjectsWhere(ctx)];
  const user = ctx.actor?.user;
  if (filters.search) {
    const term = filters.search;
    and.push({ OR: [{ name: { contains: term } }, { path: { contains: term } }, { description: { contains: term } }] });
  }
  if (filters.visibility) and.push({ visibility: filters.visibility });
  if (filters.archived != null) and.push({ archived: filters.archived });
  if (filters.topic) {
    for (const name of filters.topic.split(",").map((t) => t.trim()).filter(Boolean)) {
      and.push({ topics: { some: { topic: { nameLower: name.toLowerCase() } } } });
    }
  }
  if (user && filters.owned) and.push({ OR: [{ namespace: { ownerId: user.id } }, { members: { some: { userId: user.id, accessLevel: AccessLevel.owner } } }] });
  if (user && filters.membership) and.push(await membershipWhere(ctx, user.id));
  if (filters.id_after) and.push({ id: { gt: filters.id_after } });
  if (filters.id_before) and.push({ id: { lt: filters.id_before } });
  return { AND: and };
}

async function membershipWhere(ctx: DomainContext, userId: number): Promise<Prisma.ProjectWhereInput> {
  const groups = await ctx.db.groupMember.findMany({ where: { userId }, select: { group: { select: { traversalIds: true } } } });
  return {
    OR: [
      { members: { some: { userId } } },
      { namespace: { ownerId: userId } },
      ...groups.map((g) => ({ namespace: { traversalIds: { startsWith: g.group.traversalIds } } })),
    ],
  };
}

function projectOrder(filters: ProjectFilters): Prisma.ProjectOrderByWithRelationInput[] {
  const sort = filters.sort ?? "desc";
  const column = projectColumn[filters.order_by ?? "created_at"];
  return column === "id" ? [{ id: sort }] : [{ [column]: sort }, { id: sort }];
}

export async function listProjects(ctx: DomainContext, filters: ProjectFilters, query?: RelationQuery, scope: Prisma.ProjectWhereInput = {}): Promise<Page<ProjectWithNamespace>> {
  const where = await projectsWhere(ctx, filters, scope);
  return paginate(
    filters,
    (cap) => ctx.db.project.count({ where, take: cap }),
    (skip, take) => ctx.db.project.findMany({ ...withInclude(query, { namespace: true }), where, orderBy: projectOrder(filters), skip, take }) as Promise<ProjectWithNamespace[]>,
  );
}

/** Keyset pagination of GET /projects: order_by=id only, continued by id_after / id_before. */
export async function listProjectsKeyset(ctx: DomainContext, filters: ProjectFilters, query?: RelationQuery): Promise<KeysetPage<ProjectWithNamespace>> {
  if ((filters.order_by ?? "id") !== "id") {
    throw new AppError(405, { message: "405 Method Not Allowed - Keyset pagination is only available for order_by=id" });
  }
  const sort = filters.sort ?? "desc";
  const { take } = pageWindow(filters);
  const where = await projectsWhere(ctx, filters);
  const rows = (await ctx.db.project.findMany({ ...withInclude(query, { namespace: true }), where, orderBy: { id: sort }, take: take + 1 })) as ProjectWithNamespace[];
  const page = rows.slice(0, take);
  const last = page[page.length - 1];
  const next = rows.length > take && last ? { [sort === "asc" ? "id_after" : "id_before"]: String(last.id) } : null;
  return { rows: page, next };
}

export async function listGroupProjects(ctx: DomainContext, groupId: string, filters: ProjectFilters & { include_subgroups?: boolean | null }, query?: RelationQuery) {
  const { group } = await findGroup(ctx, groupId);
  const scope = filters.include_subgroups ? { namespace: { traversalIds: { startsWith: group.traversalIds } } } : { namespaceId: group.id };
  return listProjects(ctx, filters, query, scope);
}

/** Maintainers change settings; a new path leaves a redirect from the old full path. */
export async function updateProject(ctx: DomainContext, id: string, input: ProjectInput & { archived?: boolean | null }): Promise<ProjectWithNamespace> {
  const { project, level } = await findProject(ctx, id);
  requireLevel(ctx, level, AccessLevel.maintainer);
  validateProject(input, project.namespace);
  const name = input.name ?? project.name;
  const path = input.path ?? project.path;
  if (name !== project.name || path.toLowerCase() !== project.pathLower) {
    await assertPathFree(ctx, project.namespace, name, path, project.id);
  }
  return ctx.db.$transaction(async (tx) => {
    if (path !== project.path) await addRedirect(tx, projectFullPath(project), project.id);
    const updated = await tx.project.update({
      where: { id: project.id },
      data: {
        name, path, pathLower: path.toLowerCase(), description: input.description ?? undefined,
        visibility: input.visibility ?? undefined, defaultBranch: input.default_branch ?? undefined,
        archived: input.archived ?? undefined,
      },
      include: { namespace: true },
    });
    await tx.redirectRoute.deleteMany({ where: { pathLower: projectFullPath(updated).toLowerCase(), projectId: { not: project.id } } });
    const topics = input.topics ?? input.tag_list;
    if (topics) await assignTopics(tx, project.id, topics);
    else if (input.visibility && input.visibility !== project.visibility) await recountTopics(tx, await topicIdsOf(tx, project.id));
    return updated;
  });
}

/** Owners move a project into a namespace where they may create projects. */
export async function transferProject(ctx: DomainContext, id: string, namespace: string): Promise<ProjectWithNamespace> {
  const { project, level } = await findProject(ctx, id);
  requireLevel(ctx, level, AccessLevel.owner);
  const target = await targetNamespace(ctx, namespace);
  if (target.id === project.namespaceId) {
    throw new AppError(400, { message: "Failed to transfer project: Project is already in this namespace." });
  }
  const clash = await ctx.db.project.findFirst({ where: { namespaceId: target.id, pathLower: project.pathLower } });
  if (clash) throw new AppError(400, { message: "Failed to transfer project: Project with same name or path in target namespace already exists" });
  return ctx.db.$transaction(async (tx) => {
    await addRedirect(tx, projectFullPath(project), project.id);
    const moved = await tx.project.update({ where: { id: project.id }, data: { namespaceId: target.id }, include: { namespace: true } });
    await tx.redirectRoute.deleteMany({ where: { pathLower: projectFullPath(moved).toLowerCase() } });
    return moved;
  });
}
