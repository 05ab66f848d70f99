// Project and group access tokens (GitLab's resource access tokens): each token belongs to its own
// bot user (userType "project_bot") that is a direct member of the project or group with the
// token's access level. Rules and error texts follow lib/api/resource_access_tokens.rb and
// app/services/resource_access_tokens/{create,revoke}_service.rb.
import { revokeToken } from "../auth/token-store.js";
import { randomBytes } from "node:crypto";
import type { AccessToken, Prisma, User } from "../../generated/prisma/client.js";
import { badRequest, notFound, paramError, unauthorized } from "../../errors.js";
import { AccessLevel } from "../shared/access-levels.js";
import { findGroup, findProject, type GroupOrProjectAccess } from "../shared/parents.js";
import { requireAuthenticated } from "../shared/guards.js";
import { isAdmin, type DomainContext } from "../shared/context.js";
import { insertMember, publishMember } from "../members/writes.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { issueToken } from "./personal.js";
import { insertUser } from "../users/records.js";
import { containsText } from "../shared/paths.js";
import { recordId } from "../shared/record-ids.js";
import { publish } from "../shared/events.js";

export type ResourceType = "project" | "group";

/** `Gitlab::Auth.resource_bot_scopes`: the non-admin scopes without read_user. */
export const RESOURCE_TOKEN_SCOPES = [
  "api", "read_api", "create_runner", "manage_runner", "k8s_proxy", "self_rotate", "read_repository",
  "write_repository", "read_registry", "write_registry", "ai_features",
] as const;

/** `Gitlab::Access.options_with_owner`: Guest, Planner, Reporter, Developer, Maintainer, Owner. */
export const RESOURCE_TOKEN_LEVELS: readonly number[] = [10, 15, 20, 30, 40, 50];

const MAX_LIFETIME_DAYS = 365;

export interface ResourceAccessToken extends AccessToken {
  resourceType: ResourceType;
  /** the bot's direct membership level in the resource (null if the membership was removed) */
  accessLevel: number | null;
}

export type ResourceAccessTokenWithSecret = ResourceAccessToken & { token: string };

export interface NewResourceTokenInput {
  name: string;
  scopes: string[];
  access_level?: number | null;
  expires_at?: Date | null;
  description?: string | null;
}

export interface ResourceTokenFilters {
  revoked?: boolean | null;
  state?: "active" | "inactive" | null;
  search?: string | null;
  created_before?: Date | null;
  created_after?: Date | null;
  last_used_before?: Date | null;
  last_used_after?: Date | null;
  expires_before?: Date | null;
  expires_after?: Date | null;
}

/** The bot user behind a project or group access token (reset_approvals admits only these). */
export function isResourceBot(user: Pick<User, "userType"> | null | undefined): boolean {
  return user?.userType === "project_bot";
}

interface Resource {
  type: ResourceType;
  id: number;
  /** the caller's level there (admins count as Owner) */
  level: number;
}

/** `:id` of the project or group (404 when the caller may not see it). */
export function findTokenResource(ctx: DomainContext, type: ResourceType, id: string): Promise<GroupOrProjectAccess> {
  return type === "project" ? findProject(ctx, id) : findGroup(ctx, id);
}

function resourceOf(ctx: DomainContext, access: GroupOrProjectAccess): Resource {
  const [type, id] = "group" in access ? ["group" as const, access.group.id] : ["project" as const, access.project.id];
  return { type, id, level: isAdmin(ctx.actor) ? AccessLevel.owner : access.level };
}

async function findResource(ctx: DomainContext, type: ResourceType, id: string): Promise<Resource> {
  return resourceOf(ctx, await findTokenResource(ctx, type, id));
}

/** `read/destroy_resource_access_tokens`: `admin_project` (Maintainer) or `admin_group` (Owner). */
function mayManage(r: Resource): boolean {
  return r.level >= (r.type === "project" ? AccessLevel.maintainer : AccessLevel.owner);
}

/** `Authz::Role.access_level_encompasses?`: Planner only from Owners (or Planners). */
function encompasses(current: number, assign: number): boolean {
  if (assign === AccessLevel.planner) return current === AccessLevel.owner || current === AccessLevel.planner;
  return assign <= current;
}

