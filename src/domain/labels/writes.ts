// Creating, changing and deleting project and group labels (Labels::CreateService, UpdateService
// and the APIs' destroy): a title the parent already shows (its own labels or its ancestor
// groups') answers 409 Label already exists, colours are checked and named colours stored as hex.
// Deleting a label removes it from every issue and merge request (the links go with it); renaming
// it changes what they all show. Subscribing and unsubscribing (GitLab's Subscriptions API).
import type { Label } from "../../generated/prisma/client.js";
import { conflict, forbidden, notModified, paramError, validationError } from "../../errors.js";
import { ancestorIds } from "../shared/access-levels.js";
import { requireAuthenticated } from "../shared/guards.js";
import { exactlyOneProblem } from "../shared/param-rules.js";
import type { DomainContext } from "../shared/context.js";
import { shownGroupAccess, type GroupAccess, type ProjectAccess } from "../shared/parents.js";
import {
  canAdminProjectLabels, labelGroupIds, requireAdminGroupLabels, requireAdminProjectLabels, type GroupLabelAccess, type ProjectLabelAccess,
} from "./queries.js";
import { assertValidLabel, colorOf } from "./rules.js";

export interface LabelInput {
  name?: string | null;
  new_name?: string | null;
  color?: string | null;
  description?: string | null;
  priority?: number | null;
}

const clean = (text: string) => text.trim();

/** POST /projects/:id/labels on a project the caller may write labels in (requireAdminProjectLabels). */
export async function createProjectLabel(ctx: DomainContext, access: ProjectAccess, input: LabelInput & { name: string; color: string }): Promise<Label> {
  const values = { title: clean(input.name), color: colorOf(input.color), description: input.description?.trim() || null };
  assertValidLabel(values);
  const groups = labelGroupIds(access);
  const shown = { OR: [{ projectId: access.project.id }, ...(groups.length ? [{ groupId: { in: groups } }] : [])] };
  if (await ctx.db.label.findFirst({ where: { AND: [shown, { title: values.title }] }, select: { id: true } })) throw conflict("Label already exists");
  const now = ctx.now();
  return ctx.db.$transaction(async (tx) => {
    const label = await tx.label.create({ data: { ...values, projectId: access.project.id, createdAt: now, updatedAt: now } });
    if (input.priority != null) await tx.labelPriority.create({ data: { projectId: access.project.id, labelId: label.id, priority: input.priority } });
    return label;
  });
}

/** What PUT checks before the lookup: at least one change (GitLab's at_least_one_of). */
export function checkLabelChanges(input: LabelInput, ref?: LabelRefParams): void {
  const none = input.new_name == null && input.color == null && input.description == null && input.priority === undefined;
  throwProblems([none ? "new_name, color, description, priority are missing, at least one parameter must be provided" : null, refProblem(ref)]);
}

/** The same for a group's label, which has no priority. */
export function checkGroupLabelChanges(input: LabelInput, ref?: LabelRefParams): void {
  const none = input.new_name == null && input.color == null && input.description == null;
  throwProblems([none ? "new_name, color, description are missing, at least one parameter must be provided" : null, refProblem(ref)]);
}

/** The label of the deprecated PUT .../labels (no :label_id in the path): `label_id` or `name`, exactly one. */
export interface LabelRefParams {
  label_id?: number | null;
  name?: string | null;
}

const refProblem = (ref: LabelRefParams | undefined) => (ref ? exactlyOneProblem(ref, ["label_id", "name"]) : null);

/** Grape reports every parameter problem of a request in one message. */
function throwProblems(problems: (string | null)[]): void {
  const found = problems.filter((p): p is string => p != null);
  if (found.length) throw paramError(found.join(", "));
}

/** The label the deprecated PUT names: its id, else its name, as `:label_id` would. */
export const labelRefOf = (ref: LabelRefParams) => (ref.label_id != null ? String(ref.label_id) : ref.name!);

/** A group's label cannot be changed or deleted through a project (GitLab answers 403). */
function requireOwnLabel(ctx: DomainContext, { access, label }: ProjectLabelAccess): void {
  if (!canAdminProjectLabels(ctx, access) || label.projectId !== access.project.id) throw forbidden();
}

/**
 * PUT /projects/:id/labels/:label_id on a label found by findProjectLabelToUpdate, as GitLab's
 * update_label: admin_label on the project first; a change of title, colour or description then
 * needs admin_label on the label itself (a group label's: on its group), a priority alone does not,
 * so a project's Planner may prioritise its group's labels for the project; a group label's title
 * is unique within its group (400, as the group's own route answers).
 */
