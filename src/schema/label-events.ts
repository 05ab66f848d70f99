// Resource label events (GitLab's ResourceLabelEvents API): GET
// /projects/:id/issues/:issue_iid/resource_label_events (and one by id), the same for merge
// requests, for a signed-in caller who may read the issue or merge request (and its notes).
import { findLabelEvent, listLabelEvents, type ShownLabelEvent } from "../domain/labels/history.js";
import { builder } from "./builder.js";
import { eventId, EVENT_ISSUABLE_KINDS, findEventIssuable } from "./resource-event-issuables.js";
import { user } from "./issuables.js";
import { labelBasic, LabelBasicEntity } from "./labels.js";
import { pageArgs, rowsOf } from "./pagination.js";
import { UserBasic } from "./users.js";
import * as route from "../rest/route.js";

/** Entities::ResourceLabelEvent. */
const LabelEventEntity = builder.objectRef<ShownLabelEvent>("ResourceLabelEvent").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    user: t.field({ type: UserBasic, nullable: true, resolve: (event, _a, ctx) => user(ctx, event.userId) }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    resource_type: t.string({ resolve: (event) => (event.issueId !== null ? "Issue" : "MergeRequest") }),
    resource_id: t.int({ resolve: (event) => (event.issueId ?? event.mergeRequestId)! }),
    label: t.field({ type: LabelBasicEntity, nullable: true, resolve: (event) => (event.label ? labelBasic(event.label) : null) }),
    action: t.exposeString("action"),
  }),
});

for (const kind of EVENT_ISSUABLE_KINDS) {
  const base = `/projects/:id/${kind.segment}/:${kind.param}/resource_label_events`;
  builder.queryFields((t) => ({
    [`${kind.stem}LabelEvents`]: t.field({
      type: [LabelEventEntity],
      extensions: { rest: route.get(base), access: "authenticated" },
      args: { id: t.arg.id({ required: true }), [kind.param]: t.arg.int({ required: true }), ...pageArgs },
      resolve: async (_r, args: any, ctx) => rowsOf(ctx, await listLabelEvents(ctx, await findEventIssuable(ctx, kind, args), { page: args.page, per_page: args.per_page })),
    }),
    [`${kind.stem}LabelEvent`]: t.field({
      type: LabelEventEntity,
      extensions: { rest: route.get(`${base}/:resource_label_event_id`), access: "authenticated" },
      args: { id: t.arg.id({ required: true }), [kind.param]: t.arg.int({ required: true }), resource_label_event_id: t.arg.string({ required: true }) },
      resolve: async (_r, args: any, ctx) => findLabelEvent(ctx, await findEventIssuable(ctx, kind, args), eventId(args.resource_label_event_id)),
    }),
  }));
}
