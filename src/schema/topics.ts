// Project topics: GitLab's Entities::Projects::Topic, the public reads and the admin-only writes
// (create, update, delete, merge), each through one domain function.
import { avatarUrl } from "../domain/shared/avatars.js";
import { listTopics } from "../domain/topics/lists.js";
import { mergeTopics } from "../domain/topics/merge.js";
import { createTopic, deleteTopic, updateTopic } from "../domain/topics/writes.js";
import { findTopic, findTopicToManage } from "../domain/topics/queries.js";
import { builder } from "./builder.js";
import { pageArgs, rowsOf } from "./pagination.js";
import * as route from "../rest/route.js";

export const TopicEntity = builder.prismaObject("Topic", {
  name: "Topic",
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    title: t.exposeString("title"),
    description: t.exposeString("description", { nullable: true }),
    total_projects_count: t.exposeInt("totalProjectsCount"),
    organization_id: t.exposeInt("organizationId"),
    avatar_url: t.string({ nullable: true, resolve: (topic, _a, ctx) => avatarUrl(ctx, topic.avatarPath) }),
  }),
});

builder.queryFields((t) => ({
  topics: t.prismaField({
    extensions: { rest: route.get("/topics") },
    type: [TopicEntity],
    args: {
      search: t.arg.string({ required: false }),
      without_projects: t.arg.boolean({ required: false }),
      organization_id: t.arg.int({ required: false }),
      ...pageArgs,
    },
    resolve: async (_q, _r, { page, per_page, ...filters }, ctx) => rowsOf(ctx, await listTopics(ctx, filters, { page, per_page })),
  }),
  topic: t.prismaField({
    extensions: { rest: route.get("/topics/:id") },
    type: TopicEntity,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_q, _r, args, ctx) => findTopic(ctx, args.id),
  }),
}));

builder.mutationFields((t) => ({
  createTopic: t.prismaField({
    type: TopicEntity,
    extensions: { rest: route.post("/topics"), access: "admin" },
    args: {
      name: t.arg.string({ required: true }),
      title: t.arg.string({ required: true }),
      description: t.arg.string({ required: false }),
      avatar: t.arg({ type: "Upload", required: false }),
      organization_id: t.arg.int({ required: false }),
    },
    resolve: (_q, _r, args, ctx) => createTopic(ctx, args),
  }),
  updateTopic: t.prismaField({
    type: TopicEntity,
    extensions: { rest: route.put("/topics/:id"), access: "admin" },
    args: {
      id: t.arg.int({ required: true }),
      name: t.arg.string({ required: false }),
      title: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
      avatar: t.arg({ type: "Upload", required: false }),
    },
    resolve: async (_q, _r, { id, ...input }, ctx) => updateTopic(ctx, await findTopicToManage(ctx, id), input),
  }),
  deleteTopic: t.boolean({
    extensions: { rest: route.del("/topics/:id"), access: "admin" },
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_r, args, ctx) => deleteTopic(ctx, await findTopicToManage(ctx, args.id), ctx.request.headers.get("if-unmodified-since")),
  }),
  mergeTopics: t.prismaField({
    type: TopicEntity,
    extensions: { rest: route.post("/topics/merge"), access: "admin" },
    args: {
      source_topic_id: t.arg.int({ required: true }),
      target_topic_id: t.arg.int({ required: true }),
    },
    resolve: async (_q, _r, args, ctx) => mergeTopics(ctx, await findTopicToManage(ctx, args.source_topic_id), await findTopicToManage(ctx, args.target_topic_id)),
  }),
}));
