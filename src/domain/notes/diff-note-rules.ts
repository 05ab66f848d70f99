// A new diff note's position (DiffNote and DiffPositionableNote validations and callbacks): the
// position as given is its original_position; one written on an older version of the merge
// request's diff is traced to the newest (update_position), and the line code is that of the line
// the position then names; a line the diff does not have is refused as GitLab refuses it.
import type { MergeRequest } from "../../generated/prisma/client.js";
import type { DomainContext } from "../shared/context.js";
import { lineCode } from "../repository/diff-lines.js";
import { diffRefsOf, latestVersion } from "../merge-requests/versions.js";
import { filePathOf, isComplete, lineOf, positionOf, type DiffPosition, type PositionInput } from "./diff-positions.js";
import { tracePosition } from "./position-tracing.js";

/** What a DiffNote row stores besides a note's columns. */
export interface DiffNoteFields {
  position: string;
  originalPosition: string;
  changePosition: string | null;
  lineCode: string | null;
}

/**
 * DiffNote's validations of a new note's position on a merge request, in the model's order
 * (line_code, position, noteable), with what the note stores when there are none.
 */
export async function placeDiffNote(
  ctx: DomainContext,
  mergeRequestId: number,
  input: PositionInput,
): Promise<{ fields: DiffNoteFields; errors: Record<string, string[]> }> {
  const original = positionOf(input);
  const mr = await ctx.db.mergeRequest.findUniqueOrThrow({ where: { id: mergeRequestId } });
  const errors: Record<string, string[]> = {};
  const supported = await supportedRefs(ctx, mr);
  const { position, changePosition } = supported && isComplete(original) ? await onLatestDiff(ctx, mr.projectId, original, supported) : { position: original, changePosition: null };
  let code: string | null = null;
  if (position.position_type === "text") {
    const line = await lineOf(ctx, mr.projectId, position);
    code = line && lineCode(filePathOf(position)!, line);
    if (!code) errors.line_code = ["can't be blank", "must be a valid line code"];
  }
  if (!isComplete(original)) errors.position = ["is incomplete"];
  if (!supported) errors.noteable = ["doesn't support new-style diff notes"];
  const fields = { position: JSON.stringify(position), originalPosition: JSON.stringify(original), changePosition: changePosition && JSON.stringify(changePosition), lineCode: code };
  return { fields, errors };
}

/** MergeRequest#has_complete_diff_refs?: the newest version's refs, when it has all three. */
async function supportedRefs(ctx: DomainContext, mr: MergeRequest) {
  const refs = diffRefsOf(await latestVersion(ctx, mr));
  return refs.base_sha && refs.start_sha && refs.head_sha ? refs : null;
}

/**
 * DiffPositionableNote#update_position: a position on other diff refs than the newest is traced
 * there; when its line is gone it stays as given, with change_position where the line changed.
 */
async function onLatestDiff(ctx: DomainContext, projectId: number, position: DiffPosition, latest: ReturnType<typeof diffRefsOf>) {
  const given = { base_sha: position.base_sha, start_sha: position.start_sha, head_sha: position.head_sha };
  const unchanged = { position, changePosition: null };
  if (given.base_sha === latest.base_sha && given.start_sha === latest.start_sha && given.head_sha === latest.head_sha) return unchanged;
  // only a line of the diff it names is followed (shas that are no commits lead nowhere)
  if (!(await lineOf(ctx, projectId, position))) return unchanged;
  const traced = await tracePosition(ctx, projectId, position, given, latest).catch(() => null);
  if (!traced) return unchanged;
  if (traced.outdated) return { position, changePosition: traced.position };
  return traced.position ? { position: traced.position, changePosition: null } : unchanged;
}
