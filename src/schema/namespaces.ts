// Group and namespace entities (GitLab's Group, GroupDetail and NamespaceBasic).
import type { Namespace } from "../generated/prisma/client.js";
import type { Context } from "../context.js";
import { ancestorIds } from "../domain/shared/access-levels.js";
import { avatarUrl } from "../domain/shared/avatars.js";
import { groupWebUrl } from "../domain/groups/queries.js";
import { VISIBILITIES } from "../domain/shared/paths.js";
import { builder } from "./builder.js";
import { namespaceLoader } from "../domain/shared/loaders.js";

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

export const NamespaceBasic = builder.prismaObject("Namespace", {
  variant: "NamespaceBasic",
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    path: t.exposeString("path"),
    kind: t.exposeString("kind"),
    full_path: t.exposeString("fullPath"),
    parent_id: t.exposeInt("parentId", { nullable: true }),
    avatar_url: t.string({ nullable: true, resolve: (ns, _a, ctx) => avatarUrl(ctx, ns.avatarPath) }),
    web_url: t.string({ resolve: (ns, _a, ctx) => namespaceWebUrl(ctx, ns) }),
  }),
});
