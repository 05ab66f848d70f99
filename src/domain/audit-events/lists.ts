// Reading audit events (GitLab's Audit Events API, AuditEventFinder): the instance's for
// administrators, a group's and a project's for their Developers and above (read_*_audit_events),
// where only Owners of the group and Maintainers of the project (admin_group, admin_project) see
// everyone's events, the others only their own (filter_by_author). Offset pages, or keyset pages
// (pagination=keyset, order_by=id, sort=desc only) with a cursor in the next link.
import { AppError, forbidden, paramError, recordNotFound } from "../../errors.js";
import type { AuditEvent, Prisma } from "../../generated/prisma/client.js";
import { AccessLevel } from "../shared/access-levels.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { requireAdmin } from "../shared/guards.js";
import {
  afterCursor, decodeCursor, encodeCursor, paginate, pageWindow, type KeysetPage, type KeysetPageArgs, type Page, type PageArgs,
} from "../shared/pagination.js";
import type { GroupOrProjectAccess } from "../shared/parents.js";
import { AUDIT_ENTITY_TYPES } from "./writes.js";

export interface AuditEventFilters {
  created_after?: Date | null;
  created_before?: Date | null;
}

export interface InstanceAuditEventFilters extends AuditEventFilters {
  entity_type?: string | null;
  entity_id?: number | null;
}

/** pagination=keyset's ordering params (GitLab supports order_by=id with sort=desc for audit events). */
export interface AuditEventOrder {
  order_by?: string | null;
  sort?: string | null;
}

/** Grape's checks of the instance list's params, in GitLab's declaration order. */
export function checkInstanceAuditEventFilters(filters: InstanceAuditEventFilters): void {
  if (filters.entity_type != null && !(AUDIT_ENTITY_TYPES as readonly string[]).includes(filters.entity_type)) {
    throw paramError("entity_type does not have a valid value");
  }
}

/** GET /audit_events: administrators only (authenticated_as_admin!). */
export function listInstanceAuditEvents(ctx: DomainContext, filters: InstanceAuditEventFilters, page: PageArgs): Promise<Page<AuditEvent>> {
  requireAdmin(ctx);
  checkInstanceAuditEventFilters(filters);
  return pageOf(ctx, instanceWhere(filters), page);
}

export function listInstanceAuditEventsKeyset(
  ctx: DomainContext, filters: InstanceAuditEventFilters & AuditEventOrder, page: KeysetPageArgs,
): Promise<KeysetPage<AuditEvent>> {
  requireAdmin(ctx);
  checkInstanceAuditEventFilters(filters);
  return keysetPageOf(ctx, instanceWhere(filters), filters, page);
}

/** GET /audit_events/:id */
export async function findInstanceAuditEvent(ctx: DomainContext, id: number): Promise<AuditEvent> {
  requireAdmin(ctx);
  return found(await ctx.db.auditEvent.findUnique({ where: { id } }));
}

/** GET /groups/:id/audit_events and /projects/:id/audit_events on a group or project the caller sees (findGroup, findProject). */
export function listScopedAuditEvents(ctx: DomainContext, access: GroupOrProjectAccess, filters: AuditEventFilters, page: PageArgs): Promise<Page<AuditEvent>> {
  return pageOf(ctx, scopedWhere(ctx, access, filters), page);
}

/** The same, in keyset pages. */
export function listScopedAuditEventsKeyset(
  ctx: DomainContext, access: GroupOrProjectAccess, filters: AuditEventFilters & AuditEventOrder, page: KeysetPageArgs,
): Promise<KeysetPage<AuditEvent>> {
  return keysetPageOf(ctx, scopedWhere(ctx, access, filters), filters, page);
}

/** GET /groups/:id/audit_events/:audit_event_id and the project's: one of the events the list would show. */
export async function findScopedAuditEvent(ctx: DomainContext, access: GroupOrProjectAccess, id: number): Promise<AuditEvent> {
  return found(await ctx.db.auditEvent.findFirst({ where: { AND: [scopedWhere(ctx, access, {}), { id }] } }));
}

/**
 * read_group_audit_events / read_project_audit_events: Developers and above (anonymous callers and
 * lower roles 403, after the parent's 404). Owners of a group, Maintainers of a project and
 * administrators see every event; the others only their own.
 */
export function canReadAuditEvents(ctx: DomainContext, access: GroupOrProjectAccess): boolean {
  return isAdmin(ctx.actor) || (!!ctx.actor && access.level >= AccessLevel.developer);
}

export function seesEveryAuditEvent(ctx: DomainContext, access: GroupOrProjectAccess): boolean {
  return isAdmin(ctx.actor) || access.level >= ("group" in access ? AccessLevel.owner : AccessLevel.maintainer);
}

function scopedWhere(ctx: DomainContext, access: GroupOrProjectAccess, filters: AuditEventFilters): Prisma.AuditEventWhereInput {
  if (!canReadAuditEvents(ctx, access)) throw forbidden();
  const entity = "group" in access ? { entityType: "Group", entityId: access.group.id } : { entityType: "Project", entityId: access.project.id };
  const own = seesEveryAuditEvent(ctx, access) ? {} : { authorId: ctx.actor!.user.id };
  return { ...entity, ...own, ...createdWhere(filters) };
}

function instanceWhere(filters: InstanceAuditEventFilters): Prisma.AuditEventWhereInput {
  const entity = filters.entity_type
    ? { entityType: filters.entity_type, ...(filters.entity_id != null ? { entityId: filters.entity_id } : {}) }
    : {};
  return { ...entity, ...createdWhere(filters) };
}

/** created_after and created_before, both inclusive. */
function createdWhere(filters: AuditEventFilters): Prisma.AuditEventWhereInput {
  if (!filters.created_after && !filters.created_before) return {};
  return { createdAt: { ...(filters.created_after ? { gte: filters.created_after } : {}), ...(filters.created_before ? { lte: filters.created_before } : {}) } };
}

const ORDER = { id: "desc" } as const;

function pageOf(ctx: DomainContext, where: Prisma.AuditEventWhereInput, page: PageArgs): Promise<Page<AuditEvent>> {
  return paginate(
    page,
    (cap) => ctx.db.auditEvent.count({ where, take: cap }),
    (skip, take) => ctx.db.auditEvent.findMany({ where, orderBy: ORDER, skip, take }),
  );
}

async function keysetPageOf(
  ctx: DomainContext, where: Prisma.AuditEventWhereInput, order: AuditEventOrder, page: KeysetPageArgs,
): Promise<KeysetPage<AuditEvent>> {
  if ((order.order_by ?? "id") !== "id" || (order.sort ?? "desc") !== "desc") {
    throw new AppError(405, { error: "Keyset pagination is not yet available for this type of request" });
  }
  const { take } = pageWindow(page);
  const and: Prisma.AuditEventWhereInput[] = [where];
  if (page.cursor) {
    const decoded = decodeCursor(page.cursor);
    if (!decoded) throw paramError("cursor is invalid");
    and.push(afterCursor("id", "desc", decoded[0], decoded[1]) as Prisma.AuditEventWhereInput);
  }
  const rows = await ctx.db.auditEvent.findMany({ where: { AND: and }, orderBy: ORDER, take: take + 1 });
  const shown = rows.slice(0, take);
  const last = shown.at(-1);
  return { rows: shown, next: rows.length > take && last ? { cursor: encodeCursor(last.id, last.id) } : null };
}

function found(event: AuditEvent | null): AuditEvent {
  if (!event) throw recordNotFound();
  return event;
}
