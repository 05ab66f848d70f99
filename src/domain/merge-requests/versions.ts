// Merge request diff versions (GitLab's MergeRequestDiff, lib/api/merge_request_diffs.rb): a
// version is taken when a merge request is opened, whenever its source head moves (a push, a
// rebase: subscribers.ts) and when it is retargeted or reopened (takeVersion); a push to the
// target alone, or a merge, takes none. The newest version is the merge request's diff: its
// diff_refs, changes_count and changes. A merge request opened before versions existed gets its
// first one, from its current state, when it is first read (latestVersion).
import type { MergeRequest, MergeRequestDiff } from "../../generated/prisma/client.js";
import type { Db } from "../../db/client.js";
import { diffFiles, patchId } from "../../git/diff.js";
import { recordNotFound } from "../../errors.js";
import type { DomainContext, Services } from "../shared/context.js";
import { publish, type Tx } from "../shared/events.js";
import { branchHead } from "./branches.js";
import { paginateList, type Page, type PageArgs } from "../shared/pagination.js";
import { diffCollection, type DiffView } from "../repository/diffs.js";
import { readCommits, repositoryOf, type CommitRecord } from "../repository/git.js";
import { mergeBaseOf, shasBetween, targetHeadOf } from "./commits.js";
import type { MergeRequestAccess } from "./queries.js";

export type Version = MergeRequestDiff;

/** GitLab's limit on the files a diff collects; past it the size reads "1000+". */
const MAX_DIFF_FILES = 1000;

type VersionedRequest = Pick<MergeRequest, "id" | "projectId" | "headSha">;

/**
 * A new version of the merge request's diff against `startSha` (the target head now): the merge
 * base, the files the diff from the base to the head changes, and the diff's patch id.
 */
export async function recordVersion(db: Db | Tx, services: Pick<Services, "git">, mr: VersionedRequest, startSha: string | null, at: Date): Promise<Version> {
  const head = mr.headSha;
  const base = head && startSha ? await mergeBaseOf(services, mr.projectId, startSha, head) : null;
  const gitDir = repositoryOf(services, mr.projectId).gitDir;
  const files = head ? (await diffFiles(gitDir, base, head).catch(() => [])).length : 0;
  return db.mergeRequestDiff.create({
    data: {
      mergeRequestId: mr.id,
      baseCommitSha: base,
      startCommitSha: startSha,
      headCommitSha: head,
      state: files ? "collected" : "empty",
      realSize: files > MAX_DIFF_FILES ? `${MAX_DIFF_FILES}+` : String(files),
      patchIdSha: head && files ? await patchId(gitDir, base, head).catch(() => null) : null,
      createdAt: at,
    },
  });
}

/**
 * MergeRequest#reload_diff, inside the transaction of what changed the diff: a new version against
 * the target branch's head now, announced so that the diff threads follow it.
 */
export async function takeVersion(tx: Tx, ctx: DomainContext, mr: VersionedRequest & Pick<MergeRequest, "targetBranch">, actorId: number | null): Promise<Version> {
  const previous = await tx.mergeRequestDiff.findFirst({ where: { mergeRequestId: mr.id }, orderBy: { id: "desc" } });
  const latest = await recordVersion(tx, ctx, mr, await branchHead(tx, mr.projectId, mr.targetBranch), ctx.now());
  await publish(tx, ctx, "merge_request_diff", { projectId: mr.projectId, mergeRequestId: mr.id, previous, latest, actorId });
  return latest;
}

/** The newest version, taken from the merge request's current state when it has none yet. */
export async function latestVersion(ctx: Pick<DomainContext, "db" | "git" | "now">, mr: VersionedRequest & Pick<MergeRequest, "targetBranch" | "mergeCommitSha">): Promise<Version> {
  const latest = await ctx.db.mergeRequestDiff.findFirst({ where: { mergeRequestId: mr.id }, orderBy: { id: "desc" } });
  return latest ?? recordVersion(ctx.db, ctx, mr, await targetHeadOf(ctx, mr), ctx.now());
}

