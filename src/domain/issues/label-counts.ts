// with_counts=true on the label lists (Entities::Label's open_issues_count and
// closed_issues_count): for each label of a page, the issues of its project (a group label: of the
// group's own projects, as IssuesFinder with group_id counts) that carry it and that the caller
// may read. One statement per state for the whole page, grouped by label.
import type { Label, Prisma } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { readableIssuesWhere } from "./lists.js";

/** The project condition of a label's counts: its own project, or its group's own projects. */
export const labelSubject = (label: Pick<Label, "projectId" | "groupId">): Prisma.ProjectWhereInput =>
  label.projectId != null ? { id: label.projectId } : { namespaceId: label.groupId! };

/** Open and closed issues carrying each label, by label id (labels no readable issue carries are left out). */
export async function countIssuesByLabel(ctx: DomainContext, labels: Label[]): Promise<Map<number, { opened: number; closed: number }>> {
  const found = new Map<number, { opened: number; closed: number }>();
  if (!labels.length) return found;
  const readable = await readableIssuesWhere(ctx);
  const links = (state: string): Prisma.IssueLabelWhereInput => ({
    AND: [{ OR: labels.map((label) => ({ labelId: label.id, issue: { project: labelSubject(label), state } })) }, { issue: readable }],
  });
  const [opened, closed] = await Promise.all([
    ctx.db.issueLabel.groupBy({ by: ["labelId"], where: links("opened"), _count: { _all: true } }),
    ctx.db.issueLabel.groupBy({ by: ["labelId"], where: links("closed"), _count: { _all: true } }),
  ]);
  const entry = (id: number) => found.get(id) ?? found.set(id, { opened: 0, closed: 0 }).get(id)!;
  for (const row of opened) entry(row.labelId).opened = row._count._all;
  for (const row of closed) entry(row.labelId).closed = row._count._all;
  return found;
}
