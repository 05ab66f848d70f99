import {
  createPersonalAccessToken, currentPersonalAccessToken, findPersonalAccessToken, findPersonalAccessTokenToRevoke, isTokenActive, listPersonalAccessTokens,
  revokeCurrentPersonalAccessToken, revokePersonalAccessToken, TOKEN_SCOPES,
} from "../domain/access-tokens/personal.js";
import type { Context } from "../context.js";
import { findUserToAdminister } from "../domain/users/states.js";
import type { AccessToken } from "../generated/prisma/client.js";
import type { TokenWithSecret } from "../domain/access-tokens/personal.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf } from "./pagination.js";
import * as route from "../rest/route.js";

/** GitLab's PersonalAccessToken entity fields (also used by project and group access tokens). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const tokenFields = (t: PothosSchemaTypes.ObjectFieldBuilder<any, AccessToken>) => ({
  id: t.exposeInt("id"),
  name: t.exposeString("name"),
  description: t.exposeString("description"),
  revoked: t.exposeBoolean("revoked"),
  created_at: t.expose("createdAt", { type: "DateTime" }),
  scopes: t.stringList({ resolve: (token: AccessToken) => token.scopes.split(" ").filter(Boolean) }),
  user_id: t.exposeInt("userId"),
  last_used_at: t.expose("lastUsedAt", { type: "DateTime", nullable: true }),
  active: t.boolean({ resolve: (token: AccessToken, _a: unknown, ctx: Context) => isTokenActive(ctx, token) }),
  expires_at: t.expose("expiresAt", { type: "Date", nullable: true }),
});

export const PersonalAccessToken = builder.objectRef<AccessToken>("PersonalAccessToken").implement({
  fields: (t) => tokenFields(t as any),
});

/** The create answer: the only time the secret is shown. */
export const PersonalAccessTokenWithToken = builder.objectRef<TokenWithSecret>("PersonalAccessTokenWithToken").implement({
  fields: (t) => ({
    ...tokenFields(t as any),
    token: t.exposeString("token"),
  }),
});

export const TokenScope = builder.enumType("TokenScope", { values: TOKEN_SCOPES });
const TokenState = builder.enumType("TokenState", { values: ["active", "inactive"] as const });

builder.queryFields((t) => ({
  personalAccessTokens: t.field({
    extensions: { rest: route.get("/personal_access_tokens"), access: "authenticated" },
    type: [PersonalAccessToken],
    args: {
      user_id: t.arg.int({ required: false }),
      revoked: t.arg.boolean({ required: false }),
      state: t.arg({ type: TokenState, required: false }),
      search: t.arg.string({ required: false }),
      ...pageArgs,
    },
    resolve: async (_r, { page, per_page, ...filters }, ctx) => rowsOf(ctx, await listPersonalAccessTokens(ctx, filters, { page, per_page })),
  }),
  personalAccessToken: t.field({
    extensions: { rest: route.get("/personal_access_tokens/:id"), access: "authenticated" },
    type: PersonalAccessToken,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_r, args, ctx) => findPersonalAccessToken(ctx, args.id),
  }),
  // Any token may read and revoke itself, whatever its scopes.
  currentPersonalAccessToken: t.field({
    extensions: { rest: route.get("/personal_access_tokens/self"), access: "authenticated", tokenScopes: TOKEN_SCOPES },
    type: PersonalAccessToken,
    resolve: (_r, _args, ctx) => currentPersonalAccessToken(ctx),
  }),
}));

builder.mutationFields((t) => ({
  createPersonalAccessToken: t.field({
    extensions: { rest: route.post("/users/:user_id/personal_access_tokens"), access: "admin" },
    type: PersonalAccessTokenWithToken,
    args: {
      user_id: t.arg.int({ required: true }),
      name: t.arg.string({ required: true }),
      scopes: t.arg({ type: [TokenScope], required: true }),
      description: t.arg.string({ required: false }),
      expires_at: t.arg({ type: "Date", required: false }),
    },
    resolve: async (_r, args, ctx) => createPersonalAccessToken(ctx, await findUserToAdminister(ctx, args.user_id), { ...args, scopes: [...args.scopes] }),
  }),
  revokePersonalAccessToken: t.boolean({
    extensions: { rest: route.del("/personal_access_tokens/:id"), access: "authenticated" },
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_r, args, ctx) => revokePersonalAccessToken(ctx, await findPersonalAccessTokenToRevoke(ctx, args.id)),
  }),
  revokeCurrentPersonalAccessToken: t.boolean({
    extensions: { rest: route.del("/personal_access_tokens/self"), access: "authenticated", tokenScopes: TOKEN_SCOPES },
    resolve: (_r, _args, ctx) => revokeCurrentPersonalAccessToken(ctx),
  }),
}));
