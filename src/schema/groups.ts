import { createGroup, getGroup, GROUP_ORDER_COLUMNS, listGroups, listGroupsKeyset, listSubgroups, updateGroup } from "../domain/groups.js";
import { VISIBILITIES } from "../domain/paths.js";
import { builder } from "./builder.js";
import { GroupEntity } from "./namespaces.js";
import { keysetArgs, pageArgs, rowsOf, SortDirectionEnum } from "./pagination.js";

export const VisibilityEnum = builder.enumType("Visibility", { values: VISIBILITIES });
const GroupOrderBy = builder.enumType("GroupOrderBy", { values: GROUP_ORDER_COLUMNS });

const groupFilterArgs = builder.args((t) => ({
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
}));

builder.queryFields((t) => ({
  groups: t.prismaField({
    type: [GroupEntity],
    args: { ...pageArgs, ...keysetArgs, ...groupFilterArgs, cursor: t.arg.string({ required: false }) },
    resolve: async (query, _r, args, ctx) =>
      rowsOf(ctx, args.pagination === "keyset" ? await listGroupsKeyset(ctx, args, query) : await listGroups(ctx, args, query)),
  }),
  group: t.prismaField({
    type: GroupEntity,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_q, _r, args, ctx) => getGroup(ctx, String(args.id)),
  }),
  groupSubgroups: t.prismaField({
    type: [GroupEntity],
    args: { id: t.arg.id({ required: true }), ...pageArgs, ...groupFilterArgs },
    resolve: async (query, _r, args, ctx) => rowsOf(ctx, await listSubgroups(ctx, String(args.id), args, query)),
  }),
}));

builder.mutationFields((t) => ({
  createGroup: t.prismaField({
    type: GroupEntity,
    extensions: { access: "authenticated" },
    args: {
      name: t.arg.string({ required: true }),
      path: t.arg.string({ required: true }),
      parent_id: t.arg.int({ required: false }),
      ...groupInputArgs,
    },
    resolve: (_q, _r, args, ctx) => createGroup(ctx, args),
  }),
  updateGroup: t.prismaField({
    type: GroupEntity,
    extensions: { access: "authenticated" },
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string({ required: false }),
      path: t.arg.string({ required: false }),
      ...groupInputArgs,
    },
    resolve: (_q, _r, args, ctx) => updateGroup(ctx, String(args.id), args),
  }),
}));
