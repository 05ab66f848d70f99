// personalAccessTokenCreate (administrators, as POST /users/:id/personal_access_tokens; the secret
// only in this payload) and personalAccessTokenRevoke (the owner or an administrator, as DELETE
// /personal_access_tokens/:id): one `input`, a payload.
import { createPersonalAccessToken, findPersonalAccessTokenToRevoke, revokePersonalAccessToken } from "../../domain/access-tokens/personal.js";
import { PersonalAccessTokenRef } from "./personal.js";
import { userIdOf, recordIdOf } from "../shared/mutation-inputs.js";
import { payloadMutation } from "../shared/payload-mutation.js";
import { findUserToAdminister } from "../../domain/users/states.js";

payloadMutation("personalAccessTokenCreate", {
  inputFields: (t) => ({
    userId: t.id({ required: true, description: "Global id of the token's owner." }),
    name: t.string({ required: true }),
    scopes: t.stringList({ required: true }),
    description: t.string(),
    expiresAt: t.field({ type: "Time", description: "A year from today unless given." }),
  }),
  write: async (input, ctx) =>
    createPersonalAccessToken(ctx, await findUserToAdminister(ctx, userIdOf(input.userId)), {
      name: input.name,
      scopes: [...input.scopes],
      description: input.description,
      expires_at: input.expiresAt,
    }),
  returns: { field: "personalAccessToken", type: PersonalAccessTokenRef },
  extraFields: (t) => ({
    token: t.string({ nullable: true, description: "The secret, shown this once.", resolve: (p) => p.result?.token ?? null }),
  }),
});

payloadMutation("personalAccessTokenRevoke", {
  inputFields: (t) => ({
    id: t.id({ required: true, description: "Global id of the token: the caller's own or, for administrators, anyone's (others are not available)." }),
  }),
  write: async (input, ctx) =>
    revokePersonalAccessToken(ctx, await findPersonalAccessTokenToRevoke(ctx, recordIdOf(input.id, "PersonalAccessToken"), { hideOthers: true })),
});
