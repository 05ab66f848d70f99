// The events lists (GitLab's EventsFinder): a user's contribution events (GET /events for the
// caller, GET /users/:id/events for anyone's), and a project's (GET /projects/:id/events). Only
// events in projects the caller can see are counted and paged; each row of the page is then shown
// only when the caller may read what it is about (Event#visible_to_user?), so a page may come out
// shorter than per_page while the total still counts it, as GitLab's does.
import type { Event, Prisma, User } from "../../generated/prisma/client.js";
import { AccessLevel, canReadInternalNotes } from "../shared/access-levels.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { requireAuthenticated } from "../shared/guards.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { projectById, shownProjectAccess, type ProjectAccess } from "../shared/parents.js";
import { featureAvailable } from "../shared/project-features.js";
import { authorizedProjectsWhere, visibleProjectsWhere } from "../shared/visibility-filters.js";
import { canReadIssue } from "../issues/queries.js";
import { canReadMergeRequests } from "../merge-requests/queries.js";
import { canReadSnippet } from "../snippets/queries.js";
import type { NoteView } from "../notes/queries.js";
import { loadPageTargets, targetKey, type PageTargets, type TargetFacts } from "./loaders.js";
import { EVENT_TARGET_TYPES, isNoteTarget, type EventFilters } from "./rules.js";

/** An event as the entities show it: its row with its target's iid and title, and the note it names. */
export type EventView = Event & { targetIid: number | null; targetTitle: string | null; note: NoteView | null };

export interface OwnEventFilters extends EventFilters {
  /** "all": the events of every project the caller is a member of, by anyone */
  scope?: string | null;
}

const DAY_MS = 86_400_000;

function filtersWhere(filters: EventFilters): Prisma.EventWhereInput[] {
  const and: Prisma.EventWhereInput[] = [];
  if (filters.action) and.push({ action: filters.action });
  if (filters.target_type) and.push({ targetType: EVENT_TARGET_TYPES[filters.target_type] });
  // before: earlier than the day began; after: later than the day ended (both exclusive, in UTC)
  if (filters.before) and.push({ createdAt: { lt: startOfDay(filters.before) } });
  if (filters.after) and.push({ createdAt: { gte: new Date(startOfDay(filters.after).getTime() + DAY_MS) } });
  return and;
}

const startOfDay = (date: Date) => new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);

/** GET /events: the caller's own events, or with scope=all every event of the projects they are a member of. */
export async function listOwnEvents(ctx: DomainContext, filters: OwnEventFilters, page: PageArgs): Promise<Page<EventView>> {
  const { user } = requireAuthenticated(ctx);
  if (filters.scope === "all") {
    const where = { AND: [{ project: await authorizedProjectsWhere(ctx, AccessLevel.guest) }, ...filtersWhere(filters)] };
    return pageOfEvents(ctx, where, filters, page);
  }
  return listUserEvents(ctx, user, filters, page);
}

/**
 * GET /users/:id/events: the user's events in the projects the caller can see. A blocked user's
 * profile is private (UserPolicy's read_user_profile): others get no events, themselves and
 * administrators all.
 */
export async function listUserEvents(ctx: DomainContext, user: User, filters: EventFilters, page: PageArgs): Promise<Page<EventView>> {
  if (!canReadProfile(ctx, user)) return paginate(page, async () => 0, async () => []);
  const where = { AND: [{ authorId: user.id }, { project: await visibleProjectsWhere(ctx) }, ...filtersWhere(filters)] };
  return pageOfEvents(ctx, where, filters, page);
}

/** GET /projects/:id/events: the project's events (the project was found, so the caller sees it). */
export async function listProjectEvents(ctx: DomainContext, access: ProjectAccess, filters: EventFilters, page: PageArgs): Promise<Page<EventView>> {
  const where = { AND: [{ projectId: access.project.id }, ...filtersWhere(filters)] };
  return pageOfEvents(ctx, where, filters, page, access);
}

