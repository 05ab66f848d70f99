// Which pushes a hook hears (GitLab's ActiveHookFilter): every branch without a filter or with
// all_branches; a wildcard filter is the branch name itself or a pattern where `*` matches any
// characters (RefMatcher, whole name); a regex filter is an RE2 pattern found anywhere in the name.
// Both run on RE2, in time linear in the name: a filter may hold 4,000 characters, and a
// backtracking engine would take exponential time on one with many `*` (it runs inside the push).
import { RE2JS } from "re2js";
import { refMatches } from "../domain/repository/refs.js";

export interface BranchFilter {
  pushEventsBranchFilter: string | null;
  branchFilterStrategy: string;
}

export function branchMatches(hook: BranchFilter, branch: string): boolean {
  const filter = hook.pushEventsBranchFilter;
  if (!filter || hook.branchFilterStrategy === "all_branches") return true;
  if (hook.branchFilterStrategy === "regex") return regexMatches(filter, branch);
  return refMatches(filter, branch);
}

function regexMatches(filter: string, branch: string): boolean {
  try {
    return RE2JS.compile(filter).test(branch);
  } catch {
    return false;
  }
}
