// What the Label entities show beyond the columns: the project's priority of each label and
// whether the caller subscribes to it, for a page in one statement each.
import DataLoader from "dataloader";
import type { LoaderFactory } from "../shared/loaders.js";

/** "<project id>:<label id>" -> the project's priority of the label, or null. */
export const labelPriorityLoader: LoaderFactory<DataLoader<string, number | null>> = (services) =>
  new DataLoader(async (keys) => {
    const pairs = keys.map((key) => key.split(":").map(Number) as [number, number]);
    const rows = await services.db.labelPriority.findMany({ where: { OR: pairs.map(([projectId, labelId]) => ({ projectId, labelId })) } });
    const priorities = new Map(rows.map((row) => [`${row.projectId}:${row.labelId}`, row.priority]));
    return keys.map((key) => priorities.get(key) ?? null);
  });

/** "<user id>:<label id>" -> whether the user subscribes to the label. */
export const labelSubscriptionLoader: LoaderFactory<DataLoader<string, boolean>> = (services) =>
  new DataLoader(async (keys) => {
    const pairs = keys.map((key) => key.split(":").map(Number) as [number, number]);
    const rows = await services.db.labelSubscription.findMany({ where: { OR: pairs.map(([userId, labelId]) => ({ userId, labelId })) } });
    const subscribed = new Set(rows.map((row) => `${row.userId}:${row.labelId}`));
    return keys.map((key) => subscribed.has(key));
  });

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A label's description as HTML: single-line Markdown is not rendered, the text is escaped in GitLab's paragraph. */
export const labelDescriptionHtml = (description: string | null) => (description ? `<p dir="auto">${escapeHtml(description)}</p>` : "");
