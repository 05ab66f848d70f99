// What GitLab's merge request entities derive rather than store: draft, references,
// the detailed merge status.
import type { MergeRequest } from "../../generated/prisma/client.js";
import { projectFullPath } from "../shared/web-urls.js";

type ProjectPath = { path: string; namespaceId: number; namespace: { fullPath: string } };

const DRAFT_PREFIX = /^(\[draft\]|\(draft\)|draft:)\s*/i;

/** MergeRequest.draft?: the title starts with "[Draft]", "(Draft)" or "Draft:" (any case). */
export const isDraftTitle = (title: string) => DRAFT_PREFIX.test(title);

/** MergeRequest#draftless_title: the title without its draft prefix. */
export const draftlessTitle = (title: string) => title.replace(DRAFT_PREFIX, "");

/** The title marked as a draft ("Draft: " as GitLab writes it) or not. */
export const titleWithDraft = (title: string, draft: boolean) => (draft ? `Draft: ${draftlessTitle(title)}` : draftlessTitle(title));

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

/** GitLab's default_merge_commit_message (the merge ref's message too). */
export function defaultMergeMessage(mr: Pick<MergeRequest, "iid" | "title" | "sourceBranch" | "targetBranch"> & { project: ProjectPath }): string {
  const reference = referencesOf(mr.project, mr.iid).full;
  return [`Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'`, mr.title, `See merge request ${reference}`].join("\n\n");
}

/** What the mergeability checks look at besides the row. */
export interface MergeFacts {
  /** the source branch exists and has commits the target lacks */
  hasCommits: boolean;
  /** the approval rules are satisfied (GitLab EE's approved?) */
  approved: boolean;
  /** no thread waits to be resolved, or the project does not require it (mergeable_discussions_state?) */
  discussionsResolved: boolean;
  /** the project merges by fast-forward or semi-linear history and the source lacks the target's head (should_be_rebased?) */
  needsRebase: boolean;
}

/**
 * detailed_merge_status (DetailedMergeStatusService): "unchecked" or "checking" while the
 * merge_status waits for a check, else the first failing mergeability check, else "mergeable".
 * GitLab EE runs its approval check before the open, draft and commits checks (EE MergeRequest
 * mergeable_state_checks); a merge request that is no longer open answers not_open first here,
 * so a closed or merged one never reads as waiting for approvals. The git checks (conflict, then
 * need_rebase) come last.
 */
export function detailedMergeStatus(mr: Pick<MergeRequest, "state" | "draft" | "mergeStatus">, facts: MergeFacts): string {
  if (mr.state === "opened" && mr.mergeStatus === "unchecked") return "unchecked";
  if (mr.state === "opened" && mr.mergeStatus === "cannot_be_merged_recheck") return "checking";
  if (mr.state !== "opened") return "not_open";
  if (!facts.approved) return "not_approved";
  if (mr.draft) return "draft_status";
  if (!facts.hasCommits) return "commits_status";
  if (!facts.discussionsResolved) return "discussions_not_resolved";
  if (mr.mergeStatus === "cannot_be_merged") return "conflict";
  if (facts.needsRebase) return "need_rebase";
  return "mergeable";
}

/** Facts of a merge request that is no longer open: no check looks at them. */
export const SETTLED: MergeFacts = { hasCommits: true, approved: true, discussionsResolved: true, needsRebase: false };

/**
 * The checks GitLab's mergeable_state? runs (the merge API answers 405 when one fails); the git
 * checks (conflict, need_rebase) answer 422.
 */
export const STATE_CHECK_FAILURES = new Set(["not_open", "not_approved", "draft_status", "commits_status", "discussions_not_resolved"]);
