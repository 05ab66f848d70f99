// POST /topics/merge (GitLab's Topics::MergeService): the source topic's projects move to the
// target (a project tagged with both just loses the source), the target's counters are
// recounted and the source is deleted, all in one transaction.
import type { Topic } from "../../generated/prisma/client.js";
import { AppError } from "../../errors.js";
import { removeAvatarFile } from "../shared/avatars.js";
import type { DomainContext } from "../shared/context.js";
import { recountTopics } from "./assignments.js";

/** `render_api_error!(message, :bad_request)` */
const mergeError = (message: string) => new AppError(400, { message });

/** The merge, once an administrator found both topics (requireAdmin, then findTopic for each). */
export async function mergeTopics(ctx: DomainContext, source: Topic, target: Topic): Promise<Topic> {
  if (source.id === target.id) throw mergeError("The source topic and the target topic are identical.");
  if (source.organizationId !== target.organizationId) {
    throw mergeError("The source topic and the target topic must belong to the same organization.");
  }
  let merged: Topic;
  try {
    merged = await ctx.db.$transaction(async (tx) => {
      // projects that use only the source now use the target
      await tx.projectTopic.updateMany({
        where: { topicId: source.id, project: { topics: { none: { topicId: target.id } } } },
        data: { topicId: target.id },
      });
      // projects that used both lose the source
      await tx.projectTopic.deleteMany({ where: { topicId: source.id } });
      await recountTopics(tx, [target.id]);
      await tx.topic.delete({ where: { id: source.id } });
      return tx.topic.findUniqueOrThrow({ where: { id: target.id } });
    });
  } catch {
    // GitLab reports any failure inside the service with one text (and keeps nothing of it)
    throw mergeError("Topics could not be merged!");
  }
  await removeAvatarFile(ctx, source.avatarPath);
  return merged;
}