/** The versions, newest first (order_id_desc). */
async function versionsOf(ctx: DomainContext, mr: MergeRequest): Promise<Version[]> {
  await latestVersion(ctx, mr);
  return ctx.db.mergeRequestDiff.findMany({ where: { mergeRequestId: mr.id }, orderBy: { id: "desc" } });
}

/** GET .../merge_requests/:iid/versions (signed-in callers who may read the merge request). */
export async function listVersions(ctx: DomainContext, { mergeRequest }: MergeRequestAccess, page: PageArgs): Promise<Page<Version>> {
  return paginateList(await versionsOf(ctx, mergeRequest), page);
}

/** Entities::MergeRequestDiffFull: a version with its commits (newest first) and its diffs. */
export interface VersionDetail extends Version {
  commits: CommitRecord[];
  diffs: DiffView[];
}

/** GET .../versions/:version_id: one version of this merge request, or `404 Not found`. */
export async function findVersion(ctx: DomainContext, { mergeRequest }: MergeRequestAccess, versionId: number, options: { unidiff?: boolean }): Promise<VersionDetail> {
  await latestVersion(ctx, mergeRequest);
  const version = await ctx.db.mergeRequestDiff.findFirst({ where: { id: versionId, mergeRequestId: mergeRequest.id } });
  if (!version) throw recordNotFound();
  const [commits, diffs] = await Promise.all([versionCommits(ctx, mergeRequest.projectId, version), versionDiffs(ctx, mergeRequest.projectId, version, options)]);
  return { ...version, commits, diffs };
}

/** The commits the source head had that the target head lacked when the version was taken. */
async function versionCommits(ctx: DomainContext, projectId: number, version: Version): Promise<CommitRecord[]> {
  if (!version.headCommitSha) return [];
  return readCommits(ctx, projectId, await shasBetween(ctx, projectId, version.startCommitSha, version.headCommitSha));
}

/** `raw_diffs(limits: false)`: every file of the version's diff, none collapsed. */
async function versionDiffs(ctx: DomainContext, projectId: number, version: Version, options: { unidiff?: boolean }): Promise<DiffView[]> {
  if (!version.headCommitSha) return [];
  const collection = await diffCollection(repositoryOf(ctx, projectId), version.baseCommitSha, version.headCommitSha, { expanded: true, unidiff: options.unidiff, generated: false });
  return collection.diffs;
}

/** The version whose diff refs these are, as GitLab's version_params_for finds it (null: none). */
export async function versionWithRefs(db: Db | Tx, mergeRequestId: number, refs: { base_sha: string | null; start_sha: string | null; head_sha: string | null }): Promise<Version | null> {
  return db.mergeRequestDiff.findFirst({
    where: { mergeRequestId, baseCommitSha: refs.base_sha, startCommitSha: refs.start_sha, headCommitSha: refs.head_sha },
    orderBy: { id: "desc" },
  });
}

export interface DiffRefs {
  base_sha: string | null;
  head_sha: string | null;
  start_sha: string | null;
}

export const diffRefsOf = (version: Version): DiffRefs =>
  ({ base_sha: version.baseCommitSha, head_sha: version.headCommitSha, start_sha: version.startCommitSha });

type ShownRequest = VersionedRequest & Pick<MergeRequest, "targetBranch" | "mergeCommitSha">;

/** GitLab's diff_refs and changes_count: those of the newest version. */
export async function mergeRequestDiff(ctx: Pick<DomainContext, "db" | "git" | "now">, mr: ShownRequest): Promise<{ diffRefs: DiffRefs; changesCount: string }> {
  const version = await latestVersion(ctx, mr);
  return { diffRefs: diffRefsOf(version), changesCount: version.realSize ?? "0" };
}

const diffs = new WeakMap<object, ReturnType<typeof mergeRequestDiff>>();

/** mergeRequestDiff once per merge request row (diff_refs and changes_count share it). */
export function mergeRequestDiffOnce(ctx: Pick<DomainContext, "db" | "git" | "now">, mr: ShownRequest): ReturnType<typeof mergeRequestDiff> {
  let diff = diffs.get(mr);
  if (!diff) {
    diff = mergeRequestDiff(ctx, mr);
    diffs.set(mr, diff);
  }
  return diff;
}
