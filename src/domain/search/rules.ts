// GitLab's basic search params (lib/api/search.rb, API::Helpers::SearchHelpers, Search::Params and
// Gitlab::Search::AbuseDetection): the scopes each level allows, the states, and the searches
// GitLab ignores as abusive (it answers them with no results rather than an error).
import { paramError } from "../../errors.js";

export const GLOBAL_SCOPES = ["projects", "issues", "merge_requests", "milestones", "snippet_titles", "users"] as const;
export const GROUP_SCOPES = ["projects", "issues", "merge_requests", "milestones", "users"] as const;
export const PROJECT_SCOPES = ["issues", "merge_requests", "milestones", "notes", "wiki_blobs", "commits", "blobs", "users"] as const;
export type SearchScope = (typeof GLOBAL_SCOPES)[number] | (typeof PROJECT_SCOPES)[number];

export const SEARCH_STATES = ["all", "opened", "closed", "merged"] as const;
export type SearchState = (typeof SEARCH_STATES)[number];

export interface SearchParams {
  search: string;
  state?: SearchState | null;
  confidential?: boolean | null;
  order_by?: "created_at" | null;
  sort?: "asc" | "desc" | null;
  /** commits and blobs: a branch, tag or commit (default: the default branch) */
  ref?: string | null;
}

/** AbuseDetection: fewer characters than this is abusive. */
const MINIMUM_SEARCH_CHARS = 2;
/** AbuseDetection: a term (a word) longer than this is abusive. */
const ABUSIVE_TERM_SIZE = 100;
/** AbuseDetection's stop words: a search made only of them is abusive. */
const STOP_WORDS = new Set([
  "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not", "of", "on", "or",
  "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "will", "with",
]);

/** Whether GitLab would ignore this search (Gitlab::EmptySearchResults). */
export function isAbusiveSearch(term: string): boolean {
  const text = term.trim();
  if (text.length < MINIMUM_SEARCH_CHARS) return true;
  const words = text.split(/\s+/);
  if (words.some((word) => word.length > ABUSIVE_TERM_SIZE)) return true;
  return words.every((word) => STOP_WORDS.has(word.toLowerCase()));
}

/**
 * Grape's checks of the search routes' params where the route's own field answers (`scope`
 * missing or not one of the level's): "search is missing", "scope is missing", "scope does not
 * have a valid value", joined as Grape joins them.
 */
export function checkSearchRoute(search: string | null | undefined, scope: string | null, scopes: readonly string[]): void {
  const problems: string[] = [];
  if (search == null) problems.push("search is missing");
  if (scope == null) problems.push("scope is missing");
  if (scope == null || !scopes.includes(scope)) problems.push("scope does not have a valid value");
  if (problems.length) throw paramError(problems.join(", "));
}
