// Personal access tokens: created by administrators for a user (secret shown once), listed, read
// and revoked by their owner or an administrator (lib/api/personal_access_tokens.rb, users.rb).
import { revokeToken } from "../auth/token-store.js";
import type { AccessToken, Prisma, User } from "../../generated/prisma/client.js";
import { AppError, badRequest, notFound, paramError, recordNotFound, unauthorized } from "../../errors.js";
import { requireAuthenticated } from "../shared/guards.js";
import type { Actor, DomainContext } from "../shared/context.js";
import { paginate, type Page, type PageArgs } from "../shared/pagination.js";
import { digest, newTokenSecret } from "../shared/secrets.js";
import { containsText } from "../shared/paths.js";
import { publish } from "../shared/events.js";

export const TOKEN_SCOPES = [
  "api", "read_api", "read_user", "create_runner", "manage_runner", "k8s_proxy", "read_repository",
  "write_repository", "read_registry", "write_registry", "ai_features", "sudo", "admin_mode",
  "read_service_ping", "self_rotate",
] as const;

/** The longest a token may live, and its expiry when none is given (GitLab's default). */
const MAX_LIFETIME_DAYS = 365;

export interface NewTokenInput {
  name: string;
  scopes: string[];
  expires_at?: Date | null;
  description?: string | null;
}

export type TokenWithSecret = AccessToken & { token: string };

/**
 * The token model's checks. A date that is not in the future is refused as a bad parameter;
 * the rest answer 422 with the model's full messages (`render_api_error!`).
 */
export function validateTokenInput(ctx: DomainContext, input: NewTokenInput, allowed: readonly string[] = TOKEN_SCOPES) {
  const today = startOfDay(ctx.now());
  if (input.expires_at && input.expires_at <= today) throw paramError("expires_at is invalid");
  const errors: string[] = [];
  if (!input.name.trim()) errors.push("Name can't be blank");
  if (input.scopes.length === 0) errors.push("Scopes can't be blank");
  if (input.scopes.some((scope) => !allowed.includes(scope))) errors.push("Scopes can only contain available scopes");
  const latest = addDays(today, MAX_LIFETIME_DAYS);
  if (input.expires_at && input.expires_at > latest) errors.push(`Expires at must be before ${latest.toISOString().slice(0, 10)}`);
  if (errors.length) throw new AppError(422, { message: toSentence(errors) });
}

export function defaultExpiry(ctx: DomainContext, expiresAt: Date | null | undefined): Date {
  return expiresAt ?? addDays(startOfDay(ctx.now()), MAX_LIFETIME_DAYS);
}

const startOfDay = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000);

/** Rails' Array#to_sentence. */
const toSentence = (items: string[]) =>
  items.length <= 2 ? items.join(" and ") : `${items.slice(0, -1).join(", ")}, and ${items[items.length - 1]}`;

/** Stores a new token for `userId`; only the digest is kept, the secret is returned once. */
export async function issueToken(
  tx: Prisma.TransactionClient,
  ctx: DomainContext,
  data: { userId: number; kind: string; resourceId?: number | null } & NewTokenInput,
): Promise<TokenWithSecret> {
  const secret = newTokenSecret("glpat-");
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

/** A token for the user found by findUserToAdminister (administrators create tokens for anyone). */
export async function createPersonalAccessToken(ctx: DomainContext, user: User, input: NewTokenInput): Promise<TokenWithSecret> {
  validateTokenInput(ctx, input);
  return ctx.db.$transaction(async (tx) => {
    const token = await issueToken(tx, ctx, { userId: user.id, kind: "personal", ...input });
    const { token: _secret, ...row } = token;
    await publish(tx, ctx, "access_token", { action: "create", token: row, resource: null, actorId: ctx.actor!.user.id });
    return token;
  });
}

export interface TokenFilters {
  user_id?: number | null;
  revoked?: boolean | null;
  state?: "active" | "inactive" | null;
  search?: string | null;
}

/** Administrators see everyone's tokens (or one user's); others only their own. */
export async function listPersonalAccessTokens(ctx: DomainContext, filters: TokenFilters, page: PageArgs): Promise<Page<AccessToken>> {
  const userId = await listedUserId(ctx, filters.user_id);
  const now = ctx.now();
  const where: Prisma.AccessTokenWhereInput = {
    kind: "personal",
    userId,
    ...(filters.revoked != null ? { revoked: filters.revoked } : {}),
    ...(filters.search ? { name: containsText(ctx.dialect, filters.search) } : {}),
    ...(filters.state === "active" ? { revoked: false, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] } : {}),
    ...(filters.state === "inactive" ? { OR: [{ revoked: true }, { expiresAt: { lte: now } }] } : {}),
  };
  return paginate(
    page,
    (cap) => ctx.db.accessToken.count({ where, take: cap }),
    (skip, take) => ctx.db.accessToken.findMany({ where, orderBy: { id: "asc" }, skip, take }),
  );
}

