// Which pushes a hook hears (GitLab's ActiveHookFilter): every branch without a filter or with
// all_branches; a wildcard filter is the branch name itself or a pattern where `*` matches any
// characters (RefMatcher, whole name); a regex filter is an RE2 pattern found anywhere in the name.
import { RE2JS } from "re2js";

export interface BranchFilter {
  pushEventsBranchFilter: string | null;
  branchFilterStrategy: string;
}

export function branchMatches(hook: BranchFilter, branch: string): boolean {
  const filter = hook.pushEventsBranchFilter;
  if (!filter || hook.branchFilterStrategy === "all_branches") return true;
  if (hook.branchFilterStrategy === "regex") return regexMatches(filter, branch);
  if (!filter.includes("*")) return filter === branch;
  const pattern = filter.split("*").map(escapeRegExp).join(".*?");
  return new RegExp(`^${pattern}$`, "s").test(branch);
}

function regexMatches(filter: string, branch: string): boolean {
  try {
    return RE2JS.compile(filter).matcher(branch).find();
  } catch {
    return false;
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
