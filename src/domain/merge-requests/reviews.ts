// What reviewers read of a merge request besides the entity: its commits, its participants and
// its changes (the diff from the merge base to the head, as git computes it, within GitLab's
// diff limits).
import type { MergeRequest, User } from "../../generated/prisma/client.js";
import { canReadInternalNotes } from "../shared/access-levels.js";
import type { DomainContext } from "../shared/context.js";
import { usersById } from "../shared/loaders.js";
import { paginateList, type Page, type PageArgs } from "../shared/pagination.js";
import { diffCollection, rawDiffCollection, type DiffCollection } from "../repository/diffs.js";
import { repositoryOf, type CommitRecord } from "../repository/git.js";
import { mergeRequestCommitsLoader, type MergeRequestRefs } from "./commits.js";
import { latestVersion } from "./versions.js";
import type { MergeRequestAccess, MergeRequestRowAccess } from "./queries.js";

export type { DiffView } from "../repository/diffs.js";

/** The MR's diff between the merge base and its head, as its newest version took them (GitLab's merge_request_diff). */
export async function mergeRequestDiffCollection(
  ctx: DomainContext, mr: MergeRequest, options: { unidiff?: boolean; accessRawDiffs?: boolean } = {},
): Promise<DiffCollection> {
  const version = await latestVersion(ctx, mr);
  if (!version.headCommitSha) return { diffs: [], overflow: false, realSize: "0" };
  const collect = options.accessRawDiffs ? rawDiffCollection : diffCollection;
  return collect(repositoryOf(ctx, mr.projectId), version.baseCommitSha, version.headCommitSha, { unidiff: options.unidiff, generated: false });
}

/** The diffs of GET .../changes. */
export async function mergeRequestDiffs(ctx: DomainContext, mr: MergeRequest, options: { unidiff?: boolean } = {}) {
  return (await mergeRequestDiffCollection(ctx, mr, options)).diffs;
}

/** GET .../diffs: a page of the diffs. */
export async function listMergeRequestDiffs(ctx: DomainContext, { mergeRequest }: MergeRequestAccess, page: PageArgs, options: { unidiff?: boolean } = {}) {
  return paginateList(await mergeRequestDiffs(ctx, mergeRequest, options), page);
}

/**
 * GET .../commits: the commits of a merge request the caller may read (found through its project,
 * or listed to them), newest first; the merge requests of a request are read together
 * (mergeRequestCommitsLoader).
 */
export async function listMergeRequestCommits(
  ctx: Pick<DomainContext, "loaders">, mergeRequest: MergeRequestRefs & Pick<MergeRequest, "id">, page: PageArgs,
): Promise<Page<CommitRecord>> {
  return paginateList(await ctx.loaders.get(mergeRequestCommitsLoader).load(mergeRequest), page);
}

/**
 * GET .../participants (Participable): the author, the authors of the notes the caller can read,
 * the assignees, then the reviewers; each once.
 */
export async function listMergeRequestParticipants(ctx: DomainContext, { mergeRequest: mr, access }: MergeRequestRowAccess, page: PageArgs): Promise<Page<User>> {
  const notes = await ctx.db.note.findMany({
    where: { noteableType: "MergeRequest", noteableId: mr.id, ...(canReadInternalNotes(ctx, access) ? {} : { internal: false }) },
    select: { authorId: true },
    orderBy: { id: "asc" },
  });
  const ids = [mr.authorId, ...notes.map((n) => n.authorId), ...mr.assignees.map((a) => a.userId), ...mr.reviewers.map((r) => r.userId)];
  const users = (await usersById(ctx.db, ctx.caches.users, [...new Set(ids)])).filter((u): u is User => u != null);
  return paginateList(users, page);
}
