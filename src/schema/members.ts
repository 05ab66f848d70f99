// Group and project members (GitLab's Member entity) for both sources, one set of fields.
import { addMember, checkMemberInput, checkMemberUpdate, findDirectMember, removeMember, updateMember } from "../domain/members/writes.js";
import { findAnyMember, findMember, findMemberParent, type Member, type MemberSource } from "../domain/members/queries.js";
import { listAllMembers, listMembers } from "../domain/members/lists.js";
import { avatarUrlOfUser, webUrlOfUser } from "../domain/users/presenter.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf } from "./pagination.js";
import * as route from "../rest/route.js";

export const MemberEntity = builder.objectRef<Member>("Member").implement({
  fields: (t) => ({
    id: t.int({ resolve: (m) => m.user.id }),
    username: t.string({ resolve: (m) => m.user.username }),
    name: t.string({ resolve: (m) => m.user.name }),
    state: t.string({ resolve: (m) => m.user.state }),
    locked: t.boolean({ resolve: () => false }),
    avatar_url: t.string({ resolve: (m, _a, ctx) => avatarUrlOfUser(ctx, m.user) }),
    web_url: t.string({ resolve: (m, _a, ctx) => webUrlOfUser(ctx, m.user) }),
    access_level: t.exposeInt("accessLevel"),
    created_at: t.expose("createdAt", { type: "DateTime" }),
    expires_at: t.expose("expiresAt", { type: "Date", nullable: true }),
    membership_state: t.string({ resolve: () => "active" }),
  }),
});

const listArgs = builder.args((t) => ({
  id: t.id({ required: true }),
  query: t.string({ required: false }),
  user_ids: t.intList({ required: false }),
}));

const memberArgs = builder.args((t) => ({
  id: t.id({ required: true }),
  user_id: t.int({ required: true }),
}));

/** Root fields for one member source: `groupMembers`, `addGroupMember`, ... */
function memberFields(source: MemberSource, noun: "Group" | "Project") {
  const lower = noun.toLowerCase();
  const members = `/${lower}s/:id/members`;
  builder.queryFields((t) => ({
    [`${lower}Members`]: t.field({
      type: [MemberEntity],
      extensions: { rest: route.get(members), access: "authenticated" },
      args: { ...listArgs, ...pageArgs },
      resolve: async (_r, { id, page, per_page, ...filters }, ctx) =>
        rowsOf(ctx, await listMembers(ctx, await findMemberParent(ctx, source, String(id)), filters, { page, per_page })),
    }),
    [`${lower}MembersAll`]: t.field({
      type: [MemberEntity],
      extensions: { rest: route.get(`${members}/all`), access: "authenticated" },
      args: { ...listArgs, ...pageArgs },
      resolve: async (_r, { id, page, per_page, ...filters }, ctx) =>
        rowsOf(ctx, await listAllMembers(ctx, await findMemberParent(ctx, source, String(id)), filters, { page, per_page })),
    }),
    [`${lower}Member`]: t.field({
      type: MemberEntity,
      extensions: { rest: route.get(`${members}/:user_id`), access: "authenticated" },
      args: memberArgs,
      resolve: (_r, args, ctx) => findMember(ctx, source, String(args.id), args.user_id),
    }),
    // direct or inherited, with the highest level
    [`${lower}MemberAll`]: t.field({
      type: MemberEntity,
      extensions: { rest: route.get(`${members}/all/:user_id`), access: "authenticated" },
      args: memberArgs,
      resolve: (_r, args, ctx) => findAnyMember(ctx, source, String(args.id), args.user_id),
    }),
  }));
  builder.mutationFields((t) => ({
    [`add${noun}Member`]: t.field({
      type: MemberEntity,
      extensions: { rest: route.post(members), access: "authenticated" },
      args: {
        id: t.arg.id({ required: true }),
        user_id: t.arg.int({ required: false }),
        username: t.arg.string({ required: false }),
        access_level: t.arg.int({ required: true }),
        expires_at: t.arg({ type: "Date", required: false }),
      },
      resolve: async (_r, args, ctx) => {
        checkMemberInput(ctx, args);
        return addMember(ctx, await findMemberParent(ctx, source, String(args.id)), args);
      },
    }),
    [`update${noun}Member`]: t.field({
      type: MemberEntity,
      extensions: { rest: route.put(`${members}/:user_id`), access: "authenticated" },
      args: { ...memberArgs, access_level: t.arg.int({ required: true }), expires_at: t.arg({ type: "Date", required: false }) },
      resolve: async (_r, args, ctx) => {
        checkMemberUpdate(ctx, args);
        return updateMember(ctx, await findDirectMember(ctx, await findMemberParent(ctx, source, String(args.id)), args.user_id), args);
      },
    }),
    [`remove${noun}Member`]: t.boolean({
      extensions: { rest: route.del(`${members}/:user_id`), access: "authenticated" },
      args: { ...memberArgs, skip_subresources: t.arg.boolean({ required: false }) },
      resolve: async (_r, args, ctx) =>
        removeMember(ctx, await findDirectMember(ctx, await findMemberParent(ctx, source, String(args.id)), args.user_id), args.skip_subresources ?? false),
    }),
  }));
}

memberFields("group", "Group");
memberFields("project", "Project");
