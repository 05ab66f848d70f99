// Group and namespace entities (GitLab's Group, GroupDetail, NamespaceBasic and Namespace), and the
// Namespaces API: the caller's namespaces, one namespace, and whether a path is taken.
import type { Namespace } from "../generated/prisma/client.js";
import type { Context } from "../context.js";
import { ancestorIds } from "../domain/shared/access-levels.js";
import { avatarUrl } from "../domain/shared/avatars.js";
import { groupWebUrl } from "../domain/groups/queries.js";
import { VISIBILITIES } from "../domain/shared/paths.js";
import { builder } from "./builder.js";
import { namespaceLoader, userLoader } from "../domain/shared/loaders.js";
import { findNamespace } from "../domain/shared/parents.js";
import { listNamespaces } from "../domain/groups/lists.js";
import { ownerCountsOf } from "../domain/groups/presenter.js";
import { namespacePathAvailability, type PathAvailability } from "../domain/groups/availability.js";
import { avatarUrlOfUser } from "../domain/users/presenter.js";
import { pageArgs, rowsOf } from "./pagination.js";
import * as route from "../rest/route.js";

export const VisibilityEnum = builder.enumType("Visibility", { values: VISIBILITIES });

export function namespaceWebUrl(ctx: Context, ns: Namespace) {
  return ns.kind === "group" ? groupWebUrl(ctx, ns) : `${ctx.config.publicUrl}/${ns.fullPath}`;
}

