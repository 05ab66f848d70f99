// Group webhook payloads about a group itself: member events (Gitlab::HookData::GroupMemberBuilder,
// EE's group_plan included), subgroup events (SubgroupBuilder) and access token expiry notices
// (Gitlab::DataBuilder::ResourceAccessToken).
import type { AccessToken, Namespace, User } from "../../generated/prisma/client.js";
import { ROLE_NAMES } from "../../domain/shared/access-levels.js";
import { groupHookAttrs, isoDate, projectHookAttrs, rubyTime, webhookEmail, xmlschema, type Ctx, type ProjectWithNamespace } from "./common.js";

const MEMBER_EVENT_NAMES = { create: "user_add_to_group", update: "user_update_for_group", destroy: "user_remove_from_group" } as const;

export interface MemberSnapshot {
  accessLevel: number;
  expiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export function buildMemberPayload(action: keyof typeof MEMBER_EVENT_NAMES, group: Namespace, user: User, member: MemberSnapshot) {
  return {
    created_at: xmlschema(member.createdAt),
    updated_at: xmlschema(member.updatedAt),
    group_name: group.name,
    group_path: group.path,
    group_id: group.id,
    user_username: user.username,
    user_name: user.name,
    user_email: webhookEmail(user),
    user_id: user.id,
    group_access: ROLE_NAMES[member.accessLevel] ?? null,
    group_plan: null,
    expires_at: xmlschema(member.expiresAt),
    event_name: MEMBER_EVENT_NAMES[action],
  };
}

export function buildSubgroupPayload(action: "create" | "destroy", subgroup: Namespace, parent: Namespace) {
  return {
    created_at: xmlschema(subgroup.createdAt),
    updated_at: xmlschema(subgroup.updatedAt),
    event_name: action === "create" ? "subgroup_create" : "subgroup_destroy",
    name: subgroup.name,
    path: subgroup.path,
    full_path: subgroup.fullPath,
    group_id: subgroup.id,
    parent_group_id: parent.id,
    parent_name: parent.name,
    parent_path: parent.path,
    parent_full_path: parent.fullPath,
  };
}

/** ResourceAccessTokenBuilder's safe attributes of the token. */
export interface TokenAttrs extends Pick<AccessToken, "id" | "name" | "createdAt" | "expiresAt"> {
  userId: number | null;
}

export function accessTokenHookAttrs(token: TokenAttrs) {
  return { user_id: token.userId, created_at: rubyTime(token.createdAt), id: token.id, name: token.name, expires_at: isoDate(token.expiresAt) };
}

export type TokenResource = { type: "project"; project: ProjectWithNamespace } | { type: "group"; group: Namespace };

export function buildAccessTokenPayload(ctx: Ctx, token: TokenAttrs, resource: TokenResource) {
  const resourceAttrs = resource.type === "project"
    ? { project: projectHookAttrs(ctx, resource.project) }
    : { group: groupHookAttrs(resource.group) };
  return { object_kind: "access_token", ...resourceAttrs, object_attributes: accessTokenHookAttrs(token), event_name: "expiring_access_token" };
}
