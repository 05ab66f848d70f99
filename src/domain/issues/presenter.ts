// What GitLab's Issue entity shows beyond the columns: links, references, counts and the
// caller's subscription (web_url: projectPageUrl).
import type { Issue, Namespace, Project } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { projectFullPath } from "../shared/web-urls.js";

type ProjectWithNamespace = Project & { namespace: Namespace };

/** `_links`: the API URLs of the issue, its notes, its emoji reactions and its project. */
export function issueLinks(ctx: DomainContext, issue: { projectId: number; iid: number }) {
  const project = `${ctx.config.publicUrl}/api/v4/projects/${issue.projectId}`;
  const self = `${project}/issues/${issue.iid}`;
  return { self, notes: `${self}/notes`, award_emoji: `${self}/award_emoji`, project, closed_as_duplicate_of: null };
}

/**
 * `references`: `relative` is relative to the project the issue was requested through, or to
 * nothing in GET /issues (Issue#to_reference(nil)): `short` in both cases.
 */
export function issueReferences(project: ProjectWithNamespace, iid: number) {
  const short = `#${iid}`;
  return { short, relative: short, full: `${projectFullPath(project)}${short}` };
}

/** Whether the caller gets notifications: GitLab subscribes the author and the assignees (participants). */
export function isSubscribed(ctx: DomainContext, issue: Issue, assigneeIds: number[]): boolean {
  const userId = ctx.actor?.user.id;
  if (userId == null) return false;
  return issue.authorId === userId || assigneeIds.includes(userId);
}

