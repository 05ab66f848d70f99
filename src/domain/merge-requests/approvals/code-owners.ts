// Selective code owner removals. Forgeline does not read CODEOWNERS files: a code owner rule of a
// merge request carries its CODEOWNERS pattern as its name (as GitLab names them) and its owners
// as approvers. The rule applied: when the source branch
// advances, the approvals given by approvers of a code owner rule are removed if a path that one of
// the new commits adds, modifies or removes matches that rule's pattern; all other approvals stay.
// Patterns are matched with gitignore's rules (the `ignore` package): a leading "/" anchors at the
// root, a pattern without "/" matches at any depth, a trailing "/" means a directory, "*" stays
// within one path segment, "**" spans segments, and a pattern naming a directory covers
// everything below it. Case matters, as in GitLab (File.fnmatch without FNM_CASEFOLD).
import ignore from "ignore";

export function codeOwnerPatternMatches(pattern: string, path: string): boolean {
  const glob = pattern.trim();
  if (!glob) return false;
  if (glob === "/") return true; // the whole repository
  return ignore({ ignorecase: false }).add(glob).ignores(path.replace(/^\/+/, ""));
}
