// topicCreate, topicUpdate, topicDelete and topicsMerge (administrators only, as REST /topics and
// POST /topics/merge): one `input`, a payload `{ topic, errors }` (topics rules). `avatar` is a
// multipart upload.
import { findTopicToManage } from "../../domain/topics/queries.js";
import { mergeTopics } from "../../domain/topics/merge.js";
import { createTopic, deleteTopic, updateTopic } from "../../domain/topics/writes.js";
import { AVATAR_DESCRIPTION, recordIdOf } from "../shared/mutation-inputs.js";
import { payloadMutation } from "../shared/payload-mutation.js";
import { TopicRef } from "./types.js";

const topic = { field: "topic", type: TopicRef };

payloadMutation("topicCreate", {
  inputFields: (t) => ({
    name: t.string({ required: true }),
    title: t.string({ required: true }),
    description: t.string(),
    avatar: t.field({ type: "Upload", description: AVATAR_DESCRIPTION }),
  }),
  write: (input, ctx) => createTopic(ctx, { name: input.name, title: input.title, description: input.description, avatar: input.avatar }),
  returns: topic,
});

payloadMutation("topicUpdate", {
  inputFields: (t) => ({
    id: t.id({ required: true, description: "Global id of the topic." }),
    name: t.string(),
    title: t.string(),
    description: t.string(),
    avatar: t.field({ type: "Upload", description: AVATAR_DESCRIPTION }),
  }),
  write: async (input, ctx) => {
    const id = recordIdOf(input.id, "Topic");
    return updateTopic(ctx, await findTopicToManage(ctx, id), { name: input.name, title: input.title, description: input.description, avatar: input.avatar });
  },
  returns: topic,
});

payloadMutation("topicDelete", {
  inputFields: (t) => ({ id: t.id({ required: true, description: "Global id of the topic." }) }),
  write: async (input, ctx) => {
    const id = recordIdOf(input.id, "Topic");
    return deleteTopic(ctx, await findTopicToManage(ctx, id));
  },
});

payloadMutation("topicsMerge", {
  description: "Moves the source topic's projects to the target topic and deletes the source (administrators only).",
  inputFields: (t) => ({
    sourceTopicId: t.id({ required: true, description: "Global id of the topic to merge away." }),
    targetTopicId: t.id({ required: true, description: "Global id of the topic that remains." }),
  }),
  write: async (input, ctx) => {
    const [sourceId, targetId] = [recordIdOf(input.sourceTopicId, "Topic"), recordIdOf(input.targetTopicId, "Topic")];
    return mergeTopics(ctx, await findTopicToManage(ctx, sourceId), await findTopicToManage(ctx, targetId));
  },
  returns: { field: "topic", type: TopicRef },
});
