// The labels issues and merge requests carry (GitLab's label_links): read a page's in one
// statement, and written by the issuable's writes inside their transaction. Names given by a
// caller resolve to the project's labels and its ancestor groups' (the project's own first), and
// a name nothing matches becomes a project label in GitLab's default colour (Labels::FindOrCreateService).
import DataLoader from "dataloader";
import { Prisma, type Label } from "../../generated/prisma/client.js";
import type { Db } from "../../db/client.js";
import { ancestorIds } from "../shared/access-levels.js";
import type { Tx } from "../shared/events.js";
import type { Dialect } from "../shared/paths.js";
import type { LoaderFactory } from "../shared/loaders.js";
import type { DomainContext } from "../shared/context.js";
import { issuableFactsLoader, issuableKey } from "../shared/issuable-facts.js";
import { recordLabelChanges } from "./history.js";

export type IssuableKind = "Issue" | "MergeRequest";

/** Label::DEFAULT_COLOR in GitLab 17.x, given to labels created on the fly. */
export const DEFAULT_LABEL_COLOR = "#6699cc";

/** Ruby's String#sort order (bytewise), which GitLab applies to label titles. */
const byTitle = (a: Pick<Label, "title">, b: Pick<Label, "title">) => Buffer.compare(Buffer.from(a.title), Buffer.from(b.title));

/** The labels of each issuable among `ids`, sorted by title: one statement for the lot. */
export async function labelsOfIssuables(db: Db | Tx, kind: IssuableKind, ids: readonly number[]): Promise<Map<number, Label[]>> {
  const found = new Map<number, Label[]>(ids.map((id) => [id, []]));
  if (!ids.length) return found;
  const list = Prisma.join([...new Set(ids)]);
  const rows = kind === "Issue"
    ? await db.$queryRaw<(Label & { owner: number })[]>`
        SELECT "IssueLabel"."issueId" AS "owner", "Label".* FROM "IssueLabel" JOIN "Label" ON "Label"."id" = "IssueLabel"."labelId"
        WHERE "IssueLabel"."issueId" IN (${list})`
    : await db.$queryRaw<(Label & { owner: number })[]>`
        SELECT "MergeRequestLabel"."mergeRequestId" AS "owner", "Label".* FROM "MergeRequestLabel" JOIN "Label" ON "Label"."id" = "MergeRequestLabel"."labelId"
        WHERE "MergeRequestLabel"."mergeRequestId" IN (${list})`;
  for (const { owner, ...label } of rows) found.get(Number(owner))?.push(asLabel(label));
  for (const labels of found.values()) labels.sort(byTitle);
  return found;
}

/** A raw row as Prisma's model gives it (dates as dates on both databases). */
function asLabel(row: Label): Label {
  return {
    id: Number(row.id), title: row.title, color: row.color, description: row.description,
    projectId: row.projectId == null ? null : Number(row.projectId), groupId: row.groupId == null ? null : Number(row.groupId),
    createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt),
  };
}

type ProjectWithNamespace = { id: number; namespace: { kind: string; id: number; traversalIds: string } };

/**
 * The labels these titles name for a project: its own label, else its nearest ancestor group's;
 * a title nothing matches becomes a project label when `create` allows, otherwise is dropped.
 */
export async function labelsNamed(
  tx: Tx, project: ProjectWithNamespace, titles: string[], create: boolean, now: Date, dialect: Dialect,
): Promise<Label[]> {
  if (!titles.length) return [];
  const groups = project.namespace.kind === "group" ? ancestorIds(project.namespace) : [];
  const candidates = await tx.label.findMany({
    where: { title: { in: titles }, OR: [{ projectId: project.id }, ...(groups.length ? [{ groupId: { in: groups } }] : [])] },
  });
  const depth = (label: Label) => (label.projectId != null ? Infinity : groups.indexOf(label.groupId!));
  const found: Label[] = [];
  const missing: string[] = [];
  for (const title of titles) {
    const best = candidates.filter((label) => label.title === title).sort((a, b) => depth(b) - depth(a))[0];
    if (best) found.push(best);
    else if (create) missing.push(title);
  }
  // in one order, so that two requests inserting the same new titles cannot deadlock
  if (missing.length) found.push(...(await createProjectLabels(tx, project.id, [...new Set(missing)].sort(), now, dialect)));
  return [...new Map(found.map((label) => [label.id, label])).values()].sort(byTitle);
}

