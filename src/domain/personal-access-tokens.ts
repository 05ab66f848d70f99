// Personal access tokens: created by administrators for a user (secret shown once), listed and
// revoked by their owner or an administrator.
import type { AccessToken, Prisma } from "../generated/prisma/client.js";
import { notFound, paramError } from "../errors.js";
import { requireAdmin, requireAuthenticated } from "./access.js";
import type { DomainContext } from "./context.js";
import { paginate, type Page, type PageArgs } from "./pagination.js";
import { digest, newTokenSecret } from "./secrets.js";

export const TOKEN_SCOPES = [
  "api", "read_api", "read_user", "create_runner", "manage_runner", "k8s_proxy", "read_repository",
  "write_repository", "read_registry", "write_registry", "ai_features", "sudo", "admin_mode",
  "read_service_ping", "self_rotate",
] as const;

/** The most a token may live without an explicit date, as GitLab's default expiry. */
const DEFAULT_LIFETIME_DAYS = 365;

export interface NewTokenInput {
  name: string;
  scopes: string[];
  expires_at?: Date | null;
  description?: string | null;
}

export type TokenWithSecret = AccessToken & { token: string };

export function validateTokenInput(ctx: DomainContext, input: NewTokenInput, allowed: readonly string[] = TOKEN_SCOPES) {
  if (!input.name.trim()) throw paramError("name is empty");
  if (input.scopes.length === 0) throw paramError("scopes is empty");
  if (input.scopes.some((scope) => !allowed.includes(scope))) throw paramError("scopes does not have a valid value");
  if (input.expires_at && input.expires_at <= startOfDay(ctx.now())) {
    throw paramError("expires_at is invalid");
  }
}

export function defaultExpiry(ctx: DomainContext, expiresAt: Date | null | undefined): Date {
  if (expiresAt) return expiresAt;
  const date = startOfDay(ctx.now());
  date.setUTCDate(date.getUTCDate() + DEFAULT_LIFETIME_DAYS);
  return date;
}

const startOfDay = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));

/** Stores a new token for `userId`; only the digest is kept, the secret is returned once. */
export async function issueToken(
  tx: Prisma.TransactionClient,
  ctx: DomainContext,
  data: { userId: number; kind: string; resourceId?: number | null } & NewTokenInput,
): Promise<TokenWithSecret> {
  const secret = newTokenSecret(data.kind === "personal" ? "glpat-" : "glpat-");
  const row = await tx.accessToken.create({
    data: {
      userId: data.userId,
      name: data.name,
      description: data.description ?? "",
      scopes: data.scopes.join(" "),
      kind: data.kind,
      resourceId: data.resourceId ?? null,
      expiresAt: defaultExpiry(ctx, data.expires_at),
      digest: digest(secret),
    },
  });
  return { ...row, token: secret };
}

export async function createPersonalAccessToken(ctx: DomainContext, userId: number, input: NewTokenInput): Promise<TokenWithSecret> {
  requireAdmin(ctx);
  const user = await ctx.db.user.findUnique({ where: { id: userId } });
  if (!user) throw notFound("User");
  validateTokenInput(ctx, input);
  return issueToken(ctx.db, ctx, { userId, kind: "personal", ...input });
}

export interface TokenFilters extends PageArgs {
  user_id?: number | null;
  revoked?: boolean | null;
  state?: "active" | "inactive" | null;
  search?: string | null;
}

export async function listPersonalAccessTokens(ctx: DomainContext, filters: TokenFilters): Promise<Page<AccessToken>> {
  const actor = requireAuthenticated(ctx);
  const userId = actor.user.isAdmin ? filters.user_id ?? undefined : actor.user.id;
  const now = ctx.now();
  const where: Prisma.AccessTokenWhereInput = {
    kind: "personal",
    userId,
    ...(filters.revoked != null ? { revoked: filters.revoked } : {}),
    ...(filters.search ? { name: { contains: filters.search } } : {}),
    ...(filters.state === "active" ? { revoked: false, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] } : {}),
    ...(filters.state === "inactive" ? { OR: [{ revoked: true }, { expiresAt: { lte: now } }] } : {}),
  };
  return paginate(
    filters,
    (cap) => ctx.db.accessToken.count({ where, take: cap }),
    (skip, take) => ctx.db.accessToken.findMany({ where, orderBy: { id: "asc" }, skip, take }),
  );
}

/** `:id` may be `self`, the token used for this request. */
export async function getPersonalAccessToken(ctx: DomainContext, id: string): Promise<AccessToken> {
  const actor = requireAuthenticated(ctx);
  const tokenId = id === "self" ? actor.tokenId : /^\d+$/.test(id) ? Number(id) : null;
  if (id !== "self" && tokenId === null) throw paramError("id is invalid");
  const token = tokenId === null ? null : await ctx.db.accessToken.findUnique({ where: { id: tokenId } });
  if (!token || token.kind !== "personal" || (!actor.user.isAdmin && token.userId !== actor.user.id)) {
    throw notFound("Personal Access Token");
  }
  return token;
}

export async function revokePersonalAccessToken(ctx: DomainContext, id: string): Promise<boolean> {
  const token = await getPersonalAccessToken(ctx, id);
  await ctx.db.accessToken.update({ where: { id: token.id }, data: { revoked: true } });
  return true;
}

export function isTokenActive(ctx: DomainContext, token: AccessToken): boolean {
  return !token.revoked && (!token.expiresAt || token.expiresAt > ctx.now());
}
