// Project and group access tokens: GitLab's ResourceAccessToken entity (PersonalAccessToken fields
// plus last_used_ips, access_level, resource_type, resource_id) and the root fields of both sources.
import {
  checkResourceTokenInput, createResourceAccessToken, findOwnedResourceToken, findResourceAccessToken, findTokenResource,
  listResourceAccessTokens, RESOURCE_TOKEN_SCOPES,
  revokeResourceAccessToken, type ResourceAccessToken as Token, type ResourceAccessTokenWithSecret, type ResourceType,
} from "../domain/access-tokens/resource.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf } from "./pagination.js";
import { tokenFields } from "./personal-access-tokens.js";
import * as route from "../rest/route.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const resourceTokenFields = (t: PothosSchemaTypes.ObjectFieldBuilder<any, Token>) => ({
  ...tokenFields(t),
  last_used_ips: t.stringList({ resolve: () => [] }),
  access_level: t.int({ nullable: true, resolve: (token: Token) => token.accessLevel }),
  resource_type: t.string({ resolve: (token: Token) => token.resourceType }),
  resource_id: t.int({ resolve: (token: Token) => token.resourceId! }),
});

export const ResourceAccessToken = builder.objectRef<Token>("ResourceAccessToken").implement({
  fields: (t) => resourceTokenFields(t as any),
});

/** The create answer: the only time the secret is shown. */
export const ResourceAccessTokenWithToken = builder.objectRef<ResourceAccessTokenWithSecret>("ResourceAccessTokenWithToken").implement({
  fields: (t) => ({
    ...resourceTokenFields(t as any),
    token: t.exposeString("token"),
  }),
});

const ResourceTokenScope = builder.enumType("ResourceAccessTokenScope", { values: RESOURCE_TOKEN_SCOPES });
const ResourceTokenState = builder.enumType("ResourceAccessTokenState", { values: ["active", "inactive"] as const });

const tokenArgs = builder.args((t) => ({
  id: t.id({ required: true }),
  token_id: t.string({ required: true }),
}));

/** Root fields for one source: `projectAccessTokens`, `createProjectAccessToken`, ... */
function resourceTokenFieldsFor(type: ResourceType, noun: "Project" | "Group") {
  const lower = noun.toLowerCase();
  const tokens = `/${lower}s/:id/access_tokens`;
  builder.queryFields((t) => ({
    [`${lower}AccessTokens`]: t.field({
      extensions: { rest: route.get(tokens), access: "authenticated" },
      type: [ResourceAccessToken],
      args: {
        id: t.arg.id({ required: true }),
        revoked: t.arg.boolean({ required: false }),
        state: t.arg({ type: ResourceTokenState, required: false }),
        search: t.arg.string({ required: false }),
        created_before: t.arg({ type: "DateTime", required: false }),
        created_after: t.arg({ type: "DateTime", required: false }),
        last_used_before: t.arg({ type: "DateTime", required: false }),
        last_used_after: t.arg({ type: "DateTime", required: false }),
        expires_before: t.arg({ type: "Date", required: false }),
        expires_after: t.arg({ type: "Date", required: false }),
        ...pageArgs,
      },
      resolve: async (_r, { id, page, per_page, ...filters }, ctx) =>
        rowsOf(ctx, await listResourceAccessTokens(ctx, await findTokenResource(ctx, type, String(id)), filters, { page, per_page })),
    }),
    [`${lower}AccessToken`]: t.field({
      extensions: { rest: route.get(`${tokens}/:token_id`), access: "authenticated" },
      type: ResourceAccessToken,
      args: tokenArgs,
      resolve: (_r, args, ctx) => findResourceAccessToken(ctx, type, String(args.id), args.token_id),
    }),
  }));
  builder.mutationFields((t) => ({
    [`create${noun}AccessToken`]: t.field({
      extensions: { rest: route.post(tokens), access: "authenticated" },
      type: ResourceAccessTokenWithToken,
      args: {
        id: t.arg.id({ required: true }),
        name: t.arg.string({ required: true }),
        scopes: t.arg({ type: [ResourceTokenScope], required: true }),
        access_level: t.arg.int({ required: false }),
        expires_at: t.arg({ type: "Date", required: false }),
        description: t.arg.string({ required: false }),
      },
      resolve: async (_r, args, ctx) => {
        const input = { ...args, scopes: [...args.scopes] };
        checkResourceTokenInput(ctx, input);
        return createResourceAccessToken(ctx, await findTokenResource(ctx, type, String(args.id)), input);
      },
    }),
    [`revoke${noun}AccessToken`]: t.boolean({
      extensions: { rest: route.del(`${tokens}/:token_id`), access: "authenticated" },
      args: tokenArgs,
      resolve: async (_r, args, ctx) =>
        revokeResourceAccessToken(ctx, await findOwnedResourceToken(ctx, type, String(args.id), args.token_id)),
    }),
  }));
}

resourceTokenFieldsFor("project", "Project");
resourceTokenFieldsFor("group", "Group");
