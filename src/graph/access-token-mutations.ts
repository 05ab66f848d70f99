// personalAccessTokenCreate (administrators, as POST /users/:id/personal_access_tokens; the secret
// only in this payload) and personalAccessTokenRevoke (the owner or an administrator, as DELETE
// /personal_access_tokens/:id): one `input`, a payload.
import { createPersonalAccessToken, revokePersonalAccessToken } from "../domain/personal-access-tokens.js";
import { PersonalAccessTokenRef } from "./access-tokens.js";
import { builder } from "./builder.js";
import { payload } from "./errors.js";
import { userIdOf, recordIdOf } from "./mutation-inputs.js";

builder.relayMutationField(
  "personalAccessTokenCreate",
  {
    inputFields: (t) => ({
      userId: t.id({ required: true, description: "Global id of the token's owner." }),
      name: t.string({ required: true }),
      scopes: t.stringList({ required: true }),
      description: t.string(),
      expiresAt: t.field({ type: "Time", description: "A year from today unless given." }),
    }),
  },
  {
    resolve: (_root, { input }, ctx) =>
      payload(ctx, "created", () =>
        createPersonalAccessToken(ctx, userIdOf(input.userId), {
          name: input.name,
          scopes: [...input.scopes],
          description: input.description,
          expires_at: input.expiresAt,
        })),
  },
  {
    outputFields: (t) => ({
      personalAccessToken: t.field({ type: PersonalAccessTokenRef, nullable: true, resolve: (result) => result.created }),
      token: t.string({ nullable: true, description: "The secret, shown this once.", resolve: (result) => result.created?.token ?? null }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);

builder.relayMutationField(
  "personalAccessTokenRevoke",
  { inputFields: (t) => ({ id: t.id({ required: true, description: "Global id of the token: the caller's own or, for administrators, anyone's (others are not available)." }) }) },
  { resolve: (_root, { input }, ctx) => payload(ctx, "revoked", () => revokePersonalAccessToken(ctx, recordIdOf(input.id, "PersonalAccessToken"), { hideOthers: true })) },
  { outputFields: (t) => ({ errors: t.stringList({ resolve: (result) => result.errors }) }) },
);
