// Contribution events in the graph: GitLab's Event type (id, action, author, project, dates), listed
// by Project.events and UserCore.events, a Forgeline extension (GitLab's public graph lists events
// only on designs and epics). Both go through the Events API's lists, so the graph shows exactly
// the rows the REST lists show the same caller.
import type { Event } from "../../generated/prisma/client.js";
import { listProjectEvents, listUserEvents } from "../../domain/events/lists.js";
import { EVENT_ACTIONS, EVENT_TARGET_TYPE_PARAMS, type EventAction } from "../../domain/events/rules.js";
import { projectById, shownProjectAccess } from "../../domain/shared/parents.js";
import type { Context } from "../../context.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { offsetConnection } from "../shared/connections.js";
import { encodeGid } from "../shared/ids.js";
import { ProjectRef } from "../projects/types.js";
import { UserRef, userById } from "../users/types.js";

export const EventRef = builder.objectRef<Event>("Event");

const EventActionEnum = builder.enumType("EventAction", {
  description: "What the event's author did (GitLab's EventActionEnum).",
  values: Object.fromEntries(EVENT_ACTIONS.map((action) => [action.toUpperCase(), { value: action }])),
});
const EventTargetTypeEnum = builder.enumType("EventTargetType", {
  description: "What kind of record an event is about (the Events API's target_type).",
  values: Object.fromEntries(EVENT_TARGET_TYPE_PARAMS.map((type) => [type.toUpperCase(), { value: type }])),
});
const EventSortEnum = builder.enumType("EventSort", { values: { CREATED_DESC: { value: "desc" }, CREATED_ASC: { value: "asc" } } });

builder.objectType(EventRef, {
  description: "A contribution event: an issue or merge request opened, closed or merged, a comment, a push, a member who joined or left.",
  fields: (t) => ({
    id: t.id({ resolve: (event) => encodeGid("Event", event.id) }),
    action: t.field({ type: EventActionEnum, resolve: (event) => event.action as EventAction }),
    author: t.field({ type: UserRef, resolve: (event, _a, ctx) => userById(ctx, event.authorId) }),
    project: t.field({
      type: ProjectRef,
      nullable: true,
      resolve: async (event, _a, ctx) => {
        const project = await projectById(ctx, event.projectId);
        return project ? (await shownProjectAccess(ctx, project)).project : null;
      },
    }),
    createdAt: t.expose("createdAt", { type: "Time" }),
    updatedAt: t.expose("updatedAt", { type: "Time" }),
  }),
});

const EventConnection = countedConnection(EventRef, "Event");

const eventsField = (t: any, list: (ctx: Context, parent: any, filters: any) => (page: any) => Promise<any>) =>
  t.connection(
    {
      type: EventRef,
      description: "Contribution events the caller may see, newest first (Forgeline extension: GitLab's Events API as a connection).",
      args: {
        action: t.arg({ type: EventActionEnum }),
        targetType: t.arg({ type: EventTargetTypeEnum }),
        createdBefore: t.arg({ type: "Time", description: "Created before the day (UTC) of this time began (the API's before)." }),
        createdAfter: t.arg({ type: "Time", description: "Created after the day (UTC) of this time ended (the API's after)." }),
        sort: t.arg({ type: EventSortEnum, defaultValue: "desc" }),
      },
      resolve: (parent: any, args: any, ctx: Context) => {
        const filters = { action: args.action, target_type: args.targetType, before: args.createdBefore, after: args.createdAfter, sort: args.sort };
        return offsetConnection(args, list(ctx, parent, filters));
      },
    },
    EventConnection,
  );

builder.objectFields(ProjectRef, (t) => ({
  events: eventsField(t, (ctx, project, filters) => async (page) => listProjectEvents(ctx, await shownProjectAccess(ctx, project), filters, page)),
}));
builder.objectFields(UserRef, (t) => ({
  events: eventsField(t, (ctx, user, filters) => (page) => listUserEvents(ctx, user, filters, page)),
}));
