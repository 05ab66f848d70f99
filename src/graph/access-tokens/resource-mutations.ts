// projectAccessTokenCreate / projectAccessTokenRevoke and the group ones (as REST POST and DELETE
// /projects/:id/access_tokens and /groups/:id/access_tokens; GitLab's graph has none): one `input`,
// a payload. The domain decides who may (project Maintainers, group Owners, administrators) and
// answers the others as REST does: anonymous and outsiders of a private resource get "resource
// not available", members below the level GitLab's 400 message in `errors`. The secret is only
// in the create payload. The domain has no rotation.
import {
  checkResourceTokenInput, createResourceAccessToken, findOwnedResourceToken, findTokenResource, RESOURCE_TOKEN_SCOPES,
  revokeResourceAccessToken, type ResourceAccessTokenWithSecret, type ResourceType,
} from "../../domain/access-tokens/resource.js";
import { builder } from "../shared/builder.js";
import { MemberAccessLevelEnum } from "../members/mutations.js";
import { groupPathOf, ownerPathIn, projectPathOf, recordIdOf, type OwnerPathField } from "../shared/mutation-inputs.js";
import { payloadMutation } from "../shared/payload-mutation.js";
import { ResourceAccessTokenRef } from "./resource.js";

const ResourceAccessTokenScopeEnum = builder.enumType("ResourceAccessTokenScope", { values: RESOURCE_TOKEN_SCOPES });

interface Source extends OwnerPathField {
  type: ResourceType;
}

interface CreateArgs {
  name: string;
  scopes: string[];
  accessLevel?: number | null;
  expiresAt?: Date | null;
  description?: string | null;
}

function resourceTokenMutations(source: Source) {
  const { type, pathKey } = source;
  const accessToken = { field: "accessToken", type: ResourceAccessTokenRef };

  payloadMutation(`${type}AccessTokenCreate`, {
    description: `Creates a ${type} access token and its bot user, a member with the token's access level.`,
    inputFields: (t) => ({
      [pathKey]: t.id({ required: true, description: `Full path of the ${type}.` }),
      name: t.string({ required: true }),
      scopes: t.field({ type: [ResourceAccessTokenScopeEnum], required: true }),
      accessLevel: t.field({ type: MemberAccessLevelEnum, description: "MAINTAINER unless given; at most the caller's own." }),
      expiresAt: t.field({ type: "Time", description: "A year from today unless given." }),
      description: t.string(),
    }),
    write: async (input, ctx) => {
      const args = input as unknown as CreateArgs;
      const path = ownerPathIn(source, input);
      const token = {
        name: args.name,
        scopes: [...args.scopes],
        access_level: args.accessLevel,
        expires_at: args.expiresAt,
        description: args.description,
      };
      checkResourceTokenInput(ctx, token);
      return createResourceAccessToken(ctx, await findTokenResource(ctx, type, path), token);
    },
    returns: accessToken,
    extraFields: (t) => ({
      token: t.string({ nullable: true, description: "The secret, shown this once.", resolve: (p) => (p.result as ResourceAccessTokenWithSecret | null)?.token ?? null }),
    }),
  });

  payloadMutation(`${type}AccessTokenRevoke`, {
    description: "Revokes the token; it stays listed as inactive, with its bot user and membership.",
    inputFields: (t) => ({
      [pathKey]: t.id({ required: true, description: `Full path of the ${type}.` }),
      id: t.id({ required: true, description: "Global id of the token." }),
    }),
    write: async (input, ctx) => {
      const path = ownerPathIn(source, input);
      const tokenId = String(recordIdOf(String(input.id), "ResourceAccessToken"));
      return revokeResourceAccessToken(ctx, await findOwnedResourceToken(ctx, type, path, tokenId));
    },
  });
}

resourceTokenMutations({ type: "project", pathKey: "projectPath", pathOf: projectPathOf });
resourceTokenMutations({ type: "group", pathKey: "groupPath", pathOf: groupPathOf });
