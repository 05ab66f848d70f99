// Merge requests found from a commit: Commit#merged_merge_request, which the cherry-pick and
// revert messages name.
import type { ProjectAccess } from "../shared/access.js";
import type { DomainContext } from "../shared/context.js";
import type { CommitRecord } from "../repository/git.js";
import { mergeRequestCommits } from "./commits.js";
import { canReadMergeRequests } from "./queries.js";

/** The merge request a commit merged, for the messages of a cherry-pick or revert. */
export interface MergedMergeRequest {
  iid: number;
  /** its commits, newest first */
  commits: CommitRecord[];
}

/**
 * Commit#merged_merge_request: for a merge commit the merge request it merged, for another commit
 * the one it is the squash commit of; only one the caller may read.
 */
export async function mergedMergeRequestOf(ctx: DomainContext, access: ProjectAccess, commit: CommitRecord): Promise<MergedMergeRequest | null> {
  if (!canReadMergeRequests(ctx, access)) return null;
  const by = commit.parentShas.length > 1 ? { mergeCommitSha: commit.sha } : { squashCommitSha: commit.sha };
  const mr = await ctx.db.mergeRequest.findFirst({ where: { projectId: access.project.id, ...by }, orderBy: { id: "desc" } });
  return mr && { iid: mr.iid, commits: await mergeRequestCommits(ctx, mr) };
}
