// What GitLab's merge request entities derive rather than store: draft, labels, references,
// the detailed merge status.
import type { MergeRequest } from "../../generated/prisma/client.js";
import { projectFullPath } from "../projects.js";

type ProjectPath = { path: string; namespaceId: number; namespace: { fullPath: string } };

/** MergeRequest.draft?: the title starts with "[Draft]", "(Draft)" or "Draft:" (any case). */
export const isDraftTitle = (title: string) => /^(\[draft\]|\(draft\)|draft:)/i.test(title);

/** Label names, sorted as GitLab lists them: the issues' label rules serve merge requests too. */
export { labelsOf } from "../issues/issue-values.js";

/**
 * IssuableReferences: `!iid` within the project, `path!iid` from anywhere. `relative` is
 * to_reference(from): listed through a group, `project!iid` for the group's own projects and
 * the full reference for the others; otherwise the short form.
 */
export function referencesOf(project: ProjectPath, iid: number, fromGroupId?: number) {
  const short = `!${iid}`;
  const full = `${projectFullPath(project)}${short}`;
  const relative = fromGroupId === undefined ? short : project.namespaceId === fromGroupId ? `${project.path}${short}` : full;
  return { short, relative, full };
}

/**
 * detailed_merge_status: the first failing mergeability check in GitLab's order (open, draft,
 * commits on an existing source branch, conflicts), else "mergeable".
 */
export function detailedMergeStatus(mr: Pick<MergeRequest, "state" | "draft" | "mergeStatus">, sourceExists: boolean): string {
  if (mr.state !== "opened") return "not_open";
  if (mr.draft) return "draft_status";
  if (!sourceExists) return "commits_status";
  if (mr.mergeStatus === "cannot_be_merged") return "conflict";
  return "mergeable";
}
