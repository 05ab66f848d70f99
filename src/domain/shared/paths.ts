// Path and name rules shared by groups, personal namespaces and projects (GitLab's
// Gitlab::PathRegex and Gitlab::Regex), plus GitLab's fuzzy search on names and paths.
export const VISIBILITIES = ["private", "internal", "public"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

const NO_SUFFIX = /\.(git|atom)$/i;
/** Project paths: no leading '-', no '.git' / '.atom' suffix. */
export const PATH_PATTERN = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/;
/** Namespace (group) paths additionally may not end in '.'. */
const NAMESPACE_PATTERN = /^(?:[a-zA-Z0-9_.][a-zA-Z0-9_.-]*[a-zA-Z0-9_-]|[a-zA-Z0-9_])$/;

export const PATH_FORMAT_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
export const NAMESPACE_FORMAT_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.";

// Letters, digits and the emoji range GitLab allows (U+00A9..U+1F9FF).
const PROJECT_NAME = /^[\p{L}\p{N}\u{00A9}-\u{1F9FF}_][\p{L}\p{N}\p{Pd}+\u{00A9}-\u{1F9FF}_. ]*$/u;
const GROUP_NAME = /^[\p{L}\p{N}\u{00A9}-\u{1F9FF}_][\p{L}\p{N}\p{Pd}\u{00A9}-\u{1F9FF}_(). ]*$/u;
const PROJECT_NAME_MESSAGE =
  "can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'.";
const GROUP_NAME_MESSAGE =
  "can contain only letters, digits, emoji, '_', '.', dash, space, parenthesis. It must start with letter, digit, emoji or '_'.";

export type PathKind = "project" | "namespace";

export function pathProblems(path: string, kind: PathKind = "project"): string[] {
  const problems: string[] = [];
  const pattern = kind === "project" ? PATH_PATTERN : NAMESPACE_PATTERN;
  if (!path) problems.push("can't be blank");
  else if (!pattern.test(path) || NO_SUFFIX.test(path)) {
    problems.push(kind === "project" ? PATH_FORMAT_MESSAGE : NAMESPACE_FORMAT_MESSAGE);
  }
  if (path.length > 255) problems.push("is too long (maximum is 255 characters)");
  return problems;
}

export function nameProblems(name: string, kind: PathKind = "project"): string[] {
  if (!name.trim()) return ["can't be blank"];
  const problems: string[] = [];
  if (!(kind === "project" ? PROJECT_NAME : GROUP_NAME).test(name)) {
    problems.push(kind === "project" ? PROJECT_NAME_MESSAGE : GROUP_NAME_MESSAGE);
  }
  if (name.length > 255) problems.push("is too long (maximum is 255 characters)");
  return problems;
}

/**
 * The path GitLab derives from a project name: the name itself when it is a valid path,
 * otherwise Rails' `parameterize` (ASCII, lower case, other characters become one '-').
 */
export function pathFromName(name: string): string {
  if (PATH_PATTERN.test(name) && !NO_SUFFIX.test(name)) return name;
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-zA-Z0-9_-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();
}

/** Ruby's Hash#inspect of model errors, as GitLab embeds it in "Failed to save group ..." texts. */
export function rubyErrorHash(errors: Record<string, string[]>): string {
  const entries = Object.entries(errors).map(([key, messages]) => `:${key}=>[${messages.map((m) => JSON.stringify(m)).join(", ")}]`);
  return `{${entries.join(", ")}}`;
}

/** Below this length GitLab's fuzzy search only matches whole values (Gitlab::SQL::Pattern). */
export const MIN_CHARS_FOR_PARTIAL_MATCHING = 3;

/** The database a filter is written for (`Services.dialect`). */
export type Dialect = "sqlite" | "postgresql";

/**
 * A case-insensitive substring filter (also `startsWith` / `endsWith`): SQLite's LIKE ignores
 * case already (ASCII), PostgreSQL's LIKE does not and takes Prisma's `mode: "insensitive"`
 * (ILIKE), which the SQLite client's types do not know.
 */
export function ignoringCase<F extends { contains?: string; startsWith?: string; endsWith?: string }>(dialect: Dialect, filter: F): F {
  return dialect === "postgresql" ? ({ ...filter, mode: "insensitive" } as F) : filter;
}

export const containsText = (dialect: Dialect, term: string) => ignoringCase(dialect, { contains: term });

/**
 * Prisma filter for GitLab's `fuzzy_search` over some text columns: a case-insensitive
 * substring match, or a whole-value match for short terms.
 */
export function fuzzySearch<W>(dialect: Dialect, columns: string[], term: string): { OR: W[] } {
  const match =
    term.length >= MIN_CHARS_FOR_PARTIAL_MATCHING
      ? containsText(dialect, term)
      : { in: caseVariants(term) }; // the whole value, any case: a short term has at most 4 casings
  return { OR: columns.map((column) => ({ [column]: match }) as W) };
}

/** Every upper/lower-case spelling of a (short) term: "ab" → ab, aB, Ab, AB. */
function caseVariants(term: string): string[] {
  let variants = [""];
  for (const char of term) {
    const spellings = [...new Set([char.toLowerCase(), char.toUpperCase()])];
    variants = variants.flatMap((prefix) => spellings.map((s) => prefix + s));
  }
  return variants;
}
