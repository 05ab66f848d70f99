// Following diff threads when a merge request's diff changes (Gitlab::Diff::PositionTracer with its
// line strategy, Discussions::UpdateDiffPositionService): each thread whose position is on the
// previous version (A: base, B: head) is traced to the new one (C: base, D: head) through the
// diffs A→C ("base to base"), B→D ("head to head") and C→D (the new diff). A line still in the
// new diff moves there (position updated); one that is gone makes the thread outdated: the
// position stays on the old diff, change_position says where the line changed, and a system note
// "changed this line in version N of the diff" joins the thread. Renames are not followed.
import type { Note } from "../../generated/prisma/client.js";
import type { DomainContext, Services } from "../shared/context.js";
import type { Tx } from "../shared/events.js";
import { projectFullPath } from "../shared/web-urls.js";
import { lineCode, lineMapper } from "../repository/diff-lines.js";
import type { DiffRefs, Version } from "../merge-requests/versions.js";
import { diffFileOf, DIFF_NOTE, filePathOf, lineOf, type DiffPosition } from "./diff-positions.js";

type Git = Pick<Services, "git">;

interface Traced {
  /** null: nowhere GitLab can show (an unchanged line no longer in the diff) */
  position: DiffPosition | null;
  outdated: boolean;
}

/** One file's side of a diff between two commits: its paths and its patch (null: the file did not change). */
async function fileBetween(git: Git, projectId: number, from: string, to: string, path: string) {
  const found = await diffFileOf(git, projectId, { base_sha: from, head_sha: to, old_path: path, new_path: path });
  return found ? { oldPath: found.file.oldPath, newPath: found.file.newPath, patch: found.file.patch } : null;
}

type DiffFileSide = Awaited<ReturnType<typeof fileBetween>>;

/** Position.new(diff_file:, old_line:, new_line:): on `refs`, or nowhere when the diff has no such file. */
const placed = (refs: DiffRefs, file: DiffFileSide, oldLine: number | null, newLine: number | null): DiffPosition | null =>
  file && { ...refs, old_path: file.oldPath, new_path: file.newPath, position_type: "text", old_line: oldLine, new_line: newLine, line_range: null };

const straight = (from: string, to: string): DiffRefs => ({ base_sha: from, start_sha: from, head_sha: to });

/** The three diffs a trace reads, the old and new diff refs, and the shas they start from. */
interface Tracing {
  ac: DiffFileSide;
  bd: DiffFileSide;
  cd: DiffFileSide;
  newRefs: DiffRefs;
  shas: { a: string; b: string; c: string; d: string };
  valid: (position: DiffPosition | null) => Promise<boolean>;
}

const mapper = (file: DiffFileSide) => lineMapper(file?.patch ?? null);

/** PositionTracer#trace for a text position on `oldRefs`, to `newRefs` (null: it cannot be traced). */
export async function tracePosition(git: Git, projectId: number, position: DiffPosition, oldRefs: DiffRefs, newRefs: DiffRefs): Promise<Traced | null> {
  const [a, b, c, d] = [oldRefs.base_sha ?? oldRefs.start_sha, oldRefs.head_sha, newRefs.base_sha ?? newRefs.start_sha, newRefs.head_sha];
  if (!a || !b || !c || !d || position.position_type !== "text") return null;
  const path = filePathOf(position)!;
  const [ac, bd, cd] = await Promise.all([fileBetween(git, projectId, a, c, path), fileBetween(git, projectId, b, d, path), fileBetween(git, projectId, c, d, path)]);
  const tracing: Tracing = { ac, bd, cd, newRefs, shas: { a, b, c, d }, valid: async (p) => !!p && !!(await lineOf(git, projectId, p)) };
  const oldLine = position.old_line ?? null;
  const newLine = position.new_line ?? null;
  if (newLine != null && oldLine == null) return traceAdded(tracing, newLine);
  if (oldLine != null && newLine == null) return traceRemoved(tracing, oldLine);
  return oldLine != null && newLine != null ? traceUnchanged(tracing, oldLine, newLine) : null;
}

/** An added line: followed head to head, then placed on the new diff (added still, or now unchanged). */
async function traceAdded({ ac, bd, cd, newRefs, shas, valid }: Tracing, bLine: number): Promise<Traced> {
  const dLine = mapper(bd).oldToNew(bLine);
  if (dLine == null) return { position: placed(straight(shas.b, shas.d), bd, bLine, null), outdated: true };
  const cLine = mapper(cd).newToOld(dLine);
  if (cLine == null) return { position: placed(newRefs, cd, null, dLine), outdated: false };
  const moved = placed(newRefs, cd, cLine, dLine);
  if (await valid(moved)) return { position: moved, outdated: false };
  return { position: placed(straight(shas.a, shas.c), ac, null, cLine), outdated: true };
}

