// Protected branch wildcards (GitLab's RefMatcher): `*` matches any run of characters, `/`
// included, over the whole name; on RE2, so many `*` against a long name do not backtrack.
import { describe, expect, it } from "vitest";
import { refMatches } from "../../src/domain/repository/refs.js";

describe("refMatches", () => {
  it.each([
    ["main", "main", true],
    ["main", "main2", false],
    ["release/*", "release/1.0", true],
    ["release/*", "release/1.0/hotfix", true],
    ["release/*", "releases/1.0", false],
    ["*-stable", "13-stable", true],
    ["*-stable", "13-stable-x", false],
    ["fe*ure/*", "feature/x", true],
    ["a.b*", "axb1", false],
    ["(x)*", "(x)1", true],
  ])("%s against %s: %s", (pattern, ref, expected) => {
    expect(refMatches(pattern, ref)).toBe(expected);
  });

  it("matches a pattern with many * against a long name at once", () => {
    const pattern = `${"*a".repeat(12)}*b`;
    expect(refMatches(pattern, "a".repeat(80))).toBe(false);
    expect(refMatches(pattern, `${"a".repeat(12)}b`)).toBe(true);
  });
});
