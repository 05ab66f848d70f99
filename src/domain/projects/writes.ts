// Creating and updating projects (a new path leaves a redirect behind).
import { paramError, validationError } from "../../errors.js";
import type { Namespace, Prisma, User } from "../../generated/prisma/client.js";
import { addRedirect } from "../groups/writes.js";
import { insertMember } from "../members/writes.js";
import { repositoryOf } from "../repository/git.js";
import { createRepository, initializeRepository } from "../repository/initialize.js";
import { AccessLevel, VISIBILITY_LEVELS } from "../shared/access-levels.js";
import { groupAccessLevel } from "../shared/memberships.js";
import type { ProjectAccess } from "../shared/parents.js";
import { requireAuthenticated, requireLevel } from "../shared/guards.js";
import { type DomainContext } from "../shared/context.js";
import { publish } from "../shared/events.js";
import { nameProblems, pathFromName, pathProblems, type Visibility } from "../shared/paths.js";
import { recheckIfTaken } from "../shared/preconditions.js";
import { featureSettingsData, type FeatureSettingsInput } from "../shared/project-features.js";
import { mergeSettingsData, mergeSettingsErrors, type MergeSettingsInput } from "./merge-settings.js";
import { recordId } from "../shared/record-ids.js";
import { projectFullPath } from "../shared/web-urls.js";
import { assignTopics, recountTopics, topicIdsOf } from "../topics/assignments.js";
import type { ProjectWithNamespace } from "./lists.js";

export interface ProjectInput extends FeatureSettingsInput, MergeSettingsInput {
  name?: string | null;
  path?: string | null;
  description?: string | null;
  visibility?: Visibility | null;
  default_branch?: string | null;
  topics?: string[] | null;
  tag_list?: string[] | null;
}

type Errors = Record<string, string[]>;

/**
 * The namespace a new project goes into: the caller's own by default, or one where they may
 * create projects (their personal namespace; Developer+ of a group; admins anywhere).
 * Anything else is GitLab's `{"namespace":["is not valid"]}`.
 */
async function namespaceForNewProject(ctx: DomainContext, key: string | null | undefined): Promise<Namespace> {
  const actor = requireAuthenticated(ctx);
  const ns = await ctx.db.namespace.findFirst({
    where: key == null ? { ownerId: actor.user.id } : /^\d+$/.test(key) ? { id: recordId(key) } : { fullPathLower: key.toLowerCase() },
  });
  const level = ns ? await groupAccessLevel(ctx, ns) : 0;
  const allowed = ns && (actor.user.isAdmin || level >= (ns.kind === "user" ? AccessLevel.owner : AccessLevel.developer));
  if (!allowed) throw validationError({ namespace: ["is not valid"] });
  return ns;
}

function attributeErrors(input: { name?: string | null; path?: string | null } & MergeSettingsInput): Errors {
  const errors: Errors = mergeSettingsErrors(input);
  const name = input.name != null ? nameProblems(input.name) : [];
  const path = input.path != null ? pathProblems(input.path) : [];
  if (name.length) errors.name = name;
  if (path.length) errors.path = path;
  return errors;
}

function visibilityErrors(visibility: Visibility | null | undefined, ns: Namespace): Errors {
  if (!visibility || ns.kind !== "group" || VISIBILITY_LEVELS[visibility]! <= VISIBILITY_LEVELS[ns.visibility]!) return {};
  return { visibility_level: [`${visibility} is not allowed in a ${ns.visibility} group.`] };
}

async function takenErrors(ctx: DomainContext, ns: Namespace, name: string, path: string, exceptId?: number): Promise<Errors> {
  const clash = await ctx.db.project.findMany({
    where: { namespaceId: ns.id, id: exceptId ? { not: exceptId } : undefined, OR: [{ pathLower: path.toLowerCase() }, { name }] },
    select: { name: true, pathLower: true },
  });
  const errors: Errors = {};
  if (clash.some((p) => p.name === name)) errors.name = ["has already been taken"];
  if (clash.some((p) => p.pathLower === path.toLowerCase())) errors.path = ["has already been taken"];
  return errors;
}

function throwIfAny(errors: Errors): void {
  if (Object.keys(errors).length) throw validationError(errors);
}

export interface NewProjectInput extends ProjectInput {
  namespace_id?: string | null;
  /** a first commit adding README.md on the default branch; without it the repository is empty */
  initialize_with_readme?: boolean | null;
}

