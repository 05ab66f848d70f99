// What GitLab's Issue entity shows beyond the columns: URLs, references, counts and the
// caller's subscription.
import DataLoader from "dataloader";
import type { Namespace, Project } from "../../generated/prisma/client.js";
import type { DomainContext } from "../context.js";
import { projectFullPath } from "../projects.js";
import type { IssueWithAssignees } from "./issues.js";

type ProjectWithNamespace = Project & { namespace: Namespace };

export function issueWebUrl(ctx: DomainContext, project: ProjectWithNamespace, iid: number): string {
  return `${ctx.config.publicUrl}/${projectFullPath(project)}/-/issues/${iid}`;
}

/** `_links`: the API URLs of the issue, its notes, its emoji reactions and its project. */
export function issueLinks(ctx: DomainContext, issue: { projectId: number; iid: number }) {
  const project = `${ctx.config.publicUrl}/api/v4/projects/${issue.projectId}`;
  const self = `${project}/issues/${issue.iid}`;
  return { self, notes: `${self}/notes`, award_emoji: `${self}/award_emoji`, project, closed_as_duplicate_of: null };
}

/**
 * `references`: `relative` is relative to the project the issue was requested through, so it
 * equals `short` there and `full` in instance-wide lists.
 */
export function issueReferences(project: ProjectWithNamespace, iid: number, requestedThroughProject: boolean) {
  const short = `#${iid}`;
  const full = `${projectFullPath(project)}${short}`;
  return { short, relative: requestedThroughProject ? short : full, full };
}

/** Whether the caller gets notifications: GitLab subscribes the author and the assignees (participants). */
export function isSubscribed(ctx: DomainContext, issue: IssueWithAssignees): boolean {
  const userId = ctx.actor?.user.id;
  if (userId == null) return false;
  return issue.authorId === userId || issue.assignees.some((a) => a.userId === userId);
}

const noteCountLoaders = new WeakMap<DomainContext, DataLoader<number, number>>();

/** Comments (non-system notes) on the issue; one query per page of issues. */
export function userNotesCount(ctx: DomainContext, issueId: number): Promise<number> {
  let loader = noteCountLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids) => {
      const rows = await ctx.db.note.groupBy({
        by: ["noteableId"],
        where: { noteableType: "Issue", noteableId: { in: [...ids] }, system: false },
        _count: { _all: true },
      });
      const counts = new Map(rows.map((row) => [row.noteableId, row._count._all]));
      return ids.map((id) => counts.get(id) ?? 0);
    });
    noteCountLoaders.set(ctx, loader);
  }
  return loader.load(issueId);
}
