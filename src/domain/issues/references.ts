// GitLab Flavored Markdown references in issue and merge request text, as far as the issue
// endpoints need them: `#1` / `project#1` / `group/project#1` and issue URLs, `!1` and merge
// request URLs, `@username` mentions, and GitLab's default issue closing pattern ("Closes #1").
// References are found in the text GitLab renders: code blocks and inline code do not count.

/** A reference to an issue or a merge request: the project path as written (null: the text's own project) and the iid. */
export interface TextReference {
  /** `project` (same namespace as the text's project) or `group/sub/project`; null for `#1` / `!1` */
  path: string | null;
  iid: number;
}

export type ReferenceKind = "issues" | "merge_requests";

const PREFIX: Record<ReferenceKind, string> = { issues: "#", merge_requests: "!" };

/** A project path as a reference may name it (Project.reference_pattern, simplified to path characters). */
const PROJECT_PATH = String.raw`[A-Za-z0-9_][A-Za-z0-9_.\-]*(?:/[A-Za-z0-9_][A-Za-z0-9_.\-]*)*`;

/** Fenced code blocks and inline code spans: GitLab's reference filters skip code. */
function withoutCode(text: string): string {
  return text.replace(/```[\s\S]*?(?:```|$)|~~~[\s\S]*?(?:~~~|$)/g, " ").replace(/`[^`\n]*`/g, " ");
}

function shortPattern(kind: ReferenceKind): RegExp {
  return new RegExp(String.raw`(?<![A-Za-z0-9_/.\-#!&])(?:(${PROJECT_PATH}))?${PREFIX[kind]}(\d+)(?![A-Za-z0-9_])`, "g");
}

function urlPattern(publicUrl: string, kind: ReferenceKind): RegExp {
  const base = publicUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(String.raw`${base}/(${PROJECT_PATH})/(?:-/)?${kind}/(\d+)(?![0-9])`, "g");
}

/** Every issue (`#`) or merge request (`!`) reference in the text, short forms and URLs, in order. */
export function referencesIn(text: string | null | undefined, kind: ReferenceKind, publicUrl: string): TextReference[] {
  if (!text) return [];
  const plain = withoutCode(text);
  const found: TextReference[] = [];
  for (const match of plain.matchAll(shortPattern(kind))) found.push({ path: match[1] ?? null, iid: Number(match[2]) });
  for (const match of plain.matchAll(urlPattern(publicUrl, kind))) found.push({ path: match[1]!, iid: Number(match[2]) });
  return found;
}

/** The full path a reference names, seen from the text's project (`project#1` is in the same namespace). */
export function referencedFullPath(ref: TextReference, from: { namespacePath: string; fullPath: string }): string {
  if (ref.path === null) return from.fullPath;
  return ref.path.includes("/") ? ref.path : `${from.namespacePath}/${ref.path}`;
}

/**
 * GitLab's default `issue_closing_pattern` (config/initializers/1_settings.rb, 17.x), with
 * `%{issue_ref}` standing for an issue reference or a URL: "Closes #1", "fixes group/p#2 and #3",
 * "Resolves: https://host/g/p/-/issues/4", "Implements issues #5, #6". The Jira-style
 * alternative (`PROJ-123`) names no issue here.
 */
const ISSUE_REF = String.raw`(?:https?://[^\s,]+|(?:${PROJECT_PATH})?#\d+)`;
const CLOSING_PATTERN = new RegExp(
  String.raw`\b((?:[Cc]los(?:e[sd]?|ing)|\b[Ff]ix(?:e[sd]|ing)?|\b[Rr]esolv(?:e[sd]?|ing)|\b[Ii]mplement(?:s|ed|ing)?)(:?) +` +
    String.raw`(?:(?:issues? +)?${ISSUE_REF}(?:(?: *,? +and +| *,? *)?)|(?:[A-Z][A-Z0-9_]+-\d+))+)`,
  "g",
);

/** The issues a text closes (Gitlab::ClosingIssueExtractor): the references inside its closing statements. */
export function closingReferencesIn(text: string | null | undefined, publicUrl: string): TextReference[] {
  if (!text) return [];
  const statements = [...withoutCode(text).matchAll(CLOSING_PATTERN)].map((match) => match[0]);
  return referencesIn(statements.join(" "), "issues", publicUrl);
}

/** Usernames mentioned as `@name` (User.reference_pattern), lower-cased, without duplicates. */
export function mentionedUsernames(text: string | null | undefined): string[] {
  if (!text) return [];
  const names = [...withoutCode(text).matchAll(/(?<![A-Za-z0-9_`])@([A-Za-z0-9_](?:[A-Za-z0-9_.\-]*[A-Za-z0-9_\-])?)/g)].map((m) => m[1]!.toLowerCase());
  return [...new Set(names)];
}
