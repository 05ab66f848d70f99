// Users (GitLab's UserCore): `currentUser`, `user(username:)` and the people on issues and
// merge requests, read through the per-request user loader.
import type { Context } from "../../context.js";
import type { User } from "../../generated/prisma/client.js";
import { avatarUrlOfUser, webUrlOfUser } from "../../domain/users/presenter.js";
import { findUser, userIdByUsername } from "../../domain/users/queries.js";
import { builder } from "../shared/builder.js";
import { arrayConnection, type ConnectionArgs } from "../shared/connections.js";
import { countedConnection } from "../shared/connection-types.js";
import { orNull } from "../shared/errors.js";
import { registerNodeLoader } from "../shared/node.js";
import { userLoader } from "../../domain/shared/loaders.js";
import type { UserStatus } from "../../generated/prisma/client.js";
import { statusMessageHtml, statusOfUser } from "../../domain/users/status.js";

export const UserRef = builder.objectRef<User>("UserCore");

/** GitLab's AvailabilityEnum. */
export const AvailabilityEnum = builder.enumType("AvailabilityEnum", {
  values: { NOT_SET: { value: "not_set" }, BUSY: { value: "busy" } } as const,
});

export const UserStatusRef = builder.objectRef<UserStatus>("UserStatus").implement({
  description: "A user's status (GitLab's UserStatus); gone once its clearStatusAt has passed.",
  fields: (t) => ({
    emoji: t.exposeString("emoji", { nullable: true }),
    message: t.exposeString("message", { nullable: true }),
    messageHtml: t.string({ nullable: true, resolve: (status) => statusMessageHtml(status) }),
    availability: t.field({ type: AvailabilityEnum, resolve: (status) => status.availability as "not_set" | "busy" }),
    clearStatusAt: t.expose("clearStatusAt", { type: "Time", nullable: true }),
  }),
});

builder.node(UserRef, {
  description: "A user (GitLab's UserCore).",
  id: { resolve: (user) => user.id },
  fields: (t) => ({
    username: t.exposeString("username"),
    name: t.exposeString("name"),
    state: t.exposeString("state", { description: "active, blocked, deactivated, ..." }),
    bot: t.boolean({ resolve: (user) => user.userType !== "human" }),
    avatarUrl: t.string({ resolve: (user, _a, ctx) => avatarUrlOfUser(ctx, user) }),
    webUrl: t.string({ resolve: (user, _a, ctx) => webUrlOfUser(ctx, user) }),
    createdAt: t.expose("createdAt", { type: "Time" }),
    status: t.field({ type: UserStatusRef, nullable: true, description: "The status the user shows, if any.", resolve: (user, _a, ctx) => statusOfUser(ctx, user) }),
  }),
});

export const UserCoreConnection = countedConnection(UserRef, "UserCore");

registerNodeLoader("User", UserRef, (ctx, id) => findUser(ctx, id));

/** A user row that must exist (authors, assignees): batched per request. */
export async function userById(ctx: Context, id: number): Promise<User> {
  const user = await ctx.loaders.get(userLoader).load(id);
  if (!user) throw new Error(`user ${id} does not exist`);
  return user;
}

/** A connection over users by id, loaded in one batch with the rest of the page. */
export async function usersConnection(ctx: Context, args: ConnectionArgs, ids: number[]) {
  const users = await ctx.loaders.get(userLoader).loadMany(ids);
  return arrayConnection(args, users.filter((user): user is User => !!user && !(user instanceof Error)));
}

builder.queryFields((t) => ({
  currentUser: t.field({
    type: UserRef,
    nullable: true,
    description: "The signed-in user; null for anonymous callers.",
    resolve: (_root, _args, ctx) => ctx.actor?.user ?? null,
  }),
  user: t.field({
    type: UserRef,
    nullable: true,
    args: { username: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const id = await userIdByUsername(ctx, args.username);
      return id == null ? null : orNull(() => findUser(ctx, id));
    },
  }),
}));
