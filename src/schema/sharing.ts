// Sharing projects and groups with groups: POST/DELETE /projects/:id/share and /groups/:id/share.
import type { ProjectGroupLink } from "../generated/prisma/client.js";
import { findGroup, findProject } from "../domain/shared/parents.js";
import { checkShareInput } from "../domain/sharing/rules.js";
import { shareGroup, shareProject, unshareGroup, unshareProject } from "../domain/sharing/writes.js";
import { builder } from "./builder.js";
import { GroupDetail } from "./groups.js";
import * as route from "../rest/route.js";

/** Entities::ProjectGroupLink. */
const ProjectGroupLinkEntity = builder.objectRef<ProjectGroupLink>("ProjectGroupLink").implement({
  fields: (t) => ({
    id: t.exposeInt("id"),
    project_id: t.exposeInt("projectId"),
    group_id: t.exposeInt("groupId"),
    group_access: t.exposeInt("groupAccess"),
    expires_at: t.expose("expiresAt", { type: "Date", nullable: true }),
  }),
});

builder.mutationFields((t) => ({
  shareProject: t.field({
    type: ProjectGroupLinkEntity,
    extensions: { rest: route.post("/projects/:id/share"), access: "authenticated" },
    args: {
      id: t.arg.id({ required: true }),
      group_id: t.arg.int({ required: true }),
      group_access: t.arg.int({ required: true }),
      expires_at: t.arg.string({ required: false }),
    },
    resolve: async (_r, { id, ...input }, ctx) => {
      checkShareInput(input);
      return shareProject(ctx, await findProject(ctx, String(id)), input);
    },
  }),
  unshareProject: t.boolean({
    extensions: { rest: route.del("/projects/:id/share/:group_id"), access: "authenticated" },
    args: { id: t.arg.id({ required: true }), group_id: t.arg.int({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await unshareProject(ctx, await findProject(ctx, String(args.id)), args.group_id);
      return true;
    },
  }),
  shareGroup: t.prismaField({
    type: GroupDetail,
    extensions: { rest: route.post("/groups/:id/share"), access: "authenticated" },
    args: {
      id: t.arg.id({ required: true }),
      group_id: t.arg.int({ required: true }),
      group_access: t.arg.int({ required: true }),
      expires_at: t.arg.string({ required: false }),
    },
    resolve: async (_q, _r, { id, ...input }, ctx) => {
      checkShareInput(input);
      const shared = await findGroup(ctx, String(id));
      await shareGroup(ctx, shared, await findGroup(ctx, input.group_id), input);
      return shared.group;
    },
  }),
  unshareGroup: t.boolean({
    extensions: { rest: route.del("/groups/:id/share/:group_id"), access: "authenticated" },
    args: { id: t.arg.id({ required: true }), group_id: t.arg.int({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await unshareGroup(ctx, await findGroup(ctx, String(args.id)), args.group_id);
      return true;
    },
  }),
}));
