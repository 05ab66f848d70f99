// Branch names as git and GitLab accept them, and protected branch name patterns ("release/*").
import { RE2JS } from "re2js";

const EXPANDED_PREFIXES = ["refs/heads/", "refs/remotes/"];
// control characters, DEL, space and ~ ^ : ? * [ \
const FORBIDDEN_CHARACTERS = /[\x00-\x1f\x7f ~^:?*[\\]/;

/**
 * Gitlab::GitRefValidator.validate: git's check-ref-format rules for a name that becomes
 * refs/heads/<name>, plus GitLab's own refusals ("HEAD", already-expanded names, a leading dash).
 */
export function isValidBranchName(name: string): boolean {
  if (!name || name === "HEAD" || name === "@") return false;
  if (EXPANDED_PREFIXES.some((prefix) => name.startsWith(prefix))) return false;
  if (name.startsWith("-") || name.startsWith("/") || name.endsWith("/") || name.endsWith(".")) return false;
  if (FORBIDDEN_CHARACTERS.test(name)) return false;
  if (name.includes("..") || name.includes("//") || name.includes("@{")) return false;
  return !name.split("/").some((part) => part.startsWith(".") || part.endsWith(".lock"));
}

/** GitLab's pre-receive check refuses branch names that look like a full commit sha. */
export const looksLikeSha = (name: string) => /^[0-9a-f]{40}$/i.test(name);

/**
 * RefMatcher: a name with `*` is a wildcard (each `*` matches any run of characters, `/` included).
 * On RE2, in time linear in the name: a backtracking engine takes exponential time on many `*`.
 */
export function refMatches(pattern: string, ref: string): boolean {
  if (!pattern.includes("*")) return pattern === ref;
  const source = pattern.split("*").map((part) => RE2JS.quote(part)).join(".*");
  return RE2JS.compile(source, RE2JS.DOTALL).matches(ref);
}
