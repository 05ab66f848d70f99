// Resource label events (GitLab's ResourceLabelEvent): a label added to or removed from an issue
// or a merge request, recorded by linkLabels inside the write that changed the labels, and listed
// for whoever may read the issuable. Events whose label the caller may not read are left out of a
// page (after paging, as GitLab filters the page), and one of them is 404 ResourceLabelEvent Not Found.
import type { Label, ResourceLabelEvent } from "../../generated/prisma/client.js";
import { notFound, recordNotFound } from "../../errors.js";
import { ancestorIds, canSee } from "../shared/access-levels.js";
import type { DomainContext } from "../shared/context.js";
import type { Tx } from "../shared/events.js";
import { projectAccessLevel } from "../shared/memberships.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { projectById, type ProjectAccess } from "../shared/parents.js";
import { fitsIdColumn } from "../shared/record-ids.js";
import { groupsShownAmong } from "../shared/visibility-filters.js";
import type { IssuableType as IssuableKind } from "../shared/issuable-facts.js";

/**
 * ResourceEvents::ChangeLabelsService: one "add" event per label added, then one "remove" per
 * label removed, by the caller, at the write's time.
 */
export async function recordLabelChanges(tx: Tx, ctx: DomainContext, kind: IssuableKind, id: number, added: number[], removed: number[]): Promise<void> {
  if (!added.length && !removed.length) return;
  const base = { ...(kind === "Issue" ? { issueId: id } : { mergeRequestId: id }), userId: ctx.actor!.user.id, createdAt: ctx.now() };
  await tx.resourceLabelEvent.createMany({
    data: [...added.map((labelId) => ({ ...base, labelId, action: "add" })), ...removed.map((labelId) => ({ ...base, labelId, action: "remove" }))],
  });
}

/** An issue or a merge request the caller was found allowed to read, as its notes are (notes' findNoteable), with its project. */
export type ReadableLabeledIssuable = { type: IssuableKind; id: number; access: ProjectAccess };

const targetWhere = (issuable: ReadableLabeledIssuable) => (issuable.type === "Issue" ? { issueId: issuable.id } : { mergeRequestId: issuable.id });

/** An event as the entity shows it: with its label (null when the label was deleted). */
export type ShownLabelEvent = ResourceLabelEvent & { label: Label | null };

/** GET .../resource_label_events: the issuable's events, oldest first, those with a label the caller may not read left out. */
export async function listLabelEvents(ctx: DomainContext, issuable: ReadableLabeledIssuable, page: PageArgs): Promise<Page<ShownLabelEvent>> {
  const where = targetWhere(issuable);
  const found = await paginate(
    page,
    (cap) => ctx.db.resourceLabelEvent.count({ where, take: cap }),
    (skip, take) => ctx.db.resourceLabelEvent.findMany({ where, orderBy: { id: "asc" }, skip, take, include: { label: true } }),
  );
  const readable = await readableLabels(ctx, issuable.access, found.rows.map((event) => event.label));
  return { ...found, rows: found.rows.filter((event) => event.label === null || readable.has(event.label.id)) };
}

/** GET .../resource_label_events/:resource_label_event_id: one of the issuable's (404 Not found), whose label the caller may read (404 ResourceLabelEvent Not Found). */
export async function findLabelEvent(ctx: DomainContext, issuable: ReadableLabeledIssuable, id: number): Promise<ShownLabelEvent> {
  const event = fitsIdColumn(id) ? await ctx.db.resourceLabelEvent.findFirst({ where: { id, ...targetWhere(issuable) }, include: { label: true } }) : null;
  if (!event) throw recordNotFound();
  if (event.label && !(await readableLabels(ctx, issuable.access, [event.label])).has(event.label.id)) throw notFound("ResourceLabelEvent");
  return event;
}

/**
 * The labels among these the caller may read (GitLab's read_label): the project's own and its
 * groups' go with the issuable the caller reads; another project's label needs that project, a
 * label of a group the project is no longer in (a transfer) needs that group.
 */
async function readableLabels(ctx: DomainContext, { project }: ProjectAccess, labels: (Label | null)[]): Promise<Set<number>> {
  const groups = new Set(project.namespace.kind === "group" ? ancestorIds(project.namespace) : []);
  const readable = new Set<number>();
  const foreignProjects = new Map<number, number[]>();
  const foreignGroups = new Map<number, number[]>();
  for (const label of labels) {
    if (!label) continue;
    if (label.projectId === project.id || (label.groupId != null && groups.has(label.groupId))) readable.add(label.id);
    else if (label.projectId != null) foreignProjects.set(label.projectId, [...(foreignProjects.get(label.projectId) ?? []), label.id]);
    else if (label.groupId != null) foreignGroups.set(label.groupId, [...(foreignGroups.get(label.groupId) ?? []), label.id]);
  }
  for (const [projectId, ids] of foreignProjects) {
    const other = await projectById(ctx, projectId);
    if (other && canSee(ctx.actor, other.visibility, await projectAccessLevel(ctx, other))) ids.forEach((id) => readable.add(id));
  }
  if (foreignGroups.size) {
    const shown = await groupsShownAmong(ctx, [...foreignGroups.keys()]);
    for (const [groupId, ids] of foreignGroups) if (shown.has(groupId)) ids.forEach((id) => readable.add(id));
  }
  return readable;
}
