// The lines of one file's diff as GitLab numbers them (Gitlab::Diff::Parser, Diff::Line,
// Diff::LinesUnfolder, Git.diff_line_code): what diff notes are placed on and traced along.
import { createHash } from "node:crypto";

export interface DiffLine {
  /** "new" added, "old" removed, null unchanged, "match" a hunk header */
  type: "new" | "old" | "match" | null;
  /** the old line number (for an added line: the old line that follows it) */
  oldPos: number;
  /** the new line number (for a removed line: the new line that follows it) */
  newPos: number;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * The lines of a patch (from its first "@@"). A hunk header is a "match" line, except at the top
 * of the file (both starts 1 or less), as GitLab's parser leaves it out; "\ No newline" is skipped.
 */
export function parseDiffLines(patch: string): DiffLine[] {
  const lines: DiffLine[] = [];
  let oldPos = 0;
  let newPos = 0;
  for (const text of patch.split("\n")) {
    const hunk = HUNK.exec(text);
    if (hunk) {
      oldPos = Number(hunk[1]);
      newPos = Number(hunk[2]);
      if (oldPos > 1 || newPos > 1) lines.push({ type: "match", oldPos, newPos });
    } else if (text.startsWith("+")) {
      lines.push({ type: "new", oldPos, newPos: newPos++ });
    } else if (text.startsWith("-")) {
      lines.push({ type: "old", oldPos: oldPos++, newPos });
    } else if (text.startsWith(" ")) {
      lines.push({ type: null, oldPos: oldPos++, newPos: newPos++ });
    }
  }
  return lines;
}

/** Diff::Line#old_line / #new_line: the numbers a position names (none for the other side of a change). */
export const oldLineOf = (line: DiffLine) => (line.type === "new" || line.type === "match" ? null : line.oldPos);
export const newLineOf = (line: DiffLine) => (line.type === "old" || line.type === "match" ? null : line.newPos);

/** Diff::File#line_for_position: the line whose numbers are exactly the position's. */
export function lineAt(lines: readonly DiffLine[], oldLine: number | null, newLine: number | null): DiffLine | null {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line.type !== "match" && oldLineOf(line) === oldLine && newLineOf(line) === newLine) return line;
  }
  return null;
}

/**
 * Diff::LinesUnfolder: an unchanged line outside the hunks, which GitLab unfolds from the old blob
 * to place a note on it. Only for a position naming both lines of a file changed in place, within
 * the old file, between the hunks or after the last one, whose new line follows from the old one
 * by the shift of the hunks before it.
 */
export function unfoldedLine(lines: readonly DiffLine[], oldLine: number, newLine: number, oldFileLines: number): DiffLine | null {
  const last = lines.at(-1);
  if (!last || oldLine > oldFileLines) return null;
  let shift: number;
  if (oldLine > last.oldPos) {
    shift = last.newPos - last.oldPos;
  } else {
    const index = lines.findIndex((line) => line.type === "match" && line.oldPos > oldLine);
    if (index === -1) return null;
    const before = lines[index - 1];
    if (before && oldLine <= before.oldPos) return null;
    shift = lines[index]!.newPos - lines[index]!.oldPos;
  }
  return newLine === oldLine + shift ? { type: null, oldPos: oldLine, newPos: newLine } : null;
}

/** Gitlab::Git.diff_line_code: `<sha1 of the path>_<old pos>_<new pos>`. */
export const lineCode = (path: string, line: DiffLine) => `${createHash("sha1").update(path).digest("hex")}_${line.oldPos}_${line.newPos}`;

interface Hunk {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/**
 * Gitlab::Diff::LineMapper: a line number carried across one file's diff, old to new or new to
 * old; null when the line is not on the other side (removed, or added). No diff: the same number.
 */
export interface LineMapper {
  oldToNew(line: number): number | null;
  newToOld(line: number): number | null;
}

export function lineMapper(patch: string | null): LineMapper {
  if (!patch) return { oldToNew: (line) => line, newToOld: (line) => line };
  const lines = parseDiffLines(patch);
  const hunks = hunksOf(patch);
  const map = (line: number, from: "old" | "new"): number | null => {
    const found = lines.find((l) => (from === "old" ? oldLineOf(l) : newLineOf(l)) === line);
    if (found) return from === "old" ? newLineOf(found) : oldLineOf(found);
    // outside the hunks: shifted by what the hunks before it added and removed
    const before = hunks.filter((h) => (from === "old" ? h.oldEnd : h.newEnd) <= line).at(-1);
    if (!before) return line;
    return from === "old" ? line + (before.newEnd - before.oldEnd) : line - (before.newEnd - before.oldEnd);
  };
  return { oldToNew: (line) => map(line, "old"), newToOld: (line) => map(line, "new") };
}

/** Each hunk's old and new line ranges, ends exclusive (an empty side starts after its line). */
function hunksOf(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  for (const text of patch.split("\n")) {
    const match = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(text);
    if (!match) continue;
    const [oldStart, oldCount, newStart, newCount] = [Number(match[1]), Number(match[2] ?? 1), Number(match[3]), Number(match[4] ?? 1)];
    const oldFrom = oldCount === 0 ? oldStart + 1 : oldStart;
    const newFrom = newCount === 0 ? newStart + 1 : newStart;
    hunks.push({ oldStart: oldFrom, oldEnd: oldFrom + oldCount, newStart: newFrom, newEnd: newFrom + newCount });
  }
  return hunks;
}
