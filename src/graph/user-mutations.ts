// userCreate, userUpdate and userDelete (administrators, as REST POST, PUT and DELETE /users; not
// in GitLab's GraphQL API): one `input`, a payload `{ user, errors }`.
import { createUser } from "../domain/users/create.js";
import { deleteUser } from "../domain/users/delete.js";
import { updateUser } from "../domain/users/update.js";
import { builder } from "./builder.js";
import { payload } from "./errors.js";
import { userIdOf } from "./mutation-inputs.js";
import { UserRef } from "./users.js";

const AVATAR = "An image of at most 200 KiB (GraphQL multipart request).";

builder.relayMutationField(
  "userCreate",
  {
    inputFields: (t) => ({
      email: t.string({ required: true }),
      name: t.string({ required: true }),
      username: t.string({ required: true }),
      password: t.string({ description: "One of password, resetPassword and forceRandomPassword is needed." }),
      resetPassword: t.boolean(),
      forceRandomPassword: t.boolean(),
      admin: t.boolean(),
      bio: t.string(),
      skipConfirmation: t.boolean(),
      avatar: t.field({ type: "Upload", description: AVATAR }),
    }),
  },
  {
    resolve: (_root, { input }, ctx) =>
      payload(ctx, "user", () =>
        createUser(ctx, {
          email: input.email,
          name: input.name,
          username: input.username,
          password: input.password,
          reset_password: input.resetPassword,
          force_random_password: input.forceRandomPassword,
          admin: input.admin,
          bio: input.bio,
          skip_confirmation: input.skipConfirmation,
          avatar: input.avatar,
        })),
  },
  {
    outputFields: (t) => ({
      user: t.field({ type: UserRef, nullable: true, resolve: (result) => result.user }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);

builder.relayMutationField(
  "userUpdate",
  {
    inputFields: (t) => ({
      id: t.id({ required: true, description: "Global id of the user." }),
      email: t.string(),
      password: t.string(),
      name: t.string(),
      username: t.string({ description: "A new username moves the personal namespace (old paths redirect)." }),
      bio: t.string(),
      admin: t.boolean(),
      skipReconfirmation: t.boolean(),
      avatar: t.field({ type: "Upload", description: `${AVATAR} Replaces the avatar.` }),
    }),
  },
  {
    resolve: (_root, { input }, ctx) =>
      payload(ctx, "user", () =>
        updateUser(ctx, userIdOf(input.id), {
          email: input.email,
          password: input.password,
          name: input.name,
          username: input.username,
          bio: input.bio,
          admin: input.admin,
          skip_reconfirmation: input.skipReconfirmation,
          avatar: input.avatar,
        })),
  },
  {
    outputFields: (t) => ({
      user: t.field({ type: UserRef, nullable: true, resolve: (result) => result.user }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);

builder.relayMutationField(
  "userDelete",
  {
    inputFields: (t) => ({
      id: t.id({ required: true, description: "Global id of the user." }),
      hardDelete: t.boolean({ description: "Deletes the contributions and solely owned groups too, instead of moving them to the ghost user." }),
    }),
  },
  { resolve: (_root, { input }, ctx) => payload(ctx, "deleted", () => deleteUser(ctx, userIdOf(input.id), !!input.hardDelete)) },
  { outputFields: (t) => ({ errors: t.stringList({ resolve: (result) => result.errors }) }) },
);
