// GitLab's PersonalAccessToken type: what its owner and administrators may know of a token, never
// its secret (only personalAccessTokenCreate's payload carries that, once).
import type { AccessToken } from "../../generated/prisma/client.js";
import { isTokenActive } from "../../domain/access-tokens/personal.js";
import { builder } from "../shared/builder.js";

export const PersonalAccessTokenRef = builder.objectRef<AccessToken>("PersonalAccessToken");

builder.objectType(PersonalAccessTokenRef, {
  description: "A personal access token (never its secret).",
  fields: (t) => ({
    id: t.id({ resolve: (token) => `gid://forgeline/PersonalAccessToken/${token.id}` }),
    name: t.exposeString("name"),
    description: t.exposeString("description"),
    scopes: t.stringList({ resolve: (token) => token.scopes.split(" ").filter(Boolean) }),
    revoked: t.exposeBoolean("revoked"),
    active: t.boolean({ resolve: (token, _a, ctx) => isTokenActive(ctx, token) }),
    createdAt: t.expose("createdAt", { type: "Time" }),
    expiresAt: t.expose("expiresAt", { type: "Time", nullable: true }),
    lastUsedAt: t.expose("lastUsedAt", { type: "Time", nullable: true }),
  }),
});
