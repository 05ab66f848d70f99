// Project topics (GitLab's Projects::Topic and lib/api/topics.rb): one topic, read by anyone.
// Lists and search: lists.ts; create, update and delete: writes.ts; merging: merge.ts.
import { notFound, recordNotFound } from "../../errors.js";
import type { Topic } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { requireAdmin } from "../shared/guards.js";
import { DEFAULT_ORGANIZATION_ID } from "./assignments.js";

/**
 * `find_organization!`: Forgeline has one organization, the default one, which everyone may
 * read; any other id is an organization the caller cannot read (404).
 */
export function requireOrganization(id: number): number {
  if (id !== DEFAULT_ORGANIZATION_ID) throw notFound("Organization");
  return id;
}

/** A topic an administrator changes: 401/403 for anyone else, then findTopic. */
export async function findTopicToManage(ctx: DomainContext, id: number): Promise<Topic> {
  requireAdmin(ctx);
  return findTopic(ctx, id);
}

/** `find_topic!`: the record (404 "Not found"), then its organization. */
export async function findTopic(ctx: DomainContext, id: number): Promise<Topic> {
  const topic = await ctx.db.topic.findUnique({ where: { id } });
  if (!topic) throw recordNotFound();
  requireOrganization(topic.organizationId);
  return topic;
}
