// Audit events: GitLab's AuditEvent entity and the Audit Events API (the instance's, a group's and
// a project's), offset or keyset paged (pagination=keyset, order_by=id, sort=desc).
import {
  findInstanceAuditEvent, findScopedAuditEvent, listInstanceAuditEvents, listInstanceAuditEventsKeyset, listScopedAuditEvents,
  listScopedAuditEventsKeyset,
} from "../domain/audit-events/lists.js";
import { auditEventDetails } from "../domain/audit-events/presenter.js";
import { findGroup, findProject } from "../domain/shared/parents.js";
import { builder } from "./builder.js";
import { PaginationMode, pageArgs, rowsOf } from "./pagination.js";
import * as route from "../rest/route.js";

/** GitLab's EE::API::Entities::AuditEvent. */
const AuditEventEntity = builder.prismaObject("AuditEvent", {
  name: "AuditEvent",
  fields: (t) => ({
    id: t.exposeInt("id"),
    author_id: t.exposeInt("authorId"),
    entity_id: t.exposeInt("entityId"),
    entity_type: t.exposeString("entityType"),
    event_name: t.exposeString("eventName"),
    details: t.field({ type: "JSON", resolve: (e) => auditEventDetails(e) }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
  }),
});

const dateArgs = builder.args((t) => ({
  created_after: t.field({ type: "DateTime", required: false }),
  created_before: t.field({ type: "DateTime", required: false }),
}));

const keysetArgs = builder.args((t) => ({
  pagination: t.field({ type: PaginationMode, required: false }),
  order_by: t.string({ required: false }),
  sort: t.string({ required: false }),
  cursor: t.string({ required: false }),
}));

builder.queryFields((t) => ({
  auditEvents: t.prismaField({
    type: [AuditEventEntity],
    extensions: { rest: route.get("/audit_events"), access: "admin" },
    args: {
      ...dateArgs,
      entity_type: t.arg.string({ required: false }),
      entity_id: t.arg.int({ required: false }),
      ...pageArgs,
      ...keysetArgs,
    },
    resolve: async (_q, _r, { pagination, page, per_page, cursor, ...filters }, ctx) =>
      rowsOf(ctx, pagination === "keyset"
        ? await listInstanceAuditEventsKeyset(ctx, filters, { per_page, cursor })
        : await listInstanceAuditEvents(ctx, filters, { page, per_page })),
  }),
  auditEvent: t.prismaField({
    type: AuditEventEntity,
    extensions: { rest: route.get("/audit_events/:id"), access: "admin" },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_q, _r, { id }, ctx) => findInstanceAuditEvent(ctx, id),
  }),
  groupAuditEvents: t.prismaField({
    type: [AuditEventEntity],
    extensions: { rest: route.get("/groups/:id/audit_events") },
    args: { id: t.arg.id({ required: true }), ...dateArgs, ...pageArgs, ...keysetArgs },
    resolve: async (_q, _r, { id, pagination, page, per_page, cursor, ...filters }, ctx) => {
      const group = await findGroup(ctx, String(id));
      return rowsOf(ctx, pagination === "keyset"
        ? await listScopedAuditEventsKeyset(ctx, group, filters, { per_page, cursor })
        : await listScopedAuditEvents(ctx, group, filters, { page, per_page }));
    },
  }),
  groupAuditEvent: t.prismaField({
    type: AuditEventEntity,
    extensions: { rest: route.get("/groups/:id/audit_events/:audit_event_id") },
    args: { id: t.arg.id({ required: true }), audit_event_id: t.arg.int({ required: true }) },
    resolve: async (_q, _r, { id, audit_event_id }, ctx) => findScopedAuditEvent(ctx, await findGroup(ctx, String(id)), audit_event_id),
  }),
  projectAuditEvents: t.prismaField({
    type: [AuditEventEntity],
    extensions: { rest: route.get("/projects/:id/audit_events") },
    args: { id: t.arg.id({ required: true }), ...dateArgs, ...pageArgs, ...keysetArgs },
    resolve: async (_q, _r, { id, pagination, page, per_page, cursor, ...filters }, ctx) => {
      const project = await findProject(ctx, String(id));
      return rowsOf(ctx, pagination === "keyset"
        ? await listScopedAuditEventsKeyset(ctx, project, filters, { per_page, cursor })
        : await listScopedAuditEvents(ctx, project, filters, { page, per_page }));
    },
  }),
  projectAuditEvent: t.prismaField({
    type: AuditEventEntity,
    extensions: { rest: route.get("/projects/:id/audit_events/:audit_event_id") },
    args: { id: t.arg.id({ required: true }), audit_event_id: t.arg.int({ required: true }) },
    resolve: async (_q, _r, { id, audit_event_id }, ctx) => findScopedAuditEvent(ctx, await findProject(ctx, String(id)), audit_event_id),
  }),
}));
