// Topics assigned to projects: names are matched case-insensitively (per organization) and
// created on first use; the topics' project counters are kept in step.
import type { Prisma } from "../../generated/prisma/client.js";
import DataLoader from "dataloader";
import type { LoaderFactory } from "../shared/loaders.js";

export const DEFAULT_ORGANIZATION_ID = 1;

/** Topics from the `topics` / `tag_list` params: trimmed, de-duplicated case-insensitively. */
export function normaliseTopicNames(names: string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of names.flatMap((n) => n.split(","))) {
    const name = raw.trim();
    if (name && !seen.has(name.toLowerCase())) {
      seen.add(name.toLowerCase());
      result.push(name);
    }
  }
  return result;
}

/** Replaces the project's topics and refreshes the counters of every topic touched. */
export async function assignTopics(tx: Prisma.TransactionClient, projectId: number, names: string[]): Promise<void> {
  const previous = await tx.projectTopic.findMany({ where: { projectId }, select: { topicId: true } });
  await tx.projectTopic.deleteMany({ where: { projectId } });
  const touched = new Set(previous.map((p) => p.topicId));
  for (const [position, name] of normaliseTopicNames(names).entries()) {
    const topic = await tx.topic.upsert({
      where: { organizationId_nameLower: { organizationId: DEFAULT_ORGANIZATION_ID, nameLower: name.toLowerCase() } },
      create: { name, nameLower: name.toLowerCase(), title: name, organizationId: DEFAULT_ORGANIZATION_ID },
      update: {},
    });
    await tx.projectTopic.create({ data: { projectId, topicId: topic.id, position } });
    touched.add(topic.id);
  }
  await recountTopics(tx, [...touched]);
}

export async function recountTopics(tx: Prisma.TransactionClient, topicIds: number[]): Promise<void> {
  for (const topicId of topicIds) {
    const [total, nonPrivate] = await Promise.all([
      tx.projectTopic.count({ where: { topicId } }),
      tx.projectTopic.count({ where: { topicId, project: { visibility: { in: ["internal", "public"] } } } }),
    ]);
    await tx.topic.update({ where: { id: topicId }, data: { totalProjectsCount: total, nonPrivateProjectsCount: nonPrivate } });
  }
}

/** Topics a project's visibility change affects (non-private counts). */
export async function topicIdsOf(tx: Prisma.TransactionClient, projectId: number): Promise<number[]> {
  return (await tx.projectTopic.findMany({ where: { projectId }, select: { topicId: true } })).map((t) => t.topicId);
}

/** Topic names of a project, in assignment order. */
export const projectTopicNamesLoader: LoaderFactory<DataLoader<number, string[]>> = (services) =>
  new DataLoader(async (projectIds) => {
    const rows = await services.db.projectTopic.findMany({
      where: { projectId: { in: [...projectIds] } },
      include: { topic: { select: { name: true } } },
      orderBy: { position: "asc" },
    });
    return projectIds.map((id) => rows.filter((row) => row.projectId === id).map((row) => row.topic.name));
  });