/** A removed line: followed base to base, then placed on the new diff while it is removed there. */
async function traceRemoved({ ac, bd, cd, newRefs, shas }: Tracing, aLine: number): Promise<Traced> {
  const cLine = mapper(ac).oldToNew(aLine);
  if (cLine == null) return { position: placed(straight(shas.a, shas.c), ac, aLine, null), outdated: true };
  const dLine = mapper(cd).oldToNew(cLine);
  if (dLine != null) return { position: placed(straight(shas.b, shas.d), bd, null, dLine), outdated: true };
  return { position: placed(newRefs, cd, cLine, null), outdated: false };
}

/** An unchanged line: followed on both sides; still in the new diff, or now added, it moves. */
async function traceUnchanged({ ac, bd, cd, newRefs, shas, valid }: Tracing, aLine: number, bLine: number): Promise<Traced> {
  const cLine = mapper(ac).oldToNew(aLine);
  const dLine = mapper(bd).oldToNew(bLine);
  if (cLine != null && dLine != null) {
    const moved = placed(newRefs, cd, cLine, dLine);
    return (await valid(moved)) ? { position: moved, outdated: false } : { position: null, outdated: true };
  }
  if (dLine != null) return { position: placed(newRefs, cd, null, dLine), outdated: false };
  return { position: placed(straight(shas.b, shas.d), bd, bLine, null), outdated: true };
}

const refsOf = (position: DiffPosition): DiffRefs => ({ base_sha: position.base_sha, start_sha: position.start_sha, head_sha: position.head_sha });
const sameRefs = (x: DiffRefs, y: DiffRefs) => x.base_sha === y.base_sha && x.start_sha === y.start_sha && x.head_sha === y.head_sha;

export interface MergeRequestShown {
  id: number;
  iid: number;
  projectId: number;
  project: { path: string; namespace: { fullPath: string } };
}

/**
 * MergeRequest#update_diff_discussion_positions, in the transaction that took `latest`: the diff
 * threads active on `previous` (their position on its diff refs) are traced to `latest`.
 */
export async function updateDiffThreads(tx: Tx, ctx: DomainContext, mr: MergeRequestShown, previous: Version, latest: Version, actorId: number | null, versionCount: number): Promise<void> {
  const oldRefs = { base_sha: previous.baseCommitSha, start_sha: previous.startCommitSha, head_sha: previous.headCommitSha };
  const newRefs = { base_sha: latest.baseCommitSha, start_sha: latest.startCommitSha, head_sha: latest.headCommitSha };
  if (sameRefs(oldRefs, newRefs)) return;
  const notes = await tx.note.findMany({ where: { noteableType: "MergeRequest", noteableId: mr.id, type: DIFF_NOTE }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const threads = new Map<string, Note[]>();
  for (const note of notes) threads.set(note.discussionId, [...(threads.get(note.discussionId) ?? []), note]);
  for (const thread of threads.values()) {
    const position = JSON.parse(thread[0]!.position!) as DiffPosition;
    if (!sameRefs(refsOf(position), oldRefs)) continue; // DiffDiscussion#active?(old_diff_refs)
    const traced = await tracePosition(ctx, mr.projectId, position, oldRefs, newRefs);
    if (!traced) continue;
    await moveThread(tx, thread, traced);
    if (traced.outdated && actorId != null) await outdatedNote(tx, ctx, mr, thread[0]!, traced.position, actorId, versionCount, latest);
  }
}

/** UpdateDiffPositionService: the notes' position moves, or (outdated) their change_position is set; updated_at stays. */
async function moveThread(tx: Tx, thread: Note[], traced: Traced): Promise<void> {
  const data = traced.outdated
    ? { changePosition: traced.position && JSON.stringify(traced.position) }
    : { position: JSON.stringify(traced.position), changePosition: null };
  for (const note of thread) await tx.note.update({ where: { id: note.id }, data: { ...data, updatedAt: note.updatedAt } });
}

/**
 * SystemNoteService#diff_discussion_outdated: "changed this line in version N of the diff", linked
 * to that version (its diff_id, and the start it was compared from) at the changed line, a system
 * DiffNote of the thread.
 */
async function outdatedNote(tx: Tx, ctx: DomainContext, mr: MergeRequestShown, first: Note, change: DiffPosition | null, authorId: number, versionCount: number, latest: Version): Promise<void> {
  const version = `version ${versionCount} of the diff`;
  const anchor = change && (await lineOf(ctx, mr.projectId, change).then((line) => line && lineCode(filePathOf(change)!, line)));
  const query = change && change.head_sha === latest.headCommitSha ? `?diff_id=${latest.id}${change.start_sha !== latest.startCommitSha ? `&start_sha=${change.start_sha}` : ""}` : null;
  const url = query && `/${projectFullPath(mr.project)}/-/merge_requests/${mr.iid}/diffs${query}${anchor ? `#${anchor}` : ""}`;
  const now = ctx.now();
  await tx.note.create({
    data: {
      projectId: mr.projectId, noteableType: "MergeRequest", noteableId: mr.id, authorId, system: true,
      body: `changed this line in ${url ? `[${version}](${url})` : version}`,
      type: DIFF_NOTE, discussionId: first.discussionId,
      position: first.position, originalPosition: first.originalPosition, changePosition: change && JSON.stringify(change), lineCode: first.lineCode,
      createdAt: now, updatedAt: now,
    },
  });
}
