// User status (GitLab's Users API): GET/PUT/PATCH /user/status and GET /users/:id_or_username/status,
// answering GitLab's UserStatus entity (all null, message_html "", when there is no status).
import type { UserStatus } from "../generated/prisma/client.js";
import { currentUser } from "../domain/users/queries.js";
import { findUserByIdOrUsername } from "../domain/users/queries.js";
import { setUserStatus, statusMessageHtml, statusOfUser, type StatusWriteMode } from "../domain/users/status.js";
import type { Context } from "../context.js";
import { builder } from "./builder.js";
import * as route from "../rest/route.js";

/** The entity's object: the status shown, or null for none. */
type ShownStatus = { status: UserStatus | null };

const UserStatusEntity = builder.objectRef<ShownStatus>("UserStatus").implement({
  fields: (t) => ({
    emoji: t.string({ nullable: true, resolve: ({ status }) => status?.emoji ?? null }),
    message: t.string({ nullable: true, resolve: ({ status }) => status?.message ?? null }),
    availability: t.string({ nullable: true, resolve: ({ status }) => status?.availability ?? null }),
    message_html: t.string({ resolve: ({ status }) => statusMessageHtml(status) }),
    clear_status_at: t.field({ type: "DateTime", nullable: true, resolve: ({ status }) => status?.clearStatusAt ?? null }),
  }),
});

const readUser = { tokenScopes: ["read_user"] };

builder.queryFields((t) => ({
  currentUserStatus: t.field({
    type: UserStatusEntity,
    extensions: { rest: route.get("/user/status"), access: "authenticated", ...readUser },
    resolve: async (_root, _args, ctx) => ({ status: await statusOfUser(ctx, currentUser(ctx)) }),
  }),
  userStatus: t.field({
    type: UserStatusEntity,
    extensions: { rest: route.get("/users/:user_id/status"), ...readUser },
    args: { user_id: t.arg.string({ required: true, description: "The id or username of the user" }) },
    resolve: async (_root, args, ctx) => ({ status: await statusOfUser(ctx, await findUserByIdOrUsername(ctx, args.user_id)) }),
  }),
}));

const setStatus = (ctx: Context, args: Record<string, string | null | undefined>, mode: StatusWriteMode) =>
  setUserStatus(ctx, currentUser(ctx), withoutAbsent(args), mode).then((status) => ({ status }));

/** The args the request gave (GraphQL hands absent optional args as undefined or leaves them out). */
const withoutAbsent = (args: Record<string, string | null | undefined>) =>
  Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));

builder.mutationFields((t) => {
  const statusArgs = () => ({
    emoji: t.arg.string({ required: false }),
    message: t.arg.string({ required: false }),
    availability: t.arg.string({ required: false }),
    clear_status_after: t.arg.string({ required: false }),
  });
  return {
    setCurrentUserStatus: t.field({
      type: UserStatusEntity,
      description: "Sets the caller's status; what is not given is cleared.",
      extensions: { rest: route.put("/user/status"), access: "authenticated" },
      args: statusArgs(),
      resolve: (_root, args, ctx) => setStatus(ctx, args, "replace"),
    }),
    updateCurrentUserStatus: t.field({
      type: UserStatusEntity,
      description: "Sets the caller's status; what is not given is kept (the emoji and availability still default).",
      extensions: { rest: route.patch("/user/status"), access: "authenticated" },
      args: statusArgs(),
      resolve: async (_root, args, ctx) => {
        const given = withoutAbsent(args);
        // GitLab: a PATCH without params changes nothing
        if (!Object.keys(given).length) return { status: await statusOfUser(ctx, currentUser(ctx)) };
        return setStatus(ctx, given, "merge");
      },
    }),
  };
});
