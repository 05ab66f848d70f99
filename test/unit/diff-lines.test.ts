// The diff lines diff notes are placed on and traced along, numbered as GitLab's Diff::Parser,
// LinesUnfolder and LineMapper number them, on a patch git printed.
import { describe, expect, it } from "vitest";
import { lineAt, lineMapper, parseDiffLines, unfoldedLine } from "../../src/domain/repository/diff-lines.js";

// line 1 kept, "inserted" after it; line 10 of 30 replaced by "ten"
const PATCH = "@@ -1,4 +1,5 @@\n line 1\n+inserted\n line 2\n line 3\n line 4\n"
  + "@@ -7,7 +8,7 @@ line 6\n line 7\n line 8\n line 9\n-line 10\n+ten\n line 11\n line 12\n line 13\n";

describe("diff lines", () => {
  const lines = parseDiffLines(PATCH);

  it("number added, removed and unchanged lines as GitLab's parser (no match line at the top of the file)", () => {
    expect(lines[0]).toEqual({ type: null, oldPos: 1, newPos: 1 });
    expect(lines[1]).toEqual({ type: "new", oldPos: 2, newPos: 2 });
    expect(lines.find((l) => l.type === "match")).toEqual({ type: "match", oldPos: 7, newPos: 8 });
    expect(lineAt(lines, 10, null)).toEqual({ type: "old", oldPos: 10, newPos: 11 });
    expect(lineAt(lines, null, 11)).toEqual({ type: "new", oldPos: 11, newPos: 11 });
    expect(lineAt(lines, 8, 9)).toEqual({ type: null, oldPos: 8, newPos: 9 });
    expect(lineAt(lines, 8, 8)).toBeNull();
    expect(lineAt(lines, null, 9)).toBeNull();
  });

  it("unfold unchanged lines between and after the hunks by the shift before them, within the old file", () => {
    expect(unfoldedLine(lines, 6, 7, 30)).toEqual({ type: null, oldPos: 6, newPos: 7 });
    expect(unfoldedLine(lines, 5, 6, 30)).toEqual({ type: null, oldPos: 5, newPos: 6 });
    expect(unfoldedLine(lines, 6, 6, 30)).toBeNull();
    expect(unfoldedLine(lines, 20, 21, 30)).toEqual({ type: null, oldPos: 20, newPos: 21 });
    expect(unfoldedLine(lines, 31, 32, 30)).toBeNull();
    // inside a hunk, a line is what the hunk says or nothing
    expect(unfoldedLine(lines, 3, 4, 30)).toBeNull();
  });

  it("map line numbers across the diff: removed and added lines have no counterpart", () => {
    const map = lineMapper(PATCH);
    expect([map.oldToNew(1), map.oldToNew(2), map.oldToNew(6), map.oldToNew(10), map.oldToNew(20)]).toEqual([1, 3, 7, null, 21]);
    expect([map.newToOld(2), map.newToOld(7), map.newToOld(11), map.newToOld(21)]).toEqual([null, 6, null, 20]);
    expect(lineMapper(null).oldToNew(5)).toBe(5);
  });
});
