// Events: GitLab's Event and PushEventPayload entities and the Events API: the caller's events,
// a user's contribution events (by id or username) and a project's events.
import type { Context } from "../context.js";
import type { User } from "../generated/prisma/client.js";
import { findProject } from "../domain/shared/parents.js";
import { userLoader } from "../domain/shared/loaders.js";
import { findUserByIdOrUsername } from "../domain/users/queries.js";
import { listOwnEvents, listProjectEvents, listUserEvents, type EventView } from "../domain/events/lists.js";
import { actionName, EVENT_ACTIONS, EVENT_TARGET_TYPE_PARAMS } from "../domain/events/rules.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf, SortDirectionEnum } from "./pagination.js";
import { UserBasic } from "./users.js";
import { NoteEntity } from "./notes.js";
import * as route from "../rest/route.js";

const EventActionParam = builder.enumType("EventActionParam", { values: EVENT_ACTIONS });
const EventTargetTypeParam = builder.enumType("EventTargetTypeParam", { values: EVENT_TARGET_TYPE_PARAMS });

/** GitLab's PushEventPayload entity (the push columns of an event row). */
const PushEventPayload = builder.objectRef<EventView>("PushEventPayload").implement({
  fields: (t) => ({
    commit_count: t.int({ resolve: (e) => e.pushCommitCount ?? 0 }),
    action: t.string({ resolve: (e) => e.pushAction ?? "pushed" }),
    ref_type: t.string({ resolve: (e) => e.pushRefType ?? "branch" }),
    commit_from: t.string({ nullable: true, resolve: (e) => e.pushCommitFrom }),
    commit_to: t.string({ nullable: true, resolve: (e) => e.pushCommitTo }),
    ref: t.string({ nullable: true, resolve: (e) => e.pushRef }),
    commit_title: t.string({ nullable: true, resolve: (e) => e.pushCommitTitle }),
    ref_count: t.int({ nullable: true, resolve: (e) => e.pushRefCount }),
  }),
});

const authorOf = async (ctx: Context, e: EventView) => (await ctx.loaders.get(userLoader).load(e.authorId)) as User;

/** GitLab's Event entity: `note` for a comment, `push_data` for a push. */
const EventEntity = builder.prismaObject("Event", {
  name: "Event",
  fields: (t) => ({
    id: t.exposeInt("id"),
    project_id: t.exposeInt("projectId"),
    action_name: t.string({ resolve: (e) => actionName(e) }),
    target_id: t.exposeInt("targetId", { nullable: true }),
    target_iid: t.int({ nullable: true, resolve: (e) => (e as EventView).targetIid }),
    target_type: t.exposeString("targetType", { nullable: true }),
    author_id: t.exposeInt("authorId"),
    target_title: t.string({ nullable: true, resolve: (e) => (e as EventView).targetTitle }),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    note: t.field({ type: NoteEntity, nullable: true, extensions: { restIf: "note" }, resolve: (e) => (e as EventView).note }),
    author: t.field({ type: UserBasic, resolve: (e, _a, ctx) => authorOf(ctx, e as EventView) }),
    imported: t.boolean({ resolve: () => false }),
    imported_from: t.string({ resolve: () => "none" }),
    push_data: t.field({
      type: PushEventPayload,
      nullable: true,
      extensions: { restIf: "push_data" },
      resolve: (e) => (e.action === "pushed" ? (e as EventView) : null),
    }),
    author_username: t.string({ resolve: async (e, _a, ctx) => (await authorOf(ctx, e as EventView)).username }),
  }),
});

const filterArgs = builder.args((t) => ({
  action: t.field({ type: EventActionParam, required: false }),
  target_type: t.field({ type: EventTargetTypeParam, required: false }),
  before: t.field({ type: "Date", required: false }),
  after: t.field({ type: "Date", required: false }),
  sort: t.field({ type: SortDirectionEnum, required: false }),
}));

// The Events API admits read_user tokens for GET (allow_access_with_scope :read_user)
const readUser = { tokenScopes: ["read_user"] };

builder.queryFields((t) => ({
  events: t.prismaField({
    extensions: { rest: route.get("/events"), access: "authenticated", ...readUser },
    type: [EventEntity],
    args: { scope: t.arg.string({ required: false }), ...filterArgs, ...pageArgs },
    resolve: async (_q, _r, { page, per_page, ...filters }, ctx) => rowsOf(ctx, await listOwnEvents(ctx, filters, { page, per_page })),
  }),
  userEvents: t.prismaField({
    extensions: { rest: route.get("/users/:id/events"), ...readUser },
    type: [EventEntity],
    args: { id: t.arg.string({ required: true }), ...filterArgs, ...pageArgs },
    resolve: async (_q, _r, { id, page, per_page, ...filters }, ctx) =>
      rowsOf(ctx, await listUserEvents(ctx, await findUserByIdOrUsername(ctx, id), filters, { page, per_page })),
  }),
  projectEvents: t.prismaField({
    extensions: { rest: route.get("/projects/:id/events") },
    type: [EventEntity],
    args: { id: t.arg.id({ required: true }), ...filterArgs, ...pageArgs },
    resolve: async (_q, _r, { id, page, per_page, ...filters }, ctx) =>
      rowsOf(ctx, await listProjectEvents(ctx, await findProject(ctx, String(id)), filters, { page, per_page })),
  }),
}));
