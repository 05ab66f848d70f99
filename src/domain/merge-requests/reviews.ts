// What reviewers read of a merge request besides the entity: its commits, its participants and
// its changes. The repository keeps paths, not contents, so a change lists the path with an empty
// diff marked too large and collapsed, as GitLab marks a diff whose contents it will not show.
import type { Commit, MergeRequest, User } from "../../generated/prisma/client.js";
import { canReadInternalNotes } from "../shared/access.js";
import type { DomainContext } from "../shared/context.js";
import { usersById } from "../shared/loaders.js";
import { paginateList, type Page, type PageArgs } from "../shared/pagination.js";
import { mergeSourceOf, netChange } from "../repository/merges.js";
import { mergeRequestCommitsLoader, targetHeadOf, type MergeRequestRefs } from "./commits.js";
import { findMergeRequestWithAccess, type MergeRequestRowAccess, type MergeRequestRow } from "./queries.js";

/** GitLab's Diff entity, paths only. */
export interface DiffView {
  diff: string;
  collapsed: boolean;
  too_large: boolean;
  new_path: string;
  old_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  generated_file: boolean;
}

const FILE_MODE = "100644";

function diffView(path: string, kind: "added" | "modified" | "removed"): DiffView {
  return {
    diff: "",
    collapsed: true,
    too_large: true,
    new_path: path,
    old_path: path,
    a_mode: kind === "added" ? "0" : FILE_MODE,
    b_mode: kind === "removed" ? "0" : FILE_MODE,
    new_file: kind === "added",
    renamed_file: false,
    deleted_file: kind === "removed",
    generated_file: false,
  };
}

/** The MR's diff between the merge base and its head, by path, in path order. */
export async function mergeRequestDiffs(ctx: DomainContext, mr: MergeRequestRow): Promise<DiffView[]> {
  const targetSha = await targetHeadOf(ctx.db, mr);
  if (!mr.headSha || !targetSha) return [];
  const change = await netChange(ctx.db, await mergeSourceOf(ctx.db, mr.projectId, targetSha, mr.headSha));
  const views = [
    ...change.added.map((path) => diffView(path, "added")),
    ...change.modified.map((path) => diffView(path, "modified")),
    ...change.removed.map((path) => diffView(path, "removed")),
  ];
  return views.sort((a, b) => (a.new_path < b.new_path ? -1 : a.new_path > b.new_path ? 1 : 0));
}

/** GET .../changes: the merge request with its diffs (MergeRequestChanges). */
export async function getMergeRequestChanges(ctx: DomainContext, projectRef: string, iid: number): Promise<MergeRequestRow> {
  return (await findMergeRequestWithAccess(ctx, projectRef, iid)).mergeRequest;
}

/** GET .../diffs: a page of the diffs. */
export async function listMergeRequestDiffs(ctx: DomainContext, { mergeRequest }: MergeRequestRowAccess, page: PageArgs): Promise<Page<DiffView>> {
  return paginateList(await mergeRequestDiffs(ctx, mergeRequest), page);
}

/**
 * GET .../commits: the commits of a merge request the caller may read (found through its project,
 * or listed to them), newest first; the merge requests of a request are read together
 * (mergeRequestCommitsLoader).
 */
export async function listMergeRequestCommits(
  ctx: Pick<DomainContext, "loaders">, mergeRequest: MergeRequestRefs & Pick<MergeRequest, "id">, page: PageArgs,
): Promise<Page<Commit>> {
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
