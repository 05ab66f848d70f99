// Resource milestone events (GitLab's ResourceMilestoneEvents API): GET
// /projects/:id/issues/:issue_iid/resource_milestone_events (and one by id), the same for merge
// requests, for a signed-in caller who may read the issue or merge request (and its notes).
import type { ResourceMilestoneEvent } from "../generated/prisma/client.js";
import { findMilestoneEvent, listMilestoneEvents } from "../domain/milestones/history.js";
import { builder } from "./builder.js";
import { eventId, EVENT_ISSUABLE_KINDS, findEventIssuable } from "./resource-event-issuables.js";
import { milestoneOf, user } from "./issuables.js";
import { pageArgs, rowsOf } from "./pagination.js";
import { UserBasic } from "./users.js";
import * as route from "../rest/route.js";

/** Entities::ResourceMilestoneEvent. */
const MilestoneEventEntity = builder.objectRef<ResourceMilestoneEvent>("ResourceMilestoneEvent").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    user: t.field({ type: UserBasic, nullable: true, resolve: (event, _a, ctx) => user(ctx, event.userId) }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    resource_type: t.string({ resolve: (event) => (event.issueId !== null ? "Issue" : "MergeRequest") }),
    resource_id: t.int({ resolve: (event) => (event.issueId ?? event.mergeRequestId)! }),
    milestone: t.field({ type: "JSON", nullable: true, resolve: (event, _a, ctx) => milestoneOf(ctx, event.milestoneId) }),
    action: t.exposeString("action"),
    state: t.exposeString("state"),
  }),
});

for (const kind of EVENT_ISSUABLE_KINDS) {
  const base = `/projects/:id/${kind.segment}/:${kind.param}/resource_milestone_events`;
  builder.queryFields((t) => ({
    [`${kind.stem}MilestoneEvents`]: t.field({
      type: [MilestoneEventEntity],
      extensions: { rest: route.get(base), access: "authenticated" },
      args: { id: t.arg.id({ required: true }), [kind.param]: t.arg.int({ required: true }), ...pageArgs },
      resolve: async (_r, args: any, ctx) =>
        rowsOf(ctx, await listMilestoneEvents(ctx, await findEventIssuable(ctx, kind, args), { page: args.page, per_page: args.per_page })),
    }),
    [`${kind.stem}MilestoneEvent`]: t.field({
      type: MilestoneEventEntity,
      extensions: { rest: route.get(`${base}/:resource_milestone_event_id`), access: "authenticated" },
      args: { id: t.arg.id({ required: true }), [kind.param]: t.arg.int({ required: true }), resource_milestone_event_id: t.arg.string({ required: true }) },
      resolve: async (_r, args: any, ctx) =>
        findMilestoneEvent(ctx, await findEventIssuable(ctx, kind, args), eventId(args.resource_milestone_event_id)),
    }),
  }));
}