export async function createProject(ctx: DomainContext, input: NewProjectInput): Promise<ProjectWithNamespace> {
  const creator = requireAuthenticated(ctx).user;
  if (!input.name && !input.path) throw paramError("name, path are missing, at least one parameter must be provided");
  const ns = await namespaceForNewProject(ctx, input.namespace_id);
  const path = input.path ?? pathFromName(input.name!);
  const name = input.name ?? input.path!;
  throwIfAny({ ...attributeErrors({ ...input, name, path }), ...(await takenErrors(ctx, ns, name, path)), ...visibilityErrors(input.visibility, ns) });
  return recheckIfTaken(() => insertProject(ctx, creator, input, { ns, name, path }), async () => throwIfAny(await takenErrors(ctx, ns, name, path)));
}

async function insertProject(ctx: DomainContext, creator: User, input: NewProjectInput, { ns, name, path }: { ns: Namespace; name: string; path: string }) {
  const project = await ctx.db.$transaction(async (tx) => {
    const project = await tx.project.create({
      data: {
        name, path, pathLower: path.toLowerCase(), description: input.description ?? null,
        visibility: input.visibility ?? "private", defaultBranch: input.default_branch || "main",
        namespaceId: ns.id, creatorId: creator.id, ...featureSettingsData(input), ...mergeSettingsData(input),
      },
      include: { namespace: true },
    });
    await takeOverPath(tx, project);
    // GitLab makes the namespace owner Owner of a personal project; group projects inherit access.
    if (ns.ownerId) await insertMember(tx, "project", project.id, ns.ownerId, AccessLevel.owner, null, creator.id);
    const topics = input.topics ?? input.tag_list;
    if (topics?.length) await assignTopics(tx, project.id, topics);
    await createRepository(ctx, project);
    await publish(tx, ctx, "project", { action: "create", project, actorId: creator.id });
    return project;
  });
  if (input.initialize_with_readme) await initializeRepository(ctx, project, creator);
  return project;
}

/** A project created on (or moved to) an old path of another project takes the path over. */
export const takeOverPath = (tx: Prisma.TransactionClient, project: ProjectWithNamespace) =>
  tx.redirectRoute.deleteMany({ where: { pathLower: projectFullPath(project).toLowerCase() } });

/**
 * Maintainers change settings (admin_project, rename_project); only Owners change the
 * visibility (change_visibility_level). A new path leaves a redirect from the old full path.
 */
export async function updateProject(
  ctx: DomainContext, { project, level }: ProjectAccess, input: ProjectInput & { archived?: boolean | null },
): Promise<ProjectWithNamespace> {
  requireLevel(ctx, level, AccessLevel.maintainer);
  if (input.visibility != null) requireLevel(ctx, level, AccessLevel.owner);
  const name = input.name ?? project.name;
  const path = input.path ?? project.path;
  const renamed = name !== project.name || path.toLowerCase() !== project.pathLower;
  throwIfAny({
    ...attributeErrors(input),
    ...(renamed ? await takenErrors(ctx, project.namespace, name, path, project.id) : {}),
    ...visibilityErrors(input.visibility, project.namespace),
  });
  const recheck = async () => throwIfAny(await takenErrors(ctx, project.namespace, name, path, project.id));
  const updated = await recheckIfTaken(() => saveProject(ctx, project, input, { name, path }), recheck);
  // what a clone checks out follows the default branch
  if (updated.defaultBranch !== project.defaultBranch) await repositoryOf(ctx, project.id).setHead(updated.defaultBranch);
  return updated;
}

function saveProject(ctx: DomainContext, project: ProjectWithNamespace, input: ProjectInput & { archived?: boolean | null }, { name, path }: { name: string; path: string }) {
  return ctx.db.$transaction(async (tx) => {
    if (path !== project.path) await addRedirect(tx, projectFullPath(project), project.id);
    const updated = await tx.project.update({
      where: { id: project.id },
      data: {
        name, path, pathLower: path.toLowerCase(), description: input.description ?? undefined,
        visibility: input.visibility ?? undefined, defaultBranch: input.default_branch ?? undefined,
        archived: input.archived ?? undefined, ...featureSettingsData(input), ...mergeSettingsData(input),
      },
      include: { namespace: true },
    });
    await takeOverPath(tx, updated);
    const topics = input.topics ?? input.tag_list;
    if (topics) await assignTopics(tx, project.id, topics);
    else if (input.visibility && input.visibility !== project.visibility) await recountTopics(tx, await topicIdsOf(tx, project.id));
    if (updated.visibility !== project.visibility) {
      await publish(tx, ctx, "visibility", { source: "project", sourceId: project.id, previous: project.visibility, current: updated.visibility, actorId: ctx.actor!.user.id });
    }
    return updated;
  });
}
