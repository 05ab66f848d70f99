// Milestones by id for a page of issues or merge requests: one statement for the page.
import DataLoader from "dataloader";
import type { Milestone } from "../../generated/prisma/client.js";
import type { LoaderFactory } from "../shared/loaders.js";

export const milestoneLoader: LoaderFactory<DataLoader<number, Milestone | null>> = (services) =>
  new DataLoader(async (ids) => {
    const rows = await services.db.milestone.findMany({ where: { id: { in: [...ids] } } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id) ?? null);
  });
