// Group and project lifecycle: deleting groups and projects (202 with Grape's `accepted!` body),
// transferring a group, a group's descendants, and the groups of a project.
import type { Namespace } from "../generated/prisma/client.js";
import { deleteGroup, listDescendantGroups } from "../domain/deletions/groups.js";
import { transferGroup } from "../domain/groups/transfer.js";
import { deleteProject } from "../domain/deletions/projects.js";
import { listProjectGroups, projectGroupFilters } from "../domain/projects/groups.js";
import { findGroup, findProject } from "../domain/shared/parents.js";
import { builder } from "./builder.js";
import { GroupDetail, groupFilterArgs } from "./groups.js";
import { GroupEntity, groupFields } from "./namespaces.js";
import { pageArgs, rowsOf } from "./pagination.js";
import * as route from "../rest/route.js";

const authenticated = { access: "authenticated" } as const;

/** Grape's `accepted!`: `{"message":"202 Accepted"}`. */
const AcceptedMessage = builder.objectRef<{ message: string }>("AcceptedMessage").implement({
  fields: (t) => ({ message: t.exposeString("message") }),
});

/** GitLab's PublicGroupDetails: BasicGroupDetails (id, web_url, name) with avatar and full name/path. */
const PublicGroupDetails = builder.prismaObject("Namespace", {
  variant: "PublicGroupDetails",
  fields: (t) => {
    const all = groupFields(t as Parameters<typeof groupFields>[0]);
    return { id: all.id, web_url: all.web_url, name: all.name, avatar_url: all.avatar_url, full_name: all.full_name, full_path: all.full_path };
  },
});

builder.queryFields((t) => ({
  groupDescendantGroups: t.prismaField({
    extensions: { rest: route.get("/groups/:id/descendant_groups") },
    type: [GroupEntity],
    args: { id: t.arg.id({ required: true }), ...pageArgs, ...groupFilterArgs },
    resolve: async (_query, _r, { id, page, per_page, ...filters }, ctx) =>
      rowsOf(ctx, await listDescendantGroups(ctx, await findGroup(ctx, String(id)), filters, { page, per_page })),
  }),
  projectGroups: t.prismaField({
    extensions: { rest: route.get("/projects/:id/groups") },
    type: [PublicGroupDetails],
    args: {
      id: t.arg.id({ required: true }),
      ...pageArgs,
      search: t.arg.string({ required: false }),
      skip_groups: t.arg.intList({ required: false }),
      with_shared: t.arg.boolean({ required: false }),
      shared_visible_only: t.arg.boolean({ required: false }),
      shared_min_access_level: t.arg.int({ required: false }),
    },
    resolve: async (_q, _r, { id, page, per_page, ...params }, ctx) => {
      const filters = projectGroupFilters(params);
      return rowsOf(ctx, await listProjectGroups(ctx, await findProject(ctx, String(id)), filters, { page, per_page }));
    },
  }),
}));

builder.mutationFields((t) => ({
  /** DELETE honours If-Unmodified-Since (destroy_conditionally!). */
  deleteGroup: t.field({
    type: AcceptedMessage,
    extensions: { rest: route.del("/groups/:id", { status: 202 }), ...authenticated },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => deleteGroup(ctx, await findGroup(ctx, String(args.id)), ctx.request.headers.get("if-unmodified-since")),
  }),
  transferGroup: t.prismaField({
    type: GroupDetail,
    extensions: { rest: route.post("/groups/:id/transfer"), ...authenticated },
    args: { id: t.arg.id({ required: true }), group_id: t.arg.int({ required: false }) },
    resolve: async (_q, _r, args, ctx): Promise<Namespace> => transferGroup(ctx, await findGroup(ctx, String(args.id)), args.group_id),
  }),
  deleteProject: t.field({
    type: AcceptedMessage,
    extensions: { rest: route.del("/projects/:id", { status: 202 }), ...authenticated },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => deleteProject(ctx, await findProject(ctx, String(args.id)), ctx.request.headers.get("if-unmodified-since")),
  }),
}));