/**
 * New project labels in GitLab's default colour. Two requests may name the same new title at once:
 * on PostgreSQL the insert skips a title another transaction holds (ON CONFLICT DO NOTHING waits for
 * it to commit) and the read then sees that label; SQLite runs one write transaction at a time.
 */
async function createProjectLabels(tx: Tx, projectId: number, titles: string[], now: Date, dialect: Dialect): Promise<Label[]> {
  const data = titles.map((title) => ({ title, color: DEFAULT_LABEL_COLOR, projectId, createdAt: now, updatedAt: now }));
  if (dialect === "postgresql") await tx.label.createMany({ data, skipDuplicates: true } as Parameters<Tx["label"]["createMany"]>[0]);
  else await tx.label.createMany({ data });
  return tx.label.findMany({ where: { projectId, title: { in: titles } } });
}

/**
 * Links the issuable to exactly these labels (links kept where they stay), and records a resource
 * label event per label added or removed, by the caller (history.ts).
 */
export async function linkLabels(tx: Tx, ctx: DomainContext, kind: IssuableKind, id: number, current: Label[], next: Label[]): Promise<void> {
  const keep = new Set(next.map((label) => label.id));
  const had = new Set(current.map((label) => label.id));
  const removed = current.filter((label) => !keep.has(label.id)).map((label) => label.id);
  const added = next.filter((label) => !had.has(label.id)).map((label) => label.id);
  if (kind === "Issue") {
    if (removed.length) await tx.issueLabel.deleteMany({ where: { issueId: id, labelId: { in: removed } } });
    if (added.length) await tx.issueLabel.createMany({ data: added.map((labelId) => ({ issueId: id, labelId })) });
  } else {
    if (removed.length) await tx.mergeRequestLabel.deleteMany({ where: { mergeRequestId: id, labelId: { in: removed } } });
    if (added.length) await tx.mergeRequestLabel.createMany({ data: added.map((labelId) => ({ mergeRequestId: id, labelId })) });
  }
  await recordLabelChanges(tx, ctx, kind, id, added, removed);
}

/** A label as domain events carry it (JSON in the outbox): the webhook builders render it. */
export type LabelSnapshot = { id: number; title: string; color: string; description: string | null; projectId: number | null; groupId: number | null; createdAt: string; updatedAt: string };

export const labelSnapshot = (label: Label): LabelSnapshot => ({
  id: label.id, title: label.title, color: label.color, description: label.description, projectId: label.projectId, groupId: label.groupId,
  createdAt: new Date(label.createdAt).toISOString(), updatedAt: new Date(label.updatedAt).toISOString(),
});

/**
 * The labels an issue or merge request the caller was shown carries: their ids come with the
 * page's facts (one statement for the page), the labels from the server's label cache (the
 * missing ones read in one statement, then kept).
 */
export async function labelsOfIssuable(ctx: DomainContext, kind: IssuableKind, id: number): Promise<Label[]> {
  const { labelIds } = await ctx.loaders.get(issuableFactsLoader).load(issuableKey(kind, id));
  const labels = await ctx.loaders.get(labelsByIdLoader).loadMany(labelIds);
  return labels.filter((label): label is Label => label != null && !(label instanceof Error)).sort(byTitle);
}

/** Labels a write has at hand, for this request's answer (no read of them again). */
export function knownLabels(ctx: DomainContext, labels: Label[]): void {
  const loader = ctx.loaders.get(labelsByIdLoader);
  for (const label of labels) loader.prime(label.id, label);
}

/** Labels by id: from the server's cache, the rest in one query per request tick (then kept). */
const labelsByIdLoader: LoaderFactory<DataLoader<number, Label | null>> = (services) =>
  new DataLoader(async (ids) => {
    const cache = services.caches.labels;
    const found = new Map<number, Label>();
    for (const id of ids) {
      const label = cache.get(id);
      if (label) found.set(id, label);
    }
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) {
      const stamp = cache.stamp();
      for (const label of await services.db.label.findMany({ where: { id: { in: missing } } })) {
        cache.keep(label.id, label, stamp);
        found.set(label.id, label);
      }
    }
    return ids.map((id) => found.get(id) ?? null);
  });
