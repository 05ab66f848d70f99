// topicCreate, topicUpdate and topicDelete (administrators only, as REST /topics): one `input`, a
// payload `{ topic, errors }` (topics.ts rules). `avatar` is a multipart upload.
import { createTopic, deleteTopic, updateTopic } from "../domain/topics.js";
import { builder } from "./builder.js";
import { payload } from "./errors.js";
import { AVATAR_DESCRIPTION, recordIdOf } from "./mutation-inputs.js";
import { TopicRef } from "./topics.js";

builder.relayMutationField(
  "topicCreate",
  {
    inputFields: (t) => ({
      name: t.string({ required: true }),
      title: t.string({ required: true }),
      description: t.string(),
      avatar: t.field({ type: "Upload", description: AVATAR_DESCRIPTION }),
    }),
  },
  {
    resolve: (_root, { input }, ctx) =>
      payload(ctx, "topic", () => createTopic(ctx, { name: input.name, title: input.title, description: input.description, avatar: input.avatar })),
  },
  {
    outputFields: (t) => ({
      topic: t.field({ type: TopicRef, nullable: true, resolve: (result) => result.topic }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);

builder.relayMutationField(
  "topicUpdate",
  {
    inputFields: (t) => ({
      id: t.id({ required: true, description: "Global id of the topic." }),
      name: t.string(),
      title: t.string(),
      description: t.string(),
      avatar: t.field({ type: "Upload", description: AVATAR_DESCRIPTION }),
    }),
  },
  {
    resolve: (_root, { input }, ctx) =>
      payload(ctx, "topic", () =>
        updateTopic(ctx, recordIdOf(input.id, "Topic"), { name: input.name, title: input.title, description: input.description, avatar: input.avatar })),
  },
  {
    outputFields: (t) => ({
      topic: t.field({ type: TopicRef, nullable: true, resolve: (result) => result.topic }),
      errors: t.stringList({ resolve: (result) => result.errors }),
    }),
  },
);

builder.relayMutationField(
  "topicDelete",
  { inputFields: (t) => ({ id: t.id({ required: true, description: "Global id of the topic." }) }) },
  { resolve: (_root, { input }, ctx) => payload(ctx, "deleted", () => deleteTopic(ctx, recordIdOf(input.id, "Topic"))) },
  { outputFields: (t) => ({ errors: t.stringList({ resolve: (result) => result.errors }) }) },
);
