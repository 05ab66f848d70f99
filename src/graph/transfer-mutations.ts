// Moves: groupTransfer (groups/transfer.ts rules, as REST POST /groups/:id/transfer), projectTransfer
// (projects.ts rules, as REST PUT /projects/:id/transfer) and topicsMerge (topics/merge.ts rules,
// administrators only, as REST POST /topics/merge): one `input`, a payload `{ <object>, errors }`.
import { transferGroup } from "../domain/groups/transfer.js";
import { transferProject } from "../domain/projects/transfer.js";
import { findGroup, findProject } from "../domain/shared/parents.js";
import { mergeTopics } from "../domain/topics/merge.js";
import { groupPathOf, matchingIdOf, namespacePathOf, projectPathOf, recordIdOf } from "./mutation-inputs.js";
import { GroupRef } from "./namespaces.js";
import { payloadMutation } from "./payload-mutation.js";
import { ProjectRef } from "./projects.js";
import { TopicRef } from "./topics.js";

payloadMutation("groupTransfer", {
  description: "Moves a group, with its subgroups and projects, under another group (Maintainers and above of it) or to the top level.",
  inputFields: (t) => ({
    fullPath: t.id({ required: true, description: "The group to move (its Owners and administrators)." }),
    parentId: t.id({ description: "Global id of the new parent group; without one the group becomes top-level." }),
  }),
  write: async (input, ctx) => {
    const path = groupPathOf(input.fullPath);
    const parentId = input.parentId == null ? null : matchingIdOf(input.parentId, "Group");
    return transferGroup(ctx, await findGroup(ctx, path), parentId);
  },
  returns: { field: "group", type: GroupRef },
});

payloadMutation("projectTransfer", {
  description: "Moves a project into another group or personal namespace.",
  inputFields: (t) => ({
    fullPath: t.id({ required: true, description: "The project to move (its Owners and administrators)." }),
    namespacePath: t.id({ required: true, description: "Full path of the group or personal namespace to move it into." }),
  }),
  write: async (input, ctx) => {
    const path = projectPathOf(input.fullPath);
    const namespace = namespacePathOf(input.namespacePath);
    return transferProject(ctx, await findProject(ctx, path), namespace);
  },
  returns: { field: "project", type: ProjectRef },
});

payloadMutation("topicsMerge", {
  description: "Moves the source topic's projects to the target topic and deletes the source (administrators only).",
  inputFields: (t) => ({
    sourceTopicId: t.id({ required: true, description: "Global id of the topic to merge away." }),
    targetTopicId: t.id({ required: true, description: "Global id of the topic that remains." }),
  }),
  write: (input, ctx) => mergeTopics(ctx, recordIdOf(input.sourceTopicId, "Topic"), recordIdOf(input.targetTopicId, "Topic")),
  returns: { field: "topic", type: TopicRef },
});
