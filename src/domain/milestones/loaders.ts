// Milestones by id for a page of issues or merge requests: from the server's milestone cache, the
// rest in one statement (then cached).
import DataLoader from "dataloader";
import type { Milestone } from "../../generated/prisma/client.js";
import type { LoaderFactory } from "../shared/loaders.js";

export const milestoneLoader: LoaderFactory<DataLoader<number, Milestone | null>> = (services) =>
  new DataLoader(async (ids) => {
    const cache = services.caches.milestones;
    const found = new Map<number, Milestone>();
    for (const id of ids) {
      const milestone = cache.get(id);
      if (milestone) found.set(id, milestone);
    }
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) {
      const stamp = cache.stamp();
      for (const row of await services.db.milestone.findMany({ where: { id: { in: missing } } })) {
        cache.keep(row.id, row, stamp);
        found.set(row.id, row);
      }
    }
    return ids.map((id) => found.get(id) ?? null);
  });
