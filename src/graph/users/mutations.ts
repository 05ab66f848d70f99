// userCreate, userUpdate and userDelete (administrators, as REST POST, PUT and DELETE /users; not
// in GitLab's GraphQL API): one `input`, a payload `{ user, errors }`.
import { createUser } from "../../domain/users/create.js";
import { deleteUser } from "../../domain/deletions/users.js";
import { updateUser } from "../../domain/users/update.js";
import { findUserToAdminister } from "../../domain/users/states.js";
import { userIdOf } from "../shared/mutation-inputs.js";
import { payloadMutation } from "../shared/payload-mutation.js";
import { currentUser } from "../../domain/users/queries.js";
import { CLEAR_STATUS_AFTER_CHOICES, setUserStatus } from "../../domain/users/status.js";
import { AvailabilityEnum, UserRef, UserStatusRef } from "./types.js";

const AVATAR = "An image of at most 200 KiB (GraphQL multipart request).";

const user = { field: "user", type: UserRef };

payloadMutation("userCreate", {
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
  write: (input, ctx) =>
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
    }),
  returns: user,
});

payloadMutation("userUpdate", {
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
  write: async (input, ctx) =>
    updateUser(ctx, await findUserToAdminister(ctx, userIdOf(input.id)), {
      email: input.email,
      password: input.password,
      name: input.name,
      username: input.username,
      bio: input.bio,
      admin: input.admin,
      skip_reconfirmation: input.skipReconfirmation,
      avatar: input.avatar,
    }),
  returns: user,
});

payloadMutation("userDelete", {
  inputFields: (t) => ({
    id: t.id({ required: true, description: "Global id of the user." }),
    hardDelete: t.boolean({ description: "Deletes the contributions and solely owned groups too, instead of moving them to the ghost user." }),
  }),
  write: async (input, ctx) => deleteUser(ctx, await findUserToAdminister(ctx, userIdOf(input.id)), !!input.hardDelete),
});

payloadMutation("userSetStatus", {
  description:
    "Sets the caller's status, as REST PUT /user/status (not in GitLab's GraphQL API): what is not given is cleared; no emoji, message or availability other than NOT_SET removes it (status null).",
  inputFields: (t) => ({
    emoji: t.string({ description: "An emoji name; speech_balloon when a message or availability is set without one." }),
    message: t.string({ description: "At most 100 characters." }),
    availability: t.field({ type: AvailabilityEnum }),
    clearStatusAfter: t.string({ description: `One of ${CLEAR_STATUS_AFTER_CHOICES.join(", ")}.` }),
  }),
  write: (input, ctx) =>
    setUserStatus(ctx, currentUser(ctx), { emoji: input.emoji, message: input.message, availability: input.availability, clear_status_after: input.clearStatusAfter }, "replace"),
  returns: { field: "status", type: UserStatusRef },
});
