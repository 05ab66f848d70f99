// Per-request batch loaders, so that list entities needing related rows cost one query per page.
import DataLoader from "dataloader";
import type { AwardEmoji, Namespace, User } from "../generated/prisma/client.js";
import type { Services } from "./context.js";
import { batchAwardEmoji, batchVotes, type AwardableKey, type Votes } from "./award-emoji/batches.js";

export interface Loaders {
  namespace: DataLoader<number, Namespace | null>;
  user: DataLoader<number, User | null>;
  /** topic names of a project, in assignment order */
  projectTopicNames: DataLoader<number, string[]>;
  /** emoji reactions of an awardable (`awardableKey(type, id)`), oldest first */
  awardEmoji: DataLoader<AwardableKey, AwardEmoji[]>;
  /** thumbsup / thumbsdown counts of an awardable */
  awardVotes: DataLoader<AwardableKey, Votes>;
}

export function createLoaders(services: Services): Loaders {
  return {
    awardEmoji: new DataLoader((keys) => batchAwardEmoji(services.db, keys)),
    awardVotes: new DataLoader((keys) => batchVotes(services.db, keys)),
    namespace: new DataLoader(async (ids) => {
      const rows = await services.db.namespace.findMany({ where: { id: { in: [...ids] } } });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    user: new DataLoader(async (ids) => {
      const rows = await services.db.user.findMany({ where: { id: { in: [...ids] } } });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    projectTopicNames: new DataLoader(async (projectIds) => {
      const rows = await services.db.projectTopic.findMany({
        where: { projectId: { in: [...projectIds] } },
        include: { topic: { select: { name: true } } },
        orderBy: { position: "asc" },
      });
      return projectIds.map((id) => rows.filter((row) => row.projectId === id).map((row) => row.topic.name));
    }),
  };
}