/** UserPolicy: a blocked user's profile (and so their events) is theirs and the administrators' only. */
export function canReadProfile(ctx: DomainContext, user: User): boolean {
  return user.state !== "blocked" || isAdmin(ctx.actor) || ctx.actor?.user.id === user.id;
}

async function pageOfEvents(
  ctx: DomainContext, where: Prisma.EventWhereInput, filters: EventFilters, page: PageArgs, project?: ProjectAccess,
): Promise<Page<EventView>> {
  const orderBy = { id: filters.sort ?? "desc" } as const;
  const found = await paginate(
    page,
    (cap) => ctx.db.event.count({ where, take: cap }),
    (skip, take) => ctx.db.event.findMany({ where, orderBy, skip, take }),
  );
  const [targets, accesses] = await Promise.all([loadPageTargets(ctx, found.rows), projectAccesses(ctx, found.rows, project)]);
  const rows = found.rows.flatMap((event) => {
    const access = accesses.get(event.projectId);
    return access && canReadEvent(ctx, access, event, targets) ? [view(event, targets)] : [];
  });
  return { rows, info: found.info };
}

/** The caller's access to each project of the page: the found project, or each one as already shown (it passed the list's visibility filter). */
async function projectAccesses(ctx: DomainContext, events: Event[], project?: ProjectAccess): Promise<Map<number, ProjectAccess>> {
  if (project) return new Map([[project.project.id, project]]);
  const ids = [...new Set(events.map((e) => e.projectId))];
  const accesses = await Promise.all(ids.map(async (id) => {
    const row = await projectById(ctx, id);
    return row ? await shownProjectAccess(ctx, row) : null;
  }));
  return new Map(accesses.flatMap((access) => (access ? [[access.project.id, access] as const] : [])));
}

/**
 * Event#visible_to_user?: a push needs the code (download_code), a project created or a member who
 * joined or left only the project, an issue or merge request (or a comment on one) that the caller
 * may read it, a comment on a snippet the snippet, and an internal comment Reporter or above.
 */
export function canReadEvent(ctx: DomainContext, access: ProjectAccess, event: Event, targets: PageTargets): boolean {
  if (event.action === "pushed") return featureAvailable(ctx, access, "repository");
  if (event.targetType === null) return ["created", "joined", "left", "expired"].includes(event.action);
  if (event.targetType === "Issue" || event.targetType === "MergeRequest") {
    return canReadRecord(ctx, access, targets.records.get(targetKey(event.targetType, event.targetId!)));
  }
  if (isNoteTarget(event.targetType)) {
    const note = targets.notes.get(event.targetId!);
    if (!note || (note.internal && !canReadInternalNotes(ctx, access))) return false;
    return canReadRecord(ctx, access, targets.records.get(targetKey(note.noteableType, note.noteableId)));
  }
  return false;
}

function canReadRecord(ctx: DomainContext, access: ProjectAccess, record: TargetFacts | undefined): boolean {
  if (!record) return false;
  if (record.kind === "Issue") {
    return canReadIssue(ctx, access, { confidential: record.confidential, authorId: record.authorId ?? -1, assignees: record.assigneeIds.map((userId) => ({ userId })) });
  }
  if (record.kind === "MergeRequest") return canReadMergeRequests(ctx, access);
  return canReadSnippet(ctx, access, { visibility: record.visibility ?? "private" });
}

/** Event#target_iid (an issue's or merge request's iid, else the target's id) and target_title (a note has none). */
function view(event: Event, targets: PageTargets): EventView {
  if (event.targetId === null) return { ...event, targetIid: null, targetTitle: null, note: null };
  if (isNoteTarget(event.targetType)) {
    const note = targets.notes.get(event.targetId)!;
    const noteable = targets.records.get(targetKey(note.noteableType, note.noteableId));
    return { ...event, targetIid: event.targetId, targetTitle: null, note: { ...note, noteableIid: noteable?.iid ?? null } };
  }
  const record = targets.records.get(targetKey(event.targetType!, event.targetId));
  return { ...event, targetIid: record?.iid ?? event.targetId, targetTitle: record?.title ?? null, note: null };
}
