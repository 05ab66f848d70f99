// Audit events in the graph: a Forgeline extension (GitLab's public graph has no audit event
// list, only streaming destinations): Project.auditEvents and Group.auditEvents, newest first,
// with the domain's rules (Developers and above read them; only Owners of the group, Maintainers
// of the project and administrators see everyone's events, the others their own).
import type { AuditEvent, User } from "../../generated/prisma/client.js";
import { canReadAuditEvents, listScopedAuditEvents } from "../../domain/audit-events/lists.js";
import { auditEventDetails } from "../../domain/audit-events/presenter.js";
import { userLoader } from "../../domain/shared/loaders.js";
import { shownGroupAccess, shownProjectAccess, type GroupAccess, type ProjectAccess } from "../../domain/shared/parents.js";
import type { Context } from "../../context.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { offsetConnection } from "../shared/connections.js";
import { GroupRef } from "../groups/types.js";
import { ProjectRef } from "../projects/types.js";
import { UserRef } from "../users/types.js";

export const AuditEventRef = builder.objectRef<AuditEvent>("AuditEvent");

AuditEventRef.implement({
  description: "A security-relevant action recorded on a user, a group, a project or the instance (Forgeline extension).",
  fields: (t) => ({
    id: t.exposeID("id"),
    eventName: t.exposeString("eventName"),
    entityType: t.exposeString("entityType", { description: "User, Group, Project or Gitlab::Audit::InstanceScope." }),
    entityId: t.exposeInt("entityId"),
    authorId: t.exposeInt("authorId"),
    author: t.field({
      type: UserRef, nullable: true, description: "Who acted (null once the user is deleted).",
      resolve: async (event, _a, ctx) => (event.authorId > 0 ? ((await ctx.loaders.get(userLoader).load(event.authorId)) as User | null) : null),
    }),
    details: t.string({ description: "GitLab's details hash, as a JSON object's text.", resolve: (event) => JSON.stringify(auditEventDetails(event)) }),
    createdAt: t.expose("createdAt", { type: "Time" }),
  }),
});

const AuditEventConnection = countedConnection(AuditEventRef, "AuditEvent");
const EMPTY = { rows: [], info: { page: 1, perPage: 0, total: 0, hasNext: false, hasPrev: false } };

const auditEventsField = (t: any, shown: (ctx: Context, parent: any) => Promise<GroupAccess | ProjectAccess>) =>
  t.connection(
    {
      type: AuditEventRef,
      description: "Audit events, newest first (Forgeline extension; Developers and above).",
      args: {
        createdAfter: t.arg({ type: "Time", description: "Created at or after this time." }),
        createdBefore: t.arg({ type: "Time", description: "Created at or before this time." }),
      },
      resolve: async (parent: any, args: any, ctx: Context) => {
        const access = await shown(ctx, parent);
        // a parent whose audit events the caller may not read shows none
        if (!canReadAuditEvents(ctx, access)) return offsetConnection(args, async () => EMPTY);
        const filters = { created_after: args.createdAfter, created_before: args.createdBefore };
        return offsetConnection(args, (page) => listScopedAuditEvents(ctx, access, filters, page));
      },
    },
    AuditEventConnection,
  );

builder.objectFields(ProjectRef, (t) => ({ auditEvents: auditEventsField(t, shownProjectAccess) }));
builder.objectFields(GroupRef, (t) => ({ auditEvents: auditEventsField(t, shownGroupAccess) }));
