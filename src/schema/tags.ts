// Repository tags: GitLab's Tag entity and the tags root fields (src/domain/repository/tags.ts).
import { findRepositoryToPush } from "../domain/repository/access.js";
import { checkTagCreation, createTag, deleteTag, findTag, findTagToDelete, listTags, tagView, type TagView } from "../domain/repository/tags.js";
import { findProject } from "../domain/shared/parents.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf, SortDirectionEnum } from "./pagination.js";
import { CommitEntity } from "./repository.js";
import * as route from "../rest/route.js";

/** Entities::Tag: a lightweight tag has an empty message and no creation time; no releases here. */
const TagEntity = builder.objectRef<TagView>("Tag").implement({
  fields: (t) => ({
    name: t.string({ resolve: (view) => view.tag.name }),
    message: t.string({ resolve: (view) => view.tag.message ?? "" }),
    target: t.exposeString("target"),
    commit: t.field({ type: CommitEntity, resolve: (view) => view.commit }),
    release: t.field({ type: "JSON", nullable: true, resolve: () => null }),
    protected: t.boolean({ resolve: () => false }),
    created_at: t.field({ type: "DateTime", nullable: true, resolve: (view) => (view.tag.objectSha == null ? null : view.tag.createdAt) }),
  }),
});

const TagOrder = builder.enumType("TagOrderBy", { values: ["name", "updated", "version"] as const });

builder.queryFields((t) => ({
  projectTags: t.field({
    extensions: { rest: route.get("/projects/:id/repository/tags") },
    type: [TagEntity],
    args: {
      id: t.arg.id({ required: true }),
      order_by: t.arg({ type: TagOrder, required: false }),
      sort: t.arg({ type: SortDirectionEnum, required: false }),
      search: t.arg.string({ required: false }),
      ...pageArgs,
    },
    resolve: async (_r, { id, page, per_page, ...filters }, ctx) =>
      rowsOf(ctx, await listTags(ctx, await findProject(ctx, String(id)), filters, { page, per_page })),
  }),
  projectTag: t.field({
    extensions: { rest: route.get("/projects/:id/repository/tags/:tag_name") },
    type: TagEntity,
    args: { id: t.arg.id({ required: true }), tag_name: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => tagView(ctx, await findTag(ctx, String(args.id), args.tag_name)),
  }),
}));

builder.mutationFields((t) => ({
  createTag: t.field({
    type: TagEntity,
    extensions: { rest: route.post("/projects/:id/repository/tags"), access: "authenticated" },
    args: {
      id: t.arg.id({ required: true }),
      tag_name: t.arg.string({ required: true }),
      ref: t.arg.string({ required: true }),
      message: t.arg.string({ required: false }),
    },
    resolve: async (_r, { id, ...input }, ctx) => {
      checkTagCreation(ctx, input);
      return createTag(ctx, await findRepositoryToPush(ctx, String(id)), input);
    },
  }),
  deleteTag: t.boolean({
    extensions: { rest: route.del("/projects/:id/repository/tags/:tag_name"), access: "authenticated" },
    args: { id: t.arg.id({ required: true }), tag_name: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => deleteTag(ctx, await findTagToDelete(ctx, String(args.id), args.tag_name)),
  }),
}));
