// with_counts=true on the label lists (Entities::Label's open_merge_requests_count): for each
// label of a page, the open merge requests of its project (a group label: of the group's own
// projects) that carry it and that the caller may read, in one statement grouped by label.
import type { Label, Prisma } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { labelSubject } from "../issues/label-counts.js";
import { readableProjectsWhere } from "./lists.js";

/** Open merge requests carrying each label, by label id (labels none carries are left out). */
export async function countOpenMergeRequestsByLabel(ctx: DomainContext, labels: Label[]): Promise<Map<number, number>> {
  if (!labels.length) return new Map();
  const where: Prisma.MergeRequestLabelWhereInput = {
    AND: [
      { OR: labels.map((label) => ({ labelId: label.id, mergeRequest: { project: labelSubject(label), state: "opened" } })) },
      { mergeRequest: { project: await readableProjectsWhere(ctx) } },
    ],
  };
  const rows = await ctx.db.mergeRequestLabel.groupBy({ by: ["labelId"], where, _count: { _all: true } });
  return new Map(rows.map((row) => [row.labelId, row._count._all]));
}