/** "Parent / Child" names of the group and its ancestors (one batched query per page). */
export async function namespaceFullName(ctx: Context, group: Namespace): Promise<string> {
  if (group.kind !== "group") return group.name;
  const ancestors = await ctx.loaders.get(namespaceLoader).loadMany(ancestorIds(group).filter((id) => id !== group.id));
  const names = ancestors.map((a) => (a && !(a instanceof Error) ? a.name : "")).filter(Boolean);
  return [...names, group.name].join(" / ");
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type GroupFieldBuilder = PothosSchemaTypes.PrismaObjectFieldBuilder<any, any, any>;

/** GitLab's Group entity; GroupDetail (schema/groups.ts) adds the projects. */
export const groupFields = (t: GroupFieldBuilder) => ({
  id: t.exposeInt("id"),
  web_url: t.string({ resolve: (g: Namespace, _a: unknown, ctx: Context) => groupWebUrl(ctx, g) }),
  name: t.exposeString("name"),
  path: t.exposeString("path"),
  description: t.exposeString("description"),
  visibility: t.exposeString("visibility"),
  share_with_group_lock: t.boolean({ resolve: () => false }),
  require_two_factor_authentication: t.boolean({ resolve: () => false }),
  two_factor_grace_period: t.int({ resolve: () => 48 }),
  project_creation_level: t.string({ resolve: () => "developer" }),
  subgroup_creation_level: t.string({ resolve: () => "maintainer" }),
  emails_disabled: t.boolean({ resolve: () => false }),
  emails_enabled: t.boolean({ resolve: () => true }),
  lfs_enabled: t.boolean({ resolve: () => true }),
  default_branch_protection: t.int({ resolve: () => 2 }),
  avatar_url: t.string({ nullable: true, resolve: (g: Namespace, _a: unknown, ctx: Context) => avatarUrl(ctx, g.avatarPath) }),
  request_access_enabled: t.exposeBoolean("requestAccessEnabled"),
  full_name: t.string({ resolve: (g: Namespace, _a: unknown, ctx: Context) => namespaceFullName(ctx, g) }),
  full_path: t.exposeString("fullPath"),
  created_at: t.expose("createdAt", { type: "DateTime" }),
  parent_id: t.exposeInt("parentId", { nullable: true }),
  ldap_cn: t.string({ nullable: true, resolve: () => null }),
  ldap_access: t.int({ nullable: true, resolve: () => null }),
});

export const GroupEntity = builder.prismaObject("Namespace", {
  name: "Group",
  fields: (t) => groupFields(t as GroupFieldBuilder),
});

/** A namespace's avatar: a group's own, or the owner's for a personal namespace (GitLab delegates it). */
async function namespaceAvatarUrl(ctx: Context, ns: Namespace): Promise<string | null> {
  if (ns.kind === "group" || ns.ownerId == null) return avatarUrl(ctx, ns.avatarPath);
  const owner = await ctx.loaders.get(userLoader).load(ns.ownerId);
  return owner ? avatarUrlOfUser(ctx, owner) : null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type NamespaceFieldBuilder = PothosSchemaTypes.PrismaObjectFieldBuilder<any, any, any>;

/** GitLab's NamespaceBasic entity; Namespace adds what a group's Owners see. */
const namespaceBasicFields = (t: NamespaceFieldBuilder) => ({
  id: t.exposeInt("id"),
  name: t.exposeString("name"),
  path: t.exposeString("path"),
  kind: t.exposeString("kind"),
  full_path: t.exposeString("fullPath"),
  parent_id: t.exposeInt("parentId", { nullable: true }),
  avatar_url: t.string({ nullable: true, resolve: (ns: Namespace, _a: unknown, ctx: Context) => namespaceAvatarUrl(ctx, ns) }),
  web_url: t.string({ resolve: (ns: Namespace, _a: unknown, ctx: Context) => namespaceWebUrl(ctx, ns) }),
});

export const NamespaceBasic = builder.prismaObject("Namespace", {
  variant: "NamespaceBasic",
  fields: (t) => namespaceBasicFields(t as NamespaceFieldBuilder),
});

/** Shown with `members_count_with_descendants` only (GitLab's `admin_group` condition on all three). */
const forGroupOwners = { restIf: "members_count_with_descendants" };

/**
 * GitLab's Namespace entity (the Namespaces API). A group's Owners and the administrators also see
 * its members and projects counted over its hierarchy, and `root_repository_size` (null: no
 * storage statistics are kept here; GitLab's is null too until they are first aggregated).
 */
export const NamespaceEntity = builder.prismaObject("Namespace", {
  variant: "Namespace",
  fields: (t) => ({
    ...namespaceBasicFields(t as NamespaceFieldBuilder),
    members_count_with_descendants: t.int({
      nullable: true,
      extensions: { restIf: "members_count_with_descendants" },
      resolve: async (ns, _a, ctx) => (await ownerCountsOf(ctx, ns))?.members ?? null,
    }),
    root_repository_size: t.int({ nullable: true, extensions: forGroupOwners, resolve: () => null }),
    projects_count: t.int({
      nullable: true,
      extensions: forGroupOwners,
      resolve: async (ns, _a, ctx) => (await ownerCountsOf(ctx, ns))?.projects ?? null,
    }),
  }),
});

/** GitLab's NamespaceExistence entity. */
const NamespaceExistence = builder.objectRef<PathAvailability>("NamespaceExistence").implement({
  fields: (t) => ({
    exists: t.exposeBoolean("exists"),
    suggests: t.exposeStringList("suggests"),
  }),
});

builder.queryFields((t) => ({
  namespaces: t.prismaField({
    extensions: { rest: route.get("/namespaces"), access: "authenticated" },
    type: [NamespaceEntity],
    args: {
      search: t.arg.string({ required: false }),
      owned_only: t.arg.boolean({ required: false }),
      top_level_only: t.arg.boolean({ required: false }),
      ...pageArgs,
    },
    resolve: async (_q, _r, { page, per_page, ...filters }, ctx) => rowsOf(ctx, await listNamespaces(ctx, filters, { page, per_page })),
  }),
  namespace: t.prismaField({
    extensions: { rest: route.get("/namespaces/:id"), access: "authenticated" },
    type: NamespaceEntity,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_q, _r, args, ctx) => (await findNamespace(ctx, String(args.id))).namespace,
  }),
  namespaceExists: t.field({
    extensions: { rest: route.get("/namespaces/:namespace/exists"), access: "authenticated" },
    type: NamespaceExistence,
    args: { namespace: t.arg.string({ required: true }), parent_id: t.arg.int({ required: false }) },
    resolve: (_r, args, ctx) => namespacePathAvailability(ctx, args.namespace, args.parent_id ?? null),
  }),
}));
