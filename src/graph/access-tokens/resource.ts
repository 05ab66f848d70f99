// Project and group access tokens (REST's ResourceAccessToken entity; GitLab's graph has no such
// type): what the resource's managers may know of a token, never its secret (only the creating
// payload carries that, once), and `Project.accessTokens` / `Group.accessTokens` for those REST
// GET /projects/:id/access_tokens and /groups/:id/access_tokens allows (project Maintainers,
// group Owners, administrators; null for anyone else).
import type { Context } from "../../context.js";
import { isTokenActive } from "../../domain/access-tokens/personal.js";
import { listResourceAccessTokens, type ResourceAccessToken } from "../../domain/access-tokens/resource.js";
import { shownGroupAccess, shownProjectAccess, type GroupOrProjectAccess } from "../../domain/shared/parents.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { offsetConnection, type ConnectionArgs } from "../shared/connections.js";
import { orNull } from "../shared/errors.js";
import { AccessLevelRef } from "../members/types.js";
import { GroupRef } from "../groups/types.js";
import { ProjectRef } from "../projects/types.js";
import { userById, UserRef } from "../users/types.js";

export const ResourceAccessTokenRef = builder.objectRef<ResourceAccessToken>("ResourceAccessToken");

builder.objectType(ResourceAccessTokenRef, {
  description: "A project or group access token (never its secret).",
  fields: (t) => ({
    id: t.id({ resolve: (token) => `gid://forgeline/ResourceAccessToken/${token.id}` }),
    name: t.exposeString("name"),
    description: t.exposeString("description"),
    scopes: t.stringList({ resolve: (token) => token.scopes.split(" ").filter(Boolean) }),
    accessLevel: t.field({
      type: AccessLevelRef,
      nullable: true,
      description: "The bot's membership in the project or group; null once the membership was removed.",
      resolve: (token) => token.accessLevel,
    }),
    user: t.field({ type: UserRef, description: "The token's bot user.", resolve: (token, _a, ctx) => userById(ctx, token.userId) }),
    revoked: t.exposeBoolean("revoked"),
    active: t.boolean({ resolve: (token, _a, ctx) => isTokenActive(ctx, token) }),
    createdAt: t.expose("createdAt", { type: "Time" }),
    expiresAt: t.expose("expiresAt", { type: "Time", nullable: true }),
    lastUsedAt: t.expose("lastUsedAt", { type: "Time", nullable: true }),
  }),
});

const ResourceAccessTokenConnection = countedConnection(ResourceAccessTokenRef, "ResourceAccessToken");

const tokensOf = (ctx: Context, resource: GroupOrProjectAccess, args: ConnectionArgs) =>
  orNull(() => offsetConnection(args, (page) => listResourceAccessTokens(ctx, resource, {}, page)));

const description = (who: string) => `Access tokens, oldest first, revoked and expired ones too; null for callers below ${who}.`;

builder.objectFields(ProjectRef, (t) => ({
  accessTokens: t.connection(
    {
      type: ResourceAccessTokenRef,
      nullable: true,
      description: description("Maintainer"),
      resolve: async (project, args, ctx) => tokensOf(ctx, await shownProjectAccess(ctx, project), args),
    },
    ResourceAccessTokenConnection,
  ),
}));

builder.objectFields(GroupRef, (t) => ({
  accessTokens: t.connection(
    {
      type: ResourceAccessTokenRef,
      nullable: true,
      description: description("Owner"),
      resolve: async (group, args, ctx) => tokensOf(ctx, await shownGroupAccess(ctx, group), args),
    },
    ResourceAccessTokenConnection,
  ),
}));
