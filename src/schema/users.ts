import { createUser } from "../domain/users/create.js";
import { currentUser, findUser } from "../domain/users/queries.js";
import { listUsers, listUsersKeyset, USER_ORDER_COLUMNS } from "../domain/users/lists.js";
import { avatarUrlOfUser, webUrlOfUser } from "../domain/users/presenter.js";
import type { Context } from "../context.js";
import type { User } from "../generated/prisma/client.js";
import { mayReadPrivateFields } from "../domain/users/queries.js";
import { builder } from "./builder.js";
import { keysetArgs, pageArgs, rowsOf } from "./pagination.js";
import * as route from "../rest/route.js";

type UserFields = PothosSchemaTypes.PrismaObjectFieldBuilder<any, any, User>;

/** The fields of GitLab's UserBasic, shared by every user entity. */
const userBasicFields = (t: UserFields) => ({
  id: t.exposeInt("id"),
  username: t.exposeString("username"),
  name: t.exposeString("name"),
  state: t.exposeString("state"),
  locked: t.boolean({ resolve: () => false }),
  avatar_url: t.string({ resolve: (user: User, _args: unknown, ctx: Context) => avatarUrlOfUser(ctx, user) }),
  web_url: t.string({ resolve: (user: User, _args: unknown, ctx: Context) => webUrlOfUser(ctx, user) }),
});

/** GitLab's UserBasic: the user summary embedded in other entities. */
export const UserBasic = builder.prismaObject("User", {
  variant: "UserBasic",
  fields: (t) => userBasicFields(t as UserFields),
});


/** GitLab's User entity; private fields are null unless the caller is the user or an admin. */
export const UserEntity = builder.prismaObject("User", {
  name: "User",
  fields: (t) => ({
    ...userBasicFields(t as UserFields),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    bio: t.exposeString("bio"),
    bot: t.boolean({ resolve: (user) => user.userType !== "human" && user.userType !== "ghost" }), // the ghost is internal, not a bot
    public_email: t.string({ nullable: true, resolve: () => null }),
    email: t.string({ nullable: true, resolve: (user, _a, ctx) => (mayReadPrivateFields(ctx, user) ? user.email : null) }),
    is_admin: t.boolean({ nullable: true, resolve: (user, _a, ctx) => (mayReadPrivateFields(ctx, user) ? user.isAdmin : null) }),
    can_create_group: t.boolean({ nullable: true, resolve: (user, _a, ctx) => (mayReadPrivateFields(ctx, user) ? true : null) }),
    can_create_project: t.boolean({ nullable: true, resolve: (user, _a, ctx) => (mayReadPrivateFields(ctx, user) ? true : null) }),
    two_factor_enabled: t.boolean({ nullable: true, resolve: (user, _a, ctx) => (mayReadPrivateFields(ctx, user) ? false : null) }),
    external: t.boolean({ resolve: () => false }),
    private_profile: t.boolean({ resolve: () => false }),
  }),
});

const UserOrderBy = builder.enumType("UserOrderBy", { values: USER_ORDER_COLUMNS });

/** Tokens with only `read_user` may read users (GitLab's users API admits it for GET). */
const readUser = { tokenScopes: ["read_user"] };

builder.queryFields((t) => ({
  currentUser: t.prismaField({
    type: UserEntity,
    extensions: { rest: route.get("/user"), access: "authenticated", ...readUser },
    resolve: (_query, _root, _args, ctx) => currentUser(ctx),
  }),
  users: t.prismaField({
    type: [UserEntity],
    extensions: { rest: route.get("/users"), ...readUser },
    // GitLab's declaration order (Grape reports bad params in this order)
    args: {
      username: t.arg.string({ required: false }),
      search: t.arg.string({ required: false }),
      active: t.arg.boolean({ required: false }),
      blocked: t.arg.boolean({ required: false }),
      humans: t.arg.boolean({ required: false }),
      order_by: t.arg({ type: UserOrderBy, required: false }),
      ...keysetArgs,
      ...pageArgs,
      cursor: t.arg.string({ required: false }),
    },
    resolve: async (_query, _root, { pagination, page, per_page, cursor, ...filters }, ctx) =>
      rowsOf(ctx, pagination === "keyset" ? await listUsersKeyset(ctx, filters, { per_page, cursor }) : await listUsers(ctx, filters, { page, per_page })),
  }),
  user: t.prismaField({
    type: UserEntity,
    extensions: { rest: route.get("/users/:id"), ...readUser },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_query, _root, args, ctx) => findUser(ctx, args.id),
  }),
}));

builder.mutationFields((t) => ({
  createUser: t.prismaField({
    type: UserEntity,
    extensions: { rest: route.post("/users"), access: "admin" },
    args: {
      email: t.arg.string({ required: true }),
      password: t.arg.string({ required: false }),
      reset_password: t.arg.boolean({ required: false }),
      skip_confirmation: t.arg.boolean({ required: false }),
      name: t.arg.string({ required: true }),
      username: t.arg.string({ required: true }),
      force_random_password: t.arg.boolean({ required: false }),
      bio: t.arg.string({ required: false }),
      admin: t.arg.boolean({ required: false }),
      avatar: t.arg({ type: "Upload", required: false }),
    },
    resolve: (_query, _root, args, ctx) => createUser(ctx, args),
  }),
}));
