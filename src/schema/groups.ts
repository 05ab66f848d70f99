// Groups and subgroups: lists, GitLab's GroupDetail (with the visible projects), create, update.
import type { Namespace } from "../generated/prisma/client.js";
import { findGroup, findGroupToWrite } from "../domain/shared/parents.js";
import { createGroup, updateGroup } from "../domain/groups/writes.js";
import { GROUP_ORDER_COLUMNS, listGroups, listGroupsKeyset, listSubgroups } from "../domain/groups/lists.js";
import { listNamespaceProjects } from "../domain/projects/lists.js";
import { builder } from "./builder.js";
import { GroupEntity, groupFields, VisibilityEnum } from "./namespaces.js";
import { keysetArgs, pageArgs, rowsOf, SortDirectionEnum } from "./pagination.js";
import { ProjectEntity } from "./projects.js";
import * as route from "../rest/route.js";
import { groupSharedProjects, groupSharedWithGroups } from "../domain/sharing/presenter.js";
import { SharedGroupEntity } from "./shared-groups.js";

/** GitLab lists at most this many projects in a group's detail (GroupProjectsFinder's limit). */
const DETAIL_PROJECTS_LIMIT = 100;
/** `with_projects=false` on GET /groups/:id: the detail leaves the projects out. */
const withoutProjects = new WeakSet<Namespace>();

/** GitLab's GroupDetail: the Group fields plus the projects the caller can see in it. */
export const GroupDetail = builder.prismaObject("Namespace", {
  variant: "GroupDetail",
  fields: (t) => ({
    ...groupFields(t as Parameters<typeof groupFields>[0]),
    shared_with_groups: t.field({ type: [SharedGroupEntity], resolve: (g, _a, ctx) => groupSharedWithGroups(ctx, g) }),
    projects: t.prismaField({
      type: [ProjectEntity],
      nullable: true,
      resolve: async (_query, g, _a, ctx) =>
        withoutProjects.has(g) ? null : (await listNamespaceProjects(ctx, g, {}, { per_page: DETAIL_PROJECTS_LIMIT })).rows,
    }),
    shared_projects: t.prismaField({
      type: [ProjectEntity],
      nullable: true,
      resolve: async (_query, g, _a, ctx) => (withoutProjects.has(g) ? null : groupSharedProjects(ctx, g, DETAIL_PROJECTS_LIMIT)),
    }),
  }),
});

const GroupOrderBy = builder.enumType("GroupOrderBy", { values: GROUP_ORDER_COLUMNS });

export const groupFilterArgs = builder.args((t) => ({
  search: t.string({ required: false }),
  owned: t.boolean({ required: false }),
  min_access_level: t.int({ required: false }),
  top_level_only: t.boolean({ required: false }),
  all_available: t.boolean({ required: false }),
  skip_groups: t.intList({ required: false }),
  visibility: t.field({ type: VisibilityEnum, required: false }),
  order_by: t.field({ type: GroupOrderBy, required: false }),
  sort: t.field({ type: SortDirectionEnum, required: false }),
}));

const groupInputArgs = builder.args((t) => ({
  description: t.string({ required: false }),
  visibility: t.field({ type: VisibilityEnum, required: false }),
  request_access_enabled: t.boolean({ required: false }),
  avatar: t.field({ type: "Upload", required: false }),
}));

builder.queryFields((t) => ({
  groups: t.prismaField({
    extensions: { rest: route.get("/groups") },
    type: [GroupEntity],
    args: { ...pageArgs, ...keysetArgs, ...groupFilterArgs, cursor: t.arg.string({ required: false }) },
    resolve: async (_query, _r, { pagination, page, per_page, cursor, ...filters }, ctx) =>
      rowsOf(ctx, pagination === "keyset" ? await listGroupsKeyset(ctx, filters, { per_page, cursor }) : await listGroups(ctx, filters, { page, per_page })),
  }),
  group: t.prismaField({
    extensions: { rest: route.get("/groups/:id") },
    type: GroupDetail,
    args: { id: t.arg.id({ required: true }), with_projects: t.arg.boolean({ required: false }) },
    resolve: async (_q, _r, args, ctx) => {
      const { group } = await findGroup(ctx, String(args.id));
      if (args.with_projects === false) withoutProjects.add(group);
      return group;
    },
  }),
  groupSubgroups: t.prismaField({
    extensions: { rest: route.get("/groups/:id/subgroups") },
    type: [GroupEntity],
    args: { id: t.arg.id({ required: true }), ...pageArgs, ...groupFilterArgs },
    resolve: async (_query, _r, { id, page, per_page, ...filters }, ctx) =>
      rowsOf(ctx, await listSubgroups(ctx, await findGroup(ctx, String(id)), filters, { page, per_page })),
  }),
}));

builder.mutationFields((t) => ({
  createGroup: t.prismaField({
    type: GroupDetail,
    extensions: { rest: route.post("/groups"), access: "authenticated" },
    args: {
      name: t.arg.string({ required: true }),
      path: t.arg.string({ required: true }),
      parent_id: t.arg.int({ required: false }),
      ...groupInputArgs,
    },
    resolve: (_q, _r, args, ctx) => createGroup(ctx, args),
  }),
  updateGroup: t.prismaField({
    type: GroupDetail,
    extensions: { rest: route.put("/groups/:id"), access: "authenticated" },
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string({ required: false }),
      path: t.arg.string({ required: false }),
      ...groupInputArgs,
    },
    resolve: async (_q, _r, args, ctx) => {
      return updateGroup(ctx, await findGroupToWrite(ctx, String(args.id)), args);
    },
  }),
}));