/** GET /projects/:id/access_tokens and /groups/:id/access_tokens: oldest first. */
export async function listResourceAccessTokens(
  ctx: DomainContext, resource: GroupOrProjectAccess, filters: ResourceTokenFilters, page: PageArgs,
): Promise<Page<ResourceAccessToken>> {
  requireAuthenticated(ctx);
  const r = resourceOf(ctx, resource);
  if (!mayManage(r)) throw unauthorized();
  const where = { kind: r.type, resourceId: r.id, ...filterWhere(ctx, filters) };
  const listed = await paginate(
    page,
    (cap) => ctx.db.accessToken.count({ where, take: cap }),
    (skip, take) => ctx.db.accessToken.findMany({ where, orderBy: { id: "asc" }, skip, take }),
  );
  return { ...listed, rows: await withLevels(ctx, r, listed.rows) };
}

function filterWhere(ctx: DomainContext, f: ResourceTokenFilters): Prisma.AccessTokenWhereInput {
  const now = ctx.now();
  const and: Prisma.AccessTokenWhereInput[] = [];
  if (f.revoked != null) and.push({ revoked: f.revoked });
  if (f.state === "active") and.push({ revoked: false, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });
  if (f.state === "inactive") and.push({ OR: [{ revoked: true }, { expiresAt: { lte: now } }] });
  if (f.search) and.push({ name: containsText(ctx.dialect, f.search) });
  if (f.created_before) and.push({ createdAt: { lte: f.created_before } });
  if (f.created_after) and.push({ createdAt: { gte: f.created_after } });
  if (f.last_used_before) and.push({ lastUsedAt: { lte: f.last_used_before } });
  if (f.last_used_after) and.push({ lastUsedAt: { gte: f.last_used_after } });
  if (f.expires_before) and.push({ expiresAt: { lt: f.expires_before } });
  if (f.expires_after) and.push({ expiresAt: { gt: f.expires_after } });
  return { AND: and };
}

/** GET .../access_tokens/:token_id: 401, 404 resource, 401 for those who may not manage its tokens, 404 token. */
export async function findResourceAccessToken(
  ctx: DomainContext, type: ResourceType, id: string, tokenId: string,
): Promise<ResourceAccessToken> {
  requireAuthenticated(ctx);
  const r = await findResource(ctx, type, id);
  if (!mayManage(r)) throw unauthorized();
  const [token] = await withLevels(ctx, r, [await findToken(ctx, r, tokenId)]);
  return token!;
}

/** GitLab answers 404 `"<type> Access Token"` for ids of other resources too. */
async function findToken(ctx: DomainContext, r: Resource, tokenId: string): Promise<AccessToken & { user: User }> {
  const token = /^\d+$/.test(tokenId)
    ? await ctx.db.accessToken.findFirst({ where: { id: recordId(tokenId), kind: r.type, resourceId: r.id }, include: { user: true } })
    : null;
  if (!token) throw notFound(`${r.type} Access Token`);
  return token;
}

async function withLevels(ctx: DomainContext, r: Resource, tokens: AccessToken[]): Promise<ResourceAccessToken[]> {
  const userIds = tokens.map((t) => t.userId);
  const members = r.type === "project"
    ? await ctx.db.projectMember.findMany({ where: { projectId: r.id, userId: { in: userIds } } })
    : await ctx.db.groupMember.findMany({ where: { groupId: r.id, userId: { in: userIds } } });
  const level = new Map(members.map((m) => [m.userId, m.accessLevel]));
  return tokens.map((t) => ({ ...t, resourceType: r.type, accessLevel: level.get(t.userId) ?? null }));
}

/** The caller (401) and the params (400) of a new token, checked before its resource is looked up. */
export function checkResourceTokenInput(ctx: DomainContext, input: NewResourceTokenInput): void {
  requireAuthenticated(ctx);
  if (!RESOURCE_TOKEN_LEVELS.includes(levelOf(input))) throw paramError("access_level does not have a valid value");
  if (input.expires_at && input.expires_at <= startOfToday(ctx)) throw paramError("expires_at is invalid");
}