export async function updateProjectLabel(ctx: DomainContext, found: ProjectLabelAccess, input: LabelInput): Promise<Label> {
  const { label, access } = found;
  requireAdminProjectLabels(ctx, access);
  const changes = input.new_name != null || input.color != null || input.description != null;
  const values = {
    title: input.new_name != null ? clean(input.new_name) : label.title,
    color: input.color != null ? colorOf(input.color) : label.color,
    description: input.description != null ? input.description.trim() || null : label.description,
  };
  if (changes) {
    if (label.projectId == null) {
      const group = access.project.namespace;
      if (group.kind !== "group" || group.id !== label.groupId) throw forbidden();
      requireAdminGroupLabels(ctx, await shownGroupAccess(ctx, group));
    }
    assertValidLabel(values);
    if (values.title !== label.title) {
      const owner = label.projectId != null ? { projectId: access.project.id } : { groupId: label.groupId };
      if (await ctx.db.label.findFirst({ where: { ...owner, title: values.title }, select: { id: true } })) {
        if (label.projectId != null) throw conflict("Label already exists");
        throw validationError({ title: ["has already been taken"] });
      }
    }
  }
  return ctx.db.$transaction(async (tx) => {
    const updated = changes ? await tx.label.update({ where: { id: label.id }, data: { ...values, updatedAt: ctx.now() } }) : label;
    if (input.priority === null) await tx.labelPriority.deleteMany({ where: { projectId: access.project.id, labelId: label.id } });
    else if (input.priority !== undefined) {
      await tx.labelPriority.upsert({
        where: { projectId_labelId: { projectId: access.project.id, labelId: label.id } },
        create: { projectId: access.project.id, labelId: label.id, priority: input.priority },
        update: { priority: input.priority },
      });
    }
    return updated;
  });
}

/** DELETE /projects/:id/labels/:label_id: the label, its links, priorities and subscriptions (by foreign key). */
export async function deleteProjectLabel(ctx: DomainContext, found: ProjectLabelAccess): Promise<void> {
  requireOwnLabel(ctx, found);
  await ctx.db.label.delete({ where: { id: found.label.id } });
}

/** POST /groups/:id/labels on a group the caller may write labels in (requireAdminGroupLabels). */
export async function createGroupLabel(ctx: DomainContext, access: GroupAccess, input: LabelInput & { name: string; color: string }): Promise<Label> {
  const values = { title: clean(input.name), color: colorOf(input.color), description: input.description?.trim() || null };
  assertValidLabel(values);
  if (await ctx.db.label.findFirst({ where: { groupId: { in: ancestorIds(access.group) }, title: values.title }, select: { id: true } })) {
    throw conflict("Label already exists");
  }
  const now = ctx.now();
  return ctx.db.label.create({ data: { ...values, groupId: access.group.id, createdAt: now, updatedAt: now } });
}

/** PUT /groups/:id/labels/:name on one of the group's own labels (findGroupLabelToAdminister). */
export async function updateGroupLabel(ctx: DomainContext, { label, access }: GroupLabelAccess, input: LabelInput): Promise<Label> {
  const values = {
    title: input.new_name != null ? clean(input.new_name) : label.title,
    color: input.color != null ? colorOf(input.color) : label.color,
    description: input.description != null ? input.description.trim() || null : label.description,
  };
  assertValidLabel(values);
  // Label's uniqueness validation of the title within its group (UpdateService saves, the API renders the errors)
  if (values.title !== label.title && (await ctx.db.label.findFirst({ where: { groupId: access.group.id, title: values.title }, select: { id: true } }))) {
    throw validationError({ title: ["has already been taken"] });
  }
  return ctx.db.label.update({ where: { id: label.id }, data: { ...values, updatedAt: ctx.now() } });
}

/** DELETE /groups/:id/labels/:name: the label, its links, priorities and subscriptions (by foreign key). */
export async function deleteGroupLabel(ctx: DomainContext, { label }: GroupLabelAccess): Promise<void> {
  await ctx.db.label.delete({ where: { id: label.id } });
}

/** POST .../labels/:label_id/subscribe: 304 Not Modified when the caller subscribes already. */
export async function subscribeToLabel(ctx: DomainContext, label: Label): Promise<void> {
  const userId = requireAuthenticated(ctx).user.id;
  const key = { labelId_userId: { labelId: label.id, userId } };
  if (await ctx.db.labelSubscription.findUnique({ where: key, select: { userId: true } })) throw notModified();
  await ctx.db.labelSubscription.upsert({ where: key, create: { labelId: label.id, userId }, update: {} });
}

/** POST .../labels/:label_id/unsubscribe: 304 Not Modified when the caller does not subscribe. */
export async function unsubscribeFromLabel(ctx: DomainContext, label: Label): Promise<void> {
  const userId = requireAuthenticated(ctx).user.id;
  const { count } = await ctx.db.labelSubscription.deleteMany({ where: { labelId: label.id, userId } });
  if (!count) throw notModified();
}
