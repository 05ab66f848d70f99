// Groups and namespaces: `group(fullPath:)` with its subgroups, projects and members, and
// `namespace(fullPath:)` for groups and personal namespaces alike.
import type { Context } from "../../context.js";
import type { Namespace } from "../../generated/prisma/client.js";
import { ancestorIds } from "../../domain/shared/access-levels.js";
import { findGroup, findNamespaceByFullPath, shownGroupAccess } from "../../domain/shared/parents.js";
import { avatarUrl } from "../../domain/shared/avatars.js";
import { groupWebUrl } from "../../domain/groups/queries.js";
import { listGroupsBelow } from "../../domain/groups/lists.js";
import { listAllMembers } from "../../domain/members/lists.js";
import { listGroupProjects, listNamespaceProjects } from "../../domain/projects/lists.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { offsetConnection } from "../shared/connections.js";
import { orNull } from "../shared/errors.js";
import { GroupMemberConnection, GroupMemberRef } from "../members/types.js";
import { registerNodeLoader } from "../shared/node.js";
import { ProjectConnection, ProjectRef } from "../projects/types.js";
import { namespaceLoader } from "../../domain/shared/loaders.js";

export const GroupRef = builder.objectRef<Namespace>("Group");
export const NamespaceRef = builder.objectRef<Namespace>("Namespace");

const webUrlOf = (ctx: Context, ns: Namespace) => (ns.kind === "group" ? groupWebUrl(ctx, ns) : `${ctx.config.publicUrl}/${ns.fullPath}`);

/** "Parent / Child": the names of the group's ancestors (batched) and its own. */
async function fullNameOf(ctx: Context, ns: Namespace): Promise<string> {
  if (ns.kind !== "group") return ns.name;
  const ancestors = await ctx.loaders.get(namespaceLoader).loadMany(ancestorIds(ns).filter((id) => id !== ns.id));
  return [...ancestors.map((a) => (a && !(a instanceof Error) ? a.name : "")).filter(Boolean), ns.name].join(" / ");
}

type NamespaceFields = PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<any>, Namespace>;

const namespaceFields = (t: NamespaceFields) => ({
  name: t.exposeString("name"),
  path: t.exposeString("path"),
  fullPath: t.exposeString("fullPath"),
  fullName: t.string({ resolve: (ns: Namespace, _a: unknown, ctx: Context) => fullNameOf(ctx, ns) }),
  description: t.exposeString("description"),
  visibility: t.exposeString("visibility"),
  webUrl: t.string({ resolve: (ns: Namespace, _a: unknown, ctx: Context) => webUrlOf(ctx, ns) }),
  avatarUrl: t.string({ nullable: true, resolve: (ns: Namespace, _a: unknown, ctx: Context) => avatarUrl(ctx, ns.avatarPath) }),
  createdAt: t.expose("createdAt", { type: "Time" }),
});

builder.node(GroupRef, {
  description: "A group.",
  id: { resolve: (group) => group.id },
  fields: (t) => ({
    ...namespaceFields(t as never),
    parent: t.field({
      type: GroupRef,
      nullable: true,
      resolve: (group, _a, ctx) => (group.parentId == null ? null : orNull(async () => (await findGroup(ctx, group.parentId!)).group)),
    }),
    descendantGroups: t.connection(
      {
        type: GroupRef,
        description: "Subgroups, at every level below (includeParentDescendants, the default) or the direct children only.",
        args: { includeParentDescendants: t.arg.boolean({ defaultValue: true }), search: t.arg.string({ description: "Name or path contains this." }) },
        resolve: async (group, args, ctx) => {
          const parent = await shownGroupAccess(ctx, group);
          const below = args.includeParentDescendants ? "descendants" : "children";
          return offsetConnection(args, (page) => listGroupsBelow(ctx, parent, { search: args.search }, page, below));
        },
      },
      GroupConnection,
    ),
    projects: t.connection(
      {
        type: ProjectRef,
        args: { includeSubgroups: t.arg.boolean({ defaultValue: false }), search: t.arg.string({ description: "Name or path contains this." }) },
        resolve: async (group, args, ctx) => {
          const parent = await shownGroupAccess(ctx, group);
          return offsetConnection(args, (page) => listGroupProjects(ctx, parent, { include_subgroups: args.includeSubgroups, search: args.search }, page));
        },
      },
      ProjectConnection,
    ),
    groupMembers: t.connection(
      {
        type: GroupMemberRef,
        description: "Direct and inherited members.",
        args: { search: t.arg.string({ description: "Name or path contains this." }) },
        resolve: async (group, args, ctx) => {
          const parent = await shownGroupAccess(ctx, group);
          return offsetConnection(args, (page) => listAllMembers(ctx, parent, { query: args.search }, page));
        },
      },
      GroupMemberConnection,
    ),
  }),
});

export const GroupConnection = countedConnection(GroupRef, "Group");

builder.objectType(NamespaceRef, {
  description: "A group or a user's personal namespace.",
  fields: (t) => ({
    id: t.id({ resolve: (ns) => `gid://forgeline/${ns.kind === "group" ? "Group" : "Namespace"}/${ns.id}` }),
    ...namespaceFields(t as never),
    projects: t.connection(
      {
        type: ProjectRef,
        args: { search: t.arg.string({ description: "Name or path contains this." }) },
        resolve: (ns, args, ctx) => offsetConnection(args, (page) => listNamespaceProjects(ctx, ns, { search: args.search }, page)),
      },
      ProjectConnection,
    ),
  }),
});

registerNodeLoader("Group", GroupRef, async (ctx, id) => (await findGroup(ctx, id)).group);

builder.queryFields((t) => ({
  group: t.field({
    type: GroupRef,
    nullable: true,
    args: { fullPath: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => byFullPath(args.fullPath, async (path) => (await findGroup(ctx, path)).group),
  }),
  namespace: t.field({
    type: NamespaceRef,
    nullable: true,
    args: { fullPath: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => byFullPath(args.fullPath, async (path) => (await findNamespaceByFullPath(ctx, path)).namespace),
  }),
}));

/**
 * A lookup by full path, null when hidden or missing. The domain's lookups also take numeric ids,
 * which a path argument must not reach (a path has a slash or a letter).
 */
export function byFullPath<T>(fullPath: string | number, find: (path: string) => Promise<T>): Promise<T | null> {
  const path = String(fullPath);
  return /^\d+$/.test(path) ? Promise.resolve(null) : orNull(() => find(path));
}