const levelOf = (input: NewResourceTokenInput) => input.access_level ?? AccessLevel.maintainer;

/**
 * Creates the bot user, its membership and its token in one transaction (after
 * checkResourceTokenInput). Refusals are GitLab's `bad_request!(service.message)` answers.
 */
export async function createResourceAccessToken(
  ctx: DomainContext, resource: GroupOrProjectAccess, input: NewResourceTokenInput,
): Promise<ResourceAccessTokenWithSecret> {
  const actor = requireAuthenticated(ctx);
  const accessLevel = levelOf(input);
  const latest = new Date(startOfToday(ctx).getTime() + MAX_LIFETIME_DAYS * 86_400_000);
  const r = resourceOf(ctx, resource);
  const { type } = r;
  if (!mayManage(r) || isResourceBot(actor.user)) {
    throw badRequest(`User does not have permission to create ${type} access token`);
  }
  if (!encompasses(r.level, accessLevel)) {
    throw badRequest("Access level of the token contains permissions not held by the creating user");
  }
  if (!input.name.trim()) throw badRequest("Name can't be blank");
  if (input.scopes.length === 0) throw badRequest("Scopes can't be blank");
  if (input.expires_at && input.expires_at > latest) throw badRequest(`Expires at must be before ${isoDate(latest)}`);
  const username = `${type}_${r.id}_bot_${randomBytes(16).toString("hex")}`;
  const host = new URL(ctx.config.publicUrl).hostname;
  return ctx.db.$transaction(async (tx) => {
    const bot = await insertUser(ctx, {
      username,
      name: input.name,
      email: `${username}@noreply.${host}`,
      userType: "project_bot",
      password: randomBytes(32).toString("base64url"),
    }, tx);
    const member = await insertMember(tx, type, r.id, bot.id, accessLevel, null, actor.user.id);
    await publishMember(tx, ctx, "create", type, r.id, member);
    const token = await issueToken(tx, ctx, {
      userId: bot.id, kind: type, resourceId: r.id,
      name: input.name, scopes: [...new Set(input.scopes)], expires_at: input.expires_at, description: input.description,
    });
    const { token: _secret, ...row } = token;
    await publish(tx, ctx, "access_token", { action: "create", token: row, resource: { type, id: r.id }, actorId: actor.user.id });
    return { ...token, resourceType: type, accessLevel: member.accessLevel };
  });
}

/** Expiry dates not after today are bad parameters (as for personal tokens). */
function startOfToday(ctx: DomainContext): Date {
  const now = ctx.now();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** A token and the resource it belongs to, before any check of the caller's rights there. */
export interface OwnedResourceToken {
  resource: GroupOrProjectAccess;
  token: AccessToken & { user: User };
}

/** DELETE .../access_tokens/:token_id: 401, 404 resource, then 404 token (the right to revoke is the verb's, 400). */
export async function findOwnedResourceToken(ctx: DomainContext, type: ResourceType, id: string, tokenId: string): Promise<OwnedResourceToken> {
  requireAuthenticated(ctx);
  const resource = await findTokenResource(ctx, type, id);
  return { resource, token: await findToken(ctx, resourceOf(ctx, resource), tokenId) };
}

/**
 * Revokes the token. As GitLab since 17.9 (`retain_resource_access_token_user_after_revoke`), the
 * bot user and its membership stay, so the token is still listed as inactive; a revoked token no
 * longer authenticates.
 */
export async function revokeResourceAccessToken(ctx: DomainContext, { resource, token }: OwnedResourceToken): Promise<boolean> {
  const actor = requireAuthenticated(ctx);
  const r = resourceOf(ctx, resource);
  if (!mayManage(r)) throw badRequest(`${actor.user.name} cannot delete ${token.user.name}`);
  const [withLevel] = await withLevels(ctx, r, [token]);
  if (withLevel!.accessLevel === null) throw badRequest("Failed to find bot user");
  await ctx.db.$transaction(async (tx) => {
    const { user: _bot, ...row } = token;
    await revokeToken({ db: tx }, token);
    await publish(tx, ctx, "access_token", { action: "revoke", token: row, resource: { type: r.type, id: r.id }, actorId: actor.user.id });
  });
  return true;
}