/** `user_id` filter: another user's id is 401 for non-admins; an unknown user is 404 for admins. */
async function listedUserId(ctx: DomainContext, requested: number | null | undefined): Promise<number | undefined> {
  const actor = requireAuthenticated(ctx);
  if (!actor.user.isAdmin) {
    if (requested != null && requested !== actor.user.id) throw unauthorized();
    return actor.user.id;
  }
  if (requested == null) return undefined;
  if (!(await ctx.db.user.findUnique({ where: { id: requested } }))) throw notFound();
  return requested;
}

const mayManage = (actor: Actor, token: AccessToken) => actor.user.isAdmin || token.userId === actor.user.id;

const findPersonalToken = (ctx: DomainContext, id: number) =>
  ctx.db.accessToken.findFirst({ where: { id, kind: "personal" } });

/** Only administrators learn that a token does not exist; others get 401 either way. */
export async function findPersonalAccessToken(ctx: DomainContext, id: number): Promise<AccessToken> {
  const actor = requireAuthenticated(ctx);
  const token = await findPersonalToken(ctx, id);
  if (token && mayManage(actor, token)) return token;
  throw actor.user.isAdmin ? notFound() : unauthorized();
}

/** The token used for this request (`/personal_access_tokens/self`). */
export async function currentPersonalAccessToken(ctx: DomainContext): Promise<AccessToken> {
  const actor = requireAuthenticated(ctx);
  const token = actor.tokenId === null ? null : await findPersonalToken(ctx, actor.tokenId);
  if (!token) throw badRequest("This endpoint requires token type to be a personal access token");
  return token;
}

/**
 * Unknown token: 404 "Not found"; someone else's: 400 as RevokeService refuses it over REST, or
 * 404 with `hideOthers` (GitLab's GraphQL authorizes :revoke_token, so a token the caller may not
 * manage is as absent as a missing one). Repeat revokes succeed.
 */
export async function findPersonalAccessTokenToRevoke(ctx: DomainContext, id: number, { hideOthers = false } = {}): Promise<AccessToken> {
  const actor = requireAuthenticated(ctx);
  const token = await findPersonalToken(ctx, id);
  if (!token) throw recordNotFound();
  if (!mayManage(actor, token)) throw hideOthers ? recordNotFound() : badRequest();
  return token;
}

/** Revokes a token found by findPersonalAccessTokenToRevoke (or the current one). */
export async function revokePersonalAccessToken(ctx: DomainContext, token: AccessToken): Promise<boolean> {
  await ctx.db.$transaction(async (tx) => {
    await revokeToken({ db: tx }, token);
    await publish(tx, ctx, "access_token", { action: "revoke", token, resource: null, actorId: ctx.actor!.user.id });
  });
  return true;
}

export async function revokeCurrentPersonalAccessToken(ctx: DomainContext): Promise<boolean> {
  return revokePersonalAccessToken(ctx, await currentPersonalAccessToken(ctx));
}

export function isTokenActive(ctx: DomainContext, token: AccessToken): boolean {
  return !token.revoked && (!token.expiresAt || token.expiresAt > ctx.now());
}
