// Administrators' user lifecycle (update, delete, block/unblock, ban/unban, deactivate/activate),
// a user's memberships and a user's personal projects. Rules: domain/users/.
import { deleteUser } from "../domain/deletions/users.js";
import { findUserByIdOrUsername } from "../domain/users/queries.js";
import { findMembershipsUser, listUserMemberships, listUserProjects, type Membership } from "../domain/users/memberships.js";
import {
  activateUser, banUser, blockUser, deactivateUser, findUserToAdminister, unbanUser, unblockUser, type StateAnswer,
} from "../domain/users/states.js";
import { updateUser } from "../domain/users/update.js";
import type { DomainContext } from "../domain/shared/context.js";
import type { User } from "../generated/prisma/client.js";
import { builder } from "./builder.js";
import { pageArgs, keysetArgs, rowsOf } from "./pagination.js";
import { ProjectEntity, projectFilterArgs } from "./projects.js";
import { UserEntity } from "./users.js";
import * as route from "../rest/route.js";

/** GitLab's Entities::Membership. */
const MembershipEntity = builder.objectRef<Membership>("Membership").implement({
  fields: (t) => ({
    source_id: t.exposeInt("source_id"),
    source_name: t.exposeString("source_name"),
    source_type: t.exposeString("source_type"),
    access_level: t.exposeInt("access_level"),
  }),
});

const MembershipTypeEnum = builder.enumType("MembershipSourceType", { values: ["Project", "Namespace"] as const });

builder.queryFields((t) => ({
  userMemberships: t.field({
    type: [MembershipEntity],
    extensions: { rest: route.get("/users/:user_id/memberships"), access: "admin", tokenScopes: ["read_user"] },
    args: { user_id: t.arg.int({ required: true }), type: t.arg({ type: MembershipTypeEnum, required: false }), ...pageArgs },
    resolve: async (_r, { user_id, type, ...page }, ctx) =>
      rowsOf(ctx, await listUserMemberships(ctx, await findMembershipsUser(ctx, user_id), { type }, page)),
  }),
  userProjects: t.prismaField({
    extensions: { rest: route.get("/users/:user_id/projects") },
    type: [ProjectEntity],
    args: { user_id: t.arg.id({ required: true }), ...pageArgs, ...keysetArgs, ...projectFilterArgs },
    resolve: async (_query, _r, { user_id, page, per_page, ...filters }, ctx) =>
      rowsOf(ctx, await listUserProjects(ctx, await findUserByIdOrUsername(ctx, String(user_id)), filters, { page, per_page })),
  }),
}));

/** The state changes: 201 with `true`, `false` or `null` as users.rb answers. */
type StateChange = (ctx: DomainContext, user: User) => Promise<StateAnswer>;
const STATE_CHANGES: Record<string, StateChange> = {
  blockUser, unblockUser, banUser, unbanUser, deactivateUser, activateUser,
};

builder.mutationFields((t) => ({
  updateUser: t.prismaField({
    type: UserEntity,
    extensions: { rest: route.put("/users/:id"), access: "admin" },
    args: {
      id: t.arg.int({ required: true }),
      email: t.arg.string({ required: false }),
      password: t.arg.string({ required: false }),
      skip_reconfirmation: t.arg.boolean({ required: false }),
      name: t.arg.string({ required: false }),
      username: t.arg.string({ required: false }),
      bio: t.arg.string({ required: false }),
      admin: t.arg.boolean({ required: false }),
      avatar: t.arg({ type: "Upload", required: false }),
    },
    resolve: async (_q, _r, { id, ...input }, ctx) => updateUser(ctx, await findUserToAdminister(ctx, id), input),
  }),
  deleteUser: t.boolean({
    extensions: { rest: route.del("/users/:id"), access: "admin" },
    args: { id: t.arg.int({ required: true }), hard_delete: t.arg.boolean({ required: false }) },
    resolve: async (_r, args, ctx) => deleteUser(ctx, await findUserToAdminister(ctx, args.id), !!args.hard_delete, ctx.request.headers.get("if-unmodified-since")),
  }),
  ...Object.fromEntries(
    Object.entries(STATE_CHANGES).map(([name, change]) => [
      name,
      t.boolean({
        nullable: true,
        extensions: { rest: route.post(`/users/:id/${name.replace(/User$/, "")}`), access: "admin" },
        args: { id: t.arg.int({ required: true }) },
        resolve: async (_r, args, ctx) => change(ctx, await findUserToAdminister(ctx, args.id)),
      }),
    ]),
  ),
}));
