// Project topics: the `topics` list (most used first) and the Topic node.
import type { Topic } from "../../generated/prisma/client.js";
import { avatarUrl } from "../../domain/shared/avatars.js";
import { listTopics } from "../../domain/topics/lists.js";
import { findTopic } from "../../domain/topics/queries.js";
import { builder } from "../shared/builder.js";
import { countedConnection } from "../shared/connection-types.js";
import { offsetConnection } from "../shared/connections.js";
import { registerNodeLoader } from "../shared/node.js";

export const TopicRef = builder.objectRef<Topic>("Topic");

builder.node(TopicRef, {
  description: "A project topic.",
  id: { resolve: (topic) => topic.id },
  fields: (t) => ({
    name: t.exposeString("name"),
    title: t.exposeString("title"),
    description: t.exposeString("description", { nullable: true }),
    avatarUrl: t.string({ nullable: true, resolve: (topic, _a, ctx) => avatarUrl(ctx, topic.avatarPath) }),
  }),
});

const TopicConnection = countedConnection(TopicRef, "Topic");

registerNodeLoader("Topic", TopicRef, (ctx, id) => findTopic(ctx, id));

builder.queryFields((t) => ({
  topics: t.connection(
    {
      type: TopicRef,
      description: "Topics, those of the most non-private projects first.",
      args: { search: t.arg.string({ description: "Name or title matches this." }) },
      resolve: (_root, args, ctx) => offsetConnection(args, (page) => listTopics(ctx, { search: args.search }, page)),
    },
    TopicConnection,
  ),
}));
