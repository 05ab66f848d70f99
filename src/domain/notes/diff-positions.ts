// Diff notes (DiffNote, DiffPositionableNote, Gitlab::Diff::Position): a thread started on a line
// of a merge request's diff. The position names the diff by its three shas (base, start, head)
// and the line by its path and its old and/or new number: an added line by its new number, a
// removed one by its old number, an unchanged one by both. It must name a line of that diff (one
// of its hunks, or an unchanged line GitLab unfolds around them), whose line code is stored.
// Validating a new diff note: diff-note-rules.ts; following the diff after pushes: position-tracing.ts.
import { runGit } from "../../git/command.js";
import { diffPatches } from "../../git/diff.js";
import type { Note } from "../../generated/prisma/client.js";
import type { Services } from "../shared/context.js";
import { lineAt, parseDiffLines, unfoldedLine, type DiffLine } from "../repository/diff-lines.js";
import { repositoryOf } from "../repository/git.js";

export const DIFF_NOTE = "DiffNote";

/** The `position` hash of POST .../discussions, as the API declares it. */
export interface PositionInput {
  base_sha: string;
  start_sha: string;
  head_sha: string;
  position_type: "text" | "image";
  new_path?: string | null;
  old_path?: string | null;
  new_line?: number | null;
  old_line?: number | null;
  width?: number | null;
  height?: number | null;
  x?: number | null;
  y?: number | null;
}

/** Position#to_h, as the note entity shows it (a text position; an image one has its box instead of lines). */
export interface DiffPosition {
  base_sha: string | null;
  start_sha: string | null;
  head_sha: string | null;
  old_path: string | null;
  new_path: string | null;
  position_type: "text" | "image";
  old_line?: number | null;
  new_line?: number | null;
  line_range?: null;
  width?: number | null;
  height?: number | null;
  x?: number | null;
  y?: number | null;
}

export function positionOf(input: PositionInput): DiffPosition {
  const refs = { base_sha: input.base_sha, start_sha: input.start_sha, head_sha: input.head_sha };
  const paths = { old_path: input.old_path ?? null, new_path: input.new_path ?? null };
  if (input.position_type === "image") {
    return { ...refs, ...paths, position_type: "image", width: input.width ?? null, height: input.height ?? null, x: input.x ?? null, y: input.y ?? null };
  }
  return { ...refs, ...paths, position_type: "text", old_line: input.old_line ?? null, new_line: input.new_line ?? null, line_range: null };
}

/** Position#file_path and #paths. */
export const filePathOf = (position: DiffPosition) => position.new_path || position.old_path;
const pathsOf = (position: DiffPosition) => [...new Set([position.old_path, position.new_path].filter((p): p is string => !!p))];

/** Position#complete?: a file, a line (or an image box), and the three shas. */
export function isComplete(position: DiffPosition): boolean {
  const placed = position.position_type === "text"
    ? position.old_line != null || position.new_line != null
    : position.x != null && position.y != null && position.width != null && position.height != null;
  return !!filePathOf(position) && placed && !!position.base_sha && !!position.start_sha && !!position.head_sha;
}

/** The file of the position's diff (base to head) with its lines, or null when the diff has no such file. */
export async function diffFileOf(services: Pick<Services, "git">, projectId: number, position: Pick<DiffPosition, "base_sha" | "head_sha" | "old_path" | "new_path">) {
  if (!position.base_sha || !position.head_sha) return null;
  const gitDir = repositoryOf(services, projectId).gitDir;
  const diff = await diffPatches(gitDir, position.base_sha, position.head_sha, { maxBytes: 5 * 1024 * 1024 }, pathsOf(position as DiffPosition)).catch(() => null);
  const file = diff?.files[0];
  if (!file || file.binary) return null;
  const oldFileLines = async () => (file.status === "A" ? 0 : countLines((await runGit(gitDir, ["cat-file", "blob", file.oldSha])).stdout));
  return { file, lines: parseDiffLines(file.patch), oldFileLines };
}

/** Ruby's `data.lines.size`: the last line counts without its newline too. */
const countLines = (data: Buffer) => (data.length === 0 ? 0 : data.toString("utf8").split("\n").length - (data.at(-1) === 0x0a ? 1 : 0));

/** Position#diff_line: the line of its diff the position names, unfolded when GitLab would. */
export async function lineOf(services: Pick<Services, "git">, projectId: number, position: DiffPosition): Promise<DiffLine | null> {
  if (position.position_type !== "text") return null;
  const found = await diffFileOf(services, projectId, position);
  if (!found) return null;
  const oldLine = position.old_line ?? null;
  const newLine = position.new_line ?? null;
  const inHunks = lineAt(found.lines, oldLine, newLine);
  if (inHunks || oldLine == null || newLine == null || found.file.status === "A" || found.file.status === "D") return inHunks;
  return unfoldedLine(found.lines, oldLine, newLine, await found.oldFileLines());
}

/** The note's position as the entity shows it (null: not a diff note). */
export const positionShown = (note: Pick<Note, "position">): DiffPosition | null => (note.position ? (JSON.parse(note.position) as DiffPosition) : null);
